/**
 * A synthetic TIGER/Line county for the geocoder's tests (issue 36): a 20 × 20 block street grid
 * near Springfield, IL, every block face one EDGES-style segment (TLID, FULLNAME, LFROMADD/LTOADD/
 * RFROMADD/RTOADD, ZIPL/ZIPR, MTFCC) — or ADDRFEAT-style (LFROMHN…, PARITYL/PARITYR) — with odd
 * numbers on one side and even on the other, ranges per block (100–198, 101–199…), a quarter of the
 * segments digitised against the numbering (ranges running high → low, left and right swapped), two
 * ZIPs split along a street (its two sides in different ZIPs), a few road segments without ranges,
 * a few unnamed and non-road edges, and six VTD-like precincts.
 *
 * The houses on each block face and their true positions come from the generator's own plane (metres
 * east and north of the county's corner, turned into longitude/latitude at the end): never from the
 * geocoder. Everything is drawn from a seeded PRNG, so a seed is one county.
 * Its shapefile zips: shapefileZip.ts.
 */

export type Position = [number, number];
type Properties = Record<string, string | number>;
export type LineFeature = {
  type: "Feature";
  geometry: { type: "LineString"; coordinates: Position[] };
  properties: Properties;
};
export type PolygonFeature = {
  type: "Feature";
  geometry: { type: "Polygon"; coordinates: Position[][] };
  properties: Properties;
};
export type Collection<F> = { type: "FeatureCollection"; features: F[] };

/** A street's name in parts, as a writer of addresses may spell each one. */
export type StreetName = { pre?: string; name: string; ordinal?: number; type?: string; suf?: string };

export type SyntheticHouse = {
  number: number;
  street: StreetName;
  /** the segment's FULLNAME */
  fullName: string;
  zip: string;
  lat: number;
  lng: number;
  /** the segment the house fronts, and its side relative to the segment's digitised direction */
  tlid: number;
  side: "L" | "R";
};

export type SyntheticCounty = {
  city: string;
  state: string;
  zips: string[];
  edges: Collection<LineFeature>;
  precincts: Collection<PolygonFeature>;
  /** houses on blocks with address ranges */
  houses: SyntheticHouse[];
  /** houses on the blocks TIGER left without ranges */
  unrangedHouses: SyntheticHouse[];
  /** the number ranges of each street (FULLNAME → lowest, highest), for numbers outside all of them */
  streetExtent: Map<string, { low: number; high: number }>;
};

/** mulberry32: a small seeded PRNG (tests never use Math.random). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ORIGIN = { lng: -89.7, lat: 39.75 };
const EARTH_RADIUS = 6_371_008.8;
const RAD = Math.PI / 180;
/** The generator's plane → longitude/latitude (equirectangular about the county's corner). */
function lngLat([x, y]: Position): Position {
  return [ORIGIN.lng + x / (EARTH_RADIUS * RAD * Math.cos(ORIGIN.lat * RAD)), ORIGIN.lat + y / (EARTH_RADIUS * RAD)];
}

/** Blocks each way (the default county; `syntheticCounty`'s `blocks` option makes a bigger one). */
const BLOCKS = 20;
const BLOCK_X = 140;
const BLOCK_Y = 110;
/** The ZIP line: the north–south street at this column, its west side in the first ZIP. */
const ZIP_COLUMN = 7;
const ZIPS = ["62701", "62702"];

const ROW_NAMES: [string, string][] = [
  ["Oak", "St"],
  ["Maple", "Ave"],
  ["Cedar", "Ln"],
  ["Washington", "Blvd"],
  ["Lincoln", "Rd"],
  ["Park", "Pl"],
  ["Lakeview", "Dr"],
  ["Hillcrest", "Ct"],
  ["Sunset", "Ter"],
  ["Meadow", "Cir"],
  ["Main", "St"],
  ["Riverside", "Pkwy"],
  ["Pine", "Way"],
  ["Jefferson", "Hwy"],
  ["Elm", "St"],
  ["Walnut", "Ave"],
  ["Madison", "Rd"],
  ["Birch", "Ln"],
  ["Spring Garden", "Pl"],
  ["Chestnut", "Dr"],
  ["Willow", "Ct"],
];
/** Rows whose quadrant is a post-directional (Lincoln Rd NE) instead of a prefix. */
const POST_DIRECTIONAL_ROWS = new Set([4, 16]);
/**
 * The middle row and column: Main St, the baseline row numbered straight through from west to east,
 * and Broadway, the meridian column, a street without a type.
 */
