/**
 * Turf and walk lists (issue 37, /walk-lists). Cutting turf and managing walk lists needs
 * campaigns.manage; seeing walk lists needs walk_lists.view, and a member without campaigns.manage
 * (a Volunteer) sees only the lists they are assigned to. Voters' names and addresses are sent only
 * to holders of voters.view (model/personalData.ts).
 */
import { v } from "convex/values";
import type { Doc, Id } from "./_generated/dataModel";
import { internalMutation, orgMutation, orgQuery } from "./functions";
import { appError } from "./lib/errors";
import { DISTRICT_KIND_SINGULAR, DISTRICT_KINDS } from "./lib/districts";
import { areaBBox, rowOf, type Area } from "./lib/turf/geometry";
import { loadEditState, markDeleted, markEdited, mergeEdits, missingRecord, withEdits } from "./model/collab";
import { buildDoorsStep as buildStep, refreshCell as rewriteCell, startDoorBuild } from "./model/doors";
import { canSeeVoters } from "./model/personalData";
import { displayName } from "./model/presence";
import {
  applyFilters,
  autoCutStep as cutStep,
  cellsIn,
  checkTurfSize,
  cleanTurfName,
  countArea as countDoors,
  doorsOfCells,
  insertTurf,
  loadDoors,
  MAX_TURFS,
  recordOp,
  resolveArea,
  sourceDoors,
  splitDoors,
  startAutoCut,
  undoLast,
} from "./model/turf";
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
import {
  vTurfFilters,
  vTurfSourceKind,
  vWalkListStatus,
  WALK_LIST_FIELD_LABELS,
  type WalkListStatus,
} from "./tables/walkLists";

const vPoint = v.array(v.number());
/** Districts of each kind offered as a turf's source (a state's precincts run to thousands; a county's fit). */
const MAX_DISTRICT_OPTIONS = 1000;
/** Where a cut's doors come from: a drawn ring of [lng, lat], a boundary, a district, a group or an email segment. */
const vSource = {
  points: v.optional(v.array(vPoint)),
  boundaryId: v.optional(v.id("boundaries")),
  districtId: v.optional(v.id("districts")),
  groupId: v.optional(v.id("voterGroups")),
  segmentId: v.optional(v.id("emailSegments")),
};
type Pos = [number, number];
const positions = (pts: number[][] | undefined) => pts?.map((p) => [p[0], p[1]] as Pos);

/** Whether the organisation has doors yet, and the build gathering them. */
export const overview = orgQuery("campaigns.manage")({
  args: {},
  returns: v.object({
    hasDoors: v.boolean(),
    /** where the organisation's doors are (the map opens there) */
    center: v.union(v.object({ lat: v.number(), lng: v.number() }), v.null()),
    build: v.union(v.object({ status: v.string(), processed: v.number() }), v.null()),
    lastOp: v.union(v.string(), v.null()),
  }),
  handler: async (ctx) => {
    const orgId = ctx.viewer.orgId;
    const cell = (
      await ctx.db
        .query("doorCells")
        .withIndex("by_org_cell", (q) => q.eq("orgId", orgId))
        .take(5)
    ).find((c) => c.ids.length > 0);
    const build = await ctx.db
      .query("doorBuilds")
      .withIndex("by_org", (q) => q.eq("orgId", orgId))
      .order("desc")
      .first();
    const ops = await ctx.db
      .query("turfOps")
      .withIndex("by_org_user", (q) => q.eq("orgId", orgId).eq("userId", ctx.viewer.userId))
      .order("desc")
      .take(20);
    return {
      hasDoors: cell !== undefined,
      center: cell ? { lat: cell.lat[0], lng: cell.lng[0] } : null,
      build: build ? { status: build.status, processed: build.processed } : null,
      lastOp: ops.find((o) => !o.undone)?.kind ?? null,
    };
  },
});

/** Gathers voters placed before doors existed into doors (a chain of steps). */
export const buildDoors = orgMutation("campaigns.manage")({
  args: {},
  returns: v.null(),
  handler: async (ctx) => {
    await startDoorBuild(ctx, ctx.viewer.orgId);
    return null;
  },
});

export const buildDoorsStep = internalMutation({
  args: { buildId: v.id("doorBuilds") },
  returns: v.null(),
  handler: async (ctx, { buildId }) => {
    await buildStep(ctx, buildId);
    return null;
  },
});

