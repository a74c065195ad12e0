/**
 * Streets as vector tiles (issue 36, item 2): an organisation's streets layer (GeoJSON LineStrings
 * with `{ name, mtfcc }`, TIGER road class codes) is cut into tiles with geojson-vt, and each tile
 * comes back as flat typed arrays of lines in tile pixels, grouped by road class, plus the street
 * names placed on it. Pure: it runs in the street tiles worker (streetTiles.worker.ts) and in Node
 * (tests, bench/geoMap.ts); the map only draws what it returns (StreetsLayer.tsx).
 */
import GeoJSONVT from "geojson-vt";
import type { Feature, FeatureCollection, LineString, MultiLineString, Position } from "geojson";
import { DRAWING_MARGIN, tileSpan, type OpenDrawing } from "@convex/lib/geo/drawing";

/** A zoom → value table: linear between the stops, the end values beyond them. */
type Stops = readonly (readonly [zoom: number, value: number])[];

type RoadStyle = {
  /** what the class is called in the legend and the tests */
  name: string;
  /** TIGER/Line MTFCC codes of the class */
  mtfcc: readonly string[];
  /** drawn from this zoom on */
  minZoom: number;
  /** line width in CSS pixels per zoom */
  width: Stops;
  /** line colour per zoom: the last stop at or below the zoom */
  color: readonly (readonly [zoom: number, color: string])[];
  /** an outline drawn under the line (1 px each side) from CASING_ZOOM on, or none */
  casing: string | null;
  /** a dash pattern in CSS pixels (paths), or none */
  dash: readonly number[] | null;
};

/** Where the classes switch on (issue 36): highways from 8, local streets from 13, paths from 15. */
const HIGHWAY_ZOOM = 8;
export const LOCAL_ZOOM = 13;
const PATH_ZOOM = 15;
/** Street names from this zoom on. */
export const LABEL_ZOOM = 15;
/** Lines get their outline from this zoom on (below it they are too thin to carry one). */
const CASING_ZOOM = 12;

/**
 * The road classes in drawing order (the first is drawn first, under the others): a line's class is
 * its index here. Codes from the TIGER/Line technical documentation, MAF/TIGER Feature Class Codes.
 */
export const ROAD_STYLES: readonly RoadStyle[] = [
  {
    name: "path",
    // walkway/trail, stairway, alley, private service road, Census internal, parking lot road, bike path, bridle path
    mtfcc: ["S1710", "S1720", "S1730", "S1740", "S1750", "S1780", "S1820", "S1830"],
    minZoom: PATH_ZOOM,
    width: [
      [15, 1],
      [18, 2.5],
    ],
    color: [[15, "#9a8f7b"]],
    casing: null,
    dash: [3, 2],
  },
  {
    name: "service",
    mtfcc: ["S1640"],
    minZoom: 14,
    width: [
      [14, 1.5],
      [18, 5],
    ],
    color: [[14, "#ffffff"]],
    casing: "#cfc7b6",
    dash: null,
  },
  {
    name: "4wd",
    mtfcc: ["S1500"],
    minZoom: LOCAL_ZOOM,
    width: [
      [13, 1],
      [18, 3],
    ],
    color: [[13, "#b9a98c"]],
    casing: null,
    dash: [4, 2],
  },
  {
    name: "local",
    mtfcc: ["S1400"],
    minZoom: LOCAL_ZOOM,
    width: [
      [13, 1.5],
      [16, 5],
      [18, 12],
    ],
    color: [
      [13, "#fbfaf7"],
      [15, "#ffffff"],
    ],
    casing: "#c9c1ae",
    dash: null,
  },
  {
    name: "ramp",
    mtfcc: ["S1630"],
    minZoom: 12,
    width: [
      [12, 1],
      [16, 4],
      [18, 8],
    ],
    color: [[12, "#f6d58f"]],
    casing: "#c9a15c",
    dash: null,
  },
  {
    name: "secondary",
    mtfcc: ["S1200"],
    minZoom: HIGHWAY_ZOOM,
    width: [
      [8, 0.8],
      [12, 2],
      [16, 7],
      [18, 14],
    ],
    color: [
      [8, "#e8bf6a"],
      [12, "#f8d37e"],
    ],
    casing: "#c49a45",
    dash: null,
  },
  {
    name: "primary",
    mtfcc: ["S1100"],
    minZoom: HIGHWAY_ZOOM,
    width: [
      [8, 1.2],
      [12, 3],
      [16, 9],
      [18, 16],
    ],
    color: [
      [8, "#dc8f3c"],
      [12, "#f2a65a"],
    ],
    casing: "#b06d28",
    dash: null,
  },
];

