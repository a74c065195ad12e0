/** Import targets (spec/1 §3 "Importable contact fields" plus the voter fields a state file carries). */
import type { ImportCustomFieldType, NewImportField } from "@convex/tables/imports";
import { VOTER_IMPORT_TARGETS, type ImportTargetType } from "@convex/tables/voters";

type TargetType = ImportTargetType | "history" | "election";

export type TargetField = { key: string; label: string; type: TargetType; required: boolean };

/** Column mapping markers (spec/1 §4): ignore the column, or create a new database field for it. */
export const IGNORE = "__ignore__";
export const CREATE_NEW = "__create__";
/** Several per-election voted/not-voted columns may map here; summarised into state_voter_history. */
export const ELECTION_HISTORY = "__election_history__";

/**
 * The columns of a vote-history file (one election a voter took part in per row, keyed by voter
 * ID, e.g. NC's ncvhis: election_lbl, election_desc, voting_method, voted_party_cd).
 */
export const ELECTION_LABEL = "__election_label__";
export const ELECTION_NAME = "__election_name__";
export const VOTING_METHOD = "__voting_method__";
export const VOTED_PARTY = "__voted_party__";
export const HISTORY_FILE_TARGETS = [ELECTION_LABEL, ELECTION_NAME, VOTING_METHOD, VOTED_PARTY];

/** The voter fields an import maps to (convex/tables/voters.ts), then the election-history columns. */
export const TARGET_FIELDS: TargetField[] = [
  ...VOTER_IMPORT_TARGETS,
  { key: ELECTION_HISTORY, label: "Election History (voted / not voted)", type: "history", required: false },
  { key: ELECTION_LABEL, label: "Election Date (vote-history file)", type: "election", required: false },
  { key: ELECTION_NAME, label: "Election Name (vote-history file)", type: "election", required: false },
  { key: VOTING_METHOD, label: "Voting Method (vote-history file)", type: "election", required: false },
  { key: VOTED_PARTY, label: "Ballot Party (vote-history file)", type: "election", required: false },
];

/**
 * A vote-history file: its columns map to an election and to the voter ID, not to names. Its rows
 * attach elections to voters already imported.
 */
export function isHistoryMapping(mapping: ColumnMapping): boolean {
  const targets = new Set(Object.values(mapping));
  return (
    (targets.has(ELECTION_LABEL) || targets.has(ELECTION_NAME)) &&
    !targets.has("first_name") &&
    !targets.has("last_name")
  );
}

export const STANDARD_KEYS = new Set(TARGET_FIELDS.map((f) => f.key));
export const REQUIRED_FIELDS = TARGET_FIELDS.filter((f) => f.required);

export function targetLabel(key: string, custom: { key: string; label: string }[] = []): string {
  return TARGET_FIELDS.find((f) => f.key === key)?.label ?? custom.find((c) => c.key === key)?.label ?? key;
}

/** spec/1 §5: lowercased, spaces become underscores, anything not alphanumeric or underscore removed. */
export function normalizeFieldKey(name: string): string {
  return name
    .toLowerCase()
    .replace(/ /g, "_")
    .replace(/[^a-z0-9_]/g, "");
}

export type CustomFieldType = ImportCustomFieldType;
export type NewFieldDef = NewImportField;

/** header → target key, IGNORE, or CREATE_NEW (pending) */
export type ColumnMapping = Record<string, string>;
