/**
 * Elections in a state file: a per-election column's header (Ohio `GENERAL-11/08/2016`, NC-style
 * `E1_2020_GENERAL`, `PRIMARY 2022`…) gives the election's label, date and type; its cell says
 * whether the voter took part and how (a method code, or the party ballot of a primary). A
 * vote-history file (NC ncvhis: ncid, election_lbl, election_desc, voting_method, voted_party_cd)
 * gives one election per row.
 */
import type { ElectionRecord } from "@convex/tables/voters";
import { normalizeDate, normalizeParty, votedIn } from "./normalize";

const TYPES: [RegExp, string][] = [
  [/GENERAL|\bGEN\b|(^|[^A-Z])G($|[^A-Z])/, "General"],
  [/PRIMARY|\bPRI(M)?\b|(^|[^A-Z])P($|[^A-Z])/, "Primary"],
  [/SPECIAL/, "Special"],
  [/MUNICIPAL|\bMUNI\b|LOCAL|CITY/, "Municipal"],
  [/RUNOFF|RUN-OFF|SECOND PRIMARY/, "Runoff"],
];

/** The election's type from its name, if it says. */
function electionType(label: string): string | undefined {
  const up = label.toUpperCase().replace(/_/g, " ");
  // the more specific words first: a "SPECIAL PRIMARY" is a special election
  for (const word of ["RUNOFF", "RUN-OFF", "SPECIAL", "MUNICIPAL"])
    if (up.includes(word)) return TYPES.find(([re]) => re.test(word))![1];
  return TYPES.find(([re]) => re.test(up))?.[1];
}

/** The election date a header or label holds: a full date, or none (a year alone is not a date). */
function electionDate(label: string): string | undefined {
  const m = label.match(/(\d{1,2}[/.-]\d{1,2}[/.-](?:\d{4}|\d{2}))|((?:19|20)\d{2}[-/]?\d{2}[-/]?\d{2})/);
  if (!m) return undefined;
  const raw = m[0];
  const compact = raw.match(/^((?:19|20)\d{2})(\d{2})(\d{2})$/);
  return normalizeDate(compact ? `${compact[1]}-${compact[2]}-${compact[3]}` : raw) ?? undefined;
}

/** The election a per-election column stands for. */
export function electionOfColumn(header: string): ElectionRecord {
  const election = header.trim();
  const date = electionDate(election);
  const type = electionType(election.replace(/(\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4})|((19|20)\d{6})/, ""));
  return { election, ...(date ? { date } : {}), ...(type ? { type } : {}) };
}

const METHODS: Record<string, string> = {
  A: "Absentee",
  AB: "Absentee",
  ABS: "Absentee",
  ABSENTEE: "Absentee",
  E: "Early",
  EV: "Early",
  EARLY: "Early",
  O: "Early",
  ONESTOP: "Early",
  "ONE STOP": "Early",
  P: "In person",
  IP: "In person",
  POLLS: "In person",
  "IN-PERSON": "In person",
  "IN PERSON": "In person",
  ELECTION_DAY: "In person",
  M: "Mail",
  MB: "Mail",
  MAIL: "Mail",
  "BY MAIL": "Mail",
  PR: "Provisional",
  PROV: "Provisional",
  PROVISIONAL: "Provisional",
};
const PARTY_BALLOTS = new Set(["D", "R", "L", "G", "DEM", "REP", "LIB", "GRE", "C", "CON", "N", "NP", "UNA", "X"]);

/**
 * One per-election cell: null when the voter did not take part; otherwise the record with the
 * method the cell names, or in a primary the party ballot (Ohio writes D / R / X — X a
 * non-partisan ballot).
 */
export function participation(election: ElectionRecord, cell: string): ElectionRecord | null {
  const v = cell.trim().toUpperCase();
  if (!votedIn(v)) return null;
  const record: ElectionRecord = { ...election };
  const method = METHODS[v];
  if (method) record.method = method;
  else if (election.type === "Primary" && PARTY_BALLOTS.has(v) && v !== "X") record.party = normalizeParty(v);
  return record;
}

/** One row of a vote-history file as an election record (method and party as the file writes them). */
export function historyRecord(p: {
  label?: string;
  name?: string;
  method?: string;
  party?: string;
}): ElectionRecord | null {
  const label = (p.label ?? "").trim();
  const name = (p.name ?? "").trim();
  const election = name || label;
  if (!election) return null;
  const date = electionDate(label) ?? electionDate(name);
  const type = electionType(name || label);
  const method = (p.method ?? "").trim();
  const party = (p.party ?? "").trim();
  return {
    election,
    ...(date ? { date } : {}),
    ...(type ? { type } : {}),
    ...(method ? { method: METHODS[method.toUpperCase()] ?? titleCase(method) } : {}),
    ...(party ? { party: normalizeParty(party) } : {}),
  };
}

function titleCase(s: string): string {
  return s.toLowerCase().replace(/\b[a-z]/g, (c) => c.toUpperCase());
}
