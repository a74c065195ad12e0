/**
 * What the browser sends of a parsed layer (lib/geo/tiger.ts) to the server: street segments as
 * rows the geocoder queries (only named ones: an unnamed segment is drawn, never geocoded to), and
 * boundary polygons with their outline as text. Shared so the upload and the tests build the same
 * rows.
 */
import { SEGMENT_MAX_POINTS } from "./limits";
import type { Boundary, Position, StreetSegment } from "./tiger";

export type SegmentRow = {
  name: string;
  key: string;
  looseKey: string;
  tlid?: number;
  mtfcc?: string;
  lFrom?: number;
  lTo?: number;
  rFrom?: number;
  rTo?: number;
  parityL?: "O" | "E" | "B";
  parityR?: "O" | "E" | "B";
  zipL?: string;
  zipR?: string;
  coords: number[];
  bbox: number[];
};

export type BoundaryRow = { name: string; code: string | null; bbox: number[]; geometry: string };

/** A line of at most SEGMENT_MAX_POINTS points: evenly spaced ones of a longer line, both ends kept. */
function thinned(coords: Position[]): Position[] {
  if (coords.length <= SEGMENT_MAX_POINTS) return coords;
  const step = (coords.length - 1) / (SEGMENT_MAX_POINTS - 1);
  return Array.from({ length: SEGMENT_MAX_POINTS }, (_, i) => coords[Math.round(i * step)]);
}

/** The row of a named segment (null: unnamed, drawn only). */
export function segmentRow(s: StreetSegment): SegmentRow | null {
  if (!s.key || !s.name) return null;
  const row: SegmentRow = {
    name: s.name,
    key: s.key,
    looseKey: s.looseKey ?? s.key,
    coords: thinned(s.coords).flat(),
    bbox: [...s.bbox],
  };
  for (const k of ["tlid", "mtfcc", "lFrom", "lTo", "rFrom", "rTo", "parityL", "parityR", "zipL", "zipR"] as const) {
    if (s[k] !== undefined) (row as Record<string, unknown>)[k] = s[k];
  }
  return row;
}

export function boundaryRow(b: Boundary): BoundaryRow {
  return { name: b.name, code: b.code ?? null, bbox: [...b.bbox], geometry: JSON.stringify(b.geometry) };
}

/** The centre of each ZIP's segments (their midpoints' mean), for addresses whose street is not on the map. */
export function zipCentres(segments: StreetSegment[]): { zip: string; lat: number; lng: number }[] {
  const sums = new Map<string, { lat: number; lng: number; n: number }>();
  for (const s of segments) {
    const [lng, lat] = s.coords[Math.floor(s.coords.length / 2)];
    for (const zip of new Set([s.zipL, s.zipR])) {
      if (!zip) continue;
      const acc = sums.get(zip) ?? { lat: 0, lng: 0, n: 0 };
      acc.lat += lat;
      acc.lng += lng;
      acc.n++;
      sums.set(zip, acc);
    }
  }
  return [...sums]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([zip, a]) => ({ zip, lat: a.lat / a.n, lng: a.lng / a.n }));
}
