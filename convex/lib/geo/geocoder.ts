/**
 * The offline geocoder (issue 36, DESIGN.md §6): a normalised address and the street segments of its
 * street key (fetched by key, see `segmentLookupKeys`) → a point, with a quality.
 *
 * - "exact range": the house number is inside a side's address range of the right parity (odd/even
 *   from PARITYL/PARITYR, else from the range's ends), on the address's ZIP (else a side without a
 *   ZIP, else one place on another ZIP: TIGER's ZIPs are approximate). The point is interpolated
 *   along the polyline by length (haversine) from the range's FROM end (ranges run low→high or
 *   high→low along the digitised direction) and set OFFSET_METRES off the centreline to the
 *   range's side (left/right of the digitised direction).
 * - "interpolated": no range holds the number, but one of the right parity on the street in the
 *   ZIP ends at most JUST_OUTSIDE numbers away: its nearer end.
 * - "street only": the street is there, no range fits: the middle of its segments in the ZIP (or of
 *   all of them when the file gives the street no ZIPs).
 * - "zip centroid": the street is not found (or is ambiguous) and the caller gave the ZIP's centre.
 * - "failed": nothing to place the address on.
 *
 * Precision first: an address never lands on another street. A street key found in two places
 * (two towns' Main St) and not on the address's ZIP is not guessed between.
 */
import type { NormalizedAddress } from "./address";
import type { Position, StreetSegment } from "./tiger";

export type GeocodeQuality = "exact range" | "interpolated" | "street only" | "zip centroid" | "failed";
export type Side = "L" | "R";
export type GeocodeResult =
  | { quality: "exact range" | "interpolated"; lat: number; lng: number; segment: number; side: Side; tlid?: number }
  | { quality: "street only"; lat: number; lng: number; segment: number; tlid?: number }
  | { quality: "zip centroid"; lat: number; lng: number }
  | { quality: "failed" };

export type GeocodeOptions = {
  /** the centre of the address's ZIP (zipcodes), used when the street cannot be placed */
  zipCentroid?: { lat: number; lng: number } | null;
  offsetMetres?: number;
};

/** How far off the centreline a house is set, to its side of the street. */
export const OFFSET_METRES = 10;
/** A number at most this far outside the nearest range of its parity is placed at that range's end. */
export const JUST_OUTSIDE = 100;
/** Hits on other ZIPs farther apart than this are different places, not one street. */
const ONE_PLACE_METRES = 1_000;

const EARTH_RADIUS = 6_371_008.8;
const RAD = Math.PI / 180;

/** Great-circle distance in metres between two [lng, lat] points. */
export function haversine([lng1, lat1]: Position, [lng2, lat2]: Position): number {
  const dLat = (lat2 - lat1) * RAD;
  const dLng = (lng2 - lng1) * RAD;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS * Math.asin(Math.min(1, Math.sqrt(a)));
}

type SideRange = { segment: number; side: Side; from: number; to: number; zip?: string };

function sidesOf(segments: StreetSegment[], indices: number[]): SideRange[] {
  const out: SideRange[] = [];
  for (const i of indices) {
    const s = segments[i];
    if (s.lFrom !== undefined && s.lTo !== undefined)
      out.push({ segment: i, side: "L", from: s.lFrom, to: s.lTo, zip: s.zipL });
    if (s.rFrom !== undefined && s.rTo !== undefined)
      out.push({ segment: i, side: "R", from: s.rFrom, to: s.rTo, zip: s.zipR });
  }
  return out;
}

function parityFits(segment: StreetSegment, r: SideRange, n: number): boolean {
  const field = r.side === "L" ? segment.parityL : segment.parityR;
  const parity = field ?? (r.from % 2 === r.to % 2 ? (r.from % 2 ? "O" : "E") : "B");
  return parity === "B" || (parity === "O") === (n % 2 === 1);
}

function inRange(r: SideRange, n: number): boolean {
  return n >= Math.min(r.from, r.to) && n <= Math.max(r.from, r.to);
}

