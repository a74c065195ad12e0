/**
 * Walk lists (issue 37, /walk-lists). Managing walk lists needs campaigns.manage; seeing them needs
 * walk_lists.view, and a member without campaigns.manage (a Volunteer) sees only the lists they are
 * assigned to. Voters' names and addresses are sent only to holders of voters.view
 * (model/personalData.ts). Cutting the turf a list is made from: turfs.ts.
 */
import { v } from "convex/values";
import type { Doc, Id } from "./_generated/dataModel";
import { internalMutation, orgMutation, orgQuery } from "./functions";
import { appError } from "./lib/errors";
import { DISTRICT_KIND_SINGULAR, DISTRICT_KINDS } from "./lib/districts";
import { loadEditState, markDeleted, markEdited, mergeEdits, missingRecord, withEdits } from "./model/collab";
import { listProgress } from "./model/canvass";
import { canSeeVoters } from "./model/personalData";
import { displayName } from "./model/presence";
import { applyFilters, loadDoors } from "./model/turf";
import {
  applyOpenness,
  canSeeList,
  checkAssignees,
  checkExpiry,
  checkSurvey,
  cleanListName,
  DAY_MS,
  DEFAULT_EXPIRY_DAYS,
  expireList,
  holdDoors,
  isOpen,
  MAX_LISTS,
  orderDoors,
  releaseDoors,
  scheduleExpiry,
} from "./model/walkLists";
import { TEXTS } from "./lib/texts";
import { vEditState, vFieldEdit } from "./tables/collab";
import { vWalkListStatus, WALK_LIST_FIELD_LABELS, type WalkListStatus } from "./tables/walkLists";

/** Districts of each kind offered as a turf's source (a state's precincts run to thousands; a county's fit). */
const MAX_DISTRICT_OPTIONS = 1000;

/** What the turf and walk-list forms choose from: members, surveys (scripts), boundary layers, groups, segments. */
export const options = orgQuery("campaigns.manage")({
  args: {},
  returns: v.object({
    members: v.array(v.object({ id: v.id("users"), name: v.string(), roles: v.array(v.string()) })),
    surveys: v.array(v.object({ id: v.id("surveys"), name: v.string() })),
    layers: v.array(v.object({ id: v.id("mapLayers"), name: v.string() })),
    groups: v.array(v.object({ id: v.id("voterGroups"), name: v.string() })),
    segments: v.array(v.object({ id: v.id("emailSegments"), name: v.string() })),
    /** districts by code or outline (precincts, house and senate districts, …), "Precinct 12" */
    districts: v.array(v.object({ id: v.id("districts"), name: v.string() })),
  }),
  handler: async (ctx) => {
    const orgId = ctx.viewer.orgId;
    const memberships = await ctx.db
      .query("memberships")
      .withIndex("by_org_user", (q) => q.eq("orgId", orgId))
      .take(1000);
    const members = [];
    for (const m of memberships) {
      if (m.status !== "active") continue;
      const user = await ctx.db.get("users", m.userId);
      if (user) members.push({ id: user._id, name: displayName(user), roles: m.roles });
    }
    const surveys = await ctx.db
      .query("surveys")
      .withIndex("by_org", (q) => q.eq("orgId", orgId))
      .take(200);
    const layers = await ctx.db
      .query("mapLayers")
      .withIndex("by_org_kind", (q) => q.eq("orgId", orgId).eq("kind", "boundaries"))
      .take(50);
    const groups = await ctx.db
      .query("voterGroups")
      .withIndex("by_org_name", (q) => q.eq("orgId", orgId))
      .take(500);
    const segments = await ctx.db
      .query("emailSegments")
      .withIndex("by_org_name", (q) => q.eq("orgId", orgId))
      .take(200);
    const districts = [];
    for (const kind of DISTRICT_KINDS)
      for (const d of await ctx.db
        .query("districts")
        .withIndex("by_org_kind_key", (q) => q.eq("orgId", orgId).eq("kind", kind))
        .take(MAX_DISTRICT_OPTIONS))
        if (d.voters > 0) districts.push({ id: d._id, name: `${DISTRICT_KIND_SINGULAR[kind]} ${d.name}` });
    return {
      districts,
      members: members.sort((a, b) => a.name.localeCompare(b.name)),
      surveys: surveys.map((s) => ({ id: s._id, name: s.name })),
      layers: layers.filter((l) => l.status === "ready").map((l) => ({ id: l._id, name: l.name })),
      groups: groups.map((g) => ({ id: g._id, name: g.name })),
      segments: segments.map((s) => ({ id: s._id, name: s.name })),
    };
  },
});

