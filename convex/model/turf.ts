/**
 * Turf (issue 37): counting and collecting the doors of an area through the grid (doorCells), the
 * filters (party, status, vote history, not contacted since, opted out), cutting a turf from an
 * area, a group or an email segment, split, merge and undo (the organiser's last operation), and
 * auto-cut as a chain of steps (a strip of grid rows each).
 */
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { internal } from "../_generated/api";
import { appError } from "../lib/errors";
import { autoCut } from "../lib/turf/autoCut";
import { doorAddress } from "../lib/turf/doorAddress";
import {
  areaBBox,
  areaTester,
  bboxRows,
  CELL_DEGREES,
  cellRanges,
  MAX_AREA_ROWS,
  ringPolygon,
  rowOf,
  sideOfLine,
  type Area,
  type BBox,
} from "../lib/turf/geometry";
import type { Position } from "../lib/geo/tiger";
import { TEXTS } from "../lib/texts";
import { DISTRICT_KIND_SINGULAR } from "../lib/districts";
import { hasVoterFilters, packedMatcher } from "../lib/turf/packedFilters";
import { optedOut } from "./doors";
import type { TurfFilters } from "../tables/walkLists";
import { displayName } from "./presence";
import type { Viewer } from "./viewer";

type Db = QueryCtx["db"];

/** Most doors in one turf (a canvasser walks 50–300; the cap keeps a cut within one transaction). */
export const MAX_TURF_DOORS = 2_500;
/** Most voters gathered from a group or segment in one cut. */
export const MAX_SOURCE_VOTERS = 5_000;
/** Doors an auto-cut step plans at once (a strip of grid rows holding at least this many). */
export const AUTO_BLOCK = 6_000;
export const AUTO_TARGET = { min: 25, max: 1_000 } as const;
/** Most turfs listed (active, not archived). */
export const MAX_TURFS = 1_000;

/** A door as the grid lists it. */
export type CellDoor = { id: Id<"doors">; lat: number; lng: number; voters: number; streetKey: string; number: number };

/** The doorCells documents of a bounding box (one index range per grid row). */
export async function cellsIn(db: Db, orgId: Id<"organizations">, bbox: BBox): Promise<Doc<"doorCells">[]> {
  if (bboxRows(bbox) > MAX_AREA_ROWS) throw appError("VALIDATION_ERROR", TEXTS.walkLists.areaTooLarge);
  const out: Doc<"doorCells">[] = [];
  for (const r of cellRanges(bbox)) {
    const docs = await db
      .query("doorCells")
      .withIndex("by_org_cell", (q) => q.eq("orgId", orgId).gte("cell", r.lo).lte("cell", r.hi))
      .collect();
    out.push(...docs);
  }
  return out;
}

/** The doors of cells inside an area. */
export function doorsOfCells(cells: Doc<"doorCells">[], area: Area | null): CellDoor[] {
  const inside = area ? areaTester(area) : null;
  const out: CellDoor[] = [];
  for (const c of cells)
    for (let i = 0; i < c.ids.length; i++)
      if (!inside || inside(c.lat[i], c.lng[i])) out.push(cellDoor(c, i, c.voters[i]));
  return out;
}

function cellDoor(c: Doc<"doorCells">, i: number, voters: number): CellDoor {
  return { id: c.ids[i], lat: c.lat[i], lng: c.lng[i], voters, streetKey: c.streets[i], number: c.numbers[i] };
}

/**
 * The doors of cells inside an area that the filters keep, each with its matching voters, and
 * whether an open walk list holds it — from the packed documents (no door or voter is read). A
 * cell packed before its filter fields existed counts every door and voter.
 */
