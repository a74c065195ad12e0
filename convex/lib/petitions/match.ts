/**
 * One petition line against the organisation's voter records: an eligibility match (is this a
 * registered, active voter of the jurisdiction who registered before signing), not a handwriting
 * comparison. Names are compared with nicknames, initials, suffixes, phonetics (Double Metaphone)
 * and Jaro-Winkler similarity (talisman); addresses are parsed (parse-address) and compared by
 * house number, street, unit and ZIP. Precision first: a line is verified automatically only when
 * one voter matches name and address clearly; anything less certain goes to a reviewer.
 */
import jaroWinkler from "talisman/metrics/jaro-winkler";
import { parseFullName } from "parse-full-name";
import { parseLocation } from "parse-address";
import { sameByNickname } from "./nicknames";
import { eligibilityOf } from "../voters/status";
import { compact, firstGiven, phonetic, plain, splitSuffix, SUFFIXES, suffixKey, withinOneEdit } from "./names";

/** Automatic "verified" at or above this confidence (and with a clear single match). */
export const AUTO_VERIFY = 0.9;
/** A candidate's name must score at least this to be considered the signer. */
export const NAME_CANDIDATE = 0.75;
export const MAX_CANDIDATES = 5;
/** An address scoring this or more is the registration's (house, street, ZIP agree). */
export const ADDRESS_MATCH = 0.85;

export const FAILURE_REASONS = [
  "not_found",
  "inactive",
  "address_mismatch",
  "registered_after_signing",
  "outside_jurisdiction",
] as const;
export type FailureReason = (typeof FAILURE_REASONS)[number];
export const FAILURE_LABELS: Record<FailureReason, string> = {
  not_found: "Not found in the voter file",
  inactive: "Voter registration is not active",
  address_mismatch: "Address does not match the registration",
  registered_after_signing: "Registered after signing",
  outside_jurisdiction: "Outside the petition's jurisdiction",
};

export type SignerLine = { name: string; address: string; signedOn: string | null };
export type VoterRecord = {
  id: string;
  first_name: string;
  last_name: string;
  address?: string;
  street?: string;
  city?: string;
  state?: string;
  zip?: string;
  status?: string;
  /** the state file's own status code (Ohio "CONFIRMATION", NC "R"): says more than the status */
  status_code?: string;
  registration_date?: string;
  county?: string;
  middle_name?: string;
  /** Jr, Sr, III… when the file keeps it apart from the last name */
  name_suffix?: string;
};
export type Jurisdiction = { state: string | null; county: string | null };
export type Evidence = { name: string; address: string; registration: string };
export type Candidate = { voterId: string; score: number; nameScore: number; addressScore: number; evidence: Evidence };
export type MatchResult = {
  status: "verified" | "failed" | "review";
  reason: FailureReason | null;
  confidence: number;
  voterId: string | null;
  evidence: Evidence | null;
  candidates: Candidate[];
  /** the petition names a county and the chosen voter's registration has none (counted on the petition) */
  countyUnknown: boolean;
};

export type ParsedName = { first: string; middle: string; last: string; suffix: string | null };

/** "Smith, William J. Jr." / "W. J. SMITH III" / "Mary-Kate O'Brien" → parts (plain). */
export function parseSignerName(name: string): ParsedName {
  const p = parseFullName(name.trim(), "all", 1, 0, 0);
  let last = p.last;
  let suffix = plain(p.suffix ?? "").replace(/ /g, "") || null;
  const split = splitSuffix(last);
  last = split.last;
  suffix = suffix ?? split.suffix;
  if (suffix && !SUFFIXES.has(suffix)) suffix = null;
  let first = p.first;
  // a first name that is also a last-name particle ("Della Keetzmann", "Van Nguyen") is read as part of the last name: a signer writes a first name
  if (!first.trim()) {
    const words = last.trim().split(/\s+/);
    if (words.length >= 2) [first, last] = [words[0], words.slice(1).join(" ")];
  }
  return { first: firstGiven(first), middle: plain(p.middle), last: plain(last), suffix };
}

function jw(a: string, b: string): number {
  return a === "" || b === "" ? 0 : jaroWinkler(a, b);
}

/** How well two given names fit, and why. */
export function firstNameScore(line: string, voter: string): [number, string] {
  const a = compact(line);
  const b = compact(voter);
  if (a === "" || b === "") return [0, "no first name"];
  if (a === b) return [1, "first name exact"];
  if (sameByNickname(a, b)) return [0.95, `nickname (${line} / ${voter})`];
  if (a.length === 1) return b.startsWith(a) ? [0.8, "first initial"] : [0, "first initial differs"];
  if (phonetic(a) === phonetic(b) && a[0] === b[0]) return [0.9, "first name sounds alike"];
  const s = jw(a, b);
  return s >= 0.88 ? [s * 0.95, "first name spelled alike"] : [s * 0.5, "first name differs"];
}

