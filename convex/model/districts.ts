/**
 * Districts (issue 37; the pure rules in lib/districts.ts). A voter belongs to a district by its
 * voter-file code and, when placed on the map, by the boundary polygon it lies in (an rbush index
 * of the organisation's outlines' bounding boxes, built per step, then turf's point in polygon on
 * the few candidates). Each voter's membership is one voterDistricts row (and where code and map
 * disagree, a districtDisagreements row per kind, written with it); each district keeps its
 * tally (voters, party × status, turnout per election, disagreements), changed by every voter
 * write and every assignment — never counted by a scan.
 *
 * Assigning the whole voter file is a run: a chain of mutations over voters by `by_org`, a page
 * per transaction, resumable from its cursor and idempotent (a voter whose membership is
 * unchanged costs reads only). A boundaries layer that becomes ready or goes, an import, and the
 * end of a geocoding run start one; a voter whose codes or place change is assigned alone.
 */
import RBush from "rbush";
import { internal } from "../_generated/api";
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { inArea } from "../lib/geo/areas";
import type { BoundaryGeometry } from "../lib/geo/tiger";
import {
  DISTRICT_KINDS,
  DistrictDeltas,
  addToLookup,
  boundaryKey,
  codesDiffer,
  districtFilter,
  districtOfCode,
  electionsOf,
  emptyLookup,
  kindOfLayer,
  membership,
  mergeCells,
  mergeTurnout,
  sameMembership,
  voterCodes,
  type DistrictKind,
  type KindLookup,
  type Membership,
  type TallyVoter,
  type VoterCodeFields,
} from "../lib/districts";
import { readCounters } from "./counters";

type Db = QueryCtx["db"];

/** Voters per step of a run (2,000: about 90 ms and 4,000 documents read on the bench machine; a real voter file's larger documents stay well inside 16 MB read). */
export const DISTRICT_STEP = 2000;
/** Boundaries turned into districts per step when a layer becomes ready (their geometry is read). */
const SYNC_STEP = 100;
/** Outline rows removed per step when a layer goes. */
const DROP_STEP = 1000;

type ShapeItem = { minX: number; minY: number; maxX: number; maxY: number; shape: Doc<"districtShapes"> };

/**
 * A step's view of the organisation's districts: the outlines' boxes in an rbush, how codes find
 * their districts, and the outlines read so far (each boundary's geometry read once a step).
 */
export class DistrictIndex {
  private tree = new RBush<ShapeItem>();
  private geometries = new Map<Id<"boundaries">, BoundaryGeometry | null>();
  readonly lookup: Record<DistrictKind, KindLookup> = emptyLookup();
  readonly hasShapes: boolean;

  private constructor(
    private db: Db,
    shapes: Doc<"districtShapes">[],
  ) {
    this.tree.load(
      shapes.map((s) => ({ minX: s.bbox[0], minY: s.bbox[1], maxX: s.bbox[2], maxY: s.bbox[3], shape: s })),
    );
    for (const s of shapes) addToLookup(this.lookup, s.kind, s.key, s.code, s.name);
    this.hasShapes = shapes.length > 0;
  }

  static async load(db: Db, orgId: Id<"organizations">): Promise<DistrictIndex> {
    const shapes = await db
      .query("districtShapes")
      .withIndex("by_org_kind", (q) => q.eq("orgId", orgId))
      .collect();
    return new DistrictIndex(db, shapes);
  }

  private async geometry(id: Id<"boundaries">): Promise<BoundaryGeometry | null> {
    if (this.geometries.has(id)) return this.geometries.get(id)!;
    const row = await this.db.get("boundaries", id);
    const g = row ? (JSON.parse(row.geometry) as BoundaryGeometry) : null;
    this.geometries.set(id, g);
    return g;
  }

  /** The districts whose outline holds the point, per kind (the first outline found of a kind). */
  async at(lng: number, lat: number): Promise<Partial<Record<DistrictKind, string>>> {
    const out: Partial<Record<DistrictKind, string>> = {};
    const hits = this.tree.search({ minX: lng, minY: lat, maxX: lng, maxY: lat });
    for (const { shape } of hits) {
      if (out[shape.kind] !== undefined) continue;
      const g = await this.geometry(shape.boundaryId);
      if (g && inArea([lng, lat], g)) out[shape.kind] = shape.key;
    }
    return out;
  }