/** Rewrites a grid cell's packed doors after its doors changed (model/doors.ts). */
export const refreshCell = internalMutation({
  args: { orgId: v.id("organizations"), cell: v.number() },
  returns: v.null(),
  handler: async (ctx, { orgId, cell }) => {
    await rewriteCell(ctx, orgId, cell);
    return null;
  },
});

/** Doors and voters inside a drawn area or a boundary: the live count while drawing. */
export const countArea = orgQuery("campaigns.manage")({
  args: { points: v.optional(v.array(vPoint)), boundaryId: v.optional(v.id("boundaries")) },
  returns: v.object({ doors: v.number(), voters: v.number() }),
  handler: async (ctx, args) => {
    const { area } = await resolveArea(ctx.db, { points: positions(args.points), boundaryId: args.boundaryId });
    return await countDoors(ctx.db, ctx.viewer.orgId, area);
  },
});

/** Most door points sent for a view; beyond, per-cell counts. */
const VIEW_POINTS = 4_000;

/** The doors in the map's view: points (to members who may see voters) or per-cell counts. */
export const doorsInView = orgQuery("campaigns.manage")({
  args: { west: v.number(), south: v.number(), east: v.number(), north: v.number() },
  returns: v.object({
    points: v.union(v.array(v.object({ lat: v.number(), lng: v.number(), voters: v.number() })), v.null()),
    cells: v.array(v.object({ lat: v.number(), lng: v.number(), doors: v.number() })),
  }),
  handler: async (ctx, { west, south, east, north }) => {
    if (!(east > west && north > south) || east - west > 2 || north - south > 2) return { points: null, cells: [] };
    const cells = await cellsIn(ctx.db, ctx.viewer.orgId, [west, south, east, north]);
    const doors = doorsOfCells(cells, null).filter(
      (d) => d.lng >= west && d.lng <= east && d.lat >= south && d.lat <= north,
    );
    if (doors.length <= VIEW_POINTS && canSeeVoters(ctx.viewer))
      return { points: doors.map((d) => ({ lat: d.lat, lng: d.lng, voters: d.voters })), cells: [] };
    const byCell = new Map<number, { lat: number; lng: number; doors: number }>();
    for (const c of cells) {
      const agg = byCell.get(c.cell) ?? { lat: 0, lng: 0, doors: 0 };
      for (let i = 0; i < c.ids.length; i++) {
        agg.lat += c.lat[i];
        agg.lng += c.lng[i];
        agg.doors++;
      }
      byCell.set(c.cell, agg);
    }
    return {
      points: null,
      cells: [...byCell.values()]
        .filter((a) => a.doors > 0)
        .map((a) => ({ lat: a.lat / a.doors, lng: a.lng / a.doors, doors: a.doors })),
    };
  },
});

const vTurfRow = v.object({
  id: v.id("turfs"),
  name: v.string(),
  doors: v.number(),
  voters: v.number(),
  source: vTurfSourceKind,
  sourceLabel: v.string(),
  area: v.union(v.string(), v.null()),
  bbox: v.array(v.number()),
  createdByName: v.string(),
  createdAt: v.number(),
  list: v.union(v.object({ id: v.id("walkLists"), name: v.string(), status: vWalkListStatus }), v.null()),
});

/** The organisation's turfs (not replaced by a split or merge), newest first, with the walk list made from each. */
export const turfs = orgQuery("campaigns.manage")({
  args: {},
  returns: v.array(vTurfRow),
  handler: async (ctx) => {
    const rows = await ctx.db
      .query("turfs")
      .withIndex("by_org_archived", (q) => q.eq("orgId", ctx.viewer.orgId).eq("archived", false))
      .order("desc")
      .take(MAX_TURFS);
    return await Promise.all(
      rows.map(async (t) => {
        const list = await ctx.db
          .query("walkLists")
          .withIndex("by_turf", (q) => q.eq("turfId", t._id))
          .order("desc")
          .first();
        return {
          id: t._id,
          name: t.name,
          doors: t.doors,
          voters: t.voters,
          source: t.source,
          sourceLabel: t.sourceLabel,
          area: t.area,
          bbox: t.bbox,
          createdByName: t.createdByName,
          createdAt: t.createdAt,
          list: list ? { id: list._id, name: list.name, status: list.status } : null,
        };
      }),
    );
  },
});

