/**
 * The drawing copy of a streets layer (the file every map of the organisation fetches): GeoJSON
 * lines with their name and road class, laid out so that a map reads only what it shows.
 *
 * The FeatureCollection's features come in chunks: first the overview (the road classes drawn
 * below street zoom: highways and ramps), then one chunk per tile of DRAWING_CHUNK_ZOOM (about
 * 4 km across) with every line that reaches it, a margin included (a line crossing tiles is in each). A
 * foreign member `chunks`, written before `features`, gives each chunk's byte range within the
 * features array, the segment count and the bounding box. A map so fetches one file (cached for
 * good: stored files never change) but parses the overview and the chunks under its view only,
 * never the whole county (issue 36: the first render). The file stays valid GeoJSON; a copy
 * without `chunks` (stored before this layout) is read whole.
 */
import type { StreetSegment } from "./tiger";

/** Chunks are the tiles of this zoom. */
export const DRAWING_CHUNK_ZOOM = 13;
/** TIGER road classes drawn below street zoom (streetTiles.ts ROAD_STYLES: primary, secondary, ramp). */
export const OVERVIEW_MTFCC: readonly string[] = ["S1100", "S1200", "S1630"];
/**
 * How far past its box a line belongs to a tile, in world widths (Web Mercator x at zoom 0): twice
 * the 10 px buffer of a tile at zoom 13, the first street zoom (streetTiles.ts BUFFER_PX).
 */
export const DRAWING_MARGIN = (2 * 10) / 256 / 2 ** 13;

/** Web Mercator x, y of a longitude, latitude as a fraction of the world (0…1). */
export function mercatorX(lng: number): number {
  return lng / 360 + 0.5;
}
export function mercatorY(lat: number): number {
  const sin = Math.sin((lat * Math.PI) / 180);
  const y = 0.5 - (0.25 * Math.log((1 + sin) / (1 - sin))) / Math.PI;
  return y < 0 ? 0 : y > 1 ? 1 : y;
}

/** The tiles of `zoom` that a [west, south, east, north] box reaches, `margin` (world widths) around it included. */
export function tileSpan(
  [w, s, e, n]: readonly number[],
  zoom: number,
  margin: number,
): { x0: number; x1: number; y0: number; y1: number } {
  const size = 2 ** zoom;
  const tile = (t: number) => Math.min(size - 1, Math.max(0, Math.floor(t * size)));
  return {
    x0: tile(mercatorX(w) - margin),
    x1: tile(mercatorX(e) + margin),
    y0: tile(mercatorY(n) - margin),
    y1: tile(mercatorY(s) + margin),
  };
}

/** Byte ranges within the features array's text (between its brackets). */
type Range = [from: number, to: number];

export type DrawingChunks = {
  zoom: number;
  segments: number;
  bbox: [number, number, number, number] | null;
  overview: Range;
  /** [x, y, from, to] per chunk, by y then x */
  tiles: [number, number, number, number][];
};

const MARKER = ',"features":[';

/** The drawing copy of a streets layer's segments (unnamed ones too: they are drawn). */
export function streetsDrawing(segments: StreetSegment[]): string {
  // six decimals (≈ 0.1 m) is finer than any street is drawn; the file is a third smaller to fetch and parse
  const round = (x: number) => Math.round(x * 1e6) / 1e6;
  const overview: string[] = [];
  const chunks = new Map<number, string[]>();
  const size = 2 ** DRAWING_CHUNK_ZOOM;
  let [w, s, e, n] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const seg of segments) {
    const text = JSON.stringify({
      type: "Feature",
      geometry: { type: "LineString", coordinates: seg.coords.map(([lng, lat]) => [round(lng), round(lat)]) },
      properties: { name: seg.name ?? "", mtfcc: seg.mtfcc ?? "" },
    });
    const box = seg.bbox;
    [w, s, e, n] = [Math.min(w, box[0]), Math.min(s, box[1]), Math.max(e, box[2]), Math.max(n, box[3])];
    if (seg.mtfcc && OVERVIEW_MTFCC.includes(seg.mtfcc)) overview.push(text);
    const { x0, x1, y0, y1 } = tileSpan(box, DRAWING_CHUNK_ZOOM, DRAWING_MARGIN);
    for (let y = y0; y <= y1; y++) {
      for (let x = x0; x <= x1; x++) {
        const key = y * size + x;
        const chunk = chunks.get(key);
        if (chunk) chunk.push(text);
        else chunks.set(key, [text]);
      }
    }
  }
  const encoder = new TextEncoder();
  const bodies: string[] = [];
  let at = 0;
  const place = (texts: string[]): Range => {
    if (texts.length === 0) return [at, at];
    const body = texts.join(",");
    if (bodies.length > 0) at++; // the comma before it
    const from = at;
    bodies.push(body);
    at += encoder.encode(body).length;
    return [from, at];
  };
  const header: DrawingChunks = {
    zoom: DRAWING_CHUNK_ZOOM,
    segments: segments.length,
    bbox: segments.length ? [w, s, e, n] : null,
    overview: place(overview),
    tiles: [...chunks.keys()]
      .sort((a, b) => a - b)
      .map((key) => {
        const [from, to] = place(chunks.get(key)!);
        return [key % size, Math.floor(key / size), from, to];
      }),
  };
  return `{"type":"FeatureCollection","chunks":${JSON.stringify(header)}${MARKER}${bodies.join(",")}]}`;
}