function columnName(i: number, north: boolean, middle: number): StreetName {
  const pre = north ? "N" : "S";
  if (i === middle) return { pre, name: "Broadway" };
  const n = i < middle ? i + 1 : i;
  return { pre, name: ordinalText(n), ordinal: n, type: n % 3 === 0 ? "Ave" : "St" };
}

function rowName(j: number, east: boolean, middle: number): StreetName {
  const [base, type] = ROW_NAMES[j % ROW_NAMES.length];
  // a county bigger than the list of names numbers the repeats (Oak 2 St)
  const name = j < ROW_NAMES.length ? base : `${base} ${Math.floor(j / ROW_NAMES.length) + 1}`;
  if (j === middle) return { name, type };
  if (POST_DIRECTIONAL_ROWS.has(j)) return { name, type, suf: `${j >= middle ? "N" : "S"}${east ? "E" : "W"}` };
  return { pre: east ? "E" : "W", name, type };
}

function fullName(s: StreetName): string {
  return [s.pre, s.name, s.type, s.suf].filter(Boolean).join(" ");
}

function ordinalText(n: number): string {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  return `${n}${teen ? "th" : (({ 1: "st", 2: "nd", 3: "rd" } as Record<number, string>)[n % 10] ?? "th")}`;
}

type Face = { base: number; even: boolean };
type Block = {
  street: StreetName;
  /** the block's polyline in the plane, in the direction house numbers grow */
  line: Position[];
  base: number;
  /** the side (of the numbering direction) holding even numbers */
  evenSide: "L" | "R";
  zipLeft: string;
  zipRight: string;
};

/** The point `f` of the way along a planar polyline, and its unit direction. */
function alongPlane(line: Position[], f: number): { at: Position; dir: Position } {
  const lengths = line.slice(1).map((p, i) => Math.hypot(p[0] - line[i][0], p[1] - line[i][1]));
  let target = f * lengths.reduce((a, b) => a + b, 0);
  let i = 0;
  while (i < lengths.length - 1 && target > lengths[i]) target -= lengths[i++];
  const [a, b] = [line[i], line[i + 1]];
  const t = target / lengths[i];
  const dir: Position = [(b[0] - a[0]) / lengths[i], (b[1] - a[1]) / lengths[i]];
  return { at: [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t], dir };
}

/**
 * The county for a seed. `style` chooses EDGES or ADDRFEAT attribute fields; `blocks` the grid's size
 * (default 20 × 20: 843 edges; 173 makes a county of 60,207 edges, for benchmarks).
 */
