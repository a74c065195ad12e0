/** Value normalisation on import: party and status codes, dates → ISO, phones, ZIPs, election history. */
import { formatPhone } from "@convex/lib/phone";
import { isKnownStatusCode, statusOfCode } from "@convex/lib/voters/status";

const PARTY_CODES: Record<string, string> = {
  DEM: "Democrat",
  D: "Democrat",
  DEMOCRAT: "Democrat",
  DEMOCRATIC: "Democrat",
  DEMOCRATS: "Democrat",
  "DEMOCRATIC PARTY": "Democrat",
  REP: "Republican",
  R: "Republican",
  REPUBLICAN: "Republican",
  GOP: "Republican",
  "REPUBLICAN PARTY": "Republican",
  UNA: "Independent",
  U: "Independent",
  I: "Independent",
  IND: "Independent",
  INDEPENDENT: "Independent",
  UNAFFILIATED: "Independent",
  NPA: "Independent",
  NPP: "Independent",
  NON: "Independent",
  NP: "Independent",
  "NO PARTY AFFILIATION": "Independent",
  "NO PARTY": "Independent",
  NONPARTISAN: "Independent",
  LIB: "Libertarian",
  L: "Libertarian",
  LBT: "Libertarian",
  LPF: "Libertarian",
  LIBERTARIAN: "Libertarian",
  "LIBERTARIAN PARTY": "Libertarian",
  GRE: "Green Party",
  G: "Green Party",
  GRN: "Green Party",
  GREEN: "Green Party",
  "GREEN PARTY": "Green Party",
};

/** Party codes (DEM/REP/UNA/LIB/GRE, D/R/L/G, NPA …) to the party choices; unknown values kept as written. */
export function normalizeParty(value: string): string {
  const v = value.trim();
  return PARTY_CODES[v.toUpperCase()] ?? v;
}
export function isPartyCode(value: string): boolean {
  return value.trim().toUpperCase() in PARTY_CODES;
}

/** Status codes to the statuses shown (one table with their eligibility: convex/lib/voters/status.ts). */
export function normalizeStatus(value: string): string {
  return statusOfCode(value);
}
export function isStatusCode(value: string): boolean {
  return isKnownStatusCode(value);
}

const MONTHS: Record<string, number> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  sept: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};
const pad = (n: number) => String(n).padStart(2, "0");

function iso(y: number, m: number, d: number): string | null {
  if (m < 1 || m > 12 || d < 1 || d > 31) return null;
  const dt = new Date(Date.UTC(y, m - 1, d));
  if (dt.getUTCMonth() !== m - 1) return null;
  return `${String(y).padStart(4, "0")}-${pad(m)}-${pad(d)}`;
}
function fullYear(y: number): number {
  if (y >= 100) return y;
  const now = new Date().getUTCFullYear() % 100;
  return y <= now ? 2000 + y : 1900 + y;
}

/** Voters are at least this old: a two-digit birth year is never read as a younger person. */
const MIN_BIRTH_AGE = 16;

/**
 * A two-digit birth year: the most recent year ending in those digits that makes someone born on
 * that month and day at least MIN_BIRTH_AGE years old today ("3/4/21" → 1921, "7/1/98" → 1998).
 */
function birthYear(yy: number, m: number, d: number): number {
  const today = new Date();
  const ty = today.getFullYear();
  const tm = today.getMonth() + 1;
  const td = today.getDate();
  let y = ty - ((((ty - yy) % 100) + 100) % 100);
  // 16th birthday still ahead (or today's date not reached yet in that year): a century earlier
  const ay = y + MIN_BIRTH_AGE;
  if (ay > ty || (ay === ty && (m > tm || (m === tm && d > td)))) y -= 100;
  return y;
}

/** A date's written year (2 or 4 digits) in full; `birth`: a date of birth (birthYear). */
function yearOf(y: string, m: number, d: number, birth: boolean): number {
  return y.length === 2 && birth ? birthYear(+y, m, d) : fullYear(+y);
}

export type NormalizeDateOptions = {
  /** a date of birth: a two-digit year is the most recent one that makes the person 16 or older today */
  birth?: boolean;
};

/**
 * Dates in common formats to ISO YYYY-MM-DD: ISO (with time), US M/D/YYYY and M/D/YY, YYYYMMDD,
 * MM-DD-YYYY, "Jan 5, 1980", "05-JAN-1980". A bare year (birth_year) stays YYYY. Unparseable → null.
 * Two-digit years: the current century up to this year, else the last one; with `birth` see
 * NormalizeDateOptions.
 */
