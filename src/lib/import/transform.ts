/** Raw cells → the voter fields an import batch carries, following a column mapping. */
import type { ImportFieldsDoc } from "@convex/tables/imports";
import type { ElectionRecord } from "@convex/tables/voters";
import { electionOfColumn, historyRecord, participation } from "./elections";
import {
  CREATE_NEW,
  ELECTION_HISTORY,
  ELECTION_LABEL,
  ELECTION_NAME,
  HISTORY_FILE_TARGETS,
  IGNORE,
  STANDARD_KEYS,
  TARGET_FIELDS,
  VOTED_PARTY,
  VOTING_METHOD,
  type ColumnMapping,
  type NewFieldDef,
} from "./fields";
import {
  looksLikeEmail,
  looksLikePhone,
  looksLikeZip,
  normalizeDate,
  normalizeParty,
  normalizePhone,
  normalizeStatus,
  normalizeZip,
  summariseHistory,
} from "./normalize";

/** One row's voter fields as the server takes them (convex/tables/imports.ts vImportFields). */
export type ImportFields = ImportFieldsDoc;

/**
 * One data row as sent to the server: its 1-based place among the file's data rows (batches
 * resume by it) and its line in the file (what messages show).
 */
export type ImportRow = { row: number; line: number; fields: ImportFields };

export type ColumnStats = { processed: number; errors: number };

/**
 * `dropInvalid`: a value failing `check` is left out of the voter (an email or phone that is not
 * one would be used for sending); other types keep what the file says, counted as a failure.
 */
type Column = {
  index: number;
  header: string;
  key: string;
  custom: boolean;
  check: (v: string) => boolean;
  norm: (v: string) => string;
  dropInvalid?: boolean;
};

/** What the summary says of a column's values that failed their type's check. */
export function invalidValuesNote(column: string, type: string, count: number): string {
  const n = count.toLocaleString();
  const values = count === 1 ? "value" : "values";
  if (type === "email") return `Column '${column}': ${n} ${values} not a valid email address, left out.`;
  if (type === "phone") return `Column '${column}': ${n} ${values} not a valid phone number, left out.`;
  if (type === "text") return `Column '${column}': ${n} ${values} not valid for its field, left out.`;
  return `Column '${column}': ${n} ${values} not a valid ${type}, kept as written.`;
}

/** The data type a mapped field has (the voter field's, a new field's, else text). */
export function fieldTypeOf(key: string, newFields: NewFieldDef[] = []): string {
  return TYPE_OF.get(key) ?? newFields.find((f) => f.key === key)?.type ?? "text";
}

const TYPE_OF = new Map(TARGET_FIELDS.map((f) => [f.key, f.type]));

function columnFor(index: number, header: string, key: string, custom: NewFieldDef | undefined): Column {
  const type = custom ? custom.type : (TYPE_OF.get(key) ?? "text");
  switch (type) {
    case "email":
      return { index, header, key, custom: !!custom, check: looksLikeEmail, norm: (v) => v, dropInvalid: true };
    case "phone":
      return { index, header, key, custom: !!custom, check: looksLikePhone, norm: normalizePhone, dropInvalid: true };
    case "date": {
      // a two-digit year of a birth date is the last century's when this one's would make a child
      const opts = key === "date_of_birth" ? { birth: true } : undefined;
      return {
        index,
        header,
        key,
        custom: !!custom,
        check: (v) => normalizeDate(v, opts) !== null,
        norm: (v) => normalizeDate(v, opts) ?? v,
      };
    }
    case "zip":
      return { index, header, key, custom: !!custom, check: (v) => looksLikeZip(normalizeZip(v)), norm: normalizeZip };
    case "party":
      return { index, header, key, custom: false, check: () => true, norm: normalizeParty };
    case "status":
      return { index, header, key, custom: false, check: () => true, norm: normalizeStatus };
    case "number":
      return {
        index,
        header,
        key,
        custom: !!custom,
        check: (v) => !Number.isNaN(Number(v.replace(/,/g, ""))),
        norm: (v) => v,
      };
    default:
      return { index, header, key, custom: !!custom, check: () => true, norm: (v) => v };
  }
}