export function syntheticCounty(
  seed = 36,
  style: "EDGES" | "ADDRFEAT" = "EDGES",
  { blocks: size = BLOCKS }: { blocks?: number } = {},
): SyntheticCounty {
  const random = seededRandom(seed);
  const middle = Math.floor(size / 2);
  const blocks: Block[] = [];
  const xs = Array.from({ length: size + 1 }, (_, i) => i * BLOCK_X);
  const ys = Array.from({ length: size + 1 }, (_, j) => j * BLOCK_Y);
  // a slight bend in each block (a middle vertex up to 4 m off the straight line), so segments are polylines
  const bend = (a: Position, b: Position): Position[] => {
    const off = (random() - 0.5) * 8;
    const len = Math.hypot(b[0] - a[0], b[1] - a[1]);
    const mid: Position = [
      (a[0] + b[0]) / 2 - ((b[1] - a[1]) / len) * off,
      (a[1] + b[1]) / 2 + ((b[0] - a[0]) / len) * off,
    ];
    return [a, mid, b];
  };
  // north–south streets: numbers grow away from Main St (north and south), even on the east side
  for (let i = 0; i <= size; i++) {
    for (let j = 0; j < size; j++) {
      const north = j >= middle;
      const k = north ? j - middle : middle - 1 - j;
      const south: Position = [xs[i], ys[j]];
      const top: Position = [xs[i], ys[j + 1]];
      const line = north ? bend(south, top) : bend(top, south);
      // going north the east side is on the right; going south, on the left
      const evenSide = north ? "R" : "L";
      const [west, east] =
        i < ZIP_COLUMN ? [ZIPS[0], ZIPS[0]] : i > ZIP_COLUMN ? [ZIPS[1], ZIPS[1]] : [ZIPS[0], ZIPS[1]];
      const [zipLeft, zipRight] = north ? [west, east] : [east, west];
      blocks.push({ street: columnName(i, north, middle), line, base: 100 * (k + 1), evenSide, zipLeft, zipRight });
    }
  }
  // east–west streets: numbers grow away from Broadway (Main St: from the west edge), even on the north side
  for (let j = 0; j <= size; j++) {
    for (let i = 0; i < size; i++) {
      const east = i >= middle;
      const eastward = j === middle || east;
      const k = j === middle ? i : east ? i - middle : middle - 1 - i;
      const w: Position = [xs[i], ys[j]];
      const e: Position = [xs[i + 1], ys[j]];
      const line = eastward ? bend(w, e) : bend(e, w);
      const evenSide = eastward ? "L" : "R";
      const zip = i < ZIP_COLUMN ? ZIPS[0] : ZIPS[1];
      blocks.push({
        street: rowName(j, east, middle),
        line,
        base: 100 * (k + 1),
        evenSide,
        zipLeft: zip,
        zipRight: zip,
      });
    }
  }

  const features: LineFeature[] = [];
  const houses: SyntheticHouse[] = [];
  const unrangedHouses: SyntheticHouse[] = [];
  const streetExtent = new Map<string, { low: number; high: number }>();
  let tlid = 600_000_000 + Math.floor(random() * 1_000_000);
  let tnid = 90_000_000;
  for (const block of blocks) {
    tlid++;
    const name = fullName(block.street);
    const unranged = name !== "Main St" && random() < 0.03;
    const reversed = random() < 0.25;
    const faces: Record<"L" | "R", Face> = {
      L: { base: block.base + (block.evenSide === "L" ? 0 : 1), even: block.evenSide === "L" },
      R: { base: block.base + (block.evenSide === "R" ? 0 : 1), even: block.evenSide === "R" },
    };
    if (!unranged) {
      const extent = streetExtent.get(name) ?? { low: Infinity, high: -Infinity };
      streetExtent.set(name, { low: Math.min(extent.low, block.base), high: Math.max(extent.high, block.base + 99) });
    }
    // houses: 3–12 lots per face, numbered in step with their place along the block
    for (const side of ["L", "R"] as const) {
      const face = faces[side];
      const lots = 3 + Math.floor(random() * 10);
      let last = -1;
      for (let lot = 0; lot < lots; lot++) {
        const f = Math.min(0.98, Math.max(0.02, (lot + 0.5) / lots + (random() - 0.5) * (0.3 / lots)));
        const step = Math.round(f * 49);
        if (step <= last) continue;
        last = step;
        const { at, dir } = alongPlane(block.line, f);
        const setback = 12 + random() * 10;
        // left of the numbering direction (dx, dy) is (−dy, dx)
        const [nx, ny] = side === "L" ? [-dir[1], dir[0]] : [dir[1], -dir[0]];
        const [lng, lat] = lngLat([at[0] + nx * setback, at[1] + ny * setback]);
        const zip = side === "L" ? block.zipLeft : block.zipRight;
        // the side relative to the digitised direction: swapped on a reversed segment
        const digitisedSide = reversed ? (side === "L" ? "R" : "L") : side;
        const house: SyntheticHouse = {
          number: face.base + 2 * step,
          street: block.street,
          fullName: name,
          zip,
          lat,
          lng,
          tlid,
          side: digitisedSide,
        };
        (unranged ? unrangedHouses : houses).push(house);
      }
    }
    const coords = (reversed ? [...block.line].reverse() : block.line).map(lngLat);
    // the numbering direction's left face is the digitised right one when reversed; FROM is the low end unless reversed
    const range = (side: "L" | "R") => {
      const face = faces[reversed ? (side === "L" ? "R" : "L") : side];
      const [lo, hi] = [face.base, face.base + 98];
      return reversed ? [hi, lo] : [lo, hi];
    };
    const zipOf = (side: "L" | "R") => ((side === "L") !== reversed ? block.zipLeft : block.zipRight);
    const [lFrom, lTo] = unranged ? ["", ""] : range("L").map(String);
    const [rFrom, rTo] = unranged ? ["", ""] : range("R").map(String);
    const zipL = unranged ? "" : zipOf("L");
    const zipR = unranged ? "" : zipOf("R");
    const parity = (side: "L" | "R") =>
      unranged ? "" : faces[reversed ? (side === "L" ? "R" : "L") : side].even ? "E" : "O";
    const props: Properties =
      style === "EDGES"
        ? {
            STATEFP: "17",
            COUNTYFP: "167",
            TLID: tlid,
            TFIDL: 200_000_000 + tlid - 600_000_000,
            TFIDR: 210_000_000 + tlid - 600_000_000,
            MTFCC: "S1400",
            FULLNAME: name,
            SMID: String(tlid % 100_000),
            LFROMADD: lFrom,
            LTOADD: lTo,
            RFROMADD: rFrom,
            RTOADD: rTo,
            ZIPL: zipL,
            ZIPR: zipR,
            FEATCAT: "",
            ROADFLG: "Y",
            OFFSETL: "N",
            OFFSETR: "N",
            TNIDF: tnid++,
            TNIDT: tnid++,
          }
        : {
            TLID: tlid,
            FULLNAME: name,
            LFROMHN: lFrom,
            LTOHN: lTo,
            RFROMHN: rFrom,
            RTOHN: rTo,
            ZIPL: zipL,
            ZIPR: zipR,
            EDGE_MTFCC: "S1400",
            PARITYL: parity("L"),
            PARITYR: parity("R"),
            OFFSETL: "N",
            OFFSETR: "N",
          };
    features.push({ type: "Feature", geometry: { type: "LineString", coordinates: coords }, properties: props });
  }
  if (style === "EDGES") {
    // what else an EDGES file holds: a creek and a railway (not roads), an unnamed service drive
    const blank = { LFROMADD: "", LTOADD: "", RFROMADD: "", RTOADD: "", ZIPL: "", ZIPR: "" };
    const extra: [string, string, Position[]][] = [
      [
        "H3010",
        "Sugar Crk",
        [
          [30, 50],
          [900, 1300],
          [2700, 2150],
        ],
      ],
      [
        "R1011",
        "Norfolk Southern Rlwy",
        [
          [0, 1700],
          [2800, 1720],
        ],
      ],
      [
        "S1400",
        "",
        [
          [700, 560],
          [760, 600],
        ],
      ],
    ];
    for (const [mtfcc, name, line] of extra) {
      tlid++;
      const props = {
        STATEFP: "17",
        COUNTYFP: "167",
        TLID: tlid,
        TFIDL: 0,
        TFIDR: 0,
        MTFCC: mtfcc,
        FULLNAME: name,
        SMID: "",
        ...blank,
        FEATCAT: "",
        ROADFLG: mtfcc.startsWith("S") ? "Y" : "",
        OFFSETL: "N",
        OFFSETR: "N",
        TNIDF: tnid++,
        TNIDT: tnid++,
      };
      features.push({
        type: "Feature",
        geometry: { type: "LineString", coordinates: line.map(lngLat) },
        properties: props,
      });
    }
  }

  // six precincts: two bands north–south by three east–west, along streets
  const precincts: PolygonFeature[] = [];
  const cutsX = [0, 7, 14, size].map((i) => xs[i]);
  const cutsY = [0, middle, size].map((j) => ys[j]);
  let vtd = 0;
  for (let b = 0; b < 2; b++) {
    for (let a = 0; a < 3; a++) {
      vtd++;
      const [w, e, s, n] = [cutsX[a], cutsX[a + 1], cutsY[b], cutsY[b + 1]];
      // clockwise, as shapefiles draw an outer ring
      const ring: Position[] = [
        [w, s],
        [w, n],
        [e, n],
        [e, s],
        [w, s],
      ].map((p) => lngLat(p as Position));
      const code = String(vtd * 10).padStart(6, "0");
      precincts.push({
        type: "Feature",
        geometry: { type: "Polygon", coordinates: [ring] },
        properties: {
          STATEFP20: "17",
          COUNTYFP20: "167",
          VTDST20: code,
          GEOID20: `17167${code}`,
          VTDI20: "A",
          NAME20: `Springfield ${vtd}`,
          NAMELSAD20: `Springfield ${vtd} Voting District`,
          LSAD20: "00",
          MTFCC20: "G5240",
          FUNCSTAT20: "N",
        },
      });
    }
  }
  return {
    city: "Springfield",
    state: "IL",
    zips: ZIPS,
    edges: { type: "FeatureCollection", features },
    precincts: { type: "FeatureCollection", features: precincts },
    houses,
    unrangedHouses,
    streetExtent,
  };
}