/** How well two last names fit (spacing, hyphens and apostrophes set aside), and why. */
export function lastNameScore(line: string, voter: string): [number, string] {
  const a = compact(line);
  const b = compact(voter);
  if (a === "" || b === "") return [0, "no last name"];
  if (a === b) return [1, "last name exact"];
  const partsA = plain(line).split(" ");
  const partsB = plain(voter).split(" ");
  if (partsA.length + partsB.length > 2 && (partsA.includes(b) || partsB.includes(a)))
    return [0.9, "one part of a double last name"];
  if (phonetic(a) === phonetic(b) && a[0] === b[0]) return [0.9, "last name sounds alike"];
  const s = jw(a, b);
  // one letter changed, added, dropped or two swapped ("Huhes" for Hughes): a slip of the pen, in a name long enough to tell
  const oneOff =
    Math.min(a.length, b.length) >= 4 && withinOneEdit(a, b) ? (Math.min(a.length, b.length) >= 5 ? 0.9 : 0.85) : 0;
  if (oneOff > 0 && oneOff >= s * 0.95) return [oneOff, "last name one letter off"];
  return s >= 0.9 ? [s * 0.95, "last name spelled alike"] : [s * 0.5, "last name differs"];
}

const ORDINALS: Record<string, string> = {
  first: "1st",
  second: "2nd",
  third: "3rd",
  fourth: "4th",
  fifth: "5th",
  sixth: "6th",
  seventh: "7th",
  eighth: "8th",
  ninth: "9th",
  tenth: "10th",
  eleventh: "11th",
  twelfth: "12th",
  thirteenth: "13th",
  fourteenth: "14th",
  fifteenth: "15th",
  sixteenth: "16th",
  seventeenth: "17th",
  eighteenth: "18th",
  nineteenth: "19th",
  twentieth: "20th",
};
const DIRECTIONS: Record<string, string> = {
  north: "n",
  south: "s",
  east: "e",
  west: "w",
  northeast: "ne",
  northwest: "nw",
  southeast: "se",
  southwest: "sw",
};

export type ParsedAddress = {
  number: string;
  prefix: string;
  street: string;
  type: string;
  unit: string;
  zip: string;
} | null;

/** "1120 SW Fifth Avenue Apt 4B, Portland, OR 97204-1234" → number, direction, street, type, unit, ZIP5. */
export function parseStreetAddress(address: string): ParsedAddress {
  const text = address.replace(/\s+/g, " ").trim();
  if (!text) return null;
  const p = parseLocation(text);
  if (!p || !p.number || !p.street) return null;
  const street = plain(p.street)
    .split(" ")
    .map((w) => ORDINALS[w] ?? DIRECTIONS[w] ?? w)
    .join(" ");
  return {
    number: plain(p.number),
    prefix: DIRECTIONS[plain(p.prefix ?? "")] ?? plain(p.prefix ?? ""),
    street,
    type: plain(p.type ?? ""),
    unit: plain(p.sec_unit_num ?? ""),
    zip: (p.zip ?? "").slice(0, 5),
  };
}

function voterAddress(v: VoterRecord): ParsedAddress {
  const line = v.address || [v.street, v.city, [v.state, v.zip].filter(Boolean).join(" ")].filter(Boolean).join(", ");
  const parsed = parseStreetAddress(line);
  if (parsed && !parsed.zip && v.zip) parsed.zip = v.zip.slice(0, 5);
  return parsed;
}

/** How well a signer's address fits a registration address, and why. */
export function addressScore(line: ParsedAddress, voter: ParsedAddress): [number, string] {
  if (!line) return [0.5, "address unreadable"];
  if (!voter) return [0.5, "no address on the registration"];
  const zipOk = !line.zip || !voter.zip || line.zip === voter.zip;
  if (line.number !== voter.number) return [zipOk && line.zip ? 0.2 : 0, "house number differs"];
  const s = line.street === voter.street ? 1 : jw(line.street, voter.street);
  if (s < 0.85) return [0.25, "street differs"];
  let score = s >= 0.97 ? 1 : 0.85;
  const why = [s >= 0.97 ? "street matches" : "street spelled alike"];
  if (line.type && voter.type && line.type !== voter.type) {
    score -= 0.1;
    why.push("street type differs");
  }
  if (line.prefix && voter.prefix && line.prefix !== voter.prefix) {
    score -= 0.2;
    why.push("direction differs");
  }
  if (line.unit && voter.unit && line.unit !== voter.unit) {
    score -= 0.15;
    why.push("unit differs");
  }
  if (!zipOk) {
    score -= 0.3;
    why.push("ZIP differs");
  } else if (line.zip && voter.zip) why.push("ZIP matches");
  return [Math.max(0, score), why.join(", ")];
}