export async function filteredDoorsOfCells(
  db: Db,
  cells: Doc<"doorCells">[],
  area: Area | null,
  filters: TurfFilters,
): Promise<{ door: CellDoor; held: boolean }[]> {
  const inside = area ? areaTester(area) : null;
  const filtered = hasVoterFilters(filters) || !!filters.notContactedSince;
  const out: { door: CellDoor; held: boolean }[] = [];
  for (const c of cells) {
    const packed = filtered
      ? await db
          .query("doorCellVoters")
          .withIndex("by_cell_doc", (q) => q.eq("cellDoc", c._id))
          .unique()
      : null;
    const matches = packed ? packedMatcher(filters, packed.dict) : null;
    for (let i = 0; i < c.ids.length; i++) {
      if (inside && !inside(c.lat[i], c.lng[i])) continue;
      const voters = matches ? matches(packed!.tags[i], packed!.contacted[i]) : c.voters[i];
      if (voters === 0) continue;
      out.push({ door: cellDoor(c, i, voters), held: c.held?.[i] === 1 });
    }
  }
  return out;
}

/**
 * Doors and voters inside an area that the filters keep, and how many of those doors an open walk
 * list holds: the live count while drawing.
 */
export async function countArea(
  db: Db,
  orgId: Id<"organizations">,
  area: Area,
  filters: TurfFilters = {},
): Promise<{ doors: number; voters: number; held: number; tooLarge?: true }> {
  // while drawing, an area too tall to read is said so, not refused: the count is live
  if (bboxRows(areaBBox(area)) > MAX_AREA_ROWS) return { doors: 0, voters: 0, held: 0, tooLarge: true };
  let doors = 0;
  let voters = 0;
  let held = 0;
  for (const d of await filteredDoorsOfCells(db, await cellsIn(db, orgId, areaBBox(area)), area, filters)) {
    doors++;
    voters += d.door.voters;
    if (d.held) held++;
  }
  return { doors, voters, held };
}

/** The area drawn (a ring of [lng, lat]) or a boundary's polygon. */
export async function resolveArea(
  db: Db,
  source: { points?: Position[]; boundaryId?: Id<"boundaries"> },
): Promise<{ area: Area; label: string; kind: "drawn" | "boundary" }> {
  if (source.boundaryId) {
    const b = await db.get("boundaries", source.boundaryId);
    if (!b) throw appError("NOT_FOUND");
    return { area: JSON.parse(b.geometry) as Area, label: b.name, kind: "boundary" };
  }
  const area = ringPolygon(source.points ?? []);
  if (!area) throw appError("VALIDATION_ERROR", TEXTS.walkLists.drawArea);
  return { area, label: "Drawn on the map", kind: "drawn" };
}

/**
 * The doors kept by the filters, with the voters who match (a door stays when one of its voters
 * does). Without voter filters no voter is read.
 */
export async function applyFilters(
  db: Db,
  orgId: Id<"organizations">,
  doors: Doc<"doors">[],
  filters: TurfFilters,
): Promise<{ doors: Doc<"doors">[]; voters: number }> {
  const since = filters.notContactedSince;
  const reachable = since ? doors.filter((d) => d.lastContactAt === null || d.lastContactAt < since) : doors;
  if (!hasVoterFilters(filters))
    return { doors: reachable, voters: reachable.reduce((n, d) => n + d.voterIds.length, 0) };
  const parties = filters.parties?.length ? new Set(filters.parties) : null;
  const statuses = filters.statuses?.length ? new Set(filters.statuses) : null;
  const kept: Doc<"doors">[] = [];
  let voters = 0;
  for (const door of reachable) {
    let matching = 0;
    for (const id of door.voterIds) {
      const voter = await db.get("voters", id);
      if (!voter) continue;
      if (parties && !parties.has(voter.party_affiliation ?? "")) continue;
      if (statuses && !statuses.has(voter.status ?? "")) continue;
      if (filters.votedIn && !(voter.vote_history ?? []).some((e) => e.election === filters.votedIn)) continue;
      if (filters.excludeOptedOut && (await optedOut(db, orgId, voter))) continue;
      matching++;
    }
    if (matching > 0) {
      kept.push(door);
      voters += matching;
    }
  }
  return { doors: kept, voters };
}

/** The door ids of some voters (through their places' addresses), each once. */
export async function doorsOfVoters(
  db: Db,
  orgId: Id<"organizations">,
  voterIds: Id<"voters">[],
): Promise<Id<"doors">[]> {
  const out = new Set<Id<"doors">>();
  for (const voterId of voterIds) {
    const place = await db
      .query("voterPlaces")
      .withIndex("by_voter", (q) => q.eq("voterId", voterId))
      .unique();
    const address = place && doorAddress(place.address);
    if (!address) continue;
    const door = await db
      .query("doors")
      .withIndex("by_org_key", (q) => q.eq("orgId", orgId).eq("key", address.key))
      .unique();
    if (door && door.voterIds.includes(voterId)) out.add(door._id);
  }
  return [...out];
}

