/**
 * Districts (issue 37), the pure part: the kinds of district, which boundary layer and which
 * voter-file columns name each, how a code or a name becomes a district's key, and what a voter's
 * membership is from its codes and (when placed on the map) the polygons it lies in. Membership
 * by code wins (the voter file is the registrar's assignment); a polygon places a voter without a
 * code; where both exist and differ, the voter is counted as a disagreement, never hidden.
 */
import { areaKey } from "./geo/areas";

export const DISTRICT_KINDS = ["precinct", "house", "senate", "congress", "county", "city", "ward"] as const;
export type DistrictKind = (typeof DISTRICT_KINDS)[number];

export const DISTRICT_KIND_LABELS: Record<DistrictKind, string> = {
  precinct: "Precincts",
  house: "State House",
  senate: "State Senate",
  congress: "Congressional",
  county: "Counties",
  city: "Cities and places",
  ward: "Wards and municipalities",
};

/** One district of a kind, as people name it ("Precinct 01-07", "State House 37"). */
export const DISTRICT_KIND_SINGULAR: Record<DistrictKind, string> = {
  precinct: "Precinct",
  house: "State House",
  senate: "State Senate",
  congress: "Congressional District",
  county: "County",
  city: "City",
  ward: "Ward",
};

/** The boundary layer (Map data's TIGER/Line layer) each kind comes from; a custom layer holds wards. */
const KIND_OF_LAYER = {
  VTD: "precinct",
  SLDL: "house",
  SLDU: "senate",
  CD: "congress",
  COUNTY: "county",
  PLACE: "city",
  custom: "ward",
} as const satisfies Record<string, DistrictKind>;

export function kindOfLayer(layer: string): DistrictKind | null {
  return (KIND_OF_LAYER as Record<string, DistrictKind>)[layer] ?? null;
}

/**
 * Voter-file columns (custom fields, compared without case) that name a district, in order of
 * preference per kind: North Carolina's statewide file (cong_dist_abbrv, nc_house_abbrv,
 * nc_senate_abbrv, ward_abbrv, municipality_desc, county_desc…), Ohio's SWVF
 * (CONGRESSIONAL_DISTRICT, STATE_REPRESENTATIVE_DISTRICT, STATE_SENATE_DISTRICT, WARD, CITY,
 * VILLAGE…) and the plain names other states use. The voter's own `precinct` field comes first
 * for precincts.
 */
export const DISTRICT_CODE_COLUMNS: Record<DistrictKind, readonly string[]> = {
  precinct: ["precinct_abbrv", "precinct_code", "precinct_name", "precinct_desc", "vtd_abbrv"],
  house: ["nc_house_abbrv", "state_representative_district", "state_house_district", "house_district"],
  senate: ["nc_senate_abbrv", "state_senate_district", "senate_district"],
  congress: ["cong_dist_abbrv", "congressional_district", "congress_district", "cd"],
  county: ["county_desc", "county_name", "county"],
  city: ["municipality_desc", "municipality_abbrv", "municipality", "city", "village"],
  ward: ["ward_abbrv", "ward_desc", "ward"],
};

/** A code as a key: trimmed, upper case, inner spaces single; a number without its leading zeros ("037" = "37"). */
export function codeKey(code: string): string {
  const t = code.trim().replace(/\s+/g, " ").toUpperCase();
  return /^\d+$/.test(t) ? String(Number(t)) : t;
}

/** A boundary's key: its code's, or (no code) its name's (lib/geo/areas.ts areaKey). */
export function boundaryKey(code: string | null, name: string): string {
  const c = code?.trim();
  return c ? codeKey(c) : `~${areaKey(name)}`;
}

export type VoterCodeFields = { precinct?: string; custom_fields?: Record<string, string> };

/** The district codes a voter's file gives it, per kind (blank values are no code). */
export function voterCodes(voter: VoterCodeFields): Partial<Record<DistrictKind, string>> {
  const out: Partial<Record<DistrictKind, string>> = {};
  const custom = new Map<string, string>();
  for (const [k, val] of Object.entries(voter.custom_fields ?? {})) {
    const t = val.trim();
    if (t && t !== "0" && !/^n\/?a$/i.test(t)) custom.set(k.toLowerCase(), t);
  }
  for (const kind of DISTRICT_KINDS) {
    const own = kind === "precinct" ? voter.precinct?.trim() : undefined;
    const value = own || DISTRICT_CODE_COLUMNS[kind].map((c) => custom.get(c)).find((x) => x !== undefined);
    if (value) out[kind] = value;
  }
  return out;
}

