/**
 * Districts (/districts; issue 37, model/districts.ts): every member holding voters.view sees the
 * organisation's districts per kind with their live tallies, one district's counts by party and
 * status, turnout per election and disagreements (which voters, a page at a time), and the
 * outlines to draw; a member who manages voters assigns the file again and makes a group of a
 * district's voters (a chain of mutations).
 * The voter list filters by district itself (voters.list's `district`).
 */
import { paginationOptsValidator, paginationResultValidator } from "convex/server";
import { v } from "convex/values";
import { internal } from "./_generated/api";
import type { Doc, Id } from "./_generated/dataModel";
import { appError, internalMutation, orgMutation, orgQuery } from "./functions";
import { addVoters, cleanGroupInput } from "./model/groups";
import { DISTRICT_KINDS, DISTRICT_KIND_SINGULAR, districtFilter } from "./lib/districts";
import { DISTRICT_FIELD, type EmailRule } from "./lib/email/rules";
import { adjustCounter } from "./model/counters";
import {
  checkAudienceName,
  cleanAudienceDescription,
  cleanAudienceName,
  cleanSegmentRules,
  startSegmentRefresh,
} from "./model/emailAudience";
import {
  assignVoter,
  districtStep,
  dropLayerStep as dropStep,
  startDistrictRun,
  syncLayerStep as syncStep,
} from "./model/districts";
import { MAX_PAGE, pageAllMatching } from "./model/voterSearch";
import { districtTables, vDistrictKind } from "./tables/districts";
import { vBBox } from "./tables/geo";

/** Districts of one kind a list answers at most (every precinct of a large state fits). */
export const MAX_DISTRICTS = 3000;
/** Outlines one answer draws at most, and their GeoJSON text in all. */
export const MAX_OUTLINES = 1500;
export const MAX_OUTLINE_TEXT = 6 * 1024 * 1024;
/** Members a group step adds. */
const GROUP_STEP = 500;

const DISTRICT_GONE = "This district no longer exists.";

const vRun = districtTables.districtRuns.validator
  .pick("status", "reason", "processed", "changed", "total", "startedAt", "finishedAt")
  .extend({ id: v.id("districtRuns") });

/** Which kinds have districts, whether the organisation has boundaries, and the newest assignment run. */
export const overview = orgQuery("voters.view")({
  args: {},
  returns: v.object({
    kinds: v.array(v.object({ kind: vDistrictKind, outlines: v.boolean() })),
    boundaryLayers: v.number(),
    run: v.union(vRun, v.null()),
  }),
  handler: async (ctx) => {
    const orgId = ctx.viewer.orgId;
    const kinds = [];
    for (const kind of DISTRICT_KINDS) {
      const first = await ctx.db
        .query("districts")
        .withIndex("by_org_kind_key", (q) => q.eq("orgId", orgId).eq("kind", kind))
        .first();
      if (!first) continue;
      const outline = await ctx.db
        .query("districtShapes")
        .withIndex("by_org_kind", (q) => q.eq("orgId", orgId).eq("kind", kind))
        .first();
      kinds.push({ kind, outlines: outline !== null });
    }
    const layers = await ctx.db
      .query("mapLayers")
      .withIndex("by_org_kind", (q) => q.eq("orgId", orgId).eq("kind", "boundaries"))
      .take(50);
    const run = await ctx.db
      .query("districtRuns")
      .withIndex("by_org", (q) => q.eq("orgId", orgId))
      .order("desc")
      .first();
    return {
      kinds,
      boundaryLayers: layers.filter((l) => l.status === "ready").length,
      run: run
        ? {
            id: run._id,
            status: run.status,
            reason: run.reason,
            processed: run.processed,
            changed: run.changed,
            total: run.total,
            startedAt: run.startedAt,
            finishedAt: run.finishedAt,
          }
        : null,
    };
  },
});

const vPartyCount = v.object({ party: v.string(), count: v.number() });