  /** A voter's codes resolved to districts. */
  codes(voter: Doc<"voters">): Partial<Record<DistrictKind, string>> {
    const out: Partial<Record<DistrictKind, string>> = {};
    const codes = voterCodes(voter);
    for (const kind of DISTRICT_KINDS) {
      const c = codes[kind];
      if (c !== undefined) out[kind] = districtOfCode(this.lookup[kind], c);
    }
    return out;
  }

  /** A voter's membership now (its place: null when not placed well enough for the map to judge). */
  async membershipOf(voter: Doc<"voters">, place: Doc<"voterPlaces"> | null): Promise<Membership> {
    const judged =
      this.hasShapes &&
      place !== null &&
      place.lat !== null &&
      place.lng !== null &&
      place.quality !== "zip centroid" &&
      place.quality !== "failed";
    return membership(this.codes(voter), judged ? await this.at(place.lng!, place.lat!) : null);
  }
}

/** The membership a voterDistricts row holds (none: no row). */
export function rowMembership(row: Doc<"voterDistricts"> | null): Membership {
  const districts: Membership["districts"] = {};
  if (row) for (const k of DISTRICT_KINDS) if (row[k] !== undefined) districts[k] = row[k];
  return { districts, mapped: row?.mapped ?? [] };
}

const isEmpty = (m: Membership) => m.mapped.length === 0 && DISTRICT_KINDS.every((k) => m.districts[k] === undefined);

/**
 * Makes a voter's disagreement rows those of its membership (`mapped` with the code's district per
 * kind): rows no longer true go, missing ones are added (an unchanged membership costs one read).
 */
async function syncDisagreements(ctx: MutationCtx, voter: Doc<"voters">, m: Membership): Promise<void> {
  const want = new Map<string, { kind: DistrictKind; coded: string; mapped: string }>();
  for (const { kind, key } of m.mapped) {
    const coded = m.districts[kind];
    if (coded !== undefined) want.set(`${kind}\u0000${coded}\u0000${key}`, { kind, coded, mapped: key });
  }
  const rows = await ctx.db
    .query("districtDisagreements")
    .withIndex("by_voter", (q) => q.eq("voterId", voter._id))
    .collect();
  for (const r of rows) {
    const id = `${r.kind}\u0000${r.coded}\u0000${r.mapped}`;
    if (want.has(id)) want.delete(id);
    else await ctx.db.delete("districtDisagreements", r._id);
  }
  for (const d of want.values())
    await ctx.db.insert("districtDisagreements", { orgId: voter.orgId, voterId: voter._id, ...d });
}

/** Writes a voter's membership if it changed (deltas: the tally changes it makes); true when it did. */
async function writeMembership(
  ctx: MutationCtx,
  voter: Doc<"voters">,
  row: Doc<"voterDistricts"> | null,
  next: Membership,
  deltas: DistrictDeltas,
): Promise<boolean> {
  const before = rowMembership(row);
  if (sameMembership(before, next)) {
    // a disagreeing voter's rows are checked (a run repairs them); an agreeing one has none
    if (next.mapped.length) await syncDisagreements(ctx, voter, next);
    return false;
  }
  if (before.mapped.length || next.mapped.length) await syncDisagreements(ctx, voter, next);
  deltas.add(voter, before, -1);
  deltas.add(voter, next, 1);
  const fields = { ...next.districts, mapped: next.mapped.length ? next.mapped : undefined };
  if (isEmpty(next)) {
    if (row) await ctx.db.delete("voterDistricts", row._id);
  } else if (row) {
    await ctx.db.replace("voterDistricts", row._id, {
      orgId: voter.orgId,
      voterId: voter._id,
      voterAt: voter._creationTime,
      ...fields,
    });
  } else {
    await ctx.db.insert("voterDistricts", {
      orgId: voter.orgId,
      voterId: voter._id,
      voterAt: voter._creationTime,
      ...fields,
    });
  }
  return true;
}

