/**
 * CSV for exports people open in spreadsheets: every cell quoted, formulas neutralised (= + - @ tab
 * CR get a leading ') — except negative numbers such as -5 or -1.5e3, which a spreadsheet reads as
 * numbers, never as formulas, and which a ' would corrupt. (+ stays escaped: '+14155550123 keeps a
 * phone's plus as text.)
 */
import Papa from "papaparse";
import { downloadBlob } from "./download";

/** A cell a spreadsheet would take for a formula: starts with = + - @ tab or CR, and is not a negative number. */
export const FORMULA = /^(?!-(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$)[=+\-@\t\r]/;

export function toCsv(header: string[], rows: string[][]): string {
  return Papa.unparse({ fields: header, data: rows }, { quotes: true, escapeFormulae: FORMULA, newline: "\r\n" });
}

/** A download of `text` as a UTF-8 CSV file (with a BOM, so spreadsheets read accents right). */
export function downloadCsv(text: string, name: string) {
  downloadBlob(new Blob([`\uFEFF${text}`], { type: "text/csv;charset=utf-8" }), name);
}

/** A file name from a title: letters, digits, - and _ kept, spaces as _. */
export function csvName(title: string | null, fallback: string): string {
  if (!title) return fallback;
  const base = title
    .trim()
    .replace(/[^A-Za-z0-9 _-]+/g, "")
    .replace(/\s+/g, "_")
    .slice(0, 80);
  return `${base || "export"}.csv`;
}
