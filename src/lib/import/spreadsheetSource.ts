/**
 * .xls / .xlsx through SheetJS (`@e965/xlsx`). A workbook cannot be streamed, but a sheet holds at
 * most 1,048,576 rows; rows are still handed out in batches, formatted as shown in Excel (cell.w),
 * so ZIP codes formatted "00000" keep their leading zeros.
 */
import * as XLSX from "xlsx";
import { isBlankRow, uniqueHeaders, type RowSource } from "./rowSource";

function cellText(cell: XLSX.CellObject | undefined): string {
  if (!cell || cell.v === undefined || cell.v === null) return "";
  if (cell.w !== undefined) return cell.w;
  return String(cell.v);
}

export function openSpreadsheetSource(data: ArrayBuffer | Uint8Array): RowSource {
  const wb = XLSX.read(data, { type: "array", dense: true, cellDates: false });
  const ws = wb.Sheets[wb.SheetNames[0]];
  if (!ws) throw new Error("The workbook has no sheet");
  const grid = (ws as unknown as { "!data"?: (XLSX.CellObject | undefined)[][] })["!data"] ?? [];
  const range = ws["!ref"] ? XLSX.utils.decode_range(ws["!ref"]) : { s: { r: 0, c: 0 }, e: { r: -1, c: -1 } };
  const width = range.e.c + 1;
  const rowText = (r: number): string[] => {
    const row = grid[r] ?? [];
    const out: string[] = new Array(width);
    for (let c = 0; c < width; c++) out[c] = cellText(row[c]);
    return out;
  };
  let r = range.s.r;
  while (r <= range.e.r && isBlankRow(rowText(r))) r++;
  if (r > range.e.r) throw new Error("The sheet has no header row");
  const headers = uniqueHeaders(rowText(r));
  r++;
  let dataRows = 0;
  for (let i = r; i <= range.e.r; i++) if (!isBlankRow(rowText(i))) dataRows++;
  const size = data.byteLength;
  const lastRow = range.e.r;
  return {
    headers,
    async next(max) {
      const out: string[][] = [];
      while (out.length < max && r <= lastRow) {
        const cells = rowText(r++);
        if (!isBlankRow(cells)) out.push(cells);
      }
      return out;
    },
    bytesRead: () => (lastRow < 0 ? size : Math.round((size * Math.min(r, lastRow + 1)) / (lastRow + 1))),
    totalBytes: size,
    totalRows: dataRows,
    encoding: "spreadsheet",
    delimiter: null,
  };
}
