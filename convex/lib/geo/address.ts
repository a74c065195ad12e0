/**
 * US addresses normalised for the offline geocoder (issue 36, DESIGN.md §6): a voter's address and a
 * TIGER/Line street segment's name are reduced to the same street key, so a segment is found by key.
 *
 * A street key is the street's words in one canonical spelling: upper case, no punctuation, USPS
 * abbreviations for directionals (North → N, Northeast → NE) and street types (Street → ST,
 * Avenue → AVE, Parkway → PKWY; the type where a type stands: last, or first in "Avenue C"),
 * ordinals as numbers (Fifth, 5th → 5TH; Twenty-First → 21ST), Saint/Mount/Fort as St/Mt/Ft.
 * Both sides go through the same function, so they meet. The loose key drops the directionals at
 * either end and the street type, for an address written without them.
 *
 * The address itself is split with parse-address (as the petition matcher does): house number
 * (fractions, letters and ranges dropped: "12B", "12 1/2", "12-14" → 12), unit ignored (Apt, Unit,
 * #, Ste…), ZIP 5 from ZIP+4, city and state.
 */
import { parseLocation, type ParsedAddress as ParsedLocation } from "parse-address";

export type NormalizedAddress = {
  number: number;
  /** the street as written (tidied), for display */
  street: string;
  key: string;
  looseKey: string;
  city?: string;
  state?: string;
  zip?: string;
};

export type StreetKeys = { key: string; looseKey: string };

const DIRECTIONS: Record<string, string> = {
  NORTH: "N",
  SOUTH: "S",
  EAST: "E",
  WEST: "W",
  NORTHEAST: "NE",
  NORTHWEST: "NW",
  SOUTHEAST: "SE",
  SOUTHWEST: "SW",
};
const DIRECTION_ABBREVIATIONS = new Set(["N", "S", "E", "W", "NE", "NW", "SE", "SW"]);