/**
 * Compiles the mapping once; the returned function turns one row of cells into ImportFields and
 * counts per-column values and type failures (import_field_details). Cells are trimmed and empty
 * cells skipped (spec/1 §5); an email or phone that is not one is left out (and counted).
 */
export function compileMapping(headers: string[], mapping: ColumnMapping, newFields: NewFieldDef[] = []) {
  const byKey = new Map(newFields.map((f) => [f.key, f]));
  const columns: Column[] = [];
  const history: { header: string; index: number; election: ElectionRecord }[] = [];
  const historyFile = new Map<string, number>();
  headers.forEach((header, index) => {
    const key = mapping[header];
    if (!key || key === IGNORE || key === CREATE_NEW) return;
    if (key === ELECTION_HISTORY) history.push({ header, index, election: electionOfColumn(header) });
    else if (HISTORY_FILE_TARGETS.includes(key)) historyFile.set(key, index);
    else
      columns.push(
        columnFor(
          index,
          header,
          key,
          STANDARD_KEYS.has(key) ? undefined : (byKey.get(key) ?? { key, label: key, type: "text" }),
        ),
      );
  });
  const stats = new Map<string, ColumnStats>(headers.map((h) => [h, { processed: 0, errors: 0 }]));
  const targets = new Set(Object.values(mapping));
  const hasStatusCode = targets.has("status_code");
  const hasPartyCode = targets.has("party_code");
  /** the elections the file's per-election columns name (the server's election list) */
  const elections = history.map((h) => h.election);

  function build(cells: string[]): ImportFields {
    const out: Record<string, unknown> = { first_name: "", last_name: "" };
    let custom: Record<string, string> | undefined;
    for (const c of columns) {
      const raw = cells[c.index];
      if (raw === undefined || raw === null) continue;
      const v = String(raw).trim();
      if (v === "") continue;
      const s = stats.get(c.header)!;
      s.processed++;
      if (!c.check(v)) {
        s.errors++;
        if (c.dropInvalid) continue;
      }
      const value = c.norm(v);
      if (c.custom) (custom ??= {})[c.key] = value;
      else if (c.key === "state_voter_history") {
        const n = Number(value);
        if (Number.isFinite(n)) out.state_voter_history = Math.max(0, Math.min(4, Math.round(n)));
      } else out[c.key] = value;
      // the state's own code is kept beside the value it was mapped to (NC "R" → Inactive)
      if (
        (c.key === "status" || c.key === "party_affiliation") &&
        !(c.key === "status" ? hasStatusCode : hasPartyCode)
      ) {
        out[c.key === "status" ? "status_code" : "party_code"] = v;
      }
    }
    if (history.length > 0) {
      const voted: ElectionRecord[] = [];
      for (const h of history) {
        const cell = String(cells[h.index] ?? "");
        if (cell.trim() !== "") stats.get(h.header)!.processed++;
        const record = participation(h.election, cell);
        if (record) voted.push(record);
      }
      out.state_voter_history = summariseHistory(history, (i) => String(cells[i] ?? ""));
      if (voted.length > 0) out.vote_history = voted;
    }
    if (historyFile.size > 0) {
      const cell = (key: string) => (historyFile.has(key) ? String(cells[historyFile.get(key)!] ?? "") : undefined);
      const record = historyRecord({
        label: cell(ELECTION_LABEL),
        name: cell(ELECTION_NAME),
        method: cell(VOTING_METHOD),
        party: cell(VOTED_PARTY),
      });
      if (record) out.vote_history = [record];
      for (const [, index] of historyFile)
        if (String(cells[index] ?? "").trim() !== "") stats.get(headers[index])!.processed++;
    }
    if (custom) out.custom_fields = custom;
    return out as ImportFields;
  }
  return { build, stats, elections };
}
