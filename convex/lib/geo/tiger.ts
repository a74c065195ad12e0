/**
 * Census TIGER/Line layers (issue 36, DESIGN.md §6): which layer a file is, told from its attribute
 * fields, and its features turned into the rows the server stores — street segments (EDGES,
 * ADDRFEAT) for the geocoder and the map, boundary polygons (VTD, SLDU, SLDL, CD, COUNTY, PLACE, or
 * any polygon file whose name field the user chose) for districts.
 *
 * Field names are those of the TIGER/Line technical documentation 2020–2024: EDGES has TLID,
 * FULLNAME, LFROMADD/LTOADD/RFROMADD/RTOADD, ZIPL/ZIPR, MTFCC; ADDRFEAT has LFROMHN/LTOHN/RFROMHN/
 * RTOHN, PARITYL/PARITYR (O, E, B), ZIPL/ZIPR, EDGE_MTFCC. Boundary files carry a vintage suffix on
 * every field in the decennial editions (VTDST20, NAME20, GEOID20) and none in the annual ones
 * (SLDUST, NAMELSAD, GEOID); congressional districts name the Congress (CD118FP, CD119FP). Both
 * spellings are accepted, upper or lower case. TIGER coordinates are NAD83 longitude/latitude; a file
 * in metres or feet is refused rather than guessed at.
 */
import { streetKeys } from "./address";

export type TigerLayer = "EDGES" | "ADDRFEAT" | "VTD" | "SLDU" | "SLDL" | "CD" | "COUNTY" | "PLACE";
export type Refusal = { error: string };

export type StreetFields = {
  name: string;
  tlid?: string;
  mtfcc?: string;
  lFrom: string;
  lTo: string;
  rFrom: string;
  rTo: string;
  parityL?: string;
  parityR?: string;
  zipL?: string;
  zipR?: string;
  /** FEATNAMES-style parts, used when FULLNAME is empty */
  parts: string[];
};

export type LayerDetection =
  | { kind: "streets"; tigerLayer: "EDGES" | "ADDRFEAT"; nameField: string; fields: StreetFields }
  | { kind: "boundaries"; tigerLayer: TigerLayer | null; nameField: string; codeField?: string };

export type Parity = "O" | "E" | "B";
export type Position = [number, number];
export type BBox = [number, number, number, number];

/** One street segment: a TIGER edge with its address ranges (absent where the file has none). */
export type StreetSegment = {
  name?: string;
  key?: string;
  looseKey?: string;
  tlid?: number;
  mtfcc?: string;
  lFrom?: number;
  lTo?: number;
  rFrom?: number;
  rTo?: number;
  parityL?: Parity;
  parityR?: Parity;
  zipL?: string;
  zipR?: string;
  /** a name and at least one side's range: the geocoder can place a house on it */
  addressable: boolean;
  coords: Position[];
  bbox: BBox;
};

export type BoundaryGeometry =
  { type: "Polygon"; coordinates: Position[][] } | { type: "MultiPolygon"; coordinates: Position[][][] };
export type Boundary = {
  name: string;
  code?: string;
  layer: TigerLayer | "custom";
  bbox: BBox;
  geometry: BoundaryGeometry;
};

/** A GeoJSON feature as a shapefile reader returns it. */
export type LayerFeature = {
  type?: "Feature";
  geometry: { type: string; coordinates?: unknown } | null;
  properties: Record<string, unknown> | null;
};

export const NOT_A_TIGER_LAYER =
  "This file is not a TIGER/Line streets or boundary layer: choose the field that holds each area's name.";

/** The field among `fields` named `base` (any case), else `base` with a two-digit vintage (NAME20, NAME10). */
function field(fields: string[], base: string): string | undefined {
  const upper = base.toUpperCase();
  const exact = fields.find((f) => f.toUpperCase() === upper);
  if (exact) return exact;
  const vintages = fields.filter((f) => new RegExp(`^${upper}\\d{2}$`).test(f.toUpperCase()));
  return vintages.sort().reverse()[0];
}