const vListRow = v.object({
  id: v.id("walkLists"),
  name: v.string(),
  turfId: v.id("turfs"),
  turfName: v.string(),
  surveyId: v.union(v.id("surveys"), v.null()),
  surveyName: v.union(v.string(), v.null()),
  status: vWalkListStatus,
  expiresAt: v.number(),
  expired: v.boolean(),
  holds: v.boolean(),
  assignees: v.array(v.object({ id: v.id("users"), name: v.string() })),
  doors: v.number(),
  voters: v.number(),
  knocked: v.number(),
  contacts: v.number(),
  createdAt: v.number(),
  updatedAt: v.number(),
});

async function listRow(db: Parameters<typeof loadDoors>[0], l: Doc<"walkLists">, names: Map<string, string | null>) {
  const name = async (id: Id<"users"> | Id<"surveys">, load: () => Promise<string | null>) => {
    if (!names.has(id)) names.set(id, await load());
    return names.get(id) ?? null;
  };
  const assignees = [];
  for (const id of l.assignees) {
    const n = await name(id, async () => {
      const u = await db.get("users", id);
      return u ? displayName(u) : null;
    });
    assignees.push({ id, name: n ?? "A former member" });
  }
  const surveyId = l.surveyId;
  return {
    id: l._id,
    name: l.name,
    turfId: l.turfId,
    turfName: l.turfName,
    surveyId,
    surveyName: surveyId ? await name(surveyId, async () => (await db.get("surveys", surveyId))?.name ?? null) : null,
    status: l.status,
    expiresAt: l.expiresAt,
    expired: l.expiresAt <= Date.now(),
    holds: l.holds,
    assignees,
    doors: l.doors,
    voters: l.voters,
    // progress is kept by canvassing beside the list (model/canvass.ts listProgress)
    ...(await listProgress(db, l)),
    createdAt: l.createdAt,
    updatedAt: l.updatedAt,
  };
}

/** The walk lists the caller sees (managers: all; others: those they are assigned to), newest first, with progress. */
export const list = orgQuery("walk_lists.view")({
  args: {},
  returns: v.array(vListRow),
  handler: async (ctx) => {
    const rows = await ctx.db
      .query("walkLists")
      .withIndex("by_org", (q) => q.eq("orgId", ctx.viewer.orgId))
      .order("desc")
      .take(MAX_LISTS);
    const names = new Map<string, string | null>();
    const out = [];
    for (const l of rows) if (canSeeList(ctx.viewer, l)) out.push(await listRow(ctx.db, l, names));
    return out;
  },
});

const vVoterLine = v.object({
  id: v.id("voters"),
  name: v.string(),
  party: v.union(v.string(), v.null()),
  age: v.union(v.number(), v.null()),
});