/** One district as lists and the map show it. */
const vDistrictRow = v.object({
  id: v.id("districts"),
  kind: vDistrictKind,
  key: v.string(),
  name: v.string(),
  code: v.union(v.string(), v.null()),
  /** the voter list's filter for its voters */
  filter: v.string(),
  voters: v.number(),
  mappedElsewhere: v.number(),
  codedElsewhere: v.number(),
  hasOutline: v.boolean(),
  bbox: v.union(vBBox, v.null()),
  parties: v.array(vPartyCount),
  turnout: districtTables.districts.validator.fields.turnout,
});

function partiesOf(d: Doc<"districts">): { party: string; count: number }[] {
  const m = new Map<string, number>();
  for (const c of d.cells) m.set(c.party, (m.get(c.party) ?? 0) + c.count);
  return [...m].map(([party, count]) => ({ party, count })).sort((a, b) => b.count - a.count);
}

function rowOf(d: Doc<"districts">) {
  return {
    id: d._id,
    kind: d.kind,
    key: d.key,
    name: d.name,
    code: d.code,
    filter: districtFilter(d.kind, d.key),
    voters: d.voters,
    mappedElsewhere: d.mappedElsewhere,
    codedElsewhere: d.codedElsewhere,
    hasOutline: d.boundaryId !== null,
    bbox: d.bbox,
    parties: partiesOf(d),
    turnout: d.turnout,
  };
}

/** The districts of a kind (by key), live with their tallies; `truncated` past MAX_DISTRICTS. */
export const list = orgQuery("voters.view")({
  args: { kind: vDistrictKind },
  returns: v.object({ districts: v.array(vDistrictRow), truncated: v.boolean() }),
  handler: async (ctx, { kind }) => {
    const rows = await ctx.db
      .query("districts")
      .withIndex("by_org_kind_key", (q) => q.eq("orgId", ctx.viewer.orgId).eq("kind", kind))
      .take(MAX_DISTRICTS + 1);
    return { districts: rows.slice(0, MAX_DISTRICTS).map(rowOf), truncated: rows.length > MAX_DISTRICTS };
  },
});

/** One district: counts by party and status, turnout per election, disagreements (null: gone). */
export const get = orgQuery("voters.view")({
  args: { id: v.string() },
  returns: v.union(
    vDistrictRow.extend({
      cells: districtTables.districts.validator.fields.cells,
      layerName: v.union(v.string(), v.null()),
    }),
    v.null(),
  ),
  handler: async (ctx, { id }) => {
    const districtId = ctx.db.normalizeId("districts", id);
    const d = districtId ? await ctx.db.get("districts", districtId) : null;
    if (!d) return null;
    const layer = d.layerId ? await ctx.db.get("mapLayers", d.layerId) : null;
    return { ...rowOf(d), cells: d.cells, layerName: layer?.name ?? null };
  },
});

/** Disagreeing voters a page lists at most. */
const DISAGREEMENT_PAGE = 100;

/**
 * A district's voters whose code and map disagree, a page at a time: `mappedElsewhere`, those
 * coded to it whom the map places in another district; `codedElsewhere`, those the map places
 * inside it who are coded to another. Each with both districts' names (the tally counts them).
 */