const CLASS_OF_MTFCC = new Map(ROAD_STYLES.flatMap((s, i) => s.mtfcc.map((code) => [code, i] as const)));
const LOCAL_CLASS = ROAD_STYLES.findIndex((s) => s.name === "local");

/**
 * A line's road class (index into ROAD_STYLES): an unknown road code (S…) draws as a local street,
 * anything else (rivers, railways, boundaries that an EDGES file also holds) is not a street.
 */
export function roadClassOf(mtfcc: unknown): number | null {
  if (typeof mtfcc !== "string" || mtfcc === "") return LOCAL_CLASS;
  const known = CLASS_OF_MTFCC.get(mtfcc.toUpperCase());
  if (known !== undefined) return known;
  return /^S/i.test(mtfcc) ? LOCAL_CLASS : null;
}

/** A class's look at a zoom, or null while it is hidden. */
export function styleAt(classId: number, zoom: number): { width: number; color: string; casing: string | null } | null {
  const style = ROAD_STYLES[classId];
  if (!style || zoom < style.minZoom) return null;
  let color = style.color[0][1];
  for (const [z, c] of style.color) if (zoom >= z) color = c;
  return { width: interpolate(style.width, zoom), color, casing: zoom >= CASING_ZOOM ? style.casing : null };
}

function interpolate(stops: Stops, zoom: number): number {
  if (zoom <= stops[0][0]) return stops[0][1];
  for (let i = 1; i < stops.length; i++) {
    const [z1, v1] = stops[i];
    if (zoom <= z1) {
      const [z0, v0] = stops[i - 1];
      return v0 + ((v1 - v0) * (zoom - z0)) / (z1 - z0);
    }
  }
  return stops[stops.length - 1][1];
}

/** The size of a street name in CSS pixels at a zoom (0 below LABEL_ZOOM). */
function labelSize(zoom: number): number {
  return zoom < LABEL_ZOOM ? 0 : zoom < 17 ? 11 : 12;
}

/** A conservative width of a text in the system sans-serif (no canvas in a worker or in Node to measure it). */
export function labelWidth(text: string, size: number): number {
  return text.length * size * 0.62;
}

/** Tiles are 256 CSS pixels; geojson-vt's units per tile. */
export const TILE_SIZE = 256;
const EXTENT = 4096;
/** geojson-vt keeps full detail up to this zoom; deeper tiles are scaled from their ancestor at it. */
const INDEX_MAX_ZOOM = 16;
/** Lines reach this far past a tile's edge (px), so wide lines and their caps join across tiles. */
const BUFFER_PX = 10;

type StreetLabel = {
  text: string;
  /** centre, in tile pixels */
  x: number;
  y: number;
  /** radians, upright (−π/2 … π/2) */
  angle: number;
  size: number;
  /** the label's axis-aligned box in tile pixels: [minX, minY, maxX, maxY] */
  box: [number, number, number, number];
};

/**
 * One tile's streets. Lines are sorted by class (drawing order); line i has class `classes[i]` and
 * the points `coords[2·starts[i] …  2·starts[i+1])` as x, y pairs in tile pixels (0–256; up to the
 * buffer beyond). The typed arrays can be transferred from the worker without a copy.
 */
export type StreetTile = {
  z: number;
  x: number;
  y: number;
  classes: Uint8Array;
  starts: Uint32Array;
  coords: Float32Array;
  labels: StreetLabel[];
};

/** [west, south, east, north] in degrees. */
export type BBox = [number, number, number, number];

type Tags = { c: number; n: string };
type Line = { c: number; n: string; pts: number[] };

