/**
 * One imported row's rules, shared by the server (which enforces them) and the browser (which
 * checks each row before sending it, so "Ask me" can stop exactly before a failing row): values
 * trimmed, empty values dropped, lengths capped, names required; and the import's matching rules.
 */
import type { ElectionRecord, VoterFields } from "../../tables/voters";

export const MAX_VALUE_LENGTH = 10_000;
/** Elections one row may carry (a state file's per-election columns, or one vote-history row). */
export const MAX_ROW_ELECTIONS = 500;
export const ROW_ERROR_MISSING_NAMES = "Missing required fields (first name or last name)";
export const ROW_ERROR_NO_VOTER_ID = "Missing voter ID";

/**
 * How an import finds the voters a file already holds ("Match existing records by"):
 * - `standard`: the state voter ID when the row has one (authoritative); else the email; else
 *   first + last name with the date of birth, or with the ZIP / address.
 * - `name`: the email, else first + last name alone (the literal rule; common names collide).
 */
export type MatchRule = "standard" | "name";
export const MATCH_RULE_LABELS: Record<MatchRule, string> = {
  standard: "Voter ID, else email, else name with date of birth or address",
  name: "Email, else first and last name only",
};

type RowInput = Record<string, unknown>;

/**
 * Index lookups one transaction's rows may plan. Convex allows 4,096 index ranges a transaction;
 * the rest is left for what the writes read (the batch's import, a voter's districts, place and
 * name keys when a row updates it).
 */
export const BATCH_LOOKUP_BUDGET = 3_000;

const filled = (v: unknown) => typeof v === "string" && v.trim() !== "";

/**
 * The index ranges the server reads to match this row, at most (model/importMatch.ts): a vote-
 * history row two (its voter found with the batch's, then read again to be written); under the
 * standard rule one for a voter ID or an email, else one per name key (with date of birth, ZIP,
 * address); under the name rule one. A row with none of them, or a history row without a voter ID,
 * reads nothing. Raw fields give the same answer as cleaned ones: cleaning trims, never drops a
 * value. The browser cuts batches by it, the server refuses a batch past BATCH_LOOKUP_BUDGET.
 */
export function plannedLookups(fields: RowInput, rule: MatchRule, historyOnly: boolean): number {
  if (historyOnly) return filled(fields.voter_id) ? 2 : 0;
  if (rule === "name") return 1;
  if (filled(fields.voter_id) || filled(fields.email)) return 1;
  return (filled(fields.date_of_birth) ? 1 : 0) + (filled(fields.zip) ? 1 : 0) + (filled(fields.address) ? 1 : 0);
}

/** The row's voter fields cleaned, or the row's error message. */
export function cleanImportRow(fields: RowInput, opts: { historyOnly?: boolean } = {}): VoterFields | string {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(fields)) {
    const value = fields[k];
    if (typeof value === "string") {
      const t = value.trim();
      if (t.length > MAX_VALUE_LENGTH) return `Insert failed: value too long for ${k}`;
      if (t !== "" || k === "first_name" || k === "last_name") out[k] = t;
    } else if (k === "custom_fields" && value && typeof value === "object") {
      const custom: Record<string, string> = {};
      const given = value as Record<string, string>;
      for (const ck of Object.keys(given)) {
        const t = String(given[ck]).trim();
        if (t.length > MAX_VALUE_LENGTH) return `Insert failed: value too long for ${ck}`;
        if (t !== "") custom[ck] = t;
      }
      if (Object.keys(custom).length > 0) out.custom_fields = custom;
    } else if (k === "state_voter_history" && typeof value === "number") {
      if (!Number.isFinite(value)) return "Insert failed: state_voter_history must be a number";
      out.state_voter_history = Math.max(0, Math.min(4, Math.round(value)));
    } else if (k === "vote_history" && Array.isArray(value)) {
      if (value.length > MAX_ROW_ELECTIONS) return "Insert failed: too many elections in one row";
      const records = (value as ElectionRecord[]).filter((r) => r.election.trim() !== "");
      for (const r of records) {
        for (const part of [r.election, r.date, r.type, r.method, r.party]) {
          if (part !== undefined && part.length > 200) return "Insert failed: value too long for vote_history";
        }
      }
      if (records.length > 0) out.vote_history = mergeElections([], records);
    }
  }
  if (opts.historyOnly) {
    if (!out.voter_id) return ROW_ERROR_NO_VOTER_ID;
    return out as VoterFields;
  }
  if (!out.first_name || !out.last_name) return ROW_ERROR_MISSING_NAMES;
  return out as VoterFields;
}

/** The same election in two records: its label, case and spacing aside. */
export function electionKey(r: Pick<ElectionRecord, "election" | "date">): string {
  return `${r.date ?? ""}|${r.election.trim().toUpperCase().replace(/\s+/g, " ")}`;
}

/** A voter's records with new ones added (a record already held is not repeated), newest first. */
export function mergeElections(
  held: readonly ElectionRecord[] | undefined,
  added: readonly ElectionRecord[],
): ElectionRecord[] {
  const byKey = new Map<string, ElectionRecord>();
  for (const r of held ?? []) byKey.set(electionKey(r), r);
  for (const r of added) byKey.set(electionKey(r), { ...byKey.get(electionKey(r)), ...r });
  return [...byKey.values()].sort(
    (a, b) => (b.date ?? "").localeCompare(a.date ?? "") || a.election.localeCompare(b.election),
  );
}

/** state_voter_history (0–4): how many of the given most recent elections the voter took part in. */
export function recentParticipation(
  records: readonly ElectionRecord[],
  recent: readonly Pick<ElectionRecord, "election" | "date">[],
): number {
  const held = new Set(records.map(electionKey));
  return Math.min(4, recent.slice(0, 4).filter((e) => held.has(electionKey(e))).length);
}
