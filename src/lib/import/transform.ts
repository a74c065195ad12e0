/** Raw cells → the voter fields an import batch carries, following a column mapping. */
import type { ImportFieldsDoc } from "@convex/tables/imports";
import { CREATE_NEW, ELECTION_HISTORY, IGNORE, STANDARD_KEYS, TARGET_FIELDS, type ColumnMapping, type NewFieldDef } from "./fields";
import { looksLikeEmail, looksLikeZip, normalizeDate, normalizeParty, normalizePhone, normalizeStatus, normalizeZip, summariseHistory } from "./normalize";

/** One row's voter fields as the server takes them (convex/tables/imports.ts vImportFields). */
export type ImportFields = ImportFieldsDoc;

/** One data row as sent to the server: its 1-based row number in the file (header excluded). */
export type ImportRow = { row: number; fields: ImportFields };

export type ColumnStats = { processed: number; errors: number };

type Column = { index: number; header: string; key: string; custom: boolean; check: (v: string) => boolean; norm: (v: string) => string };

const TYPE_OF = new Map(TARGET_FIELDS.map((f) => [f.key, f.type]));

function columnFor(index: number, header: string, key: string, custom: NewFieldDef | undefined): Column {
  const type = custom ? custom.type : TYPE_OF.get(key) ?? "text";
  switch (type) {
    case "email":
      return { index, header, key, custom: !!custom, check: looksLikeEmail, norm: (v) => v };
    case "phone":
      return { index, header, key, custom: !!custom, check: (v) => /\d{3}/.test(v), norm: normalizePhone };
    case "date":
      return { index, header, key, custom: !!custom, check: (v) => normalizeDate(v) !== null, norm: (v) => normalizeDate(v) ?? v };
    case "zip":
      return { index, header, key, custom: !!custom, check: (v) => looksLikeZip(normalizeZip(v)), norm: normalizeZip };
    case "party":
      return { index, header, key, custom: false, check: () => true, norm: normalizeParty };
    case "status":
      return { index, header, key, custom: false, check: () => true, norm: normalizeStatus };
    case "number":
      return { index, header, key, custom: !!custom, check: (v) => !Number.isNaN(Number(v.replace(/,/g, ""))), norm: (v) => v };
    default:
      return { index, header, key, custom: !!custom, check: () => true, norm: (v) => v };
  }
}

/**
 * Compiles the mapping once; the returned function turns one row of cells into ImportFields and
 * counts per-column values and type failures (import_field_details). Cells are trimmed and empty
 * cells skipped (spec/1 §5).
 */
export function compileMapping(headers: string[], mapping: ColumnMapping, newFields: NewFieldDef[] = []) {
  const byKey = new Map(newFields.map((f) => [f.key, f]));
  const columns: Column[] = [];
  const history: { header: string; index: number }[] = [];
  headers.forEach((header, index) => {
    const key = mapping[header];
    if (!key || key === IGNORE || key === CREATE_NEW) return;
    if (key === ELECTION_HISTORY) history.push({ header, index });
    else columns.push(columnFor(index, header, key, STANDARD_KEYS.has(key) ? undefined : byKey.get(key) ?? { key, label: key, type: "text" }));
  });
  const stats = new Map<string, ColumnStats>(headers.map((h) => [h, { processed: 0, errors: 0 }]));

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
      if (!c.check(v)) s.errors++;
      const value = c.norm(v);
      if (c.custom) (custom ??= {})[c.key] = value;
      else if (c.key === "state_voter_history") {
        const n = Number(value);
        if (Number.isFinite(n)) out.state_voter_history = Math.max(0, Math.min(4, Math.round(n)));
      } else out[c.key] = value;
    }
    if (history.length > 0) {
      for (const h of history) if (String(cells[h.index] ?? "").trim() !== "") stats.get(h.header)!.processed++;
      out.state_voter_history = summariseHistory(history, (i) => String(cells[i] ?? ""));
    }
    if (custom) out.custom_fields = custom;
    return out as ImportFields;
  }
  return { build, stats };
}
