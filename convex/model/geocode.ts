/**
 * Geocoding the voter file (issue 36): a run goes through the organisation's voters by `by_org`, a
 * batch per transaction (a chain of mutations, each scheduling the next: it survives a backend
 * kill, and a step that fails is retried by its scheduler entry), placing each on the
 * organisation's streets layer with the offline geocoder (lib/geo). A voter already placed from
 * the same address on the same layer is counted, not placed again, so a re-run after an import
 * or a changed address costs reads only. A new streets layer starts a run; a changed address
 * places its voter at once.
 */
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { internal } from "../_generated/api";
import { normalizeAddress, type NormalizedAddress } from "../lib/geo/address";
import { addressLookupPrefixes, geocode, type GeocodeResult } from "../lib/geo/geocoder";
import type { Position, StreetSegment } from "../lib/geo/tiger";
import type { GeocodeQualityValue, QualityCounts } from "../tables/geo";
import { readCounters } from "./counters";
import { startDoorBuild, syncVoterDoor } from "./doors";
import { afterGeocoding } from "./districts";
import { readyLayer } from "./mapData";

type Db = QueryCtx["db"];

/** Voters per step of a run. */
export const GEOCODE_STEP = 500;

export const NO_COUNTS: QualityCounts = { exact: 0, interpolated: 0, streetOnly: 0, zipCentroid: 0, failed: 0 };

const COUNT_KEY: Record<GeocodeQualityValue, keyof QualityCounts> = {
  "exact range": "exact",
  interpolated: "interpolated",
  "street only": "streetOnly",
  "zip centroid": "zipCentroid",
  failed: "failed",
};

/** The one-line address a voter is placed from ("" when the voter has no street address). */
export function voterAddress(voter: Pick<Doc<"voters">, "address" | "street" | "city" | "state" | "zip">): string {
  const line = (voter.address || voter.street || "").trim();
  if (!line) return "";
  const region = [voter.state, voter.zip].filter(Boolean).join(" ");
  return [line, voter.city, region].filter((p) => p && p.trim()).join(", ");
}

function segmentOf(row: Doc<"streetSegments">): StreetSegment {
  const coords: Position[] = [];
  for (let i = 0; i + 1 < row.coords.length; i += 2) coords.push([row.coords[i], row.coords[i + 1]]);
  return {
    name: row.name,
    key: row.key,
    looseKey: row.looseKey,
    tlid: row.tlid,
    mtfcc: row.mtfcc,
    lFrom: row.lFrom,
    lTo: row.lTo,
    rFrom: row.rFrom,
    rTo: row.rTo,
    parityL: row.parityL,
    parityR: row.parityR,
    zipL: row.zipL,
    zipR: row.zipR,
    addressable: true,
    coords,
    bbox: [row.bbox[0], row.bbox[1], row.bbox[2], row.bbox[3]],
  };
}

/**
 * The segments an address is geocoded against: those of its street key, else (none) those of its
 * loose key — the same order as lib/geo's in-memory CandidateIndex. `cache` keeps a step's streets.
 */
export async function candidatesFor(
  db: Db,
  orgId: Id<"organizations">,
  address: NormalizedAddress,
  cache: Map<string, StreetSegment[]>,
): Promise<StreetSegment[]> {
  const [exactPrefix] = addressLookupPrefixes(address);
  const cachedExact = cache.get(exactPrefix);
  if (cachedExact?.length) return cachedExact;
  if (!cachedExact) {
    const rows = await db
      .query("streetSegments")
      .withIndex("by_org_key_zip_lo", (q) => q.eq("orgId", orgId).eq("key", address.key))
      .collect();
    const found = rows.map(segmentOf);
    cache.set(exactPrefix, found);
    if (found.length) return found;
  }
  const looseCacheKey = `~${address.looseKey}`;
  let loose = cache.get(looseCacheKey);
  if (!loose) {
    const rows = await db
      .query("streetSegments")
      .withIndex("by_org_loose", (q) => q.eq("orgId", orgId).eq("looseKey", address.looseKey))
      .collect();
    loose = rows.map(segmentOf);
    cache.set(looseCacheKey, loose);
  }
  return loose;
}