export type StreetIndex = {
  /** line parts in the layer that are streets (a MultiLineString counts each part) */
  segments: number;
  bbox: BBox | null;
  /** reads what tile(z, x, y) needs, when the index reads the layer in parts (chunkedStreetIndex) */
  prepare?(z: number, x: number, y: number): Promise<void>;
  tile(z: number, x: number, y: number): StreetTile | null;
};

/**
 * Street tiles are cut from the lines of their ancestor at BUCKET_ZOOM only (a z14 tile is about
 * 2 km across: a few hundred of a county's segments); a LOCAL_ZOOM tile, larger, from its own.
 */
const BUCKET_ZOOM = 14;
type StreetFeature = Feature<LineString | MultiLineString, Tags>;

/**
 * The tile index of a streets layer. The classes shown below LOCAL_ZOOM (highways, ramps) are one
 * geojson-vt index, so that a region view never cuts the county's local streets. Street zooms cut
 * from buckets: the lines of one tile of LOCAL_ZOOM … BUCKET_ZOOM (and those within a buffer of
 * it), indexed the first time a tile inside it is asked for. A view of a few blocks so waits for
 * the few hundred lines around it, never for the whole county (the first render, issue 36).
 */
export function buildStreetIndex(collection: FeatureCollection): StreetIndex {
  const major: StreetFeature[] = [];
  /** per bucket zoom (LOCAL_ZOOM … BUCKET_ZOOM), per tile there (y · 2^z + x): the lines it needs */
  const buckets = new Map<number, Map<number, StreetFeature[]>>();
  for (let z = LOCAL_ZOOM; z <= BUCKET_ZOOM; z++) buckets.set(z, new Map());
  let segments = 0;
  let [w, s, e, n] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const f of collection.features ?? []) {
    const g = f?.geometry;
    if (!g || (g.type !== "LineString" && g.type !== "MultiLineString")) continue;
    const props = (f.properties ?? {}) as Record<string, unknown>;
    const c = roadClassOf(props.mtfcc);
    if (c === null) continue;
    const parts: Position[][] = g.type === "LineString" ? [g.coordinates] : g.coordinates;
    let kept = 0;
    let [fw, fs, fe, fn] = [Infinity, Infinity, -Infinity, -Infinity];
    for (const part of parts) {
      if (!Array.isArray(part) || part.length < 2) continue;
      kept++;
      for (const [lng, lat] of part) {
        if (lng < fw) fw = lng;
        if (lng > fe) fe = lng;
        if (lat < fs) fs = lat;
        if (lat > fn) fn = lat;
      }
    }
    if (kept === 0) continue;
    segments += kept;
    if (fw < w) w = fw;
    if (fe > e) e = fe;
    if (fs < s) s = fs;
    if (fn > n) n = fn;
    const name = typeof props.name === "string" ? props.name.trim() : "";
    const feature: StreetFeature = { type: "Feature", geometry: g, properties: { c, n: name } };
    if (ROAD_STYLES[c].minZoom < LOCAL_ZOOM) major.push(feature);
    // every bucket the line (with a buffer's margin) reaches
    for (const [bz, tiles] of buckets) {
      const size = 2 ** bz;
      const { x0, x1, y0, y1 } = tileSpan([fw, fs, fe, fn], bz, DRAWING_MARGIN);
      for (let bx = x0; bx <= x1; bx++) {
        for (let by = y0; by <= y1; by++) {
          const key = by * size + bx;
          const bucket = tiles.get(key);
          if (bucket) bucket.push(feature);
          else tiles.set(key, [feature]);
        }
      }
    }
  }
  const options = { maxZoom: INDEX_MAX_ZOOM, extent: EXTENT, buffer: (BUFFER_PX * EXTENT) / TILE_SIZE, tolerance: 3 };
  const majorIndex = new GeoJSONVT({ type: "FeatureCollection", features: major }, { ...options, maxZoom: 12 });
  const bucketIndexes = new Map<string, GeoJSONVT | null>();
  const indexFor = (z: number, x: number, y: number): GeoJSONVT | null => {
    if (z < LOCAL_ZOOM) return majorIndex;
    const bz = Math.min(z, BUCKET_ZOOM);
    const shift = z - bz;
    const key = (y >> shift) * 2 ** bz + (x >> shift);
    let index = bucketIndexes.get(`${bz}/${key}`);
    if (index === undefined) {
      const features = buckets.get(bz)!.get(key);
      index = features ? new GeoJSONVT({ type: "FeatureCollection", features }, options) : null;
      bucketIndexes.set(`${bz}/${key}`, index);
    }
    return index;
  };
  return {
    segments,
    bbox: segments > 0 ? [w, s, e, n] : null,
    tile(z, x, y) {
      if (!Number.isInteger(z) || z < 0 || z > 24) return null;
      const size = 2 ** z;
      if (!Number.isInteger(x) || !Number.isInteger(y) || x < 0 || y < 0 || x >= size || y >= size) return null;
      const index = indexFor(z, x, y);
      if (!index) return null;
      const sz = Math.min(z, index.options.maxZoom);
      const scale = 2 ** (z - sz);
      const [sx, sy] = [Math.floor(x / scale), Math.floor(y / scale)];
      const raw = index.getTileRaw(sz, sx, sy);
      if (!raw) return null;
      // from the source tile's units to this tile's pixels
      const k = (TILE_SIZE / EXTENT) * scale;
      const [ox, oy] = [(x - sx * scale) * TILE_SIZE, (y - sy * scale) * TILE_SIZE];
      const lo = -BUFFER_PX;
      const hi = TILE_SIZE + BUFFER_PX;
      const lines: Line[] = [];
      for (const f of raw.features) {
        if (f.type !== 2) continue;
        const tags = f.tags as Tags;
        if (z < ROAD_STYLES[tags.c].minZoom) continue;
        for (const ring of f.geometry) {
          const pts = new Array<number>(ring.length);
          let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
          for (let i = 0; i < ring.length; i += 2) {
            const px = ring[i] * k - ox;
            const py = ring[i + 1] * k - oy;
            pts[i] = px;
            pts[i + 1] = py;
            if (px < minX) minX = px;
            if (px > maxX) maxX = px;
            if (py < minY) minY = py;
            if (py > maxY) maxY = py;
          }
          // a scaled-up ancestor holds the lines of its other children too
          if (maxX < lo || minX > hi || maxY < lo || minY > hi || pts.length < 4) continue;
          if (scale > 1 && !crossesBox(pts, lo, hi)) continue;
          lines.push({ c: tags.c, n: tags.n, pts });
        }
      }
      if (lines.length === 0) return null;
      lines.sort((a, b) => a.c - b.c);
      return packTile(z, x, y, lines);
    },
  };
}