/** USPS Publication 28 street suffixes: the abbreviation, then the spellings that mean it. */
const TYPE_SPELLINGS: Record<string, string[]> = {
  ALY: ["ALLEY", "ALLEE", "ALLY"],
  ANX: ["ANNEX", "ANEX", "ANNX"],
  ARC: ["ARCADE"],
  AVE: ["AVENUE", "AV", "AVEN", "AVENU", "AVN", "AVNUE"],
  BCH: ["BEACH"],
  BLF: ["BLUFF", "BLUF"],
  BLVD: ["BOULEVARD", "BOUL", "BOULV", "BLV"],
  BND: ["BEND"],
  BR: ["BRANCH", "BRNCH"],
  BRG: ["BRIDGE", "BRDGE"],
  BRK: ["BROOK"],
  BYP: ["BYPASS", "BYPA", "BYPAS", "BYPS"],
  CIR: ["CIRCLE", "CIRC", "CIRCL", "CRCL", "CRCLE"],
  CLF: ["CLIFF"],
  CLB: ["CLUB"],
  CMN: ["COMMON"],
  COR: ["CORNER"],
  CP: ["CAMP", "CMP"],
  CPE: ["CAPE"],
  CRES: ["CRESCENT", "CRSENT", "CRSNT"],
  CRK: ["CREEK"],
  CRSE: ["COURSE"],
  CRST: ["CREST"],
  CSWY: ["CAUSEWAY", "CAUSWA"],
  CT: ["COURT", "CRT"],
  CTR: ["CENTER", "CEN", "CENT", "CENTR", "CENTRE", "CNTER", "CNTR"],
  CURV: ["CURVE"],
  CV: ["COVE"],
  CYN: ["CANYON", "CANYN", "CNYN"],
  DL: ["DALE"],
  DM: ["DAM"],
  DR: ["DRIVE", "DRIV", "DRV"],
  DV: ["DIVIDE", "DIV", "DVD"],
  EST: ["ESTATE"],
  ESTS: ["ESTATES"],
  EXPY: ["EXPRESSWAY", "EXP", "EXPR", "EXPRESS", "EXPW"],
  EXT: ["EXTENSION", "EXTN", "EXTNSN"],
  FLD: ["FIELD"],
  FLDS: ["FIELDS"],
  FLS: ["FALLS"],
  FLT: ["FLAT"],
  FRD: ["FORD"],
  FRG: ["FORGE", "FORG"],
  FRK: ["FORK"],
  FRST: ["FOREST", "FORESTS"],
  FRY: ["FERRY", "FRRY"],
  FT: ["FORT", "FRT"],
  FWY: ["FREEWAY", "FREEWY", "FRWAY", "FRWY"],
  GDN: ["GARDEN", "GARDN", "GRDEN", "GRDN"],
  GDNS: ["GARDENS", "GRDNS"],
  GLN: ["GLEN"],
  GRN: ["GREEN"],
  GRV: ["GROVE", "GROV"],
  GTWY: ["GATEWAY", "GATEWY", "GATWAY", "GTWAY"],
  HBR: ["HARBOR", "HARB", "HARBR", "HRBOR"],
  HL: ["HILL"],
  HLS: ["HILLS"],
  HOLW: ["HOLLOW", "HLLW", "HOLLOWS", "HOLWS"],
  HTS: ["HEIGHTS", "HT"],
  HVN: ["HAVEN"],
  HWY: ["HIGHWAY", "HIGHWY", "HIWAY", "HIWY", "HWAY"],
  INLT: ["INLET"],
  IS: ["ISLAND", "ISLND"],
  JCT: ["JUNCTION", "JCTION", "JCTN", "JUNCTN", "JUNCTON"],
  KNL: ["KNOLL", "KNOL"],
  KY: ["KEY"],
  LK: ["LAKE"],
  LKS: ["LAKES"],
  LN: ["LANE"],
  LNDG: ["LANDING", "LNDNG"],
  MDW: ["MEADOW"],
  MDWS: ["MEADOWS", "MEDOWS"],
  ML: ["MILL"],
  MNR: ["MANOR"],
  MSN: ["MISSION", "MISSN", "MSSN"],
  MT: ["MOUNT", "MNT"],
  MTN: ["MOUNTAIN", "MNTAIN", "MNTN", "MOUNTIN", "MTIN"],
  MTWY: ["MOTORWAY"],
  OPAS: ["OVERPASS"],
  ORCH: ["ORCHARD", "ORCHRD"],
  PKWY: ["PARKWAY", "PARKWY", "PKWAY", "PKY", "PARKWAYS", "PKWYS"],
  PL: ["PLACE"],
  PLN: ["PLAIN"],
  PLNS: ["PLAINS"],
  PLZ: ["PLAZA", "PLZA"],
  PNE: ["PINE"],
  PNES: ["PINES"],
  PR: ["PRAIRIE", "PRR"],
  PRT: ["PORT"],
  PSGE: ["PASSAGE"],
  PT: ["POINT"],
  RADL: ["RADIAL", "RAD", "RADIEL"],
  RD: ["ROAD"],
  RDG: ["RIDGE", "RDGE"],
  RIV: ["RIVER", "RVR", "RIVR"],
  RNCH: ["RANCH", "RANCHES", "RNCHS"],
  RPDS: ["RAPIDS"],
  RST: ["REST"],
  RTE: ["ROUTE"],
  SHL: ["SHOAL"],
  SHR: ["SHORE", "SHOAR"],
  SHRS: ["SHORES", "SHOARS"],
  SKWY: ["SKYWAY"],
  SMT: ["SUMMIT", "SUMIT", "SUMITT"],
  SPG: ["SPRING", "SPNG", "SPRNG"],
  SPGS: ["SPRINGS", "SPNGS", "SPRNGS"],
  SQ: ["SQUARE", "SQR", "SQRE", "SQU"],
  ST: ["STREET", "STRT", "STR", "SAINT"],
  STA: ["STATION", "STATN", "STN"],
  STRM: ["STREAM", "STREME"],
  TER: ["TERRACE", "TERR"],
  TPKE: ["TURNPIKE", "TRNPK", "TURNPK"],
  TRAK: ["TRACK", "TRACKS", "TRK", "TRKS"],
  TRCE: ["TRACE", "TRACES"],
  TRL: ["TRAIL", "TRAILS", "TRLS"],
  TRWY: ["THROUGHWAY"],
  TUNL: ["TUNNEL", "TUNEL", "TUNLS", "TUNNELS", "TUNNL"],
  UPAS: ["UNDERPASS"],
  VIA: ["VIADUCT", "VDCT", "VIADCT"],
  VIS: ["VISTA", "VIST", "VST", "VSTA"],
  VL: ["VILLE"],
  VLG: ["VILLAGE", "VILL", "VILLAG", "VILLG", "VILLIAGE"],
  VLY: ["VALLEY", "VALLY", "VLLY"],
  VW: ["VIEW"],
  XING: ["CROSSING", "CRSSNG"],
  XRD: ["CROSSROAD"],
};
/** Suffixes spelled the same in full and abbreviated (Loop, Way, Walk…): types too. */
const SAME_SPELLING_TYPES = ["LOOP", "MALL", "OVAL", "PARK", "PASS", "PATH", "PIKE", "ROW", "RUN", "WALK", "WAY"];

