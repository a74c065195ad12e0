/**
 * Turf and walk lists (issue 37, DESIGN.md §6 "Field work"): doors (households: the voters at one
 * address, apartments by unit, placed where the geocoder put them), kept in step with the voter
 * file as voters are placed, move or go; the doors packed per grid cell (a polygon's doors and
 * voters are counted from a few hundred documents, not tens of thousands); turfs (named sets of
 * doors) with the organiser's operations for undo; auto-cut runs; walk lists (turf + script +
 * canvassers + status + expiry) which hold their doors while open: a door is in at most one open
 * walk list (doors.listId, written in the mutation that checks it).
 */
import { defineTable } from "convex/server";
import { v, type Infer } from "convex/values";

export const WALK_LIST_STATUSES = ["Active", "Completed", "Scheduled", "Paused"] as const;
export type WalkListStatus = (typeof WALK_LIST_STATUSES)[number];
export const vWalkListStatus = v.union(
  v.literal("Active"),
  v.literal("Completed"),
  v.literal("Scheduled"),
  v.literal("Paused"),
);

/** Who to knock within a turf: voters matching all the set filters (a door counts when one of its voters does). */
export const vTurfFilters = v.object({
  parties: v.optional(v.array(v.string())),
  statuses: v.optional(v.array(v.string())),
  /** voted in this election (its label in the vote history) */
  votedIn: v.optional(v.string()),
  /** doors nobody has talked to since this time (ms) */
  notContactedSince: v.optional(v.number()),
  /** leave out voters who opted out of texts (STOP) or unsubscribed from email */
  excludeOptedOut: v.optional(v.boolean()),
});
export type TurfFilters = Infer<typeof vTurfFilters>;

export const vTurfSourceKind = v.union(
  v.literal("drawn"),
  v.literal("boundary"),
  v.literal("district"),
  v.literal("group"),
  v.literal("segment"),
  v.literal("split"),
  v.literal("merge"),
  v.literal("auto"),
);

