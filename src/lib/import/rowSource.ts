/** A pull-based stream of raw rows: the wizard, the importer and the benchmark all read files through it. */
import type { TextEncodingName } from "./encoding";

export type RowSource = {
  headers: string[];
  /** Up to `max` further data rows (header excluded, empty rows dropped); an empty array at the end. */
  next(max: number): Promise<string[][]>;
  /**
   * The 1-based line numbers in the file of exactly the rows the most recent next() returned, in
   * the same order: for delimited text the line where the record starts (blank lines and the
   * header count; a quoted field with line breaks makes a record span several lines), for a
   * spreadsheet the sheet's row number. Empty before the first next().
   */
  lastLines(): number[];
  /** bytes consumed so far / file size: progress and ETA while the row total is unknown */
  bytesRead(): number;
  totalBytes: number;
  /**
   * Known up front for spreadsheets; counted at the end for delimited text. Both sources look for
   * the first data row when they open, so 0 right after opening means "header only".
   */
  totalRows: number | null;
  encoding: TextEncodingName | "spreadsheet";
  delimiter: string | null;
};

export function isBlankRow(cells: string[]): boolean {
  for (const c of cells) if (c !== undefined && c !== null && String(c).trim() !== "") return false;
  return true;
}

/** Headers as column identities: blanks become "Column N", repeats get " (2)", " (3)" … */
export function uniqueHeaders(raw: string[]): string[] {
  const seen = new Map<string, number>();
  return raw.map((h, i) => {
    const base = String(h ?? "").trim() || `Column ${i + 1}`;
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return n === 1 ? base : `${base} (${n})`;
  });
}