/** One list with its doors in walking order (addresses and voters for members who may see voters). */
export const get = orgQuery("walk_lists.view")({
  args: { id: v.id("walkLists") },
  returns: v.object({
    list: vListRow,
    doors: v.array(
      v.object({
        order: v.number(),
        id: v.id("doors"),
        lat: v.number(),
        lng: v.number(),
        address: v.union(v.string(), v.null()),
        voters: v.array(vVoterLine),
        voterCount: v.number(),
      }),
    ),
  }),
  handler: async (ctx, { id }) => {
    const l = await ctx.db.get("walkLists", id);
    // a list the caller is not assigned to does not exist for them
    if (!l || !canSeeList(ctx.viewer, l)) throw appError("NOT_FOUND");
    const seeVoters = canSeeVoters(ctx.viewer);
    const doors = [];
    let order = 0;
    const now = new Date();
    for (const d of await loadDoors(ctx.db, l.doorIds)) {
      order++;
      const voters = [];
      if (seeVoters)
        for (const vid of d.voterIds) {
          const voter = await ctx.db.get("voters", vid);
          if (!voter) continue;
          const born = voter.date_of_birth ? new Date(voter.date_of_birth) : null;
          const age =
            born && !Number.isNaN(born.getTime())
              ? Math.floor((now.getTime() - born.getTime()) / (365.25 * DAY_MS))
              : null;
          voters.push({
            id: voter._id,
            name: [voter.first_name, voter.last_name].filter(Boolean).join(" ") || "Unnamed voter",
            party: voter.party_affiliation ?? null,
            age,
          });
        }
      doors.push({
        order,
        id: d._id,
        lat: d.lat,
        lng: d.lng,
        address: seeVoters ? `${d.number} ${d.street}${d.unit ? ` #${d.unit}` : ""}` : null,
        voters,
        voterCount: d.voterIds.length,
      });
    }
    return { list: await listRow(ctx.db, l, new Map()), doors };
  },
});

/** Makes a walk list from a turf: its doors in walking order, held while the list is open. */
export const create = orgMutation("campaigns.manage")({
  args: {
    name: v.string(),
    turfId: v.id("turfs"),
    surveyId: v.union(v.id("surveys"), v.null()),
    status: vWalkListStatus,
    expiresAt: v.optional(v.number()),
    assignees: v.array(v.id("users")),
    /** leave out doors another open list holds, instead of refusing */
    leaveOutTaken: v.optional(v.boolean()),
  },
  returns: v.object({ id: v.id("walkLists"), doors: v.number(), leftOut: v.number() }),
  handler: async (ctx, args) => {
    const name = cleanListName(args.name);
    const turf = await ctx.db.get("turfs", args.turfId);
    if (!turf) throw appError("NOT_FOUND");
    await checkSurvey(ctx.db, args.surveyId);
    const assignees = [...new Set(args.assignees)];
    await checkAssignees(ctx.db, ctx.viewer.orgId, assignees);
    const now = Date.now();
    const expiresAt = args.expiresAt ?? now + DEFAULT_EXPIRY_DAYS * DAY_MS;
    checkExpiry(expiresAt, now);
    const doors = await loadDoors(ctx.db, turf.doorIds);
    if (doors.length === 0) throw appError("VALIDATION_ERROR", TEXTS.walkLists.noDoors, "No doors");
    const open = isOpen(args.status, expiresAt, now);
    const id = await ctx.db.insert("walkLists", {
      orgId: ctx.viewer.orgId,
      name,
      turfId: turf._id,
      turfName: turf.name,
      surveyId: args.surveyId,
      status: args.status,
      expiresAt,
      assignees,
      doorIds: [],
      doors: 0,
      voters: 0,
      knocked: 0,
      contacts: 0,
      holds: open,
      createdBy: ctx.viewer.userId,
      createdAt: now,
      updatedAt: now,
    });
    const kept = open ? await holdDoors(ctx, id, doors, args.leaveOutTaken ?? false) : doors;
    if (kept.length === 0) throw appError("CONFLICT", TEXTS.walkLists.noDoors, "No doors");
    await ctx.db.patch("walkLists", id, {
      doorIds: orderDoors(kept),
      doors: kept.length,
      // a filtered turf counts the voters who match
      voters: (await applyFilters(ctx.db, ctx.viewer.orgId, kept, turf.filters)).voters,
    });
    if (open) await scheduleExpiry(ctx, { _id: id, expiresAt });
    return { id, doors: kept.length, leftOut: doors.length - kept.length };
  },
});

