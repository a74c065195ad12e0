/** "Validate Mapping": isValid, issues and suggestions (spec/1 §5 warnings), computed locally. */
import {
  CREATE_NEW,
  ELECTION_HISTORY,
  IGNORE,
  isHistoryMapping,
  REQUIRED_FIELDS,
  TARGET_FIELDS,
  targetLabel,
  type ColumnMapping,
  type NewFieldDef,
} from "./fields";
import { suggestPairings } from "./pairing";
import { TEXTS } from "@convex/lib/texts";

export type MappingValidation = { isValid: boolean; issues: string[]; suggestions: string[] };

export const MISSING_REQUIRED = {
  title: TEXTS.titles.missingRequired,
  description: TEXTS.import.mapRequired,
};

export function validateMapping(
  headers: string[],
  rows: string[][],
  mapping: ColumnMapping,
  newFields: NewFieldDef[] = [],
): MappingValidation {
  const issues: string[] = [];
  const suggestions: string[] = [];
  let isValid = true;
  const mapped = new Map<string, string[]>();
  for (const h of headers) {
    const t = mapping[h];
    if (!t || t === IGNORE) continue;
    if (t === CREATE_NEW) {
      issues.push(`Column '${h}' is waiting for its new database field to be created`);
      isValid = false;
      continue;
    }
    mapped.set(t, [...(mapped.get(t) ?? []), h]);
  }
  // a vote-history file attaches elections to voters by their ID: the ID is what it needs
  const required = isHistoryMapping(mapping) ? TARGET_FIELDS.filter((f) => f.key === "voter_id") : REQUIRED_FIELDS;
  for (const f of required) {
    if (!mapped.has(f.key)) {
      issues.push(`Required field '${f.label}' is not mapped`);
      isValid = false;
    }
  }
  for (const [target, cols] of mapped) {
    if (target !== ELECTION_HISTORY && cols.length > 1) {
      issues.push(
        `Columns ${cols.map((c) => `'${c}'`).join(", ")} are all mapped to '${targetLabel(target, newFields)}'`,
      );
      isValid = false;
    }
  }
  const samples = (h: string) =>
    rows
      .slice(0, 20)
      .map((r) => String(r[headers.indexOf(h)] ?? "").trim())
      .filter((v) => v !== "");
  for (const h of mapped.get("email") ?? []) {
    if (samples(h).some((v) => !v.includes("@"))) issues.push(`Column '${h}' may not contain valid email addresses`);
  }
  for (const h of mapped.get("phone") ?? []) {
    if (samples(h).some((v) => !/\d{3}/.test(v))) issues.push(`Column '${h}' may not contain valid phone numbers`);
  }
  const pairing = suggestPairings(headers, rows);
  for (const s of pairing) {
    const current = mapping[s.header];
    if (
      (!current || current === IGNORE) &&
      s.target !== IGNORE &&
      !mapped.has(s.target === ELECTION_HISTORY ? "__none__" : s.target)
    ) {
      suggestions.push(`Map '${s.header}' to '${targetLabel(s.target)}' (${s.reasons.join("; ")})`);
    }
  }
  return { isValid, issues, suggestions };
}