/** Whether two voters' codes differ (a changed code assigns the voter again). */
export function codesDiffer(a: VoterCodeFields, b: VoterCodeFields): boolean {
  const [x, y] = [voterCodes(a), voterCodes(b)];
  return DISTRICT_KINDS.some((k) => x[k] !== y[k]);
}

/** How a code finds its district among the boundaries of its kind: by code, else by name. */
export type KindLookup = { byCode: Map<string, string>; byName: Map<string, string> };

export function emptyLookup(): Record<DistrictKind, KindLookup> {
  return Object.fromEntries(DISTRICT_KINDS.map((k) => [k, { byCode: new Map(), byName: new Map() }])) as Record<
    DistrictKind,
    KindLookup
  >;
}

/** The state (and county) prefix of a TIGER/Line GEOID per kind: the rest is the code a voter file uses. */
const GEOID_PREFIX: Record<DistrictKind, { length: number; prefix: number } | null> = {
  precinct: { length: 11, prefix: 5 },
  house: { length: 5, prefix: 2 },
  senate: { length: 5, prefix: 2 },
  congress: { length: 4, prefix: 2 },
  county: { length: 5, prefix: 2 },
  city: { length: 7, prefix: 2 },
  ward: null,
};

/** The codes a boundary answers to: its own, and a GEOID's local part (VTD "17167000010" is precinct "10"). */
export function boundaryCodes(kind: DistrictKind, code: string | null): string[] {
  const c = code?.trim();
  if (!c) return [];
  const g = GEOID_PREFIX[kind];
  const local = g && c.length === g.length && /^\d+$/.test(c.slice(0, g.prefix)) ? c.slice(g.prefix) : null;
  return local ? [codeKey(c), codeKey(local)] : [codeKey(c)];
}

export function addToLookup(
  lookup: Record<DistrictKind, KindLookup>,
  kind: DistrictKind,
  key: string,
  code: string | null,
  name: string,
) {
  for (const c of boundaryCodes(kind, code)) if (!lookup[kind].byCode.has(c)) lookup[kind].byCode.set(c, key);
  const n = areaKey(name);
  if (n && !lookup[kind].byName.has(n)) lookup[kind].byName.set(n, key);
}

/** The district a code names: a boundary's (by its code, else its name), or a district of codes alone. */
export function districtOfCode(lookup: KindLookup, code: string): string {
  const k = codeKey(code);
  return lookup.byCode.get(k) ?? lookup.byName.get(areaKey(code)) ?? k;
}

/** A voter's membership: its district per kind, and where the map places it elsewhere than its code. */
export type Membership = {
  districts: Partial<Record<DistrictKind, string>>;
  /** kinds whose code and polygon disagree: the polygon's district */
  mapped: { kind: DistrictKind; key: string }[];
};

/**
 * The membership from a voter's codes (already resolved to keys) and the districts its point lies
 * in (null: not placed well enough to judge). Code first; a polygon fills a kind without a code.
 */
export function membership(
  byCode: Partial<Record<DistrictKind, string>>,
  byPolygon: Partial<Record<DistrictKind, string>> | null,
): Membership {
  const districts: Partial<Record<DistrictKind, string>> = {};
  const mapped: Membership["mapped"] = [];
  for (const kind of DISTRICT_KINDS) {
    const c = byCode[kind];
    const p = byPolygon?.[kind];
    if (c !== undefined) {
      districts[kind] = c;
      if (p !== undefined && p !== c) mapped.push({ kind, key: p });
    } else if (p !== undefined) districts[kind] = p;
  }
  return { districts, mapped };
}

export function sameMembership(a: Membership, b: Membership): boolean {
  if (DISTRICT_KINDS.some((k) => a.districts[k] !== b.districts[k])) return false;
  if (a.mapped.length !== b.mapped.length) return false;
  return a.mapped.every((m, i) => m.kind === b.mapped[i].kind && m.key === b.mapped[i].key);
}

