/**
 * Turf geometry shared by the server and the browser: the coarse grid doors are filed under (a
 * polygon's doors are found through a few index ranges, one per grid row of its bounding box),
 * polygons as the map draws them, point-in-polygon (turf's), and distances in metres on a local
 * plane (a turf spans a few kilometres at most).
 */
import { booleanPointInPolygon } from "@turf/boolean-point-in-polygon";
import type { BoundaryGeometry, Position } from "../geo/tiger";

/** Grid cell size in degrees (≈ 550 m north–south). */
export const CELL_DEGREES = 0.005;
const COLS = 100_000;

/** The grid cell of a point: row-major, so one row of a bounding box is one index range. */
export function cellOf(lat: number, lng: number): number {
  const row = Math.floor((lat + 90) / CELL_DEGREES);
  const col = Math.floor((lng + 180) / CELL_DEGREES);
  return row * COLS + col;
}

export type BBox = [west: number, south: number, east: number, north: number];

/**
 * Grid rows an area's doors are read from at most (17.5° of latitude: any state but Alaska): one
 * index range each, and Convex allows 4,096 a transaction. A taller area (a rectangle drawn across
 * the country) is refused rather than read.
 */
export const MAX_AREA_ROWS = 3_500;

/** How many grid rows a bounding box covers. */
export function bboxRows([, south, , north]: BBox): number {
  return rowOf(north) - rowOf(south) + 1;
}

/** The index ranges [lo, hi] (inclusive) of the grid cells covering a bounding box, one per row. */
export function cellRanges([west, south, east, north]: BBox): { row: number; lo: number; hi: number }[] {
  const r0 = Math.floor((south + 90) / CELL_DEGREES);
  const r1 = Math.floor((north + 90) / CELL_DEGREES);
  const c0 = Math.floor((west + 180) / CELL_DEGREES);
  const c1 = Math.floor((east + 180) / CELL_DEGREES);
  const out: { row: number; lo: number; hi: number }[] = [];
  for (let r = r0; r <= r1; r++) out.push({ row: r, lo: r * COLS + c0, hi: r * COLS + c1 });
  return out;
}

/** The first grid row of a latitude (auto-cut walks a bounding box row by row). */
export function rowOf(lat: number): number {
  return Math.floor((lat + 90) / CELL_DEGREES);
}

/** A drawn area: one ring of [lng, lat] (a polygon or a rectangle), or a boundary's geometry. */
export type Area = BoundaryGeometry;

/** Most vertices a drawn polygon may have. */
export const MAX_POLYGON_POINTS = 2_000;

/** A closed ring's polygon from drawn points (closes it; null when it is not an area). */
export function ringPolygon(points: Position[]): Area | null {
  const pts = points.filter((p) => p.length === 2 && Number.isFinite(p[0]) && Number.isFinite(p[1]));
  if (pts.length < 3 || pts.length > MAX_POLYGON_POINTS) return null;
  const ring = pts.slice();
  const [a, b] = [ring[0], ring[ring.length - 1]];
  if (a[0] !== b[0] || a[1] !== b[1]) ring.push([a[0], a[1]]);
  if (ring.length < 4) return null;
  return { type: "Polygon", coordinates: [ring] };
}

export function areaBBox(area: Area): BBox {
  let [w, s, e, n] = [Infinity, Infinity, -Infinity, -Infinity];
  const rings = area.type === "Polygon" ? area.coordinates : area.coordinates.flat();
  for (const ring of rings)
    for (const [x, y] of ring) {
      if (x < w) w = x;
      if (x > e) e = x;
      if (y < s) s = y;
      if (y > n) n = y;
    }
  return [w, s, e, n];
}

/** A fast point-in-area test: the bounding box first, then turf's exact test. */
export function areaTester(area: Area): (lat: number, lng: number) => boolean {
  const [w, s, e, n] = areaBBox(area);
  return (lat, lng) => lng >= w && lng <= e && lat >= s && lat <= n && booleanPointInPolygon([lng, lat], area);
}

const RAD = Math.PI / 180;
const METRES_PER_DEGREE = 111_320;

/** Metres between two points (equirectangular: exact enough within a county). */
export function metres(aLat: number, aLng: number, bLat: number, bLng: number): number {
  const x = (bLng - aLng) * Math.cos(((aLat + bLat) / 2) * RAD) * METRES_PER_DEGREE;
  const y = (bLat - aLat) * METRES_PER_DEGREE;
  return Math.sqrt(x * x + y * y);
}

/**
 * Which side of a drawn line a point lies on: +1 left, -1 right (of the line's direction), by the
 * nearest segment of the line; the line's ends extend straight on.
 */
export function sideOfLine(line: Position[], lat: number, lng: number): 1 | -1 {
  let best = Infinity;
  let side: 1 | -1 = 1;
  for (let i = 0; i + 1 < line.length; i++) {
    const [ax, ay] = line[i];
    const [bx, by] = line[i + 1];
    const dx = bx - ax;
    const dy = by - ay;
    const len2 = dx * dx + dy * dy || 1e-18;
    let t = ((lng - ax) * dx + (lat - ay) * dy) / len2;
    if (i > 0) t = Math.max(0, t);
    if (i + 2 < line.length) t = Math.min(1, t);
    const px = ax + t * dx - lng;
    const py = ay + t * dy - lat;
    const d = px * px + py * py;
    if (d < best) {
      best = d;
      side = dx * (lat - ay) - dy * (lng - ax) >= 0 ? 1 : -1;
    }
  }
  return side;
}