function editedValue(field: string, value: unknown): Partial<Doc<"walkLists">> {
  switch (field) {
    case "name":
      return { name: cleanListName(typeof value === "string" ? value : "") };
    case "status":
      if (!["Active", "Completed", "Scheduled", "Paused"].includes(String(value))) throw appError("VALIDATION_ERROR");
      return { status: value as WalkListStatus };
    case "expiresAt":
      if (typeof value !== "number") throw appError("VALIDATION_ERROR", TEXTS.walkLists.expiryPast);
      return { expiresAt: value };
    case "surveyId":
      return { surveyId: (value as Id<"surveys"> | null) ?? null };
    case "assignees":
      if (!Array.isArray(value)) throw appError("VALIDATION_ERROR");
      return { assignees: [...new Set(value as Id<"users">[])] };
    default:
      throw appError("VALIDATION_ERROR");
  }
}

/** Saves a list's edited fields (name, script, status, expiry, canvassers): teammates' other changes merge; the same field changed by a teammate is refused naming them. */
export const update = orgMutation("campaigns.manage")({
  args: { id: v.id("walkLists"), edits: v.array(vFieldEdit) },
  returns: v.null(),
  handler: async (ctx, { id, edits }) => {
    const l = await ctx.db.get("walkLists", id);
    if (!l) throw await missingRecord(ctx, ctx.viewer, id, "walk list");
    const apply = await mergeEdits(ctx, ctx.viewer, id, l, edits, {
      title: `The walk list ${l.name}`,
      editable: (f) => f in WALK_LIST_FIELD_LABELS,
      label: (f) => WALK_LIST_FIELD_LABELS[f] ?? f,
    });
    if (apply.length === 0) return null;
    const next = withEdits({ ...l }, apply);
    const patch: Partial<Doc<"walkLists">> = {};
    for (const e of apply) Object.assign(patch, editedValue(e.field, readEdited(next, e.field)));
    if (patch.surveyId !== undefined) {
      if (patch.surveyId !== null && !ctx.db.normalizeId("surveys", patch.surveyId)) throw appError("VALIDATION_ERROR");
      await checkSurvey(ctx.db, patch.surveyId);
    }
    if (patch.assignees) {
      const ids = patch.assignees.map((a) => ctx.db.normalizeId("users", a));
      if (ids.some((x) => x === null)) throw appError("VALIDATION_ERROR", TEXTS.walkLists.notMember);
      await checkAssignees(ctx.db, ctx.viewer.orgId, ids as Id<"users">[]);
    }
    if (patch.expiresAt !== undefined) checkExpiry(patch.expiresAt);
    await applyOpenness(ctx, l, { status: patch.status ?? l.status, expiresAt: patch.expiresAt ?? l.expiresAt });
    await ctx.db.patch("walkLists", id, { ...patch, updatedAt: Date.now() });
    await markEdited(
      ctx,
      ctx.viewer,
      id,
      apply.map((e) => e.field),
    );
    return null;
  },
});

function readEdited(doc: Record<string, unknown>, field: string): unknown {
  return doc[field] ?? null;
}

/** Who last saved each field of a list, and who deleted it. */
export const editState = orgQuery("campaigns.manage")({
  args: { id: v.string() },
  returns: vEditState,
  handler: async (ctx, { id }) => {
    const listId = ctx.db.normalizeId("walkLists", id);
    return listId ? await loadEditState(ctx, listId) : { fields: {}, deleted: null };
  },
});

/** Deletes a list, letting go of its doors. */
export const remove = orgMutation("campaigns.manage")({
  args: { id: v.id("walkLists") },
  returns: v.null(),
  handler: async (ctx, { id }) => {
    const l = await ctx.db.get("walkLists", id);
    if (!l) throw await missingRecord(ctx, ctx.viewer, id, "walk list");
    await releaseDoors(ctx, l);
    await ctx.db.delete("walkLists", id);
    await markDeleted(ctx, ctx.viewer, id);
    return null;
  },
});

/** At a list's expiry: it lets go of its doors (scheduled when it opens or its expiry changes). */
export const expire = internalMutation({
  args: { listId: v.id("walkLists") },
  returns: v.null(),
  handler: async (ctx, { listId }) => {
    await expireList(ctx, listId);
    return null;
  },
});