/** A turf's doors as points (drawn on the map when it is selected), with whether an open list holds each. */
export const turfDoors = orgQuery("campaigns.manage")({
  args: { turfId: v.id("turfs") },
  returns: v.array(v.object({ lat: v.number(), lng: v.number(), held: v.boolean() })),
  handler: async (ctx, { turfId }) => {
    const turf = await ctx.db.get(turfId);
    if (!turf) throw appError("NOT_FOUND");
    if (!canSeeVoters(ctx.viewer)) return [];
    return (await loadDoors(ctx.db, turf.doorIds)).map((d) => ({ lat: d.lat, lng: d.lng, held: d.listId !== null }));
  },
});

/** Cuts a turf from a drawn area, a boundary, a group or an email segment, with filters. */
export const cutTurf = orgMutation("campaigns.manage")({
  args: { name: v.string(), filters: vTurfFilters, ...vSource },
  returns: v.object({ id: v.id("turfs"), doors: v.number(), voters: v.number() }),
  handler: async (ctx, args) => {
    const name = cleanTurfName(args.name);
    const src = await sourceDoors(ctx.db, ctx.viewer.orgId, { ...args, points: positions(args.points) });
    checkTurfSize(src.ids.length);
    const { doors, voters } = await applyFilters(
      ctx.db,
      ctx.viewer.orgId,
      await loadDoors(ctx.db, src.ids),
      args.filters,
    );
    checkTurfSize(doors.length);
    const id = await insertTurf(ctx, ctx.viewer, {
      name,
      doors,
      voters,
      source: src.kind,
      sourceLabel: src.label,
      area: src.area,
      filters: args.filters,
    });
    await recordOp(ctx, ctx.viewer, "cut", [id], []);
    return { id, doors: doors.length, voters };
  },
});

async function liveTurf(db: Parameters<typeof loadDoors>[0], id: Id<"turfs">): Promise<Doc<"turfs">> {
  const turf = await db.get(id);
  if (!turf || turf.archived) throw appError("NOT_FOUND", "This turf was split, merged or undone by a teammate.");
  return turf;
}

async function votersOf(db: Parameters<typeof loadDoors>[0], turf: Doc<"turfs">, doors: Doc<"doors">[]) {
  // a filtered turf counts the matching voters; recount them for its parts
  return (await applyFilters(db, turf.orgId, doors, turf.filters)).voters;
}

/** Splits a turf in two along a drawn line (its two sides) or by a drawn area (inside and outside). */
export const splitTurf = orgMutation("campaigns.manage")({
  args: { turfId: v.id("turfs"), line: v.optional(v.array(vPoint)), points: v.optional(v.array(vPoint)) },
  returns: v.array(v.id("turfs")),
  handler: async (ctx, args) => {
    const turf = await liveTurf(ctx.db, args.turfId);
    const parts = splitDoors(await loadDoors(ctx.db, turf.doorIds), {
      line: positions(args.line),
      points: positions(args.points),
    });
    const ids: Id<"turfs">[] = [];
    for (const [i, doors] of parts.entries())
      ids.push(
        await insertTurf(ctx, ctx.viewer, {
          name: `${turf.name} (${i === 0 ? "A" : "B"})`,
          doors,
          voters: await votersOf(ctx.db, turf, doors),
          source: "split",
          sourceLabel: `Split from ${turf.name}`,
          area: null,
          filters: turf.filters,
        }),
      );
    await ctx.db.patch(turf._id, { archived: true });
    await recordOp(ctx, ctx.viewer, "split", ids, [turf._id]);
    return ids;
  },
});

/** Merges turfs into one (each door once). */
export const mergeTurfs = orgMutation("campaigns.manage")({
  args: { turfIds: v.array(v.id("turfs")), name: v.optional(v.string()) },
  returns: v.id("turfs"),
  handler: async (ctx, args) => {
    const ids = [...new Set(args.turfIds)];
    if (ids.length < 2 || ids.length > 20) throw appError("VALIDATION_ERROR", TEXTS.walkLists.mergeTwo);
    const turfs: Doc<"turfs">[] = [];
    for (const id of ids) turfs.push(await liveTurf(ctx.db, id));
    const doorIds = [...new Set(turfs.flatMap((t) => t.doorIds))];
    checkTurfSize(doorIds.length);
    const doors = await loadDoors(ctx.db, doorIds);
    const same = turfs.every((t) => JSON.stringify(t.filters) === JSON.stringify(turfs[0].filters));
    const id = await insertTurf(ctx, ctx.viewer, {
      name: cleanTurfName(
        args.name ??
          turfs
            .map((t) => t.name)
            .join(" + ")
            .slice(0, 120),
      ),
      doors,
      voters: same ? await votersOf(ctx.db, turfs[0], doors) : doors.reduce((n, d) => n + d.voterIds.length, 0),
      source: "merge",
      sourceLabel: `Merged from ${turfs.length} turfs`,
      area: null,
      filters: same ? turfs[0].filters : {},
    });
    for (const t of turfs) await ctx.db.patch(t._id, { archived: true });
    await recordOp(ctx, ctx.viewer, "merge", [id], ids);
    return id;
  },
});