/** Segments of a street in a ZIP whose lowest number is at most the house's: the nearest few hold it. */
const NEAR = 3;

/**
 * Places one address on the organisation's streets, with the segments it was placed against.
 * First the few segments of its street and ZIP just below its number (one short index range): an
 * exact range there on its own ZIP is what the whole street would give too. Else the whole street
 * (cached for the step), as lib/geo's geocoder decides.
 */
export async function placeAddress(
  db: Db,
  streets: Doc<"mapLayers">,
  address: string,
  cache: Map<string, StreetSegment[]>,
): Promise<{ result: GeocodeResult; candidates: StreetSegment[] }> {
  const parsed = address ? normalizeAddress(address) : null;
  if (!parsed) return { result: { quality: "failed" }, candidates: [] };
  const centre = parsed.zip ? streets.zipCentres?.find((z) => z.zip === parsed.zip) : undefined;
  const options = { zipCentroid: centre ? { lat: centre.lat, lng: centre.lng } : null };
  if (parsed.zip) {
    const near = (
      await db
        .query("streetSegments")
        .withIndex("by_org_key_zip_lo", (q) =>
          q.eq("orgId", streets.orgId).eq("key", parsed.key).eq("zip", parsed.zip!).lte("lo", parsed.number),
        )
        .order("desc")
        .take(NEAR)
    ).map(segmentOf);
    const result = geocode(parsed, near, options);
    if (result.quality === "exact range") {
      const s = near[result.segment];
      if ((result.side === "L" ? s.zipL : s.zipR) === parsed.zip) return { result, candidates: near };
    }
  }
  const candidates = await candidatesFor(db, streets.orgId, parsed, cache);
  return { result: geocode(parsed, candidates, options), candidates };
}

/**
 * Places a voter (or records that it cannot be placed) unless it already is, from the same address
 * on the same layer. Returns the quality it has.
 */
export async function placeVoter(
  ctx: MutationCtx,
  voter: Doc<"voters">,
  streets: Doc<"mapLayers">,
  cache: Map<string, StreetSegment[]>,
  known?: Doc<"voterPlaces"> | null,
  /** "run": a geocoding run's step, whose first places join their doors after the run (buildDoors) */
  doors: "now" | "run" = "now",
): Promise<GeocodeQualityValue> {
  const layerId = streets._id;
  const address = voterAddress(voter);
  const existing =
    known !== undefined
      ? known
      : await ctx.db
          .query("voterPlaces")
          .withIndex("by_voter", (q) => q.eq("voterId", voter._id))
          .unique();
  if (existing && existing.address === address && existing.layerId === layerId) return existing.quality;
  const { result: r } = await placeAddress(ctx.db, streets, address, cache);
  const row = {
    address,
    quality: r.quality,
    lat: "lat" in r ? r.lat : null,
    lng: "lng" in r ? r.lng : null,
    layerId,
    at: Date.now(),
  };
  if (existing) await ctx.db.patch("voterPlaces", existing._id, row);
  else
    await ctx.db.insert("voterPlaces", {
      orgId: voter.orgId,
      voterId: voter._id,
      voterAt: voter._creationTime,
      ...row,
    });
  // the voter's door (household) follows their place; in a run, a voter placed for the first time
  // (nearly all of a new voter file) joins it in the door build the run ends with
  if (doors === "now" || (existing && existing.address !== address))
    await syncVoterDoor(ctx, voter.orgId, voter._id, existing, row);
  return r.quality;
}

/**
 * After a voter's save: a voter whose address changed (or a new one with an address) is placed
 * again, in a step of its own, when the organisation has streets.
 */