const DIRECTION_WORDS: Record<string, string> = {
  N: "North",
  S: "South",
  E: "East",
  W: "West",
  NE: "Northeast",
  NW: "Northwest",
  SE: "Southeast",
  SW: "Southwest",
};
const TYPE_WORDS: Record<string, string> = {
  St: "Street",
  Ave: "Avenue",
  Ln: "Lane",
  Blvd: "Boulevard",
  Rd: "Road",
  Pl: "Place",
  Dr: "Drive",
  Ct: "Court",
  Ter: "Terrace",
  Cir: "Circle",
  Pkwy: "Parkway",
  Way: "Way",
  Hwy: "Highway",
};
const ORDINAL_WORDS = [
  "",
  "First",
  "Second",
  "Third",
  "Fourth",
  "Fifth",
  "Sixth",
  "Seventh",
  "Eighth",
  "Ninth",
  "Tenth",
  "Eleventh",
  "Twelfth",
  "Thirteenth",
  "Fourteenth",
  "Fifteenth",
  "Sixteenth",
  "Seventeenth",
  "Eighteenth",
  "Nineteenth",
  "Twentieth",
];

/**
 * A house's address as a person or a voter file may write it: directionals and types abbreviated or
 * spelled out (with or without periods), ordinals as numbers or words, a unit (Apt 4, #12, Unit B,
 * Ste 200) or none, ZIP or ZIP+4, commas or none, any case.
 */