export const disagreements = orgQuery("voters.view")({
  args: {
    id: v.string(),
    direction: v.union(v.literal("mappedElsewhere"), v.literal("codedElsewhere")),
    paginationOpts: paginationOptsValidator,
  },
  returns: paginationResultValidator(
    v.object({
      voterId: v.id("voters"),
      name: v.string(),
      address: v.string(),
      /** the district of the voter's code, and the one whose outline holds the voter */
      codedName: v.string(),
      mappedName: v.string(),
    }),
  ),
  handler: async (ctx, { id, direction, paginationOpts }) => {
    const districtId = ctx.db.normalizeId("districts", id);
    const d = districtId ? await ctx.db.get("districts", districtId) : null;
    if (!d) return { page: [], isDone: true, continueCursor: "" };
    const orgId = ctx.viewer.orgId;
    const opts = { ...paginationOpts, numItems: Math.max(1, Math.min(DISAGREEMENT_PAGE, paginationOpts.numItems)) };
    const page = await (
      direction === "mappedElsewhere"
        ? ctx.db
            .query("districtDisagreements")
            .withIndex("by_org_kind_coded", (q) => q.eq("orgId", orgId).eq("kind", d.kind).eq("coded", d.key))
        : ctx.db
            .query("districtDisagreements")
            .withIndex("by_org_kind_mapped", (q) => q.eq("orgId", orgId).eq("kind", d.kind).eq("mapped", d.key))
    ).paginate(opts);
    const names = new Map<string, string>([[d.key, d.name]]);
    const nameOf = async (key: string) => {
      if (!names.has(key)) {
        const other = await ctx.db
          .query("districts")
          .withIndex("by_org_kind_key", (q) => q.eq("orgId", orgId).eq("kind", d.kind).eq("key", key))
          .unique();
        names.set(key, other?.name ?? key.replace(/^~/, ""));
      }
      return names.get(key)!;
    };
    const rows = [];
    for (const r of page.page) {
      const voter = await ctx.db.get("voters", r.voterId);
      if (!voter) continue;
      rows.push({
        voterId: voter._id,
        name: `${voter.first_name} ${voter.last_name}`.trim(),
        address: [voter.address, voter.city, voter.state, voter.zip].filter(Boolean).join(", "),
        codedName: await nameOf(r.coded),
        mappedName: await nameOf(r.mapped),
      });
    }
    return { ...page, page: rows };
  },
});

/** The outlines of a kind's districts, for the map (GeoJSON text each); `truncated` past the caps. */
export const outlines = orgQuery("voters.view")({
  args: { kind: vDistrictKind },
  returns: v.object({
    outlines: v.array(v.object({ id: v.id("districts"), geometry: v.string() })),
    truncated: v.boolean(),
  }),
  handler: async (ctx, { kind }) => {
    const shapes = await ctx.db
      .query("districtShapes")
      .withIndex("by_org_kind", (q) => q.eq("orgId", ctx.viewer.orgId).eq("kind", kind))
      .take(MAX_OUTLINES + 1);
    const out: { id: Id<"districts">; geometry: string }[] = [];
    let text = 0;
    let truncated = shapes.length > MAX_OUTLINES;
    // shapes and boundaries only: a tally's change does not re-run this (megabytes of outlines)
    for (const s of shapes.slice(0, MAX_OUTLINES)) {
      const boundary = await ctx.db.get("boundaries", s.boundaryId);
      if (!boundary) continue;
      if (text + boundary.geometry.length > MAX_OUTLINE_TEXT) {
        truncated = true;
        break;
      }
      text += boundary.geometry.length;
      out.push({ id: s.districtId, geometry: boundary.geometry });
    }
    return { outlines: out, truncated };
  },
});

/** Assigns the organisation's voters to their districts again (those unchanged cost reads only). */
export const run = orgMutation("voters.manage")({
  args: {},
  returns: v.id("districtRuns"),
  handler: async (ctx) => await startDistrictRun(ctx, ctx.viewer.orgId, "requested by a member"),
});

/** A new group of a district's voters: the group at once, its members by a chain of steps. */
export const makeGroup = orgMutation("voters.manage")({
  args: { id: v.id("districts"), name: v.string() },
  returns: v.id("voterGroups"),
  handler: async (ctx, { id, name }) => {
    const d = await ctx.db.get("districts", id);
    if (!d) throw appError("NOT_FOUND", DISTRICT_GONE, "District");
    const clean = cleanGroupInput(name, `The voters of ${DISTRICT_KIND_SINGULAR[d.kind]} ${d.name}`);
    const groupId = await ctx.db.insert("voterGroups", {
      orgId: ctx.viewer.orgId,
      ...clean,
      memberCount: 0,
      updatedAt: Date.now(),
    });
    await adjustCounter(ctx, ctx.viewer.orgId, "voterGroups", 1);
    await ctx.scheduler.runAfter(0, internal.districts.groupStep, {
      groupId,
      filter: districtFilter(d.kind, d.key),
      cursor: null,
    });
    return groupId;
  },
});