export const walkListTables = {
  /** One door: the voters registered at one address (apartments: one door per unit). */
  doors: defineTable({
    orgId: v.id("organizations"),
    /** lib/turf/doorAddress.ts key: ZIP, street key, number, unit */
    key: v.string(),
    streetKey: v.string(),
    street: v.string(),
    number: v.number(),
    unit: v.union(v.string(), v.null()),
    zip: v.string(),
    lat: v.number(),
    lng: v.number(),
    /** lib/turf/geometry.ts grid cell */
    cell: v.number(),
    voterIds: v.array(v.id("voters")),
    /** the open walk list holding the door (at most one) */
    listId: v.union(v.id("walkLists"), v.null()),
    /** the last time a canvasser talked to someone here (set by canvassing) */
    lastContactAt: v.union(v.number(), v.null()),
  })
    .index("by_org_key", ["orgId", "key"])
    .index("by_org_cell", ["orgId", "cell"])
    .index("by_list", ["listId"]),

  /**
   * The doors of one grid cell, packed (parallel arrays, at most CELL_DOORS per document): counting
   * and auto-cut read these. Rewritten from the cell's doors shortly after they change (doorCellsDirty).
   */
  doorCells: defineTable({
    orgId: v.id("organizations"),
    cell: v.number(),
    ids: v.array(v.id("doors")),
    lat: v.array(v.number()),
    lng: v.array(v.number()),
    voters: v.array(v.number()),
    streets: v.array(v.string()),
    numbers: v.array(v.number()),
    /** 1 where an open walk list holds the door (absent: written before lists held doors; none held) */
    held: v.optional(v.array(v.number())),
  }).index("by_org_cell", ["orgId", "cell"]),

  /**
   * What the turf filters ask of a doorCells document's doors, packed alongside it (read only when
   * a count or an auto-cut has filters): the door's last contact, and per door its voters' party,
   * status, opted-out flag and elections voted in (lib/turf/packedFilters.ts), as indices into the
   * document's dictionary. Rewritten with its doorCells document, and when a voter's party, status,
   * vote history, phone or email changes or they opt out.
   */
  doorCellVoters: defineTable({
    orgId: v.id("organizations"),
    cellDoc: v.id("doorCells"),
    dict: v.array(v.string()),
    /** per door: its last contact (0: never) */
    contacted: v.array(v.number()),
    /** per door: its voters, packed */
    tags: v.array(v.string()),
  }).index("by_cell_doc", ["cellDoc"]),

  /** A grid cell whose doors changed: its doorCells are rewritten by a scheduled step (one per cell, however many doors changed). */
  doorCellsDirty: defineTable({
    orgId: v.id("organizations"),
    cell: v.number(),
  }).index("by_org_cell", ["orgId", "cell"]),

  /** Going through an organisation's placed voters to build its doors (voters placed before doors existed). */
  doorBuilds: defineTable({
    orgId: v.id("organizations"),
    status: v.union(v.literal("running"), v.literal("done")),
    cursor: v.union(v.string(), v.null()),
    processed: v.number(),
    startedAt: v.number(),
    /** after the places: the grid cells rewritten once each, in cell order, from the one after this */
    afterCell: v.optional(v.number()),
  }).index("by_org", ["orgId"]),

  /** A named set of doors. Split and merge archive the turfs they replace (undo restores them). */
  turfs: defineTable({
    orgId: v.id("organizations"),
    name: v.string(),
    doorIds: v.array(v.id("doors")),
    doors: v.number(),
    voters: v.number(),
    source: vTurfSourceKind,
    /** what it was cut from, in words ("Precinct 12", "group Volunteers", "drawn") */
    sourceLabel: v.string(),
    /** the drawn or boundary area (GeoJSON text), null for a group or segment */
    area: v.union(v.string(), v.null()),
    filters: vTurfFilters,
    /** [west, south, east, north] of its doors */
    bbox: v.array(v.number()),
    archived: v.boolean(),
    createdBy: v.id("users"),
    createdByName: v.string(),
    createdAt: v.number(),
  }).index("by_org_archived", ["orgId", "archived"]),

  /** An organiser's turf operation (cut, split, merge, auto-cut): undo takes back their last one. */
  turfOps: defineTable({
    orgId: v.id("organizations"),
    userId: v.id("users"),
    kind: v.union(v.literal("cut"), v.literal("split"), v.literal("merge"), v.literal("auto")),
    created: v.array(v.id("turfs")),
    archived: v.array(v.id("turfs")),
    at: v.number(),
    undone: v.boolean(),
  }).index("by_org_user", ["orgId", "userId", "at"]),

  /** Auto-cut of an area into turfs: a chain of steps, a strip of grid rows each. */
  autoCutRuns: defineTable({
    orgId: v.id("organizations"),
    userId: v.id("users"),
    userName: v.string(),
    name: v.string(),
    target: v.number(),
    area: v.string(),
    /** the cut's filters: doors none of whose voters match are not cut (absent: none) */
    filters: v.optional(vTurfFilters),
    nextRow: v.number(),
    lastRow: v.number(),
    status: v.union(v.literal("running"), v.literal("done"), v.literal("cancelled")),
    turfs: v.number(),
    doors: v.number(),
    opId: v.id("turfOps"),
    startedAt: v.number(),
    finishedAt: v.union(v.number(), v.null()),
  }).index("by_org", ["orgId"]),

  walkLists: defineTable({
    orgId: v.id("organizations"),
    name: v.string(),
    turfId: v.id("turfs"),
    turfName: v.string(),
    /** the script canvassers follow (one of the organisation's surveys) */
    surveyId: v.union(v.id("surveys"), v.null()),
    status: vWalkListStatus,
    expiresAt: v.number(),
    /** canvassers (members, volunteers included) */
    assignees: v.array(v.id("users")),
    doorIds: v.array(v.id("doors")),
    doors: v.number(),
    voters: v.number(),
    /** progress, kept by canvassing */
    knocked: v.number(),
    contacts: v.number(),
    /** whether the list holds its doors (open: not Completed and not expired) */
    holds: v.boolean(),
    createdBy: v.id("users"),
    createdAt: v.number(),
    updatedAt: v.number(),
  })
    .index("by_org", ["orgId"])
    .index("by_turf", ["turfId"]),
};

/** Labels of a walk list's editable fields (conflict messages). */
export const WALK_LIST_FIELD_LABELS: Record<string, string> = {
  name: "name",
  surveyId: "script",
  status: "status",
  expiresAt: "expiry",
  assignees: "canvassers",
};