/** Takes back the caller's last turf operation (cut, split, merge or auto-cut). */
export const undoTurf = orgMutation("campaigns.manage")({
  args: {},
  returns: v.string(),
  handler: async (ctx) => await undoLast(ctx, ctx.viewer),
});

/** Starts auto-cutting a drawn area or a boundary into turfs of about `target` doors each. */
export const autoCut = orgMutation("campaigns.manage")({
  args: {
    name: v.string(),
    target: v.number(),
    points: v.optional(v.array(vPoint)),
    boundaryId: v.optional(v.id("boundaries")),
  },
  returns: v.id("autoCutRuns"),
  handler: async (ctx, args) => {
    const { area } = await resolveArea(ctx.db, { points: positions(args.points), boundaryId: args.boundaryId });
    return await startAutoCut(ctx, ctx.viewer, { name: args.name, target: args.target, area });
  },
});

export const autoCutStep = internalMutation({
  args: { runId: v.id("autoCutRuns") },
  returns: v.null(),
  handler: async (ctx, { runId }) => {
    await cutStep(ctx, runId);
    return null;
  },
});

/** The organisation's recent auto-cuts, with their progress. */
export const autoCutRuns = orgQuery("campaigns.manage")({
  args: {},
  returns: v.array(
    v.object({
      id: v.id("autoCutRuns"),
      name: v.string(),
      target: v.number(),
      status: v.string(),
      turfs: v.number(),
      doors: v.number(),
      userName: v.string(),
      progress: v.number(),
      startedAt: v.number(),
      finishedAt: v.union(v.number(), v.null()),
    }),
  ),
  handler: async (ctx) => {
    const runs = await ctx.db
      .query("autoCutRuns")
      .withIndex("by_org", (q) => q.eq("orgId", ctx.viewer.orgId))
      .order("desc")
      .take(5);
    return runs.map((r) => {
      const [, south] = areaBBox(JSON.parse(r.area) as Area);
      const rows = Math.max(1, r.lastRow - rowOf(south) + 1);
      return {
        id: r._id,
        name: r.name,
        target: r.target,
        status: r.status,
        turfs: r.turfs,
        doors: r.doors,
        userName: r.userName,
        progress: r.status === "done" ? 1 : Math.min(1, 1 - (r.lastRow - r.nextRow + 1) / rows),
        startedAt: r.startedAt,
        finishedAt: r.finishedAt,
      };
    });
  },
});

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
      const user = await ctx.db.get(m.userId);
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

/** The areas of a boundary layer, by name (to start a turf or an auto-cut from a district). */
export const boundaries = orgQuery("campaigns.manage")({
  args: { layerId: v.id("mapLayers") },
  returns: v.array(v.object({ id: v.id("boundaries"), name: v.string() })),
  handler: async (ctx, { layerId }) => {
    const layer = await ctx.db.get(layerId);
    if (!layer) throw appError("NOT_FOUND");
    const rows = await ctx.db
      .query("boundaries")
      .withIndex("by_layer", (q) => q.eq("layerId", layerId))
      .take(500);
    return rows
      .map((b) => ({ id: b._id, name: b.name }))
      .sort((a, b) => a.name.localeCompare(b.name, "en", { numeric: true }));
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
      const u = await db.get(id);
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
    surveyName: surveyId ? await name(surveyId, async () => (await db.get(surveyId))?.name ?? null) : null,
    status: l.status,
    expiresAt: l.expiresAt,
    expired: l.expiresAt <= Date.now(),
    holds: l.holds,
    assignees,
    doors: l.doors,
    voters: l.voters,
    knocked: l.knocked,
    contacts: l.contacts,
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
    const l = await ctx.db.get(id);
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
          const voter = await ctx.db.get(vid);
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
    const turf = await ctx.db.get(args.turfId);
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
    await ctx.db.patch(id, {
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
    const l = await ctx.db.get(id);
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
    await ctx.db.patch(id, { ...patch, updatedAt: Date.now() });
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
    const l = await ctx.db.get(id);
    if (!l) throw await missingRecord(ctx, ctx.viewer, id, "walk list");
    await releaseDoors(ctx, l);
    await ctx.db.delete(id);
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
