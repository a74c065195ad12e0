/**
 * Parses a map-data file off the main thread (issue 36, DESIGN.md §6): a TIGER/Line shapefile zip
 * or a GeoJSON file becomes the rows the server stores (street segments or boundary polygons,
 * convex/lib/geo/rows.ts) and the drawing copy every map draws; a PMTiles basemap is only checked.
 * Nothing is uploaded here: the screen shows the preview and uploads once the admin confirms.
 *
 * A Vite module worker (`new Worker(new URL(...), { type: "module" })`); `handleParseRequest` is
 * exported so tests run it in Node without a Worker.
 */
import { TEXTS as SHARED } from "@convex/lib/texts";
import { boundaryRow, segmentRow, zipCentres, type BoundaryRow, type SegmentRow } from "@convex/lib/geo/rows";
import { streetsDrawing } from "@convex/lib/geo/drawing";
import {
  detectLayer,
  NOT_A_TIGER_LAYER,
  toBoundaries,
  toStreetSegments,
  type BBox,
  type Boundary,
  type LayerFeature,
  type Refusal,
  type StreetSegment,
  type TigerLayer,
} from "@convex/lib/geo/tiger";
import { readGeoJson, readShapefileZip, type ReadLayer } from "@/lib/geo/readLayer";
import { BASEMAP_MAX_BYTES, BOUNDARY_MAX_TEXT, LAYER_MAX_BYTES } from "@convex/lib/geo/limits";

export type ParseRequest = {
  file: File;
  /** the field holding each area's name, chosen by the user (a file that is not a TIGER layer) */
  nameField?: string;
};

export type ParseStage = "reading" | "converting" | "writing";

export type LayerPreview = {
  /** the first features' names */
  names: string[];
  /** streets: segments per road class; boundaries: none (the names are the areas) */
  classes: { label: string; count: number }[];
};

export type ParsedLayer = {
  kind: "streets" | "boundaries" | "basemap";
  tigerLayer: TigerLayer | null;
  fileName: string;
  /** the name the layer gets by default (the file's name without its extension) */
  name: string;
  nameField: string | null;
  /** the file's attribute fields (boundaries: the name field may be changed among them) */
  fields: string[];
  segments: SegmentRow[];
  boundaries: BoundaryRow[];
  /** the drawing copy (GeoJSON text); null for a basemap, which is uploaded as it is */
  drawing: string | null;
  /** rows to store (named segments, or areas), and segments the geocoder can place a house on */
  features: number;
  addressable: number;
  /** features of the file drawn but not stored (unnamed streets), and left out (rivers, empty shapes) */
  unnamed: number;
  skipped: number;
  bbox: BBox | null;
  /** streets: each ZIP's centre (convex/lib/geo/rows.ts zipCentres) */
  zipCentres?: { zip: string; lat: number; lng: number }[];
  preview: LayerPreview;
};

export type ParseMessage =
  | { type: "progress"; stage: ParseStage; done: number; total: number }
  | { type: "done"; layer: ParsedLayer }
  /** not a TIGER layer: the user picks the field holding each area's name, then the file is parsed again */
  | { type: "chooseNameField"; message: string; fields: string[] }
  | { type: "error"; message: string };

/** Features converted between two progress messages. */
const CHUNK = 5000;
const PREVIEW_NAMES = 8;

/** TIGER/Line road classes (MTFCC S…), as the preview names them. */
const ROAD_CLASSES: Record<string, string> = {
  S1100: "Primary roads",
  S1200: "Secondary roads",
  S1400: "Local streets",
  S1500: "Vehicular trails",
  S1630: "Ramps",
  S1640: "Service drives",
  S1710: "Walkways",
  S1720: "Stairways",
  S1730: "Alleys",
  S1740: "Private roads",
  S1750: "Internal roads",
  S1780: "Parking lot roads",
  S1820: "Bike paths",
  S1830: "Bridle paths",
};

export const TEXTS = {
  empty: "This file is empty. Choose the zip or GeoJSON file again.",
  tooLarge: "This file is larger than 300 MB. Upload a county or a smaller area.",
  basemapTooLarge: SHARED.mapData.basemapTooLarge,
  wrongFile:
    "Choose a TIGER/Line shapefile zip (.zip), a GeoJSON file (.geojson or .json) or a PMTiles basemap (.pmtiles).",
  notPmtiles: SHARED.mapData.notPmtiles,
  noFeatures: SHARED.mapData.noFeatures,
  noStreets: "This file holds no streets to map: no road segment has a line shape.",
  severalLayers: (names: string[]) =>
    `This zip holds ${names.length} shapefiles (${names.join(", ")}). Upload one layer per zip, as the Census Bureau publishes them.`,
  tooDetailed: (name: string) =>
    `The area "${name.slice(0, 80)}" is too detailed to store (its outline passes 900 KB). Simplify the file's shapes and upload it again.`,
} as const;