/**
 * A new email segment of a district's voters (with an email): its rule is the district, so it
 * follows voters who move in or out at each refresh. Needs what any segment needs (campaigns.manage).
 */
export const makeEmailSegment = orgMutation("campaigns.manage")({
  args: { id: v.id("districts"), name: v.string() },
  returns: v.id("emailSegments"),
  handler: async (ctx, { id, name: raw }) => {
    const d = await ctx.db.get("districts", id);
    if (!d) throw appError("NOT_FOUND", DISTRICT_GONE, "District");
    const name = cleanAudienceName(raw, "emailSegments");
    await checkAudienceName(ctx.db, "emailSegments", ctx.viewer.orgId, name);
    const rule: EmailRule = {
      id: "district",
      field: DISTRICT_FIELD,
      operator: "equals",
      value: districtFilter(d.kind, d.key),
    };
    const now = Date.now();
    const segmentId = await ctx.db.insert("emailSegments", {
      orgId: ctx.viewer.orgId,
      name,
      description: cleanAudienceDescription(`The voters of ${DISTRICT_KIND_SINGULAR[d.kind]} ${d.name}`),
      rules: cleanSegmentRules(JSON.stringify([rule])),
      cachedCount: 0,
      lastRefreshedAt: null,
      gen: 0,
      refreshing: false,
      createdBy: ctx.viewer.userId,
      createdAt: now,
      updatedAt: now,
    });
    await startSegmentRefresh(ctx, (await ctx.db.get("emailSegments", segmentId))!);
    return segmentId;
  },
});

export const groupStep = internalMutation({
  args: { groupId: v.id("voterGroups"), filter: v.string(), cursor: v.union(v.string(), v.null()) },
  returns: v.null(),
  handler: async (ctx, { groupId, filter, cursor }) => {
    const group = await ctx.db.get("voterGroups", groupId);
    if (!group) return null;
    const page = await pageAllMatching(
      ctx.db,
      group.orgId,
      { district: filter },
      {
        cursor,
        numItems: Math.min(GROUP_STEP, MAX_PAGE),
      },
    );
    await addVoters(ctx, group, page.page);
    if (!page.isDone)
      await ctx.scheduler.runAfter(0, internal.districts.groupStep, { groupId, filter, cursor: page.continueCursor });
    return null;
  },
});

export const step = internalMutation({
  args: { runId: v.id("districtRuns") },
  returns: v.null(),
  handler: async (ctx, { runId }) => {
    await districtStep(ctx, runId);
    return null;
  },
});

/** Assigns one voter whose codes or place changed (scheduled by its save). */
export const assignOne = internalMutation({
  args: { voterId: v.id("voters") },
  returns: v.null(),
  handler: async (ctx, { voterId }) => {
    await assignVoter(ctx, voterId);
    return null;
  },
});

export const syncLayerStep = internalMutation({
  args: { layerId: v.id("mapLayers"), cursor: v.union(v.string(), v.null()) },
  returns: v.null(),
  handler: async (ctx, { layerId, cursor }) => {
    await syncStep(ctx, layerId, cursor);
    return null;
  },
});

export const dropLayerStep = internalMutation({
  args: { layerId: v.id("mapLayers"), orgId: v.id("organizations"), name: v.string() },
  returns: v.null(),
  handler: async (ctx, { layerId, orgId, name }) => {
    await dropStep(ctx, layerId, orgId, name);
    return null;
  },
});