function nameFit(line: ParsedName, v: VoterRecord): [number, string] {
  const [f, fWhy] = firstNameScore(line.first, firstGiven(v.first_name));
  const vl = splitSuffix(v.last_name);
  let [l, lWhy] = lastNameScore(line.last, vl.last);
  let middleInLast = false;
  if (line.middle.length > 1) {
    const [l2, why2] = lastNameScore(`${line.middle} ${line.last}`, vl.last);
    if (l2 > l) [l, lWhy, middleInLast] = [l2, why2, true];
  }
  let score = 0.45 * f + 0.55 * l;
  const why = [lWhy, fWhy];
  // the file's suffix field (a state file keeps it apart), else one written into the last name
  const lineSuffix = suffixKey(line.suffix);
  const voterSuffix = suffixKey(v.name_suffix) ?? suffixKey(vl.suffix);
  if (lineSuffix && voterSuffix) {
    if (lineSuffix !== voterSuffix) {
      score *= 0.6;
      why.push(`suffix differs (${lineSuffix} / ${voterSuffix})`);
    } else why.push("suffix matches");
  }
  // a middle initial written on the line and kept in the file: a father and son often differ only there
  const lineMiddle = compact(line.middle)[0];
  const voterMiddle = compact(v.middle_name ?? "")[0];
  if (lineMiddle && voterMiddle && !middleInLast && lineMiddle !== voterMiddle) {
    score *= 0.75;
    why.push("middle initial differs");
  }
  return [score, why.join(", ")];
}

