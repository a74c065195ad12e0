/**
 * Districts (issue 37; lib/districts.ts, model/districts.ts): each district of an organisation
 * with its live tally, the compact outlines index an assignment step reads, each voter's
 * membership, and the runs (chains of mutations) that assign the voter file.
 */
import { defineTable } from "convex/server";
import { v } from "convex/values";
import { vBBox } from "./geo";

export const vDistrictKind = v.union(
  v.literal("precinct"),
  v.literal("house"),
  v.literal("senate"),
  v.literal("congress"),
  v.literal("county"),
  v.literal("city"),
  v.literal("ward"),
);

export const vCell = v.object({ party: v.string(), status: v.string(), count: v.number() });
export const vTurnout = v.object({ election: v.string(), voted: v.number() });

/** A voter's district per kind (absent: none), the fields of a voterDistricts row. */
export const vMembershipFields = {
  precinct: v.optional(v.string()),
  house: v.optional(v.string()),
  senate: v.optional(v.string()),
  congress: v.optional(v.string()),
  county: v.optional(v.string()),
  city: v.optional(v.string()),
  ward: v.optional(v.string()),
};

export const districtTables = {
  /**
   * One district (kind, key) with its tally, kept by every voter write and assignment step
   * ("tallies, not scans"): voters, party × status cells, voters who voted per election, and the
   * voters whose code and polygon disagree (coded here but on the map elsewhere, and the reverse).
   * A boundary's district has its outline; a district of codes alone has none.
   */
  districts: defineTable({
    orgId: v.id("organizations"),
    kind: vDistrictKind,
    key: v.string(),
    name: v.string(),
    code: v.union(v.string(), v.null()),
    boundaryId: v.union(v.id("boundaries"), v.null()),
    layerId: v.union(v.id("mapLayers"), v.null()),
    bbox: v.union(vBBox, v.null()),
    voters: v.number(),
    mappedElsewhere: v.number(),
    codedElsewhere: v.number(),
    cells: v.array(vCell),
    turnout: v.array(vTurnout),
    updatedAt: v.number(),
  })
    .index("by_org_kind_key", ["orgId", "kind", "key"])
    .index("by_layer", ["layerId"]),

  /**
   * The outlines an assignment step indexes (small rows: no tally, no geometry). Its district is
   * named by id too, so the map's outlines never read a tally (a count's change re-sends no outline).
   */
  districtShapes: defineTable({
    orgId: v.id("organizations"),
    layerId: v.id("mapLayers"),
    boundaryId: v.id("boundaries"),
    districtId: v.id("districts"),
    kind: vDistrictKind,
    key: v.string(),
    name: v.string(),
    code: v.union(v.string(), v.null()),
    bbox: vBBox,
  })
    .index("by_org_kind", ["orgId", "kind"])
    .index("by_layer", ["layerId"]),

  /**
   * A voter's districts, one row per voter (a field per kind, each indexed: the voter list's
   * district filter) and the kinds where the map places it elsewhere than its code.
   */
  voterDistricts: defineTable({
    orgId: v.id("organizations"),
    voterId: v.id("voters"),
    /** the voter's _creationTime: a step's page of voters finds its rows in one index range */
    voterAt: v.number(),
    ...vMembershipFields,
    mapped: v.optional(v.array(v.object({ kind: vDistrictKind, key: v.string() }))),
  })
    // a voter's row is found by its creation time (by_org_voter_at): no index by voter of its own
    .index("by_org_voter_at", ["orgId", "voterAt"])
    .index("by_org_precinct", ["orgId", "precinct"])
    .index("by_org_house", ["orgId", "house"])
    .index("by_org_senate", ["orgId", "senate"])
    .index("by_org_congress", ["orgId", "congress"])
    .index("by_org_county", ["orgId", "county"])
    .index("by_org_city", ["orgId", "city"])
    .index("by_org_ward", ["orgId", "ward"]),

  /**
   * Where a voter's code and the map disagree, one row per voter and kind (its voterDistricts row's
   * `mapped`, kept with it): the district it is coded to and the one whose outline holds it. A
   * district lists its disagreeing voters in either direction from these (its tally counts them).
   */
  districtDisagreements: defineTable({
    orgId: v.id("organizations"),
    voterId: v.id("voters"),
    kind: vDistrictKind,
    /** the district of the voter's code (its membership) */
    coded: v.string(),
    /** the district whose outline holds the voter */
    mapped: v.string(),
  })
    .index("by_voter", ["voterId"])
    .index("by_org_kind_coded", ["orgId", "kind", "coded"])
    .index("by_org_kind_mapped", ["orgId", "kind", "mapped"]),

  /** A run assigning the organisation's voters to districts, a page per transaction (a chain). */
  districtRuns: defineTable({
    orgId: v.id("organizations"),
    status: v.union(v.literal("running"), v.literal("done"), v.literal("cancelled")),
    reason: v.string(),
    cursor: v.union(v.string(), v.null()),
    processed: v.number(),
    /** voters whose membership changed */
    changed: v.number(),
    total: v.number(),
    startedAt: v.number(),
    finishedAt: v.union(v.number(), v.null()),
  }).index("by_org", ["orgId"]),
};