const TYPES: Record<string, string> = {};
for (const [abbreviation, spellings] of Object.entries(TYPE_SPELLINGS)) {
  for (const s of spellings) TYPES[s] = abbreviation;
}
const TYPE_ABBREVIATIONS = new Set([...Object.keys(TYPE_SPELLINGS), ...SAME_SPELLING_TYPES]);
/** Types that also stand before the name ("Avenue C", "Route 9", "Highway 61"). */
const PREFIX_TYPES = new Set(["AVE", "RTE", "HWY", "RD", "FWY", "EXPY", "PKWY", "TPKE", "BYP"]);
/** Name words people and TIGER both abbreviate, wherever they stand ("Saint Louis Ave" = "St Louis Ave"). */
const NAME_WORDS: Record<string, string> = { SAINT: "ST", MOUNT: "MT", FORT: "FT" };

const UNITS = ["FIRST", "SECOND", "THIRD", "FOURTH", "FIFTH", "SIXTH", "SEVENTH", "EIGHTH", "NINTH"];
const TEENS = [
  "TENTH",
  "ELEVENTH",
  "TWELFTH",
  "THIRTEENTH",
  "FOURTEENTH",
  "FIFTEENTH",
  "SIXTEENTH",
  "SEVENTEENTH",
  "EIGHTEENTH",
  "NINETEENTH",
];
const TENS = ["TWENTY", "THIRTY", "FORTY", "FIFTY", "SIXTY", "SEVENTY", "EIGHTY", "NINETY"];
const TENS_ORDINAL = [
  "TWENTIETH",
  "THIRTIETH",
  "FORTIETH",
  "FIFTIETH",
  "SIXTIETH",
  "SEVENTIETH",
  "EIGHTIETH",
  "NINETIETH",
];

const ORDINAL_WORDS = new Map<string, number>();
UNITS.forEach((w, i) => ORDINAL_WORDS.set(w, i + 1));
TEENS.forEach((w, i) => ORDINAL_WORDS.set(w, i + 10));
TENS_ORDINAL.forEach((w, i) => ORDINAL_WORDS.set(w, (i + 2) * 10));
ORDINAL_WORDS.set("HUNDREDTH", 100);
const TENS_WORDS = new Map(TENS.map((w, i) => [w, (i + 2) * 10]));

/** 1 → 1ST, 2 → 2ND, 11 → 11TH, 23 → 23RD. */
function ordinal(n: number): string {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  const suffix = teen ? "TH" : (({ 1: "ST", 2: "ND", 3: "RD" } as Record<number, string>)[n % 10] ?? "TH");
  return `${n}${suffix}`;
}