/** Applies summed tally changes, one read and write per district; a district of codes alone is created and removed with its voters. */
export async function flushDistrictDeltas(
  ctx: MutationCtx,
  orgId: Id<"organizations">,
  deltas: DistrictDeltas,
): Promise<void> {
  const now = Date.now();
  for (const d of deltas.byDistrict.values()) {
    if (d.voters === 0 && d.codedElsewhere === 0 && d.mappedElsewhere === 0) {
      if ([...d.cells.values(), ...d.turnout.values()].every((n) => n === 0)) continue;
    }
    const row = await ctx.db
      .query("districts")
      .withIndex("by_org_kind_key", (q) => q.eq("orgId", orgId).eq("kind", d.kind).eq("key", d.key))
      .unique();
    const tally = {
      voters: Math.max(0, (row?.voters ?? 0) + d.voters),
      codedElsewhere: Math.max(0, (row?.codedElsewhere ?? 0) + d.codedElsewhere),
      mappedElsewhere: Math.max(0, (row?.mappedElsewhere ?? 0) + d.mappedElsewhere),
      cells: mergeCells(row?.cells ?? [], d.cells),
      turnout: mergeTurnout(row?.turnout ?? [], d.turnout),
      updatedAt: now,
    };
    const empty = tally.voters === 0 && tally.codedElsewhere === 0;
    if (row) {
      if (empty && row.boundaryId === null) await ctx.db.delete("districts", row._id);
      else await ctx.db.patch("districts", row._id, tally);
    } else if (!empty) {
      await ctx.db.insert("districts", {
        orgId,
        kind: d.kind,
        key: d.key,
        name: d.key.replace(/^~/, ""),
        code: d.key.startsWith("~") ? null : d.key,
        boundaryId: null,
        layerId: null,
        bbox: null,
        ...tally,
      });
    }
  }
  deltas.clear();
}

/** A voter's membership row, found by its creation time (the index a run's steps read: no index of its own). */
async function membershipRow(db: Db, voter: Doc<"voters">): Promise<Doc<"voterDistricts"> | null> {
  const rows = await db
    .query("voterDistricts")
    .withIndex("by_org_voter_at", (q) => q.eq("orgId", voter.orgId).eq("voterAt", voter._creationTime))
    .collect();
  return rows.find((r) => r.voterId === voter._id) ?? null;
}

/** Assigns one voter now (its codes or place changed); returns whether its membership changed. */
export async function assignVoter(ctx: MutationCtx, voterId: Id<"voters">): Promise<boolean> {
  const voter = await ctx.db.get("voters", voterId);
  if (!voter) return false;
  const index = await DistrictIndex.load(ctx.db, voter.orgId);
  const place = await ctx.db
    .query("voterPlaces")
    .withIndex("by_voter", (q) => q.eq("voterId", voterId))
    .unique();
  const deltas = new DistrictDeltas();
  const changed = await writeMembership(
    ctx,
    voter,
    await membershipRow(ctx.db, voter),
    await index.membershipOf(voter, place),
    deltas,
  );
  await flushDistrictDeltas(ctx, voter.orgId, deltas);
  return changed;
}

/** The districts ("kind:key") of a page of voters in creation order, from their memberships (one index range). */
export async function districtFiltersOf(
  db: Db,
  orgId: Id<"organizations">,
  voters: Doc<"voters">[],
): Promise<Map<Id<"voters">, string[]>> {
  const out = new Map<Id<"voters">, string[]>();
  if (voters.length === 0) return out;
  const times = voters.map((v) => v._creationTime);
  const rows = await db
    .query("voterDistricts")
    .withIndex("by_org_voter_at", (q) =>
      q
        .eq("orgId", orgId)
        .gte("voterAt", Math.min(...times))
        .lte("voterAt", Math.max(...times)),
    )
    .collect();
  for (const r of rows) {
    const m = rowMembership(r);
    out.set(
      r.voterId,
      DISTRICT_KINDS.flatMap((k) => (m.districts[k] !== undefined ? [districtFilter(k, m.districts[k])] : [])),
    );
  }
  return out;
}

/** Whether the organisation has district outlines (a boundaries layer made ready). */
async function hasOutlines(db: Db, orgId: Id<"organizations">): Promise<boolean> {
  return (
    (await db
      .query("districtShapes")
      .withIndex("by_org_kind", (q) => q.eq("orgId", orgId))
      .first()) !== null
  );
}

/** After a single voter's insert: assigned in a step of its own when it has codes or the organisation has outlines. */
export async function assignWhenCreated(
  ctx: MutationCtx,
  orgId: Id<"organizations">,
  voterId: Id<"voters">,
  fields: VoterCodeFields,
): Promise<void> {
  if (Object.keys(voterCodes(fields)).length === 0 && !(await hasOutlines(ctx.db, orgId))) return;
  await ctx.scheduler.runAfter(0, internal.districts.assignOne, { voterId });
}

/**
 * A voter's save: the tallies of its districts follow a changed party, status or vote history at
 * once (in `deltas`, flushed by the caller); changed codes assign it again in a step of its own
 * (`schedule`; a bulk writer's import starts a run at its end instead).
 */