function firstField(fields: string[], ...bases: string[]): string | undefined {
  for (const b of bases) {
    const f = field(fields, b);
    if (f) return f;
  }
  return undefined;
}

function streetDetection(fields: string[]): LayerDetection | null {
  const f = (b: string) => field(fields, b);
  const name = f("FULLNAME") ?? f("NAME");
  const parts = ["PREDIRABRV", "PRETYPABRV", "PREQUALABR", "NAME", "SUFTYPABRV", "SUFDIRABRV", "SUFQUALABR"]
    .map(f)
    .filter((x): x is string => !!x);
  const common = { tlid: f("TLID"), zipL: f("ZIPL"), zipR: f("ZIPR"), parts };
  const edges = ["LFROMADD", "LTOADD", "RFROMADD", "RTOADD"].map(f);
  if (name && edges.every(Boolean)) {
    const [lFrom, lTo, rFrom, rTo] = edges as string[];
    return {
      kind: "streets",
      tigerLayer: "EDGES",
      nameField: name,
      fields: { ...common, name, mtfcc: f("MTFCC"), lFrom, lTo, rFrom, rTo },
    };
  }
  const addrfeat = ["LFROMHN", "LTOHN", "RFROMHN", "RTOHN"].map(f);
  if (name && addrfeat.every(Boolean)) {
    const [lFrom, lTo, rFrom, rTo] = addrfeat as string[];
    const mtfcc = f("EDGE_MTFCC") ?? f("ROAD_MTFCC") ?? f("MTFCC");
    return {
      kind: "streets",
      tigerLayer: "ADDRFEAT",
      nameField: name,
      fields: { ...common, name, mtfcc, lFrom, lTo, rFrom, rTo, parityL: f("PARITYL"), parityR: f("PARITYR") },
    };
  }
  return null;
}

/** The boundary layer a file is, by the code field only that layer has. */
function boundaryLayer(fields: string[]): { layer: TigerLayer; code: string } | null {
  const f = (b: string) => field(fields, b);
  const vtd = f("VTDST");
  if (vtd) return { layer: "VTD", code: vtd };
  const sldu = f("SLDUST");
  if (sldu) return { layer: "SLDU", code: sldu };
  const sldl = f("SLDLST");
  if (sldl) return { layer: "SLDL", code: sldl };
  const cd = fields.find((x) => /^CD(\d{3})?FP(\d{2})?$/i.test(x));
  if (cd) return { layer: "CD", code: cd };
  const place = f("PLACEFP");
  if (place && f("PLACENS")) return { layer: "PLACE", code: place };
  const county = f("COUNTYFP");
  if (county && f("COUNTYNS") && !f("COUSUBFP")) return { layer: "COUNTY", code: county };
  return null;
}

/** Each boundary layer's name field: the area's own name where it has one, else its full title. */
const NAME_FIELDS: Record<TigerLayer, string[]> = {
  EDGES: [],
  ADDRFEAT: [],
  VTD: ["NAME", "NAMELSAD"],
  SLDU: ["NAMELSAD", "NAME"],
  SLDL: ["NAMELSAD", "NAME"],
  CD: ["NAMELSAD", "NAME"],
  COUNTY: ["NAME", "NAMELSAD"],
  PLACE: ["NAME", "NAMELSAD"],
};

/**
 * Which layer a file is, from its attribute field names. `chosenNameField` is the field the user
 * picked as each area's name (a state's precinct file): it makes any polygon file a boundary layer,
 * and overrides the default name field of a TIGER boundary layer.
 */
export function detectLayer(fields: string[], chosenNameField?: string): LayerDetection | Refusal {
  const streets = streetDetection(fields);
  if (streets) return streets;
  const chosen = chosenNameField ? fields.find((f) => f === chosenNameField) : undefined;
  if (chosenNameField && !chosen)
    return { error: `This file has no field "${chosenNameField}": choose one of its fields (${fields.join(", ")}).` };
  const tiger = boundaryLayer(fields);
  if (tiger) {
    const nameField = chosen ?? firstField(fields, ...NAME_FIELDS[tiger.layer]) ?? tiger.code;
    return { kind: "boundaries", tigerLayer: tiger.layer, nameField, codeField: field(fields, "GEOID") ?? tiger.code };
  }
  if (chosen) {
    const codeField = field(fields, "GEOID");
    return codeField
      ? { kind: "boundaries", tigerLayer: null, nameField: chosen, codeField }
      : { kind: "boundaries", tigerLayer: null, nameField: chosen };
  }
  return { error: NOT_A_TIGER_LAYER };
}

