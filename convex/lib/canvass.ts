/**
 * Canvassing (issue 38), the parts both sides share: result codes and their labels, what each
 * result does to the voter file, and the organiser's data-quality rules (pure: the server keeps
 * them as results arrive, the app may show the same thresholds).
 */
import { metres } from "./turf/geometry";

export const RESULT_CODES = [
  "not_home",
  "contacted",
  "refused",
  "moved",
  "deceased",
  "inaccessible",
  "come_back",
] as const;
export type ResultCode = (typeof RESULT_CODES)[number];

export const RESULT_LABELS: Record<ResultCode, string> = {
  not_home: "Not Home",
  contacted: "Contacted",
  refused: "Refused",
  moved: "Moved",
  deceased: "Deceased",
  inaccessible: "Inaccessible",
  come_back: "Come Back",
};

/** Events in one sync call (the outbox sends its oldest first, this many at a time). */
export const MAX_SYNC_EVENTS = 100;
/** Doors one claim hands out, and claims a canvasser holds on one list at most. */
export const MAX_CLAIM = 25;
export const MAX_HELD_CLAIMS = 100;
/** How long a claim holds a door for its canvasser. */
export const CLAIM_MS = 60 * 60_000;
/** A result further than this from its door (by GPS) is flagged. */
export const FAR_METRES = 150;
/** Two results of one canvasser at two doors closer in time than this are flagged. */
export const FAST_MS = 30_000;
/** A canvasser's contact rate this many times the list's, over at least RATE_MIN_ATTEMPTS attempts, is flagged. */
export const RATE_FACTOR = 2;
export const RATE_MIN_ATTEMPTS = 20;
/** Longest notes kept per result; longest client id. */
export const MAX_NOTES = 2_000;
export const MAX_CLIENT_ID = 64;

export function isResultCode(x: string): x is ResultCode {
  return (RESULT_CODES as readonly string[]).includes(x);
}

/** A contact: someone at the door talked to the canvasser. */
export function isContact(result: ResultCode): boolean {
  return result === "contacted";
}

export type FlagKind = "far" | "fast" | "rate";

/** Metres between a result's GPS stamp and its door, when farther than FAR_METRES (else null). */
export function farFromDoor(gps: { lat: number; lng: number } | null | undefined, door: { lat: number; lng: number }) {
  if (!gps) return null;
  const d = metres(gps.lat, gps.lng, door.lat, door.lng);
  return d > FAR_METRES ? Math.round(d) : null;
}

/** Seconds between a canvasser's result and their previous one at another door, when under FAST_MS (else null). */
export function tooFast(
  prev: { at: number; doorId: string } | null,
  next: { at: number; doorId: string },
): number | null {
  if (!prev || prev.doorId === next.doorId) return null;
  const gap = Math.abs(next.at - prev.at);
  return gap < FAST_MS ? Math.round(gap / 1000) : null;
}

/** Contacts per attempt (0 without attempts). */
export function contactRate(contacts: number, attempts: number): number {
  return attempts > 0 ? contacts / attempts : 0;
}

/** Whether a canvasser's contact rate is far above their list's (≥ RATE_FACTOR×, ≥ RATE_MIN_ATTEMPTS attempts). */
export function rateFlag(mine: { attempts: number; contacts: number }, list: { attempts: number; contacts: number }) {
  if (mine.attempts < RATE_MIN_ATTEMPTS) return false;
  const listRate = contactRate(list.contacts, list.attempts);
  const myRate = contactRate(mine.contacts, mine.attempts);
  return listRate > 0 ? myRate >= RATE_FACTOR * listRate : false;
}

/** A flag in words (the dashboard shows it). */
export function flagMessage(kind: FlagKind, who: string, amount: number): string {
  switch (kind) {
    case "far":
      return `${who} recorded a result ${amount.toLocaleString("en-US")} m from its door.`;
    case "fast":
      return `${who} recorded results at two doors ${amount} s apart.`;
    case "rate":
      return `${who}'s contact rate is ${amount.toFixed(1)} times the list's.`;
  }
}

/** Survey question types whose answers the dashboard counts per option. */
export const CHOICE_TYPES = new Set(["select", "radio", "checkbox"]);

/** One survey answer as options counted ([] when it is not a choice). */
export function chosenOptions(answer: unknown): string[] {
  if (typeof answer === "string") return answer ? [answer] : [];
  if (Array.isArray(answer)) return answer.filter((a): a is string => typeof a === "string" && a !== "");
  return [];
}

/** Adds one answer's options to the counts (a flat list of field/option/n). */
export function addAnswerCounts(
  counts: { field: string; option: string; n: number }[],
  add: { field: string; options: string[] }[],
): { field: string; option: string; n: number }[] {
  const out = counts.map((c) => ({ ...c }));
  for (const a of add)
    for (const option of a.options) {
      const row = out.find((c) => c.field === a.field && c.option === option);
      if (row) row.n += 1;
      else out.push({ field: a.field, option, n: 1 });
    }
  return out;
}

/** Several answer counts summed (a list's, from its canvassers'). */
export function sumAnswerCounts(
  all: { field: string; option: string; n: number }[][],
): { field: string; option: string; n: number }[] {
  const sums = new Map<string, { field: string; option: string; n: number }>();
  for (const counts of all)
    for (const c of counts) {
      const key = `${c.field}\u0000${c.option}`;
      const row = sums.get(key);
      if (row) row.n += c.n;
      else sums.set(key, { ...c });
    }
  return [...sums.values()];
}