export async function onVoterSaved(
  ctx: MutationCtx,
  before: Doc<"voters">,
  after: TallyVoter & { precinct?: string; custom_fields?: Record<string, string> },
  deltas: DistrictDeltas,
  schedule: boolean,
): Promise<void> {
  const tallied =
    before.party_affiliation !== after.party_affiliation ||
    before.status !== after.status ||
    electionsOf(before).join("\u0000") !== electionsOf(after).join("\u0000");
  if (tallied) {
    const row = await membershipRow(ctx.db, before);
    if (row) {
      const m = rowMembership(row);
      deltas.add(before, m, -1);
      deltas.add(after, m, 1);
    }
  }
  if (schedule && codesDiffer(before, after))
    await ctx.scheduler.runAfter(0, internal.districts.assignOne, { voterId: before._id });
}

/** A voter's deletion: its row goes and its districts count it no more. */
export async function onVoterDeleted(ctx: MutationCtx, voter: Doc<"voters">, deltas: DistrictDeltas): Promise<void> {
  const row = await membershipRow(ctx.db, voter);
  if (!row) return;
  deltas.add(voter, rowMembership(row), -1);
  await ctx.db.delete("voterDistricts", row._id);
  if (row.mapped?.length)
    for (const d of await ctx.db
      .query("districtDisagreements")
      .withIndex("by_voter", (q) => q.eq("voterId", voter._id))
      .collect())
      await ctx.db.delete("districtDisagreements", d._id);
}

/** Starts a run over every voter (a running one is cancelled: the new one covers it). */
export async function startDistrictRun(
  ctx: MutationCtx,
  orgId: Id<"organizations">,
  reason: string,
): Promise<Id<"districtRuns">> {
  const recent = await ctx.db
    .query("districtRuns")
    .withIndex("by_org", (q) => q.eq("orgId", orgId))
    .order("desc")
    .take(5);
  const now = Date.now();
  for (const r of recent)
    if (r.status === "running") await ctx.db.patch("districtRuns", r._id, { status: "cancelled", finishedAt: now });
  const runId = await ctx.db.insert("districtRuns", {
    orgId,
    status: "running",
    reason,
    cursor: null,
    processed: 0,
    changed: 0,
    total: (await readCounters(ctx, orgId)).voters,
    startedAt: now,
    finishedAt: null,
  });
  await ctx.scheduler.runAfter(0, internal.districts.step, { runId });
  return runId;
}

/** One step of a run: a page of voters assigned; schedules the next, or ends the run. */
export async function districtStep(ctx: MutationCtx, runId: Id<"districtRuns">): Promise<void> {
  const run = await ctx.db.get("districtRuns", runId);
  if (!run || run.status !== "running") return;
  const page = await ctx.db
    .query("voters")
    .withIndex("by_org", (q) => q.eq("orgId", run.orgId))
    .paginate({ cursor: run.cursor, numItems: DISTRICT_STEP });
  const index = await DistrictIndex.load(ctx.db, run.orgId);
  const places = new Map<Id<"voters">, Doc<"voterPlaces">>();
  const rows = new Map<Id<"voters">, Doc<"voterDistricts">>();
  if (page.page.length) {
    // the page's places and rows, each in one index range (a page is in creation order)
    const [first, last] = [page.page[0]._creationTime, page.page[page.page.length - 1]._creationTime];
    if (index.hasShapes)
      for (const p of await ctx.db
        .query("voterPlaces")
        .withIndex("by_org_voter_at", (q) => q.eq("orgId", run.orgId).gte("voterAt", first).lte("voterAt", last))
        .collect())
        places.set(p.voterId, p);
    for (const r of await ctx.db
      .query("voterDistricts")
      .withIndex("by_org_voter_at", (q) => q.eq("orgId", run.orgId).gte("voterAt", first).lte("voterAt", last))
      .collect())
      rows.set(r.voterId, r);
  }
  const deltas = new DistrictDeltas();
  let changed = 0;
  for (const voter of page.page) {
    const next = await index.membershipOf(voter, places.get(voter._id) ?? null);
    if (await writeMembership(ctx, voter, rows.get(voter._id) ?? null, next, deltas)) changed++;
  }
  await flushDistrictDeltas(ctx, run.orgId, deltas);
  const progress = { processed: run.processed + page.page.length, changed: run.changed + changed };
  if (page.isDone) {
    await ctx.db.patch("districtRuns", runId, { ...progress, cursor: null, status: "done", finishedAt: Date.now() });
    return;
  }
  await ctx.db.patch("districtRuns", runId, { ...progress, cursor: page.continueCursor });
  await ctx.scheduler.runAfter(0, internal.districts.step, { runId });
}

