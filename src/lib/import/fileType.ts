/** Which files the wizard accepts (spec/1 §5, plus tab-delimited exports) and the spec's messages. */

export type FileKind = "delimited" | "spreadsheet";

export const INVALID_FILE_TYPE = { title: "Invalid file type", description: "Please upload a CSV or Excel file." };
export const PARSE_ERROR = {
  title: "Error parsing file",
  description: "There was an error reading your file. Please check the format.",
};
/** The title of the error for a file with a header row and nothing below it. */
export const NO_DATA_ROWS = "No data rows found";
export const NO_DATA_ROWS_ERROR = {
  title: NO_DATA_ROWS,
  description: "The file has a header row but no data rows. Add rows below the header and try again.",
};
export const ACCEPT =
  ".csv,.tsv,.txt,.xls,.xlsx,text/csv,text/tab-separated-values,application/vnd.ms-excel,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

const SPREADSHEET_TYPES = new Set([
  "application/vnd.ms-excel",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
]);

export function fileKind(name: string, mime = ""): FileKind | null {
  const ext = name.toLowerCase().split(".").pop() ?? "";
  if (ext === "xls" || ext === "xlsx") return "spreadsheet";
  if (ext === "csv" || ext === "tsv" || ext === "txt") return "delimited";
  if (SPREADSHEET_TYPES.has(mime)) return "spreadsheet";
  if (mime === "text/csv" || mime === "text/tab-separated-values") return "delimited";
  return null;
}