type Collection = { type: "FeatureCollection"; features: unknown[] };

/** The first bytes a map reads of a stored drawing copy: the header (chunk index) and usually the overview. */
export const DRAWING_HEAD_BYTES = 64 * 1024;

/** Where a stored drawing copy's bytes come from: a byte range [from, to), and the whole file. */
export type DrawingBytes = {
  range(from: number, to: number): Promise<Uint8Array>;
  whole(): Promise<Uint8Array>;
};

/** A stored drawing copy opened: by chunks when it has them, else whole. */
export type OpenDrawing =
  | { chunked: false; collection: unknown }
  | {
      chunked: true;
      header: DrawingChunks;
      overview(): Promise<Collection>;
      /** the lines of the chunk tile x, y (null: none there) */
      chunk(x: number, y: number): Promise<Collection | null>;
    };

const PREFIX = '{"type":"FeatureCollection","chunks":';

/**
 * Opens a stored drawing copy from its first bytes (`head`, DRAWING_HEAD_BYTES or the whole file):
 * a chunked one reads its header now and each chunk's bytes when asked for; another is read whole.
 */
export async function openDrawing(head: Uint8Array, bytes: DrawingBytes): Promise<OpenDrawing> {
  const decoder = new TextDecoder();
  const parse = (b: Uint8Array) => JSON.parse(decoder.decode(b)) as unknown;
  if (!decoder.decode(head.subarray(0, PREFIX.length)).startsWith(PREFIX))
    return { chunked: false, collection: parse(await bytes.whole()) };
  // the header holds only numbers and plain keys, so the marker's first appearance ends it
  let text = decoder.decode(head);
  let end = text.indexOf(MARKER);
  // a big county's header goes past the first bytes: a larger range, then (rarely) the whole file
  for (const more of [() => bytes.range(0, DRAWING_HEAD_BYTES * 16), () => bytes.whole()]) {
    if (end >= 0) break;
    head = await more();
    text = decoder.decode(head);
    end = text.indexOf(MARKER);
  }
  if (end < 0) throw new Error("The streets layer's drawing copy is damaged.");
  const header = JSON.parse(text.slice(PREFIX.length, end)) as DrawingChunks;
  const start = new TextEncoder().encode(text.slice(0, end + MARKER.length)).length;
  const read = async ([from, to]: Range): Promise<Collection> => {
    if (from === to) return { type: "FeatureCollection", features: [] };
    const [a, b] = [start + from, start + to];
    const part = b <= head.length ? head.subarray(a, b) : await bytes.range(a, b);
    return { type: "FeatureCollection", features: JSON.parse(`[${decoder.decode(part)}]`) as unknown[] };
  };
  const byTile = new Map(header.tiles.map(([x, y, from, to]) => [`${x}/${y}`, [from, to] as Range]));
  return {
    chunked: true,
    header,
    overview: () => read(header.overview),
    async chunk(x, y) {
      const range = byTile.get(`${x}/${y}`);
      return range ? await read(range) : null;
    },
  };
}

/** Reads a drawing copy held in memory (tests, and a server that answers a range with the whole file). */
export function bytesInMemory(all: Uint8Array): DrawingBytes {
  return { range: async (from, to) => all.subarray(from, to), whole: async () => all };
}
