/** Import targets (spec/1 §3 "Importable contact fields" plus the voter fields a state file carries). */

export type TargetType = "text" | "email" | "phone" | "date" | "number" | "zip" | "party" | "status" | "history";

export type TargetField = { key: string; label: string; type: TargetType; required: boolean };

/** Column mapping markers (spec/1 §4): ignore the column, or create a new database field for it. */
export const IGNORE = "__ignore__";
export const CREATE_NEW = "__create__";
/** Several per-election voted/not-voted columns may map here; summarised into state_voter_history. */
export const ELECTION_HISTORY = "__election_history__";

export const TARGET_FIELDS: TargetField[] = [
  { key: "first_name", label: "First Name", type: "text", required: true },
  { key: "last_name", label: "Last Name", type: "text", required: true },
  { key: "email", label: "Email", type: "email", required: false },
  { key: "phone", label: "Phone", type: "phone", required: false },
  { key: "address", label: "Address", type: "text", required: false },
  { key: "city", label: "City", type: "text", required: false },
  { key: "state", label: "State", type: "text", required: false },
  { key: "zip", label: "ZIP Code", type: "zip", required: false },
  { key: "date_of_birth", label: "Date of Birth", type: "date", required: false },
  { key: "party_affiliation", label: "Party Affiliation", type: "party", required: false },
  { key: "status", label: "Status", type: "status", required: false },
  { key: "registration_date", label: "Registration Date", type: "date", required: false },
  { key: "notes", label: "Notes", type: "text", required: false },
  { key: "voter_id", label: "Voter ID", type: "text", required: false },
  { key: "precinct", label: "Precinct", type: "text", required: false },
  { key: "state_voter_history", label: "State Voter History (0-4)", type: "number", required: false },
  { key: ELECTION_HISTORY, label: "Election History (voted / not voted)", type: "history", required: false },
];

export const STANDARD_KEYS = new Set(TARGET_FIELDS.map((f) => f.key));
export const REQUIRED_FIELDS = TARGET_FIELDS.filter((f) => f.required);

export function targetLabel(key: string, custom: { key: string; label: string }[] = []): string {
  return TARGET_FIELDS.find((f) => f.key === key)?.label ?? custom.find((c) => c.key === key)?.label ?? key;
}

/** spec/1 §5: lowercased, spaces become underscores, anything not alphanumeric or underscore removed. */
export function normalizeFieldKey(name: string): string {
  return name.toLowerCase().replace(/ /g, "_").replace(/[^a-z0-9_]/g, "");
}

export type CustomFieldType = "text" | "email" | "phone" | "date" | "number";
export type NewFieldDef = { key: string; label: string; type: CustomFieldType };

/** header → target key, IGNORE, or CREATE_NEW (pending) */
export type ColumnMapping = Record<string, string>;