type Post = (message: ParseMessage) => void;

const isRefusal = (v: unknown): v is Refusal =>
  typeof v === "object" && v !== null && typeof (v as { error?: unknown }).error === "string";

function extensionOf(name: string): "zip" | "geojson" | "pmtiles" | null {
  const lower = name.toLowerCase();
  if (lower.endsWith(".zip")) return "zip";
  if (lower.endsWith(".geojson") || lower.endsWith(".json")) return "geojson";
  if (lower.endsWith(".pmtiles")) return "pmtiles";
  return null;
}

function unionBBox(boxes: Iterable<readonly number[]>): BBox | null {
  let [w, s, e, n] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const b of boxes) {
    if (b[0] < w) w = b[0];
    if (b[1] < s) s = b[1];
    if (b[2] > e) e = b[2];
    if (b[3] > n) n = b[3];
  }
  return Number.isFinite(w) ? [w, s, e, n] : null;
}

function firstNames(names: Iterable<string>): string[] {
  const out = new Set<string>();
  for (const n of names) {
    out.add(n);
    if (out.size >= PREVIEW_NAMES) break;
  }
  return [...out];
}

/** A PMTiles v3 archive: its header's bounds (127 bytes: magic, version 3, …, min/max lon/lat × 10⁷). */
async function readBasemap(file: File): Promise<ParsedLayer | Refusal> {
  const head = new Uint8Array(await file.slice(0, 127).arrayBuffer());
  const magic = new TextDecoder().decode(head.subarray(0, 7));
  if (head.length < 127 || magic !== "PMTiles" || head[7] !== 3) return { error: TEXTS.notPmtiles };
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const e7 = (at: number) => view.getInt32(at, true) / 1e7;
  const bbox: BBox = [e7(102), e7(106), e7(110), e7(114)];
  const valid = bbox[0] >= -180 && bbox[2] <= 180 && bbox[1] >= -90 && bbox[3] <= 90 && bbox[0] <= bbox[2];
  return {
    kind: "basemap",
    tigerLayer: null,
    fileName: file.name,
    name: file.name.replace(/\.pmtiles$/i, ""),
    nameField: null,
    fields: [],
    segments: [],
    boundaries: [],
    drawing: null,
    features: 0,
    addressable: 0,
    unnamed: 0,
    skipped: 0,
    bbox: valid && bbox[1] <= bbox[3] ? bbox : null,
    preview: { names: [], classes: [] },
  };
}

function streetsLayer(read: ReadLayer, fileName: string, post: Post, nameField?: string): ParsedLayer | Refusal {
  const detection = detectLayer(read.fields, nameField);
  if (isRefusal(detection)) return detection;
  if (detection.kind !== "streets") throw new Error("not a streets layer");
  const segments: StreetSegment[] = [];
  let skipped = 0;
  let addressable = 0;
  const total = read.features.length;
  for (let at = 0; at < total; at += CHUNK) {
    const part = toStreetSegments(read.features.slice(at, at + CHUNK), detection);
    if (isRefusal(part)) return part;
    for (const s of part.segments) segments.push(s);
    skipped += part.skipped;
    addressable += part.addressable;
    post({ type: "progress", stage: "converting", done: Math.min(at + CHUNK, total), total });
  }
  if (segments.length === 0) return { error: total === 0 ? TEXTS.noFeatures : TEXTS.noStreets };
  post({ type: "progress", stage: "writing", done: 0, total: 1 });
  const rows = segments.map(segmentRow).filter((r): r is SegmentRow => r !== null);
  if (rows.length === 0) return { error: TEXTS.noStreets };
  const classes = new Map<string, number>();
  for (const s of segments) {
    const label = (s.mtfcc && ROAD_CLASSES[s.mtfcc]) ?? (s.mtfcc ? `Other roads (${s.mtfcc})` : "Roads");
    classes.set(label, (classes.get(label) ?? 0) + 1);
  }
  return {
    kind: "streets",
    tigerLayer: detection.tigerLayer,
    fileName,
    name: read.fileName,
    nameField: detection.nameField,
    fields: read.fields,
    segments: rows,
    boundaries: [],
    drawing: streetsDrawing(segments),
    features: rows.length,
    addressable,
    unnamed: segments.length - rows.length,
    skipped,
    bbox: unionBBox(segments.map((s) => s.bbox)),
    zipCentres: zipCentres(segments),
    preview: {
      names: firstNames(rows.map((r) => r.name)),
      classes: [...classes].map(([label, count]) => ({ label, count })).sort((a, b) => b.count - a.count),
    },
  };
}

function boundariesDrawing(boundaries: Boundary[]): string {
  return JSON.stringify({
    type: "FeatureCollection",
    features: boundaries.map((b) => ({
      type: "Feature",
      geometry: b.geometry,
      properties: { name: b.name, code: b.code ?? null },
    })),
  });
}