export function normalizeDate(value: string, opts: NormalizeDateOptions = {}): string | null {
  const v = value.trim();
  const birth = opts.birth === true;
  let m: RegExpMatchArray | null;
  if ((m = v.match(/^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ].*)?$/))) return iso(+m[1], +m[2], +m[3]);
  if ((m = v.match(/^(\d{4})\/(\d{1,2})\/(\d{1,2})$/))) return iso(+m[1], +m[2], +m[3]);
  if ((m = v.match(/^(\d{1,2})[/.-](\d{1,2})[/.-](\d{2}|\d{4})(?:\s.*)?$/)))
    return iso(yearOf(m[3], +m[1], +m[2], birth), +m[1], +m[2]);
  if ((m = v.match(/^(\d{4})(\d{2})(\d{2})$/))) return iso(+m[1], +m[2], +m[3]);
  if ((m = v.match(/^(\d{4})$/)) && +m[1] >= 1850 && +m[1] <= 2100) return m[1];
  if ((m = v.match(/^([A-Za-z]{3,9})\.?\s+(\d{1,2}),?\s+(\d{4})$/)) && MONTHS[m[1].slice(0, 3).toLowerCase()]) {
    return iso(+m[3], MONTHS[m[1].slice(0, 3).toLowerCase()], +m[2]);
  }
  if ((m = v.match(/^(\d{1,2})[\s-]([A-Za-z]{3,9})[\s-](\d{2}|\d{4})$/)) && MONTHS[m[2].slice(0, 3).toLowerCase()]) {
    const month = MONTHS[m[2].slice(0, 3).toLowerCase()];
    return iso(yearOf(m[3], month, +m[1], birth), month, +m[1]);
  }
  return null;
}
export function looksLikeDate(value: string): boolean {
  return normalizeDate(value) !== null && !/^\d{4}$/.test(value.trim());
}

/** Phones as the voter form stores them too (convex/lib/phone.ts): US numbers to (NNN) NNN-NNNN. */
export const normalizePhone = formatPhone;
export function looksLikePhone(value: string): boolean {
  const d = value.replace(/\D/g, "");
  return /\d{3}/.test(value) && (d.length === 10 || (d.length === 11 && d.startsWith("1")) || d.length === 7);
}

/** ZIP codes stay text: leading zeros kept; ZIP+4 as 12345-6789; a 4-digit ZIP that lost its zero is padded. */
export function normalizeZip(value: string): string {
  const v = value.trim();
  const digits = v.replace(/\D/g, "");
  if (/^\d{5}-?\d{4}$/.test(v) || (digits.length === 9 && /^[\d\s-]+$/.test(v)))
    return `${digits.slice(0, 5)}-${digits.slice(5)}`;
  if (/^\d{4}$/.test(v)) return `0${v}`;
  return v;
}
export function looksLikeZip(value: string): boolean {
  return /^\d{5}(-?\d{4})?$/.test(value.trim());
}

export function looksLikeEmail(value: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim());
}

const VOTED = new Set([
  "Y",
  "YES",
  "1",
  "TRUE",
  "T",
  "X",
  "V",
  "VOTED",
  "A",
  "AB",
  "ABS",
  "ABSENTEE",
  "E",
  "EV",
  "EARLY",
  "P",
  "POLLS",
  "M",
  "MAIL",
  "MB",
  "IP",
  "D",
  "R",
  "DEM",
  "REP",
  "L",
  "G",
  "O",
]);
const NOT_VOTED = new Set(["", "N", "NO", "0", "FALSE", "F", "-", "NV", "DNV", "DID NOT VOTE", "NOT VOTED"]);

/** One per-election history cell: did the voter vote? (method codes and primary party letters count as voted) */
export function votedIn(value: string): boolean {
  const v = value.trim().toUpperCase();
  if (NOT_VOTED.has(v)) return false;
  return VOTED.has(v) || v.length > 0;
}
export function looksLikeHistoryValue(value: string): boolean {
  const v = value.trim().toUpperCase();
  return NOT_VOTED.has(v) || VOTED.has(v);
}

/** Election columns ordered oldest → newest by the year (or date) in their header, else file order. */
function electionYear(header: string): number | null {
  const m = header.match(/(19|20)\d{2}/) ?? header.match(/(?:^|[^0-9])(\d{2})(?:[gpGP]|$)/);
  if (!m) return null;
  const y = m[0].match(/(19|20)\d{2}/) ? +m[0].match(/(19|20)\d{2}/)![0] : 2000 + +m[1];
  const date = header.match(/(?:19|20)\d{2}[-_]?(\d{2})[-_]?(\d{2})/);
  return date ? y + (+date[1] - 1) / 12 + (+date[2] - 1) / 372 : y;
}

/** state_voter_history (0–4): elections voted in among the four most recent history columns. */
export function summariseHistory(columns: { header: string; index: number }[], values: (i: number) => string): number {
  const ordered = [...columns].sort((a, b) => {
    const ya = electionYear(a.header);
    const yb = electionYear(b.header);
    if (ya !== null && yb !== null && ya !== yb) return ya - yb;
    return a.index - b.index;
  });
  let n = 0;
  for (const c of ordered.slice(-4)) if (votedIn(values(c.index))) n++;
  return n;
}
