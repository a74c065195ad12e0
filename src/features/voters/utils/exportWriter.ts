/**
 * Pure writers for the voter export (CSV and XLSX): columns incl. custom fields, spreadsheet
 * formula-injection neutralising, and incremental building so a million rows never sit in one
 * string or one array of row objects.
 */
import { VOTER_FIELD_DEFS } from "../../../../convex/tables/voters";

export type ExportColumn = { key: string; label: string; custom?: boolean };
export type ExportVoter = Record<string, unknown> & { custom_fields?: Record<string, string>; _id?: string; _creationTime?: number };

/** Every voter column, then the organisation's custom fields, then created/updated times. */
export function exportColumns(customDefs: { key: string; label: string }[]): ExportColumn[] {
  return [
    { key: "_id", label: "ID" },
    ...VOTER_FIELD_DEFS.map((f) => ({ key: f.key, label: f.label })),
    { key: "zip_code", label: "Zip Code (alt)" },
    ...customDefs.map((d) => ({ key: d.key, label: d.label, custom: true })),
    { key: "created_at", label: "Created At" },
    { key: "updated_at", label: "Updated At" },
  ];
}

/** Cells that a spreadsheet would run as a formula (= + - @, also tab/CR) are prefixed with '. */
export function neutraliseCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

export function cellValue(voter: ExportVoter, col: ExportColumn): string {
  let raw: unknown;
  if (col.custom) raw = voter.custom_fields?.[col.key];
  else if (col.key === "created_at") raw = voter._creationTime !== undefined ? new Date(voter._creationTime).toISOString() : "";
  else if (col.key === "updated_at") raw = typeof voter.updatedAt === "number" ? new Date(voter.updatedAt).toISOString() : "";
  else raw = voter[col.key];
  if (raw === undefined || raw === null) return "";
  if (typeof raw === "boolean") return raw ? "Yes" : "No";
  return neutraliseCell(typeof raw === "string" ? raw : typeof raw === "number" ? String(raw) : JSON.stringify(raw));
}

function csvEscape(s: string): string {
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function csvHeader(columns: ExportColumn[]): string {
  return columns.map((c) => csvEscape(neutraliseCell(c.label))).join(",") + "\r\n";
}

/** One chunk of CSV text for a page of voters. */
export function csvRows(voters: ExportVoter[], columns: ExportColumn[]): string {
  let out = "";
  for (const v of voters) out += columns.map((c) => csvEscape(cellValue(v, c))).join(",") + "\r\n";
  return out;
}

/** Collects CSV chunks as Blob parts (the browser keeps them off the JS heap). */
export class CsvExportWriter {
  private parts: BlobPart[] = [];
  constructor(private columns: ExportColumn[]) {
    // BOM so Excel reads UTF-8
    this.parts.push("\uFEFF" + csvHeader(columns));
  }
  addPage(voters: ExportVoter[]) {
    if (voters.length > 0) this.parts.push(new Blob([csvRows(voters, this.columns)]));
  }
  finish(): Blob {
    const blob = new Blob(this.parts, { type: "text/csv;charset=utf-8" });
    this.parts = [];
    return blob;
  }
}

type XlsxModule = typeof import("xlsx");

/** Appends pages to one dense worksheet (sheet_add_aoa), written once at the end. */
export class XlsxExportWriter {
  private ws: import("xlsx").WorkSheet;
  private rows = 0;
  constructor(private XLSX: XlsxModule, private columns: ExportColumn[]) {
    this.ws = XLSX.utils.aoa_to_sheet([columns.map((c) => neutraliseCell(c.label))], { dense: true });
  }
  addPage(voters: ExportVoter[]) {
    if (voters.length === 0) return;
    const aoa = voters.map((v) => this.columns.map((c) => cellValue(v, c)));
    this.XLSX.utils.sheet_add_aoa(this.ws, aoa, { origin: -1 });
    this.rows += voters.length;
  }
  get rowCount() {
    return this.rows;
  }
  finish(): Blob {
    const wb = this.XLSX.utils.book_new();
    this.XLSX.utils.book_append_sheet(wb, this.ws, "Voters");
    const data = this.XLSX.write(wb, { bookType: "xlsx", type: "array", compression: true }) as ArrayBuffer;
    return new Blob([data], { type: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" });
  }
}

export function exportFileName(ext: "csv" | "xlsx", now = new Date()): string {
  return `voters-${now.toISOString().slice(0, 10)}.${ext}`;
}