function boundariesLayer(read: ReadLayer, fileName: string, post: Post, nameField?: string): ParsedLayer | Refusal {
  const detection = detectLayer(read.fields, nameField);
  if (isRefusal(detection)) return detection;
  if (detection.kind !== "boundaries") throw new Error("not a boundaries layer");
  post({ type: "progress", stage: "converting", done: 0, total: read.features.length });
  const converted = toBoundaries(read.features, detection);
  if (isRefusal(converted)) return converted;
  post({ type: "progress", stage: "converting", done: read.features.length, total: read.features.length });
  if (converted.boundaries.length === 0) return { error: TEXTS.noFeatures };
  post({ type: "progress", stage: "writing", done: 0, total: 1 });
  const rows = converted.boundaries.map(boundaryRow);
  const tooBig = rows.find((r) => r.geometry.length > BOUNDARY_MAX_TEXT);
  if (tooBig) return { error: TEXTS.tooDetailed(tooBig.name) };
  return {
    kind: "boundaries",
    tigerLayer: detection.tigerLayer,
    fileName,
    name: read.fileName,
    nameField: detection.nameField,
    fields: read.fields,
    segments: [],
    boundaries: rows,
    drawing: boundariesDrawing(converted.boundaries),
    features: rows.length,
    addressable: 0,
    unnamed: 0,
    skipped: converted.skipped,
    bbox: unionBBox(rows.map((r) => r.bbox)),
    preview: { names: firstNames(rows.map((r) => r.name)), classes: [] },
  };
}

/** Whether a file's fields make it a streets layer (else it is read as boundaries). */
function isStreets(fields: string[]): boolean {
  const d = detectLayer(fields);
  return !isRefusal(d) && d.kind === "streets";
}

async function parse(request: ParseRequest, post: Post): Promise<ParseMessage> {
  const { file, nameField } = request;
  const ext = extensionOf(file.name);
  if (!ext) return { type: "error", message: TEXTS.wrongFile };
  if (file.size === 0) return { type: "error", message: TEXTS.empty };
  if (ext === "pmtiles") {
    if (file.size > BASEMAP_MAX_BYTES) return { type: "error", message: TEXTS.basemapTooLarge };
    const basemap = await readBasemap(file);
    return isRefusal(basemap) ? { type: "error", message: basemap.error } : { type: "done", layer: basemap };
  }
  if (file.size > LAYER_MAX_BYTES) return { type: "error", message: TEXTS.tooLarge };

  post({ type: "progress", stage: "reading", done: 0, total: file.size });
  let read: ReadLayer;
  if (ext === "zip") {
    const layers = await readShapefileZip(await file.arrayBuffer());
    if (isRefusal(layers)) return { type: "error", message: layers.error };
    if (layers.length !== 1) return { type: "error", message: TEXTS.severalLayers(layers.map((l) => l.fileName)) };
    read = layers[0];
  } else {
    const geojson = readGeoJson(file.name, await file.text());
    if (isRefusal(geojson)) return { type: "error", message: geojson.error };
    read = geojson;
  }
  post({ type: "progress", stage: "reading", done: file.size, total: file.size });
  if (read.features.length === 0) return { type: "error", message: TEXTS.noFeatures };

  const result = isStreets(read.fields)
    ? streetsLayer(read, file.name, post, nameField)
    : boundariesLayer(read, file.name, post, nameField);
  if (isRefusal(result)) {
    return result.error === NOT_A_TIGER_LAYER
      ? { type: "chooseNameField", message: result.error, fields: nameFieldCandidates(read.features, read.fields) }
      : { type: "error", message: result.error };
  }
  return { type: "done", layer: result };
}

/** The fields that could name an area: those holding text in the first features (all fields if none do). */
function nameFieldCandidates(features: LayerFeature[], fields: string[]): string[] {
  const sample = features.slice(0, 50);
  const texty = fields.filter((f) => sample.some((x) => typeof x.properties?.[f] === "string"));
  return texty.length ? texty : fields;
}

/** One request, answered with progress messages and then exactly one of done / chooseNameField / error. */
export async function handleParseRequest(request: ParseRequest, post: Post): Promise<void> {
  try {
    post(await parse(request, post));
  } catch (e) {
    post({
      type: "error",
      message: `This file could not be read (${e instanceof Error ? e.message : String(e)}). ${TEXTS.wrongFile}`,
    });
  }
}

// In a worker (not when a test imports this file): answer each message.
declare const WorkerGlobalScope: (new () => unknown) | undefined;
if (typeof WorkerGlobalScope !== "undefined" && self instanceof WorkerGlobalScope) {
  self.onmessage = (event: MessageEvent<ParseRequest>) => {
    void handleParseRequest(event.data, (message) => postMessage(message));
  };
}