/** A DBF value as text: numbers written out, blanks (DBF pads with spaces) absent. */
function text(props: Record<string, unknown>, name: string | undefined): string | undefined {
  if (!name) return undefined;
  const v = props[name];
  if (v === null || v === undefined) return undefined;
  const s = (typeof v === "number" ? (Number.isFinite(v) ? String(v) : "") : typeof v === "string" ? v : "").trim();
  return s === "" ? undefined : s;
}

/** A house number field: a plain number, else absent (TIGER has a few "N123" or "12-34" ranges). */
function houseNumber(props: Record<string, unknown>, name: string): number | undefined {
  const s = text(props, name);
  return s !== undefined && /^\d+$/.test(s) ? Number(s) : undefined;
}

/** A ZIP field: five digits (a numeric field loses New England's leading zero: 2134 → 02134). */
function zip(props: Record<string, unknown>, name: string | undefined): string | undefined {
  const s = text(props, name);
  return s !== undefined && /^\d{1,5}(-?\d{4})?$/.test(s)
    ? s.slice(0, s.length > 5 ? 5 : s.length).padStart(5, "0")
    : undefined;
}

function parity(props: Record<string, unknown>, name: string | undefined): Parity | undefined {
  const s = text(props, name)?.toUpperCase();
  return s === "O" || s === "E" || s === "B" ? s : undefined;
}

function bboxOf(points: Iterable<Position>): BBox {
  let [w, s, e, n] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [x, y] of points) {
    if (x < w) w = x;
    if (x > e) e = x;
    if (y < s) s = y;
    if (y > n) n = y;
  }
  return [w, s, e, n];
}

function* positions(value: unknown): Generator<Position> {
  if (!Array.isArray(value)) return;
  if (typeof value[0] === "number") {
    yield value as Position;
    return;
  }
  for (const v of value) yield* positions(v);
}

/** The first coordinate that is not longitude/latitude, or null. */
function projectedCoordinate(features: LayerFeature[]): Position | null {
  for (const f of features) {
    for (const [x, y] of positions(f.geometry?.coordinates)) {
      if (!Number.isFinite(x) || !Number.isFinite(y) || Math.abs(x) > 180 || Math.abs(y) > 90) return [x, y];
    }
  }
  return null;
}

function projectionRefusal(at: Position): Refusal {
  const shown = at.map((v) => (Number.isFinite(v) ? String(Math.round(v)) : String(v))).join(", ");
  return {
    error:
      `This file's coordinates are not longitude/latitude (${shown}): it is in a projected coordinate system (metres or feet), the wrong projection for a map layer. ` +
      "TIGER/Line files are NAD83 longitude/latitude: upload the zip with its .prj file so it can be converted, or export the layer as longitude/latitude (EPSG:4269 or EPSG:4326).",
  };
}

const LINE_TYPES = new Set(["LineString", "MultiLineString"]);
const POLYGON_TYPES = new Set(["Polygon", "MultiPolygon"]);

/** A line's points as one polyline (the parts of a multi-part edge joined, repeated points dropped). */
function polyline(geometry: { type: string; coordinates?: unknown }): Position[] {
  const parts = (
    geometry.type === "LineString" ? [geometry.coordinates] : (geometry.coordinates as unknown[])
  ) as Position[][];
  const out: Position[] = [];
  for (const part of parts) {
    for (const [x, y] of part) {
      const last = out[out.length - 1];
      if (!last || last[0] !== x || last[1] !== y) out.push([x, y]);
    }
  }
  return out;
}

export type StreetLayer = { segments: StreetSegment[]; addressable: number; skipped: number };