/** The tally fields a voter adds to each of its districts. */
export type TallyVoter = {
  party_affiliation?: string;
  status?: string;
  vote_history?: { election: string; date?: string }[];
};

/** The elections a voter took part in, each once (an election is its label). */
export function electionsOf(voter: TallyVoter): string[] {
  const out = new Set<string>();
  for (const e of voter.vote_history ?? []) {
    const label = e.election.trim();
    if (label) out.add(label);
  }
  return [...out];
}

/** Changes to districts' tallies, summed over many voters before they are written (one write per district). */
export class DistrictDeltas {
  readonly byDistrict = new Map<
    string,
    {
      kind: DistrictKind;
      key: string;
      voters: number;
      codedElsewhere: number;
      mappedElsewhere: number;
      cells: Map<string, number>;
      turnout: Map<string, number>;
    }
  >();

  private entry(kind: DistrictKind, key: string) {
    const id = `${kind}\u0000${key}`;
    let e = this.byDistrict.get(id);
    if (!e) {
      e = { kind, key, voters: 0, codedElsewhere: 0, mappedElsewhere: 0, cells: new Map(), turnout: new Map() };
      this.byDistrict.set(id, e);
    }
    return e;
  }

  /** Adds (sign 1) or takes away (sign -1) a voter with its membership. */
  add(voter: TallyVoter, m: Membership, sign: 1 | -1) {
    const cell = `${voter.party_affiliation ?? ""}\u0000${voter.status ?? ""}`;
    const elections = electionsOf(voter);
    for (const kind of DISTRICT_KINDS) {
      const key = m.districts[kind];
      if (key === undefined) continue;
      const e = this.entry(kind, key);
      e.voters += sign;
      e.cells.set(cell, (e.cells.get(cell) ?? 0) + sign);
      for (const el of elections) e.turnout.set(el, (e.turnout.get(el) ?? 0) + sign);
    }
    for (const { kind, key } of m.mapped) {
      const here = m.districts[kind];
      if (here !== undefined) this.entry(kind, here).mappedElsewhere += sign;
      this.entry(kind, key).codedElsewhere += sign;
    }
  }

  get size() {
    return this.byDistrict.size;
  }

  clear() {
    this.byDistrict.clear();
  }
}

/** Cells of party × status and their counts, merged with a delta; empty cells dropped, sorted. */
export function mergeCells(
  cells: { party: string; status: string; count: number }[],
  delta: Map<string, number>,
): { party: string; status: string; count: number }[] {
  const m = new Map(cells.map((c) => [`${c.party}\u0000${c.status}`, c.count]));
  for (const [k, d] of delta) m.set(k, (m.get(k) ?? 0) + d);
  return [...m]
    .filter(([, n]) => n > 0)
    .map(([k, count]) => {
      const [party, status] = k.split("\u0000");
      return { party, status, count };
    })
    .sort((a, b) => a.party.localeCompare(b.party) || a.status.localeCompare(b.status));
}

/** Voters per election merged with a delta; elections without voters dropped. */
export function mergeTurnout(
  turnout: { election: string; voted: number }[],
  delta: Map<string, number>,
): { election: string; voted: number }[] {
  const m = new Map(turnout.map((t) => [t.election, t.voted]));
  for (const [k, d] of delta) m.set(k, (m.get(k) ?? 0) + d);
  return [...m]
    .filter(([, n]) => n > 0)
    .map(([election, voted]) => ({ election, voted }))
    .sort((a, b) => a.election.localeCompare(b.election));
}

/** The voter list's district filter: "kind:key" (the key may hold colons). */
export function districtFilter(kind: DistrictKind, key: string): string {
  return `${kind}:${key}`;
}

export function parseDistrictFilter(filter: string | undefined): { kind: DistrictKind; key: string } | null {
  if (!filter) return null;
  const i = filter.indexOf(":");
  const kind = filter.slice(0, i);
  const key = filter.slice(i + 1);
  if (i < 0 || !key || !(DISTRICT_KINDS as readonly string[]).includes(kind)) return null;
  return { kind: kind as DistrictKind, key };
}

/** A district's measure for shading the map (0–1 shares; voters as a count). */
export type DistrictMeasure = "voters" | "party" | "turnout";
