/**
 * Turf (issue 37, /walk-lists' turf map): the organisation's doors on the map, cutting turf from a
 * drawn area, a boundary, a district, a group or a segment, split, merge, undo and auto-cut. All of
 * it needs campaigns.manage. Walk lists made from turfs are in walkLists.ts.
 */
import { v } from "convex/values";
import type { Doc, Id } from "./_generated/dataModel";
import { internalMutation, orgMutation, orgQuery } from "./functions";
import { appError } from "./lib/errors";
import { areaBBox, rowOf, type Area } from "./lib/turf/geometry";
import { buildDoorsStep as buildStep, refreshCell as rewriteCell, startDoorBuild } from "./model/doors";
import { canSeeVoters } from "./model/personalData";
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
import { TEXTS } from "./lib/texts";
import { vTurfFilters, vTurfSourceKind, vWalkListStatus } from "./tables/walkLists";

const vPoint = v.array(v.number());
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
  args: {
    points: v.optional(v.array(vPoint)),
    boundaryId: v.optional(v.id("boundaries")),
    filters: v.optional(vTurfFilters),
  },
  returns: v.object({ doors: v.number(), voters: v.number(), held: v.number(), tooLarge: v.optional(v.literal(true)) }),
  handler: async (ctx, args) => {
    const { area } = await resolveArea(ctx.db, { points: positions(args.points), boundaryId: args.boundaryId });
    return await countDoors(ctx.db, ctx.viewer.orgId, area, args.filters ?? {});
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
    const turf = await ctx.db.get("turfs", turfId);
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
  const turf = await db.get("turfs", id);
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
    await ctx.db.patch("turfs", turf._id, { archived: true });
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
    for (const t of turfs) await ctx.db.patch("turfs", t._id, { archived: true });
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
    filters: v.optional(vTurfFilters),
  },
  returns: v.id("autoCutRuns"),
  handler: async (ctx, args) => {
    const { area } = await resolveArea(ctx.db, { points: positions(args.points), boundaryId: args.boundaryId });
    const filters = args.filters ?? {};
    return await startAutoCut(ctx, ctx.viewer, { name: args.name, target: args.target, area, filters });
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

/** The areas of a boundary layer, by name (to start a turf or an auto-cut from a district). */
export const boundaries = orgQuery("campaigns.manage")({
  args: { layerId: v.id("mapLayers") },
  returns: v.array(v.object({ id: v.id("boundaries"), name: v.string() })),
  handler: async (ctx, { layerId }) => {
    const layer = await ctx.db.get("mapLayers", layerId);
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