/**
 * An EDGES or ADDRFEAT layer's features as street segments. EDGES also holds rivers, railways and
 * boundary lines: only roads (MTFCC S…) are kept; a road without address ranges is kept for drawing,
 * not addressable.
 */
export function toStreetSegments(features: LayerFeature[], detection: LayerDetection): StreetLayer | Refusal {
  if (detection.kind !== "streets") return { error: "This is a boundary layer, not a streets layer." };
  const at = projectedCoordinate(features);
  if (at) return projectionRefusal(at);
  const f = detection.fields;
  const segments: StreetSegment[] = [];
  let skipped = 0;
  let addressable = 0;
  for (const feature of features) {
    const props = feature.properties ?? {};
    const mtfcc = text(props, f.mtfcc);
    if (!feature.geometry || !LINE_TYPES.has(feature.geometry.type) || (mtfcc && !mtfcc.startsWith("S"))) {
      skipped++;
      continue;
    }
    const coords = polyline(feature.geometry);
    if (coords.length < 2) {
      skipped++;
      continue;
    }
    const seg: StreetSegment = { addressable: false, coords, bbox: bboxOf(coords) };
    const name =
      text(props, f.name) ??
      (f.parts
        .map((p) => text(props, p))
        .filter(Boolean)
        .join(" ") ||
        undefined);
    if (name) {
      const keys = streetKeys(name);
      Object.assign(seg, { name, key: keys.key, looseKey: keys.looseKey });
    }
    const tlid = text(props, f.tlid);
    if (tlid && /^\d+$/.test(tlid)) seg.tlid = Number(tlid);
    if (mtfcc) seg.mtfcc = mtfcc;
    const values = {
      lFrom: houseNumber(props, f.lFrom),
      lTo: houseNumber(props, f.lTo),
      rFrom: houseNumber(props, f.rFrom),
      rTo: houseNumber(props, f.rTo),
      parityL: parity(props, f.parityL),
      parityR: parity(props, f.parityR),
      zipL: zip(props, f.zipL),
      zipR: zip(props, f.zipR),
    };
    // a side's range is both ends or nothing
    if (values.lFrom === undefined || values.lTo === undefined) values.lFrom = values.lTo = undefined;
    if (values.rFrom === undefined || values.rTo === undefined) values.rFrom = values.rTo = undefined;
    for (const [k, v] of Object.entries(values)) if (v !== undefined) Object.assign(seg, { [k]: v });
    seg.addressable = !!seg.key && (seg.lFrom !== undefined || seg.rFrom !== undefined);
    if (seg.addressable) addressable++;
    segments.push(seg);
  }
  return { segments, addressable, skipped };
}

export type BoundaryLayer = { boundaries: Boundary[]; skipped: number };

/** A boundary layer's polygons with their names, codes and bounding boxes. */
export function toBoundaries(features: LayerFeature[], detection: LayerDetection): BoundaryLayer | Refusal {
  if (detection.kind !== "boundaries") return { error: "This is a streets layer, not a boundary layer." };
  const at = projectedCoordinate(features);
  if (at) return projectionRefusal(at);
  const boundaries: Boundary[] = [];
  let skipped = 0;
  for (const feature of features) {
    const props = feature.properties ?? {};
    const name = text(props, detection.nameField);
    if (!feature.geometry || !POLYGON_TYPES.has(feature.geometry.type) || !name) {
      skipped++;
      continue;
    }
    const geometry = { type: feature.geometry.type, coordinates: feature.geometry.coordinates } as BoundaryGeometry;
    const boundary: Boundary = {
      name,
      layer: detection.tigerLayer ?? "custom",
      bbox: bboxOf(positions(geometry.coordinates)),
      geometry,
    };
    const code = text(props, detection.codeField);
    if (code) boundary.code = code;
    boundaries.push(boundary);
  }
  if (boundaries.length === 0 && features.length > 0) {
    return {
      error: `No area in this file has both a polygon and a name in "${detection.nameField}": is it a boundary layer, and is that the name field?`,
    };
  }
  return { boundaries, skipped };
}