/** Loads doors by id (missing ones, gone with their last voter, are skipped). */
export async function loadDoors(db: Db, ids: Id<"doors">[]): Promise<Doc<"doors">[]> {
  const out: Doc<"doors">[] = [];
  for (const id of ids) {
    const d = await db.get("doors", id);
    if (d) out.push(d);
  }
  return out;
}

function bboxOf(doors: { lat: number; lng: number }[]): number[] {
  let [w, s, e, n] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const d of doors) {
    w = Math.min(w, d.lng);
    e = Math.max(e, d.lng);
    s = Math.min(s, d.lat);
    n = Math.max(n, d.lat);
  }
  return doors.length ? [w, s, e, n] : [];
}

export function cleanTurfName(name: string): string {
  const n = name.trim();
  if (!n) throw appError("VALIDATION_ERROR", TEXTS.walkLists.turfNameRequired, "Name required");
  if (n.length > 120) throw appError("VALIDATION_ERROR", "A turf's name has at most 120 characters.");
  return n;
}

type NewTurf = {
  name: string;
  doors: Doc<"doors">[] | CellDoor[];
  voters: number;
  source: Doc<"turfs">["source"];
  sourceLabel: string;
  area: Area | null;
  filters: TurfFilters;
};

export async function insertTurf(
  ctx: Pick<MutationCtx, "db">,
  viewer: Pick<Viewer, "orgId" | "userId" | "user">,
  t: NewTurf,
) {
  return await ctx.db.insert("turfs", {
    orgId: viewer.orgId,
    name: t.name,
    doorIds: t.doors.map((d) => ("_id" in d ? d._id : d.id)),
    doors: t.doors.length,
    voters: t.voters,
    source: t.source,
    sourceLabel: t.sourceLabel,
    area: t.area ? JSON.stringify(t.area) : null,
    filters: t.filters,
    bbox: bboxOf(t.doors),
    archived: false,
    createdBy: viewer.userId,
    createdByName: displayName(viewer.user),
    createdAt: Date.now(),
  });
}

export async function recordOp(
  ctx: Pick<MutationCtx, "db">,
  viewer: Pick<Viewer, "orgId" | "userId">,
  kind: Doc<"turfOps">["kind"],
  created: Id<"turfs">[],
  archived: Id<"turfs">[],
) {
  return await ctx.db.insert("turfOps", {
    orgId: viewer.orgId,
    userId: viewer.userId,
    kind,
    created,
    archived,
    at: Date.now(),
    undone: false,
  });
}

/** Refuses an empty cut or one larger than a turf may be. */
export function checkTurfSize(doors: number) {
  if (doors === 0) throw appError("VALIDATION_ERROR", TEXTS.walkLists.noDoors, "No doors");
  if (doors > MAX_TURF_DOORS)
    throw appError("VALIDATION_ERROR", TEXTS.walkLists.turfTooLarge(doors, MAX_TURF_DOORS), "Turf too large");
}

/**
 * The candidate doors of a cut's source: an area's (from the grid), a district's, a group's or a
 * segment's voters'.
 */