/**
 * The tile index of a stored drawing copy opened by chunks (convex/lib/geo/drawing.ts): below
 * street zoom from its overview, at street zoom from the chunk under the tile, each chunk read,
 * parsed and indexed the first time a tile in it is prepared.
 */
export async function chunkedStreetIndex(drawing: Extract<OpenDrawing, { chunked: true }>): Promise<StreetIndex> {
  const { header } = drawing;
  const overview = buildStreetIndex((await drawing.overview()) as FeatureCollection);
  const loading = new Map<string, Promise<void>>();
  const ready = new Map<string, StreetIndex | null>();
  const chunkOf = (z: number, x: number, y: number) => {
    const scale = 2 ** (z - header.zoom);
    return [Math.floor(x / scale), Math.floor(y / scale)] as const;
  };
  const atStreetZoom = (z: number) => Number.isInteger(z) && z >= LOCAL_ZOOM && z <= 24;
  return {
    segments: header.segments,
    bbox: header.bbox,
    async prepare(z, x, y) {
      if (!atStreetZoom(z)) return;
      const [cx, cy] = chunkOf(z, x, y);
      const key = `${cx}/${cy}`;
      let load = loading.get(key);
      if (!load) {
        load = drawing.chunk(cx, cy).then((lines) => {
          ready.set(key, lines ? buildStreetIndex(lines as FeatureCollection) : null);
        });
        // a failed read is tried again by the next tile
        load.catch(() => loading.delete(key));
        loading.set(key, load);
      }
      await load;
    },
    tile(z, x, y) {
      if (!atStreetZoom(z)) return overview.tile(z, x, y);
      const [cx, cy] = chunkOf(z, x, y);
      return ready.get(`${cx}/${cy}`)?.tile(z, x, y) ?? null;
    },
  };
}