/** The point `t` (0–1) of the way along a polyline by length, and the direction there (unit, metres east/north). */
function along(coords: Position[], t: number): { at: Position; east: number; north: number } {
  const lengths = coords.slice(1).map((p, i) => haversine(coords[i], p));
  const total = lengths.reduce((a, b) => a + b, 0);
  let target = Math.max(0, Math.min(1, t)) * total;
  let i = 0;
  while (i < lengths.length - 1 && target > lengths[i]) target -= lengths[i++];
  const [a, b] = [coords[i], coords[i + 1]];
  const f = lengths[i] > 0 ? Math.min(1, target / lengths[i]) : 0;
  const at: Position = [a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f];
  const east = (b[0] - a[0]) * Math.cos(at[1] * RAD);
  const north = b[1] - a[1];
  const norm = Math.hypot(east, north) || 1;
  return { at, east: east / norm, north: north / norm };
}

/** The point `t` of the way along a segment, `metres` to the left or right of its digitised direction. */
function offsetPoint(coords: Position[], t: number, side: Side, metres: number): { lat: number; lng: number } {
  const { at, east, north } = along(coords, t);
  // left of (east, north) is (−north, east)
  const [dx, dy] = side === "L" ? [-north, east] : [north, -east];
  const degrees = metres / (EARTH_RADIUS * RAD);
  return { lat: at[1] + dy * degrees, lng: at[0] + (dx * degrees) / Math.cos(at[1] * RAD) };
}

function fraction(r: SideRange, n: number): number {
  return r.from === r.to ? 0.5 : (n - r.from) / (r.to - r.from);
}

function placed(
  segments: StreetSegment[],
  quality: "exact range" | "interpolated",
  r: SideRange,
  t: number,
  metres: number,
): GeocodeResult {
  const s = segments[r.segment];
  const point = offsetPoint(s.coords, t, r.side, metres);
  const result: GeocodeResult = { quality, ...point, segment: r.segment, side: r.side };
  if (s.tlid !== undefined) result.tlid = s.tlid;
  return result;
}

/** The narrowest range first: where TIGER ranges overlap, the tighter one is the better guess. */
function bestHit(hits: SideRange[]): SideRange {
  return [...hits].sort((a, b) => Math.abs(a.to - a.from) - Math.abs(b.to - b.from) || a.segment - b.segment)[0];
}

function midpoint(segment: StreetSegment): Position {
  return along(segment.coords, 0.5).at;
}

/** Are all these sides within one place (not two towns' streets of one name)? */
function onePlace(segments: StreetSegment[], hits: SideRange[]): boolean {
  const points = hits.map((h) => midpoint(segments[h.segment]));
  return points.every((p) => points.every((q) => haversine(p, q) <= ONE_PLACE_METRES));
}

/** The street-only point: the segment nearest the middle of the street's segments. */
function streetMiddle(segments: StreetSegment[], indices: number[]): GeocodeResult {
  const mids = indices.map((i) => midpoint(segments[i]));
  const centre: Position = [
    mids.reduce((a, p) => a + p[0], 0) / mids.length,
    mids.reduce((a, p) => a + p[1], 0) / mids.length,
  ];
  let best = 0;
  for (let k = 1; k < mids.length; k++) if (haversine(mids[k], centre) < haversine(mids[best], centre)) best = k;
  const segment = indices[best];
  const result: GeocodeResult = { quality: "street only", lat: mids[best][1], lng: mids[best][0], segment };
  const tlid = segments[segment].tlid;
  if (tlid !== undefined) result.tlid = tlid;
  return result;
}

function notPlaced(options: GeocodeOptions): GeocodeResult {
  return options.zipCentroid
    ? { quality: "zip centroid", lat: options.zipCentroid.lat, lng: options.zipCentroid.lng }
    : { quality: "failed" };
}