/** After a geocoding run: the map may place voters in other districts (only when there are outlines). */
export async function afterGeocoding(ctx: MutationCtx, orgId: Id<"organizations">): Promise<void> {
  if (await hasOutlines(ctx.db, orgId)) await startDistrictRun(ctx, orgId, "voters placed on the map");
}

/** A boundaries layer became ready: its outlines become districts, a step at a time, then the voters are assigned. */
export async function startLayerSync(ctx: MutationCtx, layer: Doc<"mapLayers">): Promise<void> {
  if (layer.kind !== "boundaries" || !kindOfLayer(layer.tigerLayer ?? "custom")) return;
  await ctx.scheduler.runAfter(0, internal.districts.syncLayerStep, { layerId: layer._id, cursor: null });
}

export async function syncLayerStep(ctx: MutationCtx, layerId: Id<"mapLayers">, cursor: string | null): Promise<void> {
  const layer = await ctx.db.get("mapLayers", layerId);
  if (!layer || layer.status !== "ready") return;
  const kind = kindOfLayer(layer.tigerLayer ?? "custom")!;
  const page = await ctx.db
    .query("boundaries")
    .withIndex("by_layer", (q) => q.eq("layerId", layerId))
    .paginate({ cursor, numItems: SYNC_STEP });
  const now = Date.now();
  for (const b of page.page) {
    const key = boundaryKey(b.code, b.name);
    const row = await ctx.db
      .query("districts")
      .withIndex("by_org_kind_key", (q) => q.eq("orgId", layer.orgId).eq("kind", kind).eq("key", key))
      .unique();
    const outline = { name: b.name, code: b.code, boundaryId: b._id, layerId, bbox: b.bbox, updatedAt: now };
    let districtId = row?._id;
    if (row) await ctx.db.patch("districts", row._id, outline);
    else
      districtId = await ctx.db.insert("districts", {
        orgId: layer.orgId,
        kind,
        key,
        ...outline,
        voters: 0,
        codedElsewhere: 0,
        mappedElsewhere: 0,
        cells: [],
        turnout: [],
      });
    await ctx.db.insert("districtShapes", {
      orgId: layer.orgId,
      layerId,
      boundaryId: b._id,
      districtId: districtId!,
      kind,
      key,
      name: b.name,
      code: b.code,
      bbox: b.bbox,
    });
  }
  if (!page.isDone) {
    await ctx.scheduler.runAfter(0, internal.districts.syncLayerStep, { layerId, cursor: page.continueCursor });
    return;
  }
  await startDistrictRun(ctx, layer.orgId, `the boundaries layer ${layer.name}`);
}

/** A boundaries layer goes: its outlines leave the index and its districts lose them, a step at a time, then the voters are assigned again. */
export async function startLayerDrop(ctx: MutationCtx, layer: Doc<"mapLayers">): Promise<void> {
  if (layer.kind !== "boundaries") return;
  await ctx.scheduler.runAfter(0, internal.districts.dropLayerStep, {
    layerId: layer._id,
    orgId: layer.orgId,
    name: layer.name,
  });
}

export async function dropLayerStep(
  ctx: MutationCtx,
  layerId: Id<"mapLayers">,
  orgId: Id<"organizations">,
  name: string,
): Promise<void> {
  const shapes = await ctx.db
    .query("districtShapes")
    .withIndex("by_layer", (q) => q.eq("layerId", layerId))
    .take(DROP_STEP);
  for (const s of shapes) await ctx.db.delete("districtShapes", s._id);
  const districts = await ctx.db
    .query("districts")
    .withIndex("by_layer", (q) => q.eq("layerId", layerId))
    .take(DROP_STEP - shapes.length);
  for (const d of districts) {
    if (d.voters === 0 && d.codedElsewhere === 0) await ctx.db.delete("districts", d._id);
    else await ctx.db.patch("districts", d._id, { boundaryId: null, layerId: null, bbox: null, updatedAt: Date.now() });
  }
  if (shapes.length + districts.length >= DROP_STEP) {
    await ctx.scheduler.runAfter(0, internal.districts.dropLayerStep, { layerId, orgId, name });
    return;
  }
  await startDistrictRun(ctx, orgId, `the boundaries layer ${name} was deleted`);
}