/** Words of a street name, upper case, punctuation gone ("S.W." → SW, "Twenty-First" → TWENTY FIRST). */
function words(text: string): string[] {
  return text
    .toUpperCase()
    .replace(/[.'’`]/g, "")
    .replace(/[^A-Z0-9]+/g, " ")
    .trim()
    .split(" ")
    .filter(Boolean);
}

/** The street's words in canonical spelling: ordinals as numbers, directionals and types abbreviated. */
function canonicalWords(text: string): string[] {
  const ws = words(text);
  const out: string[] = [];
  for (let i = 0; i < ws.length; i++) {
    const w = ws[i];
    const tens = TENS_WORDS.get(w);
    const unit = ORDINAL_WORDS.get(ws[i + 1] ?? "");
    if (tens !== undefined && unit !== undefined && unit < 10) {
      out.push(ordinal(tens + unit));
      i++;
      continue;
    }
    if (w === "ONE" && ws[i + 1] === "HUNDREDTH") continue;
    const numbered = /^(\d+)(ST|ND|RD|TH)$/.exec(w);
    const n = ORDINAL_WORDS.get(w) ?? (numbered ? Number(numbered[1]) : undefined);
    if (n !== undefined) out.push(ordinal(n));
    else out.push(DIRECTIONS[w] ?? NAME_WORDS[w] ?? w);
  }
  // the street type: the last word (before a post-directional), or the first (after a prefix
  // directional) of "Avenue C"; a type word inside the name stays as written ("Lake Shore Dr")
  const last = out.length > 2 && DIRECTION_ABBREVIATIONS.has(out[out.length - 1]) ? out.length - 2 : out.length - 1;
  if (last > 0) out[last] = TYPES[out[last]] ?? out[last];
  const first = out.length > 1 && DIRECTION_ABBREVIATIONS.has(out[0]) ? 1 : 0;
  const pre = TYPES[out[first]] ?? out[first];
  if (first < last && PREFIX_TYPES.has(pre)) out[first] = pre;
  return out;
}

function looseOf(ws: string[]): string[] {
  const w = [...ws];
  if (w.length > 1 && DIRECTION_ABBREVIATIONS.has(w[w.length - 1])) w.pop();
  if (w.length > 1 && TYPE_ABBREVIATIONS.has(w[w.length - 1])) w.pop();
  if (w.length > 1 && DIRECTION_ABBREVIATIONS.has(w[0])) w.shift();
  return w;
}

/**
 * The keys of a street name: an address's street part, a TIGER EDGES/ADDRFEAT FULLNAME, or the
 * FEATNAMES parts joined ("N", "Main", "St").
 */
export function streetKeys(name: string): StreetKeys {
  const ws = canonicalWords(name);
  return { key: ws.join(" "), looseKey: looseOf(ws).join(" ") };
}

const UNIT_DESIGNATORS =
  "APT|APARTMENT|UNIT|STE|SUITE|RM|ROOM|FL|FLOOR|BLDG|BUILDING|LOT|SPC|SPACE|TRLR|TRAILER|DEPT|PH|PENTHOUSE|BSMT|BASEMENT|FRNT|REAR|LOWR|UPPR|OFC|SIDE|STOP|HNGR|PIER|SLIP|KEY";
const UNIT_TAIL = new RegExp(`(?:\\s+(?:${UNIT_DESIGNATORS})\\b.*|\\s*#.*)$`, "i");
/** "12B Oak Rd", "12-B", "12 1/2", "12-14" → 12 and the rest */
const HOUSE_NUMBER = /^(\d+)(?:-?[A-Z](?![A-Z0-9])|-\d+[A-Z]?(?![A-Z0-9]))?(?:\s+\d+\/\d+)?\s*,?\s+(.+)$/i;

/** A unit inside a line without commas ("5th Ave Unit B Springfield"): the designator and its value. */
const UNIT_INSIDE = /\s+(?:APT|APARTMENT|UNIT|STE|SUITE|RM|ROOM|BLDG|LOT|SPC|TRLR)\s+\S+|\s*#\s*\S+/gi;
/** Types that end a street and rarely begin a city's name (unlike Park, Lake, Grove, Garden). */
const STREET_ENDINGS = new Set([
  "ST",
  "AVE",
  "RD",
  "DR",
  "LN",
  "CT",
  "PL",
  "WAY",
  "BLVD",
  "TER",
  "CIR",
  "PKWY",
  "HWY",
  "LOOP",
  "TRL",
]);

/**
 * The street and city of a line without commas ("456 Pine Way Apt 2 Springfield IL 62701"), from the
 * text itself: parse-address splits at the first word that may be a street type (Pine, Spring,
 * Meadow are USPS suffixes) and rewrites it, so its street is only a hint of where the city starts.
 */
function withoutCommas(rest: string, p: ParsedLocation | null): { street: string; city?: string } {
  const ws = words(rest.replace(UNIT_INSIDE, ""));
  if (/^\d{4}$/.test(ws[ws.length - 1] ?? "") && /^\d{5}$/.test(ws[ws.length - 2] ?? "")) ws.pop();
  if (/^\d{5}$/.test(ws[ws.length - 1] ?? "")) ws.pop();
  if (p?.state && ws[ws.length - 1] === p.state.toUpperCase()) ws.pop();
  let cityWords = p?.city ? words(` ${p.city}`.replace(UNIT_INSIDE, "")) : [];
  // parse-address ended the street early ("Pine | Way Springfield"): the city starts after the last street ending
  const ending = cityWords.findLastIndex((w, i) => i < cityWords.length - 1 && STREET_ENDINGS.has(TYPES[w] ?? w));
  if (ending >= 0) cityWords = cityWords.slice(ending + 1);
  if (cityWords.length === 0) {
    // no city found: "700 Oak Lane Springfield" — a street type inside the line (not its first word) ends the street
    const at = ws.findLastIndex(
      (w, i) => i > 0 && i < ws.length - 1 && (TYPES[w] !== undefined || TYPE_ABBREVIATIONS.has(w)),
    );
    if (at > 0) cityWords = ws.slice(at + 1);
  }
  const endsWithCity =
    cityWords.length > 0 &&
    cityWords.length < ws.length &&
    cityWords.every((w, i) => ws[ws.length - cityWords.length + i] === w);
  if (!endsWithCity) return { street: ws.join(" ") };
  let streetWords = ws.slice(0, ws.length - cityWords.length);
  // or late ("Main St Park | Ridge"): words after the street's ending that may only be a suffix begin the city
  const last = streetWords.findLastIndex((w, i) => i > 0 && STREET_ENDINGS.has(TYPES[w] ?? w));
  const after = streetWords.slice(last + 1);
  if (
    last > 0 &&
    after.length &&
    after.every((w) => w !== "EXT" && TYPE_ABBREVIATIONS.has(TYPES[w] ?? w) && !STREET_ENDINGS.has(TYPES[w] ?? w))
  ) {
    cityWords = [...after, ...cityWords];
    streetWords = streetWords.slice(0, last + 1);
  }
  return { street: streetWords.join(" "), city: cityWords.join(" ") };
}

function tidy(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/**
 * A US address line ("123 N. Main St Apt 4, Springfield, IL 62704-1234") normalised for matching,
 * or null without a house number and a street.
 */
export function normalizeAddress(address: string): NormalizedAddress | null {
  // "S.W." → SW; any other period is a word break ("St.Apt 4")
  const text = tidy(
    address
      .replace(/\b([A-Za-z])\.([A-Za-z])\.?/g, "$1$2")
      .replace(/\./g, " ")
      .replace(/\s+,/g, ","),
  );
  const m = HOUSE_NUMBER.exec(text);
  if (!m) return null;
  const number = Number(m[1]);
  const rest = m[2];
  const p = parseLocation(`${number} ${rest}`);
  let street: string;
  let city = p?.city;
  if (rest.includes(",")) {
    // the street is everything before the first comma, without its unit: parse-address drops words
    // it cannot place ("Avenue C", "Route 9"), the text keeps them
    street = rest.split(",")[0].replace(UNIT_TAIL, "");
    // "123 Main St Springfield, IL": the city before the first comma
    if (city && words(street).length > words(city).length && street.toUpperCase().endsWith(` ${city.toUpperCase()}`)) {
      street = street.slice(0, street.length - city.length);
    }
  } else {
    ({ street, city } = withoutCommas(rest, p));
  }
  street = tidy(street);
  const keys = streetKeys(street);
  if (!keys.key) return null;
  const zip = p?.zip ?? /\b(\d{5})(?:-?\d{4})?$/.exec(text)?.[1];
  const out: NormalizedAddress = { number, street, ...keys };
  if (city) out.city = words(city).join(" ");
  if (p?.state) out.state = p.state.toUpperCase();
  if (zip) out.zip = zip.slice(0, 5);
  return out;
}