/** "Multnomah County" = "multnomah" = "MULTNOMAH CO." */
export function countyKey(county: string): string {
  return plain(county)
    .replace(/\b(county|co|parish|borough)\b/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

type RegistrationCheck = {
  reason: FailureReason | null;
  text: string;
  /** a person must decide (a status the table does not know, no county to check) */
  review: boolean;
  /** the petition names a county and the registration has none */
  countyUnknown: boolean;
};

/**
 * Whether the voter may sign this petition: their registration's eligibility (lib/voters/status:
 * the state's code when kept, else the status; an unconfirmed registration counts), registered
 * before signing, in the petition's state and county. A county the registration lacks is never a
 * silent pass: the line goes to a reviewer and the petition says the file has no counties.
 */
export function registrationCheck(v: VoterRecord, signedOn: string | null, j: Jurisdiction): RegistrationCheck {
  const status = (v.status ?? "").trim();
  const code = (v.status_code ?? "").trim();
  const shown = code && code.toUpperCase() !== status.toUpperCase() ? `${status || "status"} (${code})` : status;
  const eligibility = eligibilityOf(v.status, v.status_code);
  const none = { review: false, countyUnknown: false };
  if (eligibility === "ineligible") return { reason: "inactive", text: `registration ${shown}`, ...none };
  if (signedOn && v.registration_date && v.registration_date > signedOn)
    return {
      reason: "registered_after_signing",
      text: `registered ${v.registration_date}, signed ${signedOn}`,
      ...none,
    };
  if (j.state && v.state && plain(v.state) !== plain(j.state))
    return { reason: "outside_jurisdiction", text: `registered in ${v.state}`, ...none };
  if (j.county && v.county && countyKey(v.county) !== countyKey(j.county))
    return { reason: "outside_jurisdiction", text: `registered in ${v.county}`, ...none };
  const registered = v.registration_date ? `, registered ${v.registration_date}` : "";
  const parts = [
    eligibility === "unconfirmed"
      ? `${shown}: still registered, address unconfirmed (may sign)`
      : eligibility === "unknown" && status
        ? `status "${shown}" not recognised`
        : shown || "status unknown",
  ];
  const countyUnknown = !!j.county && !v.county;
  if (countyUnknown) parts.push(`no county on the registration (petition: ${j.county})`);
  return {
    reason: null,
    text: `${parts.join(", ")}${registered}`,
    review: countyUnknown || (eligibility === "unknown" && !!status),
    countyUnknown,
  };
}

/** How well a voter fits a name and an address as written (either may be empty): the reviewer's voter search ranks by it. */
export function similarity(name: string, address: string, v: VoterRecord): { nameScore: number; addressScore: number } {
  const nameScore = name.trim() ? nameFit(parseSignerName(name), v)[0] : 0;
  const parsed = address.trim() ? parseStreetAddress(address) : null;
  return { nameScore, addressScore: parsed ? addressScore(parsed, voterAddress(v))[0] : 0 };
}

/** Candidates in the order a reviewer reads them: those at the signer's address first (best score), then by name (a voter who moved is found among their namesakes). */
function byRelevance(a: Candidate, b: Candidate): number {
  const ta = a.addressScore >= ADDRESS_MATCH ? 1 : 0;
  const tb = b.addressScore >= ADDRESS_MATCH ? 1 : 0;
  if (ta !== tb) return tb - ta;
  if (ta === 1) return b.score - a.score || b.nameScore - a.nameScore;
  return b.nameScore - a.nameScore || b.addressScore - a.addressScore;
}

/**
 * The verdict on one line, given the voters that could be its signer (candidate retrieval is the
 * caller's). `voterId` on a line to review is the voter it pre-selects: only one whose address is
 * the signer's and whom no other candidate rivals; never a namesake living elsewhere.
 */
export function matchLine(line: SignerLine, voters: VoterRecord[], jurisdiction: Jurisdiction): MatchResult {
  const name = parseSignerName(line.name);
  const addr = parseStreetAddress(line.address);
  const scored: Candidate[] = [];
  const checks = new Map<string, RegistrationCheck>();
  for (const v of voters) {
    const [nameScore, nameWhy] = nameFit(name, v);
    if (nameScore < NAME_CANDIDATE) continue;
    const [addrScore, addressWhy] = addressScore(addr, voterAddress(v));
    const reg = registrationCheck(v, line.signedOn, jurisdiction);
    checks.set(v.id, reg);
    scored.push({
      voterId: v.id,
      score: 0.6 * nameScore + 0.4 * addrScore,
      nameScore,
      addressScore: addrScore,
      evidence: { name: nameWhy, address: addressWhy, registration: reg.text },
    });
  }
  // a suffix on the line ("Jr") that one of the candidates carries: the namesakes without one (his father) are less likely
  const lineSuffix = suffixKey(name.suffix);
  const suffixOf = (id: string) => {
    const v = voters.find((x) => x.id === id)!;
    return suffixKey(v.name_suffix) ?? suffixKey(splitSuffix(v.last_name).suffix);
  };
  if (lineSuffix && scored.some((c) => suffixOf(c.voterId) === lineSuffix)) {
    for (const c of scored) {
      if (suffixOf(c.voterId) !== null) continue;
      c.nameScore *= 0.8;
      c.score = 0.6 * c.nameScore + 0.4 * c.addressScore;
      c.evidence = { ...c.evidence, name: `${c.evidence.name}, no suffix on the registration` };
    }
  }
  scored.sort(byRelevance);
  const candidates = scored
    .slice(0, MAX_CANDIDATES)
    .map((c) => ({ ...c, score: round(c.score), nameScore: round(c.nameScore), addressScore: round(c.addressScore) }));
  if (candidates.length === 0)
    return {
      status: "failed",
      reason: "not_found",
      confidence: 0.9,
      voterId: null,
      evidence: null,
      candidates: [],
      countyUnknown: false,
    };
  const best = scored[0];
  const rival = scored.slice(1).reduce((m, c) => Math.max(m, c.score), 0);
  const clear = scored.length === 1 || rival < best.score - 0.1;
  const reg = checks.get(best.voterId)!;
  const atAddress = best.addressScore >= ADDRESS_MATCH;
  const result = (
    status: MatchResult["status"],
    reason: FailureReason | null,
    confidence: number,
    voterId: string | null,
  ): MatchResult => ({
    status,
    reason,
    confidence: round(confidence),
    voterId,
    evidence: best.evidence,
    candidates,
    countyUnknown: voterId !== null && voterId === best.voterId && reg.countyUnknown,
  });
  if (best.nameScore >= 0.9 && atAddress && clear) {
    if (reg.reason) return result("failed", reg.reason, best.score, best.voterId);
    if (best.score >= AUTO_VERIFY && !reg.review) return result("verified", null, best.score, best.voterId);
  }
  // the signer's name and only one voter's, but another address: a voter who moved (curable)
  const strongNames = scored.filter((c) => c.nameScore >= 0.9);
  if (strongNames.length === 1 && best.nameScore >= 0.95 && best.addressScore <= 0.25 && addr !== null) {
    return result("failed", "address_mismatch", best.nameScore * 0.9, best.voterId);
  }
  return result("review", null, best.score, clear && atAddress ? best.voterId : null);
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
