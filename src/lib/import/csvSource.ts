/**
 * Streaming reader for CSV / TSV / delimited .txt: 1 MB byte slices → streaming TextDecoder (the
 * encoding chosen by encoding.ts) → papaparse's incremental Parser. Only one slice and the rows
 * not yet taken are in memory, whatever the file size. Each record's starting line is counted from
 * the line breaks inside the records before it (see lastLines()).
 */
import Papa from "papaparse";
import { createTextDecoder, detectEncoding, type ByteSource } from "./encoding";
import { detectDelimiter, detectNewline } from "./delimiter";
import { isBlankRow, uniqueHeaders, type RowSource } from "./rowSource";

const DEFAULT_SLICE = 1024 * 1024;

/**
 * How many lines a parsed record spans: 1 plus the line breaks (CRLF, LF or CR) inside its fields.
 * With newline "\n" a last field ending in "\r" is the first half of the record's own CRLF; with
 * newline "\r" a first field starting with "\n" is the second half of the previous record's.
 */
export function recordLineCount(record: string[], newline: string): number {
  let lines = 1;
  for (let i = 0; i < record.length; i++) {
    const f = record[i];
    if (f.indexOf("\n") === -1 && f.indexOf("\r") === -1) continue;
    const breaks = f.match(/\r\n?|\n/g);
    lines += breaks ? breaks.length : 0;
    if (newline === "\n" && i === record.length - 1 && f.endsWith("\r")) lines--;
    if (newline === "\r" && i === 0 && f.startsWith("\n")) lines--;
  }
  return lines;
}

/** A line break after some non-blank text (blank lines before a header are not enough to detect on). */
function contentLineEnded(text: string): boolean {
  const start = text.search(/\S/);
  return start !== -1 && text.indexOf("\n", start) !== -1;
}

function countChar(s: string, ch: string, end: number): number {
  let n = 0;
  for (let i = s.indexOf(ch); i !== -1 && i < end; i = s.indexOf(ch, i + 1)) n++;
  return n;
}

/** `text` up to `end` holds no line-break characters but the `records` terminators themselves. */
function onlyTerminators(text: string, end: number, newline: string, records: number): boolean {
  const lf = countChar(text, "\n", end);
  const cr = countChar(text, "\r", end);
  if (newline === "\n") return cr === 0 && lf === records;
  if (newline === "\r") return lf === 0 && cr === records;
  return cr === records && lf === records;
}

export async function openDelimitedSource(
  file: ByteSource,
  opts: { delimiter?: string; sliceSize?: number } = {},
): Promise<RowSource> {
  const SLICE = opts.sliceSize ?? DEFAULT_SLICE;
  const { encoding, bomLength } = await detectEncoding(file);
  const decoder = createTextDecoder(encoding);
  let offset = bomLength;
  let parser: Papa.Parser | null = null;
  let partial = "";
  let baseIndex = 0;
  let finished = false;
  let delimiter = opts.delimiter ?? null;
  let newline: "\r\n" | "\n" | "\r" = "\n";
  let queue: string[][] = [];
  let queueLines: number[] = [];
  let qPos = 0;
  /** the line the next parsed record starts on */
  let line = 1;

  async function pump(): Promise<void> {
    if (finished) return;
    let text = "";
    // Read until a line with content is complete (or the file ends), so detection sees whole lines.
    while (offset < file.size) {
      const end = Math.min(file.size, offset + SLICE);
      text += decoder.decode(new Uint8Array(await file.slice(offset, end).arrayBuffer()), { stream: end < file.size });
      offset = end;
      if (parser || text.length > 65536 || contentLineEnded(text)) break;
    }
    if (offset >= file.size) {
      text += decoder.decode();
      finished = true;
    }
    if (!parser) {
      delimiter = delimiter ?? detectDelimiter(text);
      newline = detectNewline(text);
      parser = new Papa.Parser({ delimiter, newline, quoteChar: '"' });
    }
    let aggregate = partial + text;
    partial = "";
    // A CRLF split between two slices: hold the lone "\r" back so the parser never sees half a line break.
    let held = "";
    if (!finished && aggregate.endsWith("\r")) {
      held = "\r";
      aggregate = aggregate.slice(0, -1);
    }
    const results = parser.parse(aggregate, baseIndex, !finished) as { data: string[][]; meta: { cursor: number } };
    // Before the file ends every record returned was ended by a line break and the text up to the
    // cursor holds exactly those records: as many line breaks as records means none inside one.
    const consumed = results.meta.cursor - baseIndex;
    const oneLineEach = !finished && onlyTerminators(aggregate, consumed, newline, results.data.length);
    if (!finished) {
      partial = aggregate.substring(consumed) + held;
      baseIndex = results.meta.cursor;
    }
    const rows: string[][] = [];
    const lines: number[] = [];
    for (const r of results.data) {
      if (!isBlankRow(r)) {
        rows.push(r);
        lines.push(line);
      }
      line += oneLineEach ? 1 : recordLineCount(r, newline);
    }
    if (qPos >= queue.length) {
      queue = rows;
      queueLines = lines;
    } else {
      queue = queue.slice(qPos).concat(rows);
      queueLines = queueLines.slice(qPos).concat(lines);
    }
    qPos = 0;
  }

  async function take(max: number, lines?: number[]): Promise<string[][]> {
    const out: string[][] = [];
    while (out.length < max) {
      if (qPos >= queue.length) {
        if (finished) break;
        await pump();
        continue;
      }
      const n = Math.min(max - out.length, queue.length - qPos);
      for (let i = 0; i < n; i++) out.push(queue[qPos + i]);
      if (lines) for (let i = 0; i < n; i++) lines.push(queueLines[qPos + i]);
      qPos += n;
    }
    return out;
  }

  const first = await take(1);
  if (first.length === 0) throw new Error("The file has no header row");
  const headers = uniqueHeaders(first[0]);
  // Peek: parse on until the first data row is queued (it stays there for next()) or the file
  // ends, so a header-only file shows totalRows 0 right away without the whole file being read.
  while (qPos >= queue.length && !finished) await pump();
  let rowCount = 0;
  let last: number[] = [];
  return {
    headers,
    async next(max) {
      const lines: number[] = [];
      const rows = await take(max, lines);
      rowCount += rows.length;
      last = lines;
      return rows;
    },
    lastLines: () => last,
    bytesRead: () => Math.min(offset, file.size),
    totalBytes: file.size,
    get totalRows() {
      return finished && qPos >= queue.length ? rowCount : null;
    },
    encoding,
    get delimiter() {
      return delimiter;
    },
  };
}