export async function placeWhenMoved(
  ctx: MutationCtx,
  voterId: Id<"voters">,
  before: Parameters<typeof voterAddress>[0] | null,
  after: Parameters<typeof voterAddress>[0],
): Promise<void> {
  const address = voterAddress(after);
  if (before !== null && voterAddress(before) === address) return;
  const place = await ctx.db
    .query("voterPlaces")
    .withIndex("by_voter", (q) => q.eq("voterId", voterId))
    .unique();
  if (!address && !place) return;
  const voter = await ctx.db.get("voters", voterId);
  if (!voter || !(await readyLayer(ctx.db, voter.orgId, "streets"))) return;
  await ctx.scheduler.runAfter(0, internal.geocode.placeOne, { voterId });
}

/** Starts a run over every voter of the organisation (a running one is cancelled: the new one covers it). */
export async function startGeocodeRun(
  ctx: MutationCtx,
  orgId: Id<"organizations">,
  reason: string,
  layerId: Id<"mapLayers">,
): Promise<Id<"geocodeRuns">> {
  const running = await ctx.db
    .query("geocodeRuns")
    .withIndex("by_org", (q) => q.eq("orgId", orgId))
    .order("desc")
    .take(5);
  const now = Date.now();
  for (const r of running)
    if (r.status === "running") await ctx.db.patch("geocodeRuns", r._id, { status: "cancelled", finishedAt: now });
  const total = (await readCounters(ctx, orgId)).voters;
  const runId = await ctx.db.insert("geocodeRuns", {
    orgId,
    status: "running",
    reason,
    layerId,
    cursor: null,
    processed: 0,
    total,
    counts: { ...NO_COUNTS },
    startedAt: now,
    finishedAt: null,
  });
  await ctx.scheduler.runAfter(0, internal.geocode.step, { runId });
  return runId;
}

/** One step of a run: a page of voters placed; schedules the next, or ends the run. */
export async function geocodeStep(ctx: MutationCtx, runId: Id<"geocodeRuns">): Promise<void> {
  const run = await ctx.db.get("geocodeRuns", runId);
  if (!run || run.status !== "running") return;
  const streets = await readyLayer(ctx.db, run.orgId, "streets");
  if (!streets || streets._id !== run.layerId) {
    await ctx.db.patch("geocodeRuns", runId, { status: "cancelled", finishedAt: Date.now() });
    return;
  }
  const page = await ctx.db
    .query("voters")
    .withIndex("by_org", (q) => q.eq("orgId", run.orgId))
    .paginate({ cursor: run.cursor, numItems: GEOCODE_STEP });
  const counts = { ...run.counts };
  const cache = new Map<string, StreetSegment[]>();
  // the page's places, in one index range (a page is in creation order)
  const known = new Map<Id<"voters">, Doc<"voterPlaces">>();
  if (page.page.length) {
    const [first, last] = [page.page[0]._creationTime, page.page[page.page.length - 1]._creationTime];
    const places = await ctx.db
      .query("voterPlaces")
      .withIndex("by_org_voter_at", (q) => q.eq("orgId", run.orgId).gte("voterAt", first).lte("voterAt", last))
      .collect();
    for (const p of places) known.set(p.voterId, p);
  }
  for (const voter of page.page)
    counts[COUNT_KEY[await placeVoter(ctx, voter, streets, cache, known.get(voter._id) ?? null, "run")]]++;
  const processed = run.processed + page.page.length;
  if (page.isDone) {
    await ctx.db.patch("geocodeRuns", runId, {
      cursor: null,
      processed,
      counts,
      status: "done",
      finishedAt: Date.now(),
    });
    // the voters it placed join their doors (households) for turf cutting, in steps of their own
    await startDoorBuild(ctx, run.orgId);
    // the map now places voters: their districts by outline follow
    await afterGeocoding(ctx, run.orgId);
    return;
  }
  await ctx.db.patch("geocodeRuns", runId, { cursor: page.continueCursor, processed, counts });
  await ctx.scheduler.runAfter(0, internal.geocode.step, { runId });
}
