/** CSV for exports people open in spreadsheets: every cell quoted, formulas neutralised (= + - @ tab CR get a leading '). */
import Papa from "papaparse";
import { downloadBlob } from "./download";

const FORMULA = /^[=+\-@\t\r]/;

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
  const base = title.trim().replace(/[^A-Za-z0-9 _-]+/g, "").replace(/\s+/g, "_").slice(0, 80);
  return `${base || "export"}.csv`;
}