/** One street (the segments of one key): the address placed on it, or null. */
function onStreet(
  address: NormalizedAddress,
  segments: StreetSegment[],
  street: number[],
  metres: number,
): GeocodeResult | null {
  const n = address.number;
  const zip = address.zip;
  const sides = sidesOf(segments, street).filter((r) => parityFits(segments[r.segment], r, n));
  const hits = sides.filter((r) => inRange(r, n));
  const inZip = (r: { zip?: string }) => !zip || r.zip === zip;
  // the address's ZIP, then a side without a ZIP, then another ZIP (or no ZIP given) if the hits are one place
  const tiers = zip ? [hits.filter(inZip), hits.filter((r) => r.zip === undefined)] : [];
  tiers.push(onePlace(segments, hits) ? hits : []);
  for (const tier of tiers) {
    if (tier.length) {
      const r = bestHit(tier);
      return placed(segments, "exact range", r, fraction(r, n), metres);
    }
  }
  // the number is in ranges of this street in places apart, none on the address's ZIP: not guessed
  if (hits.length) return null;
  const local = street.filter((i) => !zip || segments[i].zipL === zip || segments[i].zipR === zip);
  const zipless = street.every((i) => segments[i].zipL === undefined && segments[i].zipR === undefined);
  const near = sides.filter((r) => inZip(r) || r.zip === undefined);
  let nearest: { r: SideRange; gap: number } | null = null;
  for (const r of near) {
    const gap = n < Math.min(r.from, r.to) ? Math.min(r.from, r.to) - n : n - Math.max(r.from, r.to);
    if (!nearest || gap < nearest.gap) nearest = { r, gap };
  }
  if (nearest && nearest.gap <= JUST_OUTSIDE) {
    const { r } = nearest;
    // the range's end nearer the number
    const t = Math.abs(n - r.from) <= Math.abs(n - r.to) ? 0 : 1;
    return placed(segments, "interpolated", r, r.from === r.to ? 0.5 : t, metres);
  }
  // the street's middle in the ZIP, or anywhere if the file gives the street no ZIPs
  const middle = local.length ? local : zipless ? street : [];
  return middle.length ? streetMiddle(segments, middle) : null;
}

/**
 * Geocode one address against candidate segments (those of its street key, from
 * `CandidateIndex` or the server's index on `segmentLookupKeys`). The segment index returned is
 * into `candidates`.
 */
export function geocode(
  address: NormalizedAddress,
  candidates: StreetSegment[],
  options: GeocodeOptions = {},
): GeocodeResult {
  const metres = options.offsetMetres ?? OFFSET_METRES;
  const exact: number[] = [];
  for (let i = 0; i < candidates.length; i++) if (candidates[i].key === address.key) exact.push(i);
  if (exact.length) return onStreet(address, candidates, exact, metres) ?? notPlaced(options);
  // written without its type or directionals ("123 Main" for N Main St, never Main Ave for Main St):
  // only if one street fits
  const written = address.key.split(" ");
  const byKey = new Map<string, number[]>();
  for (let i = 0; i < candidates.length; i++) {
    const c = candidates[i];
    if (!c.key || c.looseKey !== address.looseKey) continue;
    const words = c.key.split(" ");
    if (written.every((w) => words.includes(w))) byKey.set(c.key, [...(byKey.get(c.key) ?? []), i]);
  }
  if (byKey.size === 1) return onStreet(address, candidates, [...byKey.values()][0], metres) ?? notPlaced(options);
  const exactOnes = [...byKey.values()]
    .map((street) => onStreet(address, candidates, street, metres))
    .filter((r) => r?.quality === "exact range");
  if (exactOnes.length === 1 && exactOnes[0] !== null) return exactOnes[0];
  return notPlaced(options);
}

/** Loose keys are looked up in their own namespace. */
const LOOSE = "~";

/** The lookup keys ("KEY|ZIP") a segment is found by: its street key and loose key, per side's ZIP. */
export function segmentLookupKeys(segment: StreetSegment): string[] {
  if (!segment.key) return [];
  const zips = [...new Set([segment.zipL ?? "", segment.zipR ?? ""])];
  return zips.flatMap((z) => [`${segment.key}|${z}`, `${LOOSE}${segment.looseKey}|${z}`]);
}

/**
 * The key prefixes to fetch an address's candidates by, in order: its street key on every ZIP (one
 * index range, sorted by ZIP), then — only when that finds nothing — its loose key.
 */
export function addressLookupPrefixes(address: NormalizedAddress): string[] {
  return [`${address.key}|`, `${LOOSE}${address.looseKey}|`];
}

/** An in-memory candidate index over a layer's segments, by the same keys the server indexes. */
export class CandidateIndex {
  private readonly byStreet = new Map<string, number[]>();

  constructor(private readonly segments: StreetSegment[]) {
    segments.forEach((s, i) => {
      for (const k of segmentLookupKeys(s)) {
        const street = k.slice(0, k.lastIndexOf("|") + 1);
        const list = this.byStreet.get(street) ?? [];
        if (list[list.length - 1] !== i) list.push(i);
        this.byStreet.set(street, list);
      }
    });
  }

  /** The segments an address is geocoded against. */
  candidates(address: NormalizedAddress): StreetSegment[] {
    for (const prefix of addressLookupPrefixes(address)) {
      const found = this.byStreet.get(prefix);
      if (found?.length) return found.map((i) => this.segments[i]);
    }
    return [];
  }
}