function packTile(z: number, x: number, y: number, lines: Line[]): StreetTile {
  const classes = new Uint8Array(lines.length);
  const starts = new Uint32Array(lines.length + 1);
  let points = 0;
  lines.forEach((l, i) => {
    classes[i] = l.c;
    starts[i] = points;
    points += l.pts.length / 2;
  });
  starts[lines.length] = points;
  const coords = new Float32Array(points * 2);
  lines.forEach((l, i) => coords.set(l.pts, starts[i] * 2));
  return { z, x, y, classes, starts, coords, labels: placeLabels(z, lines) };
}

/** A label keeps this far from other labels of its tile (px). */
const LABEL_MARGIN = 2;
const LABEL_PADDING = 6;
/**
 * …and this far from the tile's edge: labels are placed tile by tile, so two neighbours' labels
 * at their common edge keep twice this apart (at 2 px they touched and read as one name).
 */
const LABEL_EDGE = 8;

/** Points of a street within this distance of a straight line carry a label along it (px). */
const STRAIGHT_TOLERANCE = 1.5;

type Part = { len: number; ax: number; ay: number; bx: number; by: number };

/**
 * Street names on a tile: each name once, along the longest straight part of its lines inside the
 * tile (the blocks of a street joined end to end), if the text fits there; major roads first, then
 * the longer streets. A label that would cross the tile's edge (and be cut there) or come near a
 * placed one is left out.
 */
function placeLabels(z: number, lines: Line[]): StreetLabel[] {
  const size = labelSize(z);
  if (size === 0) return [];
  const byName = new Map<string, { c: number; lines: number[][] }>();
  for (const l of lines) {
    if (!l.n) continue;
    const entry = byName.get(l.n) ?? { c: l.c, lines: [] };
    entry.c = Math.max(entry.c, l.c);
    entry.lines.push(l.pts);
    byName.set(l.n, entry);
  }
  const candidates = [...byName].map(([text, { c, lines: ls }]) => {
    const parts = chain(ls)
      .flatMap(straightParts)
      .sort((a, b) => b.len - a.len);
    return { text, c, parts };
  });
  candidates.sort((a, b) => b.c - a.c || (b.parts[0]?.len ?? 0) - (a.parts[0]?.len ?? 0));
  const placed: StreetLabel[] = [];
  for (const { text, parts } of candidates) {
    const width = labelWidth(text, size);
    for (const p of parts.slice(0, 4)) {
      if (p.len < width + LABEL_PADDING * 2) break;
      let angle = Math.atan2(p.by - p.ay, p.bx - p.ax);
      if (angle > Math.PI / 2) angle -= Math.PI;
      else if (angle <= -Math.PI / 2) angle += Math.PI;
      const cx = (p.ax + p.bx) / 2;
      const cy = (p.ay + p.by) / 2;
      const hw = width / 2;
      const hh = size * 0.7;
      const cos = Math.abs(Math.cos(angle));
      const sin = Math.abs(Math.sin(angle));
      const ex = hw * cos + hh * sin;
      const ey = hw * sin + hh * cos;
      const box: StreetLabel["box"] = [cx - ex, cy - ey, cx + ex, cy + ey];
      if (box[0] < LABEL_EDGE || box[1] < LABEL_EDGE) continue;
      if (box[2] > TILE_SIZE - LABEL_EDGE || box[3] > TILE_SIZE - LABEL_EDGE) continue;
      if (placed.some((o) => boxesOverlap(o.box, box, LABEL_MARGIN))) continue;
      placed.push({ text, x: cx, y: cy, angle, size, box });
      break;
    }
  }
  return placed;
}

