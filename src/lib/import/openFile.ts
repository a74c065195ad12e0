/** Opens a File (browser) or file-backed Blob (Node) as a RowSource; spec errors on failure. */
import { bomEncoding, type ByteSource } from "./encoding";
import { fileKind, INVALID_FILE_TYPE, NO_DATA_ROWS_ERROR, PARSE_ERROR } from "./fileType";
import type { RowSource } from "./rowSource";

export class ImportFileError extends Error {
  constructor(
    public title: string,
    public description: string,
  ) {
    super(`${title}: ${description}`);
  }
}

/** How much of a delimited file is looked at to tell text from a renamed binary. */
const SNIFF_BYTES = 64 * 1024;

/**
 * Refusals, in order: an extension we do not read (INVALID_FILE_TYPE); a file that cannot be read
 * as its kind, including a binary file (image, zip, …) renamed .csv/.tsv/.txt (PARSE_ERROR, before
 * any row is read); a header row with no data rows below it (NO_DATA_ROWS). For delimited text the
 * source has already parsed up to the first data row, which it keeps for next().
 */
export async function openImportFile(file: ByteSource & { name: string; type?: string }): Promise<RowSource> {
  const kind = fileKind(file.name, file.type);
  if (!kind) throw new ImportFileError(INVALID_FILE_TYPE.title, INVALID_FILE_TYPE.description);
  let source: RowSource;
  try {
    if (kind === "spreadsheet") {
      const { openSpreadsheetSource } = await import("./spreadsheetSource");
      const bytes = new Uint8Array(await file.slice(0, file.size).arrayBuffer());
      if (!looksLikeWorkbook(bytes)) throw new Error("not a workbook");
      source = openSpreadsheetSource(bytes);
    } else {
      const head = new Uint8Array(await file.slice(0, Math.min(file.size, SNIFF_BYTES)).arrayBuffer());
      if (looksLikeBinary(head)) throw new Error("not text");
      const { openDelimitedSource } = await import("./csvSource");
      source = await openDelimitedSource(file);
    }
  } catch {
    throw new ImportFileError(PARSE_ERROR.title, PARSE_ERROR.description);
  }
  if (source.totalRows === 0) throw new ImportFileError(NO_DATA_ROWS_ERROR.title, NO_DATA_ROWS_ERROR.description);
  return source;
}

/** .xlsx is a zip (PK), .xls an OLE2 compound file, or the XML / HTML that Excel also saves as .xls. */
function looksLikeWorkbook(bytes: Uint8Array): boolean {
  if (bytes[0] === 0x50 && bytes[1] === 0x4b) return true;
  if (bytes[0] === 0xd0 && bytes[1] === 0xcf && bytes[2] === 0x11 && bytes[3] === 0xe0) return true;
  const head = new TextDecoder()
    .decode(bytes.subarray(0, 512))
    .replace(/^\uFEFF/, "")
    .trimStart();
  return head.startsWith("<");
}

/** Share of control characters (other than tab, LF, CR) above which the bytes are not text. */
const MAX_CONTROL_SHARE = 0.1;

const isControl = (c: number) => (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || c === 0x7f;

/**
 * The start of a file is binary, not text: a NUL, or more than 10% control characters. UTF-16
 * (with its BOM) is judged on the decoded characters, since half its bytes are NUL.
 */
export function looksLikeBinary(head: Uint8Array): boolean {
  const bom = bomEncoding(head);
  if (bom && bom.encoding !== "utf-8") {
    const body = head.subarray(bom.bomLength, bom.bomLength + ((head.length - bom.bomLength) & ~1));
    const text = new TextDecoder(bom.encoding).decode(body);
    let controls = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 0) return true;
      if (isControl(c)) controls++;
    }
    return controls > text.length * MAX_CONTROL_SHARE;
  }
  let controls = 0;
  for (let i = 0; i < head.length; i++) {
    const c = head[i];
    if (c === 0) return true;
    if (isControl(c)) controls++;
  }
  return controls > head.length * MAX_CONTROL_SHARE;
}