export async function sourceDoors(
  db: Db,
  orgId: Id<"organizations">,
  source: {
    points?: Position[];
    boundaryId?: Id<"boundaries">;
    districtId?: Id<"districts">;
    groupId?: Id<"voterGroups">;
    segmentId?: Id<"emailSegments">;
  },
): Promise<{ ids: Id<"doors">[]; kind: Doc<"turfs">["source"]; label: string; area: Area | null }> {
  // the doors of a list of voters (a district's, a group's, a segment's), at most MAX_SOURCE_VOTERS
  const ofMembers = async (members: { voterId: Id<"voters"> }[], kind: Doc<"turfs">["source"], label: string) => {
    if (members.length > MAX_SOURCE_VOTERS)
      throw appError("VALIDATION_ERROR", TEXTS.walkLists.turfTooLarge(members.length, MAX_TURF_DOORS));
    const ids = await doorsOfVoters(
      db,
      orgId,
      members.map((m) => m.voterId),
    );
    return { ids, kind, label, area: null };
  };
  if (source.districtId) {
    // a district by its members: voter-file codes and outlines alike (districts.ts)
    const d = await db.get("districts", source.districtId);
    if (!d) throw appError("NOT_FOUND");
    const members = await db
      .query("voterDistricts")
      .withIndex(`by_org_${d.kind}`, (q) => q.eq("orgId", orgId).eq(d.kind, d.key))
      .take(MAX_SOURCE_VOTERS + 1);
    return await ofMembers(members, "district", `${DISTRICT_KIND_SINGULAR[d.kind]} ${d.name}`);
  }
  if (source.groupId) {
    const group = await db.get("voterGroups", source.groupId);
    if (!group) throw appError("NOT_FOUND");
    const members = await db
      .query("voterGroupMembers")
      .withIndex("by_group", (q) => q.eq("groupId", group._id))
      .take(MAX_SOURCE_VOTERS + 1);
    return await ofMembers(members, "group", `Group ${group.name}`);
  }
  if (source.segmentId) {
    const segment = await db.get("emailSegments", source.segmentId);
    if (!segment) throw appError("NOT_FOUND");
    const members = await db
      .query("emailSegmentMembers")
      .withIndex("by_segment_gen", (q) => q.eq("segmentId", segment._id).eq("gen", segment.gen))
      .take(MAX_SOURCE_VOTERS + 1);
    return await ofMembers(members, "segment", `Segment ${segment.name}`);
  }
  const { area, label, kind } = await resolveArea(db, source);
  const found = doorsOfCells(await cellsIn(db, orgId, areaBBox(area)), area);
  checkTurfSize(found.length);
  return { ids: found.map((d) => d.id), kind, label, area };
}

/** Splits a turf's doors by a drawn line (either side) or a drawn area (inside / outside). */
export function splitDoors(
  doors: Doc<"doors">[],
  by: { line?: Position[]; points?: Position[] },
): [Doc<"doors">[], Doc<"doors">[]] {
  const a: Doc<"doors">[] = [];
  const b: Doc<"doors">[] = [];
  if (by.points) {
    const area = ringPolygon(by.points);
    if (!area) throw appError("VALIDATION_ERROR", TEXTS.walkLists.drawArea);
    const inside = areaTester(area);
    for (const d of doors) (inside(d.lat, d.lng) ? a : b).push(d);
  } else {
    const line = (by.line ?? []).filter((p) => p.length === 2);
    if (line.length < 2) throw appError("VALIDATION_ERROR", TEXTS.walkLists.splitEmpty);
    for (const d of doors) (sideOfLine(line, d.lat, d.lng) > 0 ? a : b).push(d);
  }
  if (!a.length || !b.length) throw appError("VALIDATION_ERROR", TEXTS.walkLists.splitEmpty, "Nothing to split");
  return [a, b];
}

/** Takes back the viewer's last turf operation: its new turfs go (unless a walk list uses one), the ones it replaced return. */
export async function undoLast(ctx: MutationCtx, viewer: Viewer): Promise<Doc<"turfOps">["kind"]> {
  const ops = await ctx.db
    .query("turfOps")
    .withIndex("by_org_user", (q) => q.eq("orgId", viewer.orgId).eq("userId", viewer.userId))
    .order("desc")
    .take(20);
  const op = ops.find((o) => !o.undone);
  if (!op) throw appError("VALIDATION_ERROR", TEXTS.walkLists.nothingToUndo, "Nothing to undo");
  for (const id of op.created) {
    const list = await ctx.db
      .query("walkLists")
      .withIndex("by_turf", (q) => q.eq("turfId", id))
      .first();
    if (list) {
      const turf = await ctx.db.get("turfs", id);
      throw appError("CONFLICT", TEXTS.walkLists.undoInUse(turf?.name ?? "", list.name), "Turf in use");
    }
  }
  if (op.kind === "auto") {
    const runs = await ctx.db
      .query("autoCutRuns")
      .withIndex("by_org", (q) => q.eq("orgId", viewer.orgId))
      .order("desc")
      .take(10);
    for (const r of runs)
      if (r.opId === op._id && r.status === "running")
        await ctx.db.patch("autoCutRuns", r._id, { status: "cancelled", finishedAt: Date.now() });
  }
  for (const id of op.created) if (await ctx.db.get("turfs", id)) await ctx.db.delete("turfs", id);
  for (const id of op.archived) if (await ctx.db.get("turfs", id)) await ctx.db.patch("turfs", id, { archived: false });
  await ctx.db.patch("turfOps", op._id, { undone: true });
  return op.kind;
}

