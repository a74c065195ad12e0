/**
 * .xls / .xlsx through SheetJS (`@e965/xlsx`). A workbook cannot be streamed, but a sheet holds at
 * most 1,048,576 rows; rows are still handed out in batches.
 *
 * Cells are read as the typed values the sheet holds, never as the text Excel would display (a
 * 1921 birth date shown as m/d/yy would come back as 2021 once re-parsed, a 12-digit voter ID
 * shown as General would become 1.23457E+11): dates → ISO, numbers → their exact digits, booleans
 * → TRUE/FALSE, text as typed, formulas by their cached value (see cellText).
 */
import * as XLSX from "xlsx";
import { uniqueHeaders, type RowSource } from "./rowSource";

const pad2 = (n: number) => String(n).padStart(2, "0");

/**
 * A number's exact decimal digits: no exponent, no grouping, the shortest digits that read back as
 * the same double (123456789012 → "123456789012", 1e21 → "1000000000000000000000", 1e-7 → "0.0000001").
 */
export function exactNumber(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  if (v === 0) return "0"; // also -0
  const s = String(v);
  const m = s.match(/^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/);
  if (!m) return s;
  const digits = m[2] + (m[3] ?? "");
  const point = 1 + Number(m[4]); // where the decimal point falls within `digits`
  if (point <= 0) return `${m[1]}0.${"0".repeat(-point)}${digits}`;
  if (point >= digits.length) return m[1] + digits + "0".repeat(point - digits.length);
  return `${m[1]}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/**
 * Number formats that only pad digits with zeros ("00000", Excel's ZIP format), optionally in
 * groups joined by literal hyphens ("00000\-0000", ZIP+4): the padded digits are what the sheet
 * holds (501 → "00501", 21341234 → "02134-1234"). null for any other format.
 */
function zeroPadding(format: string | undefined): number[] | null {
  if (!format || format.indexOf("0") === -1) return null;
  const f = format.replace(/\\-/g, "-").replace(/"-"/g, "-");
  if (!/^0+(-0+)*$/.test(f)) return null;
  return f.split("-").map((g) => g.length);
}

function numberText(v: number, format: string | undefined): string {
  const groups = zeroPadding(format);
  if (groups && Number.isInteger(v) && v >= 0) {
    const total = groups.reduce((a, b) => a + b, 0);
    const digits = exactNumber(v).padStart(total, "0");
    if (groups.length === 1 || digits.length !== total) return digits;
    const parts: string[] = [];
    let at = 0;
    for (const g of groups) {
      parts.push(digits.slice(at, at + g));
      at += g;
    }
    return parts.join("-");
  }
  return exactNumber(v);
}

/** ISO from the UTC fields of a SheetJS date (0.20 builds them in UTC): the date, with the time only when it is not midnight. */
function dateText(d: Date): string {
  const t = Math.round(d.getTime() / 1000) * 1000; // serials carry float noise below the second
  if (!Number.isFinite(t)) return "";
  const x = new Date(t);
  const y = x.getUTCFullYear();
  const time = `${pad2(x.getUTCHours())}:${pad2(x.getUTCMinutes())}:${pad2(x.getUTCSeconds())}`;
  // a time of day without a date (serial below 1): 1899-12-30/31 is no one's date
  if (y < 1900) return time;
  const date = `${String(y).padStart(4, "0")}-${pad2(x.getUTCMonth() + 1)}-${pad2(x.getUTCDate())}`;
  return time === "00:00:00" ? date : `${date}T${time}`;
}

/** A date serial SheetJS left as a number (its format is a date): counted from the workbook's epoch. */
function serialText(v: number, date1904: boolean): string {
  let days = Math.floor(v);
  let secs = Math.round((v - days) * 86400);
  if (secs >= 86400) {
    days++;
    secs -= 86400;
  }
  // 1900 system: serial 60 is Excel's fictitious 1900-02-29, serials below it count from 1899-12-31
  if (!date1904 && days === 60) return "1900-02-29";
  const epoch = date1904 ? Date.UTC(1904, 0, 1) : days < 60 ? Date.UTC(1899, 11, 31) : Date.UTC(1899, 11, 30);
  return dateText(new Date(epoch + days * 86400000 + secs * 1000));
}

/** A cell as text: typed values, never the formatted display (formula cells by their cached value). */
export function cellText(cell: XLSX.CellObject | undefined, date1904 = false): string {
  if (!cell || cell.v === undefined || cell.v === null) return "";
  switch (cell.t) {
    case "s":
      return String(cell.v);
    case "b":
      return cell.v ? "TRUE" : "FALSE";
    case "d":
      return cell.v instanceof Date ? dateText(cell.v) : String(cell.v);
    case "n": {
      const v = cell.v as number;
      const z = typeof cell.z === "string" ? cell.z : undefined;
      if (z && XLSX.SSF.is_date(z)) return serialText(v, date1904);
      return numberText(v, z);
    }
    case "e":
      return cell.w ?? "";
    case "z":
      return "";
    default:
      return String(cell.v);
  }
}

function cellIsBlank(cell: XLSX.CellObject | undefined): boolean {
  if (!cell || cell.v === undefined || cell.v === null || cell.t === "z") return true;
  return cell.t === "s" && String(cell.v).trim() === "";
}

export function openSpreadsheetSource(data: ArrayBuffer | Uint8Array): RowSource {
  // cellDates: date-formatted numbers become Dates (UTC in SheetJS 0.20, so no time-zone shift),
  // which also covers the built-in date formats SheetJS only learns while formatting; cellNF keeps
  // each number's format string (zero-padded ZIPs).
  const wb = XLSX.read(data, { type: "array", dense: true, cellDates: true, cellNF: true });
  const ws = wb.Sheets[wb.SheetNames[0]];
  if (!ws) throw new Error("The workbook has no sheet");
  const date1904 = !!wb.Workbook?.WBProps?.date1904;
  const grid = (ws as unknown as { "!data"?: (XLSX.CellObject | undefined)[][] })["!data"] ?? [];
  const range = ws["!ref"] ? XLSX.utils.decode_range(ws["!ref"]) : { s: { r: 0, c: 0 }, e: { r: -1, c: -1 } };
  const width = range.e.c + 1;
  const rowText = (r: number): string[] => {
    const row = grid[r] ?? [];
    const out: string[] = new Array(width);
    for (let c = 0; c < width; c++) out[c] = cellText(row[c], date1904);
    return out;
  };
  const rowIsBlank = (r: number): boolean => {
    const row = grid[r];
    if (!row) return true;
    for (let c = 0; c < width; c++) if (!cellIsBlank(row[c])) return false;
    return true;
  };
  let r = range.s.r;
  while (r <= range.e.r && rowIsBlank(r)) r++;
  if (r > range.e.r) throw new Error("The sheet has no header row");
  const headers = uniqueHeaders(rowText(r));
  r++;
  let dataRows = 0;
  for (let i = r; i <= range.e.r; i++) if (!rowIsBlank(i)) dataRows++;
  const size = data.byteLength;
  const lastRow = range.e.r;
  let last: number[] = [];
  return {
    headers,
    async next(max) {
      const out: string[][] = [];
      const lines: number[] = [];
      while (out.length < max && r <= lastRow) {
        const at = r++;
        if (rowIsBlank(at)) continue;
        out.push(rowText(at));
        lines.push(at + 1);
      }
      last = lines;
      return out;
    },
    lastLines: () => last,
    bytesRead: () => (lastRow < 0 ? size : Math.round((size * Math.min(r, lastRow + 1)) / (lastRow + 1))),
    totalBytes: size,
    totalRows: dataRows,
    encoding: "spreadsheet",
    delimiter: null,
  };
}
