/** Opens a File (browser) or file-backed Blob (Node) as a RowSource; spec errors on failure. */
import type { ByteSource } from "./encoding";
import { fileKind, INVALID_FILE_TYPE, PARSE_ERROR } from "./fileType";
import type { RowSource } from "./rowSource";

export class ImportFileError extends Error {
  constructor(public title: string, public description: string) {
    super(`${title}: ${description}`);
  }
}

export async function openImportFile(file: ByteSource & { name: string; type?: string }): Promise<RowSource> {
  const kind = fileKind(file.name, file.type);
  if (!kind) throw new ImportFileError(INVALID_FILE_TYPE.title, INVALID_FILE_TYPE.description);
  try {
    if (kind === "spreadsheet") {
      const { openSpreadsheetSource } = await import("./spreadsheetSource");
      const bytes = new Uint8Array(await file.slice(0, file.size).arrayBuffer());
      if (!looksLikeWorkbook(bytes)) throw new Error("not a workbook");
      return openSpreadsheetSource(bytes);
    }
    const { openDelimitedSource } = await import("./csvSource");
    return await openDelimitedSource(file);
  } catch {
    throw new ImportFileError(PARSE_ERROR.title, PARSE_ERROR.description);
  }
}

/** .xlsx is a zip (PK), .xls an OLE2 compound file, or the XML / HTML that Excel also saves as .xls. */
export function looksLikeWorkbook(bytes: Uint8Array): boolean {
  if (bytes[0] === 0x50 && bytes[1] === 0x4b) return true;
  if (bytes[0] === 0xd0 && bytes[1] === 0xcf && bytes[2] === 0x11 && bytes[3] === 0xe0) return true;
  const head = new TextDecoder().decode(bytes.subarray(0, 512)).replace(/^\uFEFF/, "").trimStart();
  return head.startsWith("<");
}