export function writtenAddress(
  house: SyntheticHouse,
  county: Pick<SyntheticCounty, "city" | "state">,
  random: () => number,
): string {
  const pick = <T>(xs: T[]): T => xs[Math.floor(random() * xs.length)];
  const s = house.street;
  const dir = (d: string) => pick([d, DIRECTION_WORDS[d], d.split("").join(".") + "."]);
  const parts = [
    s.pre ? dir(s.pre) : "",
    s.ordinal ? pick([s.name, ORDINAL_WORDS[s.ordinal], s.name.toUpperCase()]) : s.name,
    s.type ? pick([s.type, TYPE_WORDS[s.type], `${s.type}.`]) : "",
    s.suf ? dir(s.suf) : "",
  ].filter(Boolean);
  const unit = pick(["", "", "", "Apt 4", "#12", "Unit B", "Ste 200", "Apt. 3B"]);
  const zip = pick([house.zip, house.zip, `${house.zip}-${String(1000 + Math.floor(random() * 9000))}`]);
  const line = `${house.number} ${parts.join(" ")}`;
  const commas = random() < 0.8;
  const written = commas
    ? `${line}${unit ? `${pick([" ", ", "])}${unit}` : ""}, ${county.city}, ${county.state} ${zip}`
    : `${line}${unit ? ` ${unit}` : ""} ${county.city} ${county.state} ${zip}`;
  return pick([written, written, written.toUpperCase(), written.toLowerCase()]);
}