/** Lines (flat x, y) joined where one ends at another's end: a street's blocks become one polyline. */
function chain(lines: number[][]): number[][] {
  const key = (pts: number[], i: number) => `${pts[i]},${pts[i + 1]}`;
  const atEnd = new Map<string, number[]>();
  for (const [i, l] of lines.entries()) {
    for (const k of [key(l, 0), key(l, l.length - 2)]) atEnd.set(k, [...(atEnd.get(k) ?? []), i]);
  }
  const used = new Array<boolean>(lines.length).fill(false);
  const next = (pts: number[], from: number): number[] | null => {
    for (const j of atEnd.get(key(pts, from)) ?? []) {
      if (used[j]) continue;
      used[j] = true;
      const l = lines[j];
      // oriented to continue from the shared point
      return key(l, 0) === key(pts, from) ? l : reversed(l);
    }
    return null;
  };
  const out: number[][] = [];
  for (const [i, l] of lines.entries()) {
    if (used[i]) continue;
    used[i] = true;
    let pts = l;
    for (let n = next(pts, pts.length - 2); n; n = next(pts, pts.length - 2)) pts = pts.concat(n.slice(2));
    for (let p = next(pts, 0); p; p = next(pts, 0)) pts = reversed(p).concat(pts.slice(2));
    out.push(pts);
  }
  return out;
}

function reversed(pts: number[]): number[] {
  const out = new Array<number>(pts.length);
  for (let i = 0; i < pts.length; i += 2) {
    out[pts.length - 2 - i] = pts[i];
    out[pts.length - 1 - i] = pts[i + 1];
  }
  return out;
}

/** A polyline's straight runs (every point within STRAIGHT_TOLERANCE of the chord), clipped to the tile. */
function straightParts(pts: number[]): Part[] {
  const n = pts.length / 2;
  const parts: Part[] = [];
  let i = 0;
  while (i < n - 1) {
    let j = i + 1;
    while (j + 1 < n && straight(pts, i, j + 1)) j++;
    const part = clipToTile(pts[2 * i], pts[2 * i + 1], pts[2 * j], pts[2 * j + 1]);
    if (part) parts.push(part);
    i = j;
  }
  return parts;
}

function straight(pts: number[], i: number, j: number): boolean {
  const [ax, ay, bx, by] = [pts[2 * i], pts[2 * i + 1], pts[2 * j], pts[2 * j + 1]];
  const len = Math.hypot(bx - ax, by - ay);
  if (len === 0) return false;
  for (let k = i + 1; k < j; k++) {
    const d = Math.abs((bx - ax) * (ay - pts[2 * k + 1]) - (ax - pts[2 * k]) * (by - ay)) / len;
    if (d > STRAIGHT_TOLERANCE) return false;
  }
  return true;
}

/** Whether two boxes come closer than `gap`. */
export function boxesOverlap(a: StreetLabel["box"], b: StreetLabel["box"], gap = 0): boolean {
  return a[0] < b[2] + gap && b[0] < a[2] + gap && a[1] < b[3] + gap && b[1] < a[3] + gap;
}

/** Whether a polyline (flat x, y) passes through the square lo…hi. */
function crossesBox(pts: number[], lo: number, hi: number): boolean {
  for (let i = 0; i + 3 < pts.length; i += 2)
    if (clipToTile(pts[i], pts[i + 1], pts[i + 2], pts[i + 3], lo, hi)) return true;
  return false;
}

/** The part of segment a→b inside the square lo…hi (the tile; Liang–Barsky), with its length, or null. */
function clipToTile(ax: number, ay: number, bx: number, by: number, lo = 0, hi = TILE_SIZE) {
  const dx = bx - ax;
  const dy = by - ay;
  let t0 = 0;
  let t1 = 1;
  const edges: [number, number][] = [
    [-dx, ax - lo],
    [dx, hi - ax],
    [-dy, ay - lo],
    [dy, hi - ay],
  ];
  for (const [p, q] of edges) {
    if (p === 0) {
      if (q < 0) return null;
      continue;
    }
    const r = q / p;
    if (p < 0) {
      if (r > t1) return null;
      if (r > t0) t0 = r;
    } else {
      if (r < t0) return null;
      if (r < t1) t1 = r;
    }
  }
  const len = Math.hypot(dx, dy) * (t1 - t0);
  if (len <= 0) return null;
  return { len, ax: ax + dx * t0, ay: ay + dy * t0, bx: ax + dx * t1, by: ay + dy * t1 };
}
