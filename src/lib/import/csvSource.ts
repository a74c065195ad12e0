/**
 * Streaming reader for CSV / TSV / delimited .txt: 1 MB byte slices → streaming TextDecoder (the
 * encoding chosen by encoding.ts) → papaparse's incremental Parser. Only one slice and the rows
 * not yet taken are in memory, whatever the file size.
 */
import Papa from "papaparse";
import { createTextDecoder, detectEncoding, type ByteSource } from "./encoding";
import { detectDelimiter, detectNewline } from "./delimiter";
import { isBlankRow, uniqueHeaders, type RowSource } from "./rowSource";

const DEFAULT_SLICE = 1024 * 1024;

export async function openDelimitedSource(file: ByteSource, opts: { delimiter?: string; sliceSize?: number } = {}): Promise<RowSource> {
  const SLICE = opts.sliceSize ?? DEFAULT_SLICE;
  const { encoding, bomLength } = await detectEncoding(file);
  const decoder = createTextDecoder(encoding);
  let offset = bomLength;
  let parser: Papa.Parser | null = null;
  let partial = "";
  let baseIndex = 0;
  let finished = false;
  let delimiter = opts.delimiter ?? null;
  let queue: string[][] = [];
  let qPos = 0;

  async function pump(): Promise<void> {
    if (finished) return;
    let text = "";
    // Read until at least one line break arrives (or the file ends), so detection sees whole lines.
    while (offset < file.size) {
      const end = Math.min(file.size, offset + SLICE);
      text += decoder.decode(new Uint8Array(await file.slice(offset, end).arrayBuffer()), { stream: end < file.size });
      offset = end;
      if (parser || text.includes("\n") || text.length > 65536) break;
    }
    if (offset >= file.size) {
      text += decoder.decode();
      finished = true;
    }
    if (!parser) {
      delimiter = delimiter ?? detectDelimiter(text);
      parser = new Papa.Parser({ delimiter, newline: detectNewline(text), quoteChar: '"' });
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
    if (!finished) {
      partial = aggregate.substring(results.meta.cursor - baseIndex) + held;
      baseIndex = results.meta.cursor;
    }
    const rows = results.data.filter((r) => !isBlankRow(r));
    if (qPos >= queue.length) {
      queue = rows;
      qPos = 0;
    } else {
      queue = queue.slice(qPos).concat(rows);
      qPos = 0;
    }
  }

  async function take(max: number): Promise<string[][]> {
    const out: string[][] = [];
    while (out.length < max) {
      if (qPos >= queue.length) {
        if (finished) break;
        await pump();
        continue;
      }
      const n = Math.min(max - out.length, queue.length - qPos);
      for (let i = 0; i < n; i++) out.push(queue[qPos + i]);
      qPos += n;
    }
    return out;
  }

  const first = await take(1);
  if (first.length === 0) throw new Error("The file has no header row");
  const headers = uniqueHeaders(first[0]);
  let rowCount = 0;
  return {
    headers,
    async next(max) {
      const rows = await take(max);
      rowCount += rows.length;
      return rows;
    },
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