/** Starts auto-cutting an area into turfs of about `target` doors. */
export async function startAutoCut(
  ctx: MutationCtx,
  viewer: Viewer,
  args: { name: string; target: number; area: Area; filters: TurfFilters },
): Promise<Id<"autoCutRuns">> {
  const { min, max } = AUTO_TARGET;
  if (!Number.isInteger(args.target) || args.target < min || args.target > max)
    throw appError("VALIDATION_ERROR", TEXTS.walkLists.targetRange(min, max));
  const [, south, , north] = areaBBox(args.area);
  const opId = await recordOp(ctx, viewer, "auto", [], []);
  const runId = await ctx.db.insert("autoCutRuns", {
    orgId: viewer.orgId,
    userId: viewer.userId,
    userName: displayName(viewer.user),
    name: cleanTurfName(args.name),
    target: args.target,
    area: JSON.stringify(args.area),
    filters: args.filters,
    nextRow: rowOf(south),
    lastRow: rowOf(north),
    status: "running",
    turfs: 0,
    doors: 0,
    opId,
    startedAt: Date.now(),
    finishedAt: null,
  });
  await ctx.scheduler.runAfter(0, internal.turfs.autoCutStep, { runId });
  return runId;
}

/** One step of an auto-cut: grid rows until a block of doors, cut into turfs; schedules the next. */
export async function autoCutStep(ctx: MutationCtx, runId: Id<"autoCutRuns">): Promise<void> {
  const run = await ctx.db.get("autoCutRuns", runId);
  if (!run || run.status !== "running") return;
  const area = JSON.parse(run.area) as Area;
  const [west, , east] = areaBBox(area);
  // the doors the filters keep, leaving out those an open walk list holds (making a list from a
  // turf checks again: a door taken meanwhile is refused there)
  const filters = run.filters ?? {};
  const doors: CellDoor[] = [];
  let row = run.nextRow;
  while (row <= run.lastRow && doors.length < AUTO_BLOCK) {
    const lat = (row + 0.5) * CELL_DEGREES - 90;
    const cells = await cellsIn(ctx.db, run.orgId, [west, lat, east, lat]);
    for (const d of await filteredDoorsOfCells(ctx.db, cells, area, filters)) if (!d.held) doors.push(d.door);
    row++;
  }
  const op = await ctx.db.get("turfOps", run.opId);
  const created: Id<"turfs">[] = [];
  const viewer = { orgId: run.orgId, userId: run.userId, user: { name: run.userName } as Doc<"users"> };
  let k = run.turfs;
  for (const group of autoCut(doors, run.target)) {
    const turfDoors = group.map((i) => doors[i]);
    k++;
    created.push(
      await insertTurf(ctx, viewer, {
        name: `${run.name} ${k}`,
        doors: turfDoors,
        voters: turfDoors.reduce((n, d) => n + d.voters, 0),
        source: "auto",
        sourceLabel: `Auto-cut ${run.name}`,
        area: null,
        filters,
      }),
    );
  }
  if (op) await ctx.db.patch("turfOps", op._id, { created: [...op.created, ...created], at: Date.now() });
  const done = row > run.lastRow;
  await ctx.db.patch("autoCutRuns", runId, {
    nextRow: row,
    turfs: k,
    doors: run.doors + doors.length,
    ...(done ? { status: "done" as const, finishedAt: Date.now() } : {}),
  });
  if (!done) await ctx.scheduler.runAfter(0, internal.turfs.autoCutStep, { runId });
}
