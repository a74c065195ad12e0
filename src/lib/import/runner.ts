/**
 * The client side of an import, shared by the browser wizard and `bench/import.ts`: reads the
 * RowSource in batches, normalises rows, and sends them one atomic `imports.appendBatch` at a time
 * (the next batch is prepared while the previous one is in flight). Memory holds at most two
 * batches. A retried batch is harmless: the server skips a start row it has already applied.
 */
import type { Id } from "@convex/_generated/dataModel";
import type { BatchResult, RowOutcome as RowError, StartImportArgs } from "@convex/tables/imports";
import { CREATE_NEW, IGNORE, STANDARD_KEYS, type ColumnMapping, type NewFieldDef } from "./fields";
import type { RowSource } from "./rowSource";
import { compileMapping, type ImportRow } from "./transform";

export const DEFAULT_BATCH_SIZE = 2_000;
/** Batches sent before the oldest one's result is needed. */
export const DEFAULT_PIPELINE = 3;

export type { BatchResult, RowOutcome as RowError } from "@convex/tables/imports";
export type StartArgs = StartImportArgs;
/** An import's id (the server's importHistory document). */
export type ImportId = Id<"importHistory">;

export type ImportTransport = {
  start(args: StartArgs): Promise<ImportId>;
  appendBatch(args: { importId: ImportId; startRow: number; rows: ImportRow[]; bytesDone?: number }): Promise<BatchResult>;
  finish(args: { importId: ImportId; totalRecords: number; columnStats: { column: string; processed: number; errors: number }[] }): Promise<void>;
  fail(args: { importId: ImportId; error: string }): Promise<void>;
};

/** Pause / cancel from the progress panel; the runner checks it between batches. */
export class ImportControl {
  paused = false;
  cancelled = false;
  private waiters: (() => void)[] = [];
  pause() {
    this.paused = true;
  }
  resume() {
    this.paused = false;
    this.waiters.splice(0).forEach((w) => w());
  }
  cancel() {
    this.cancelled = true;
    this.resume();
  }
  async checkpoint() {
    while (this.paused && !this.cancelled) await new Promise<void>((r) => this.waiters.push(r));
  }
}

export type ErrorDecision = "skip" | "ignore_similar" | "stop";

export type ImportProgress = BatchResult & { importId: ImportId; rowsRead: number; bytesRead: number; totalBytes: number; totalRows: number | null; startedAt: number };

export type RunImportOptions = {
  source: RowSource;
  transport: ImportTransport;
  filename: string;
  mapping: ColumnMapping;
  newFields?: NewFieldDef[];
  sampleRows?: string[][];
  errorMode?: "ask" | "ignore";
  batchSize?: number;
  /** batches in flight at once (default DEFAULT_PIPELINE) */
  pipeline?: number;
  /** resume an interrupted import: rows below nextRow are read but not sent again */
  resume?: { importId: ImportId; nextRow: number };
  control?: ImportControl;
  onStarted?(importId: ImportId): void;
  onProgress?(p: ImportProgress): void;
  /** ask mode: the first row error of a batch whose message was not ignored yet */
  onRowError?(error: RowError): Promise<ErrorDecision>;
};

export type RunImportResult = { importId: ImportId; status: "completed" | "cancelled" | "stopped"; result: BatchResult; rowsRead: number };

export function startArgs(source: RowSource, filename: string, mapping: ColumnMapping, newFields: NewFieldDef[], sampleRows: string[][], errorMode: "ask" | "ignore"): StartArgs {
  const fieldMapping = source.headers.map((h) => ({ column: h, target: mapping[h] && mapping[h] !== CREATE_NEW ? mapping[h] : IGNORE }));
  return {
    filename,
    totalRecords: source.totalRows,
    bytesTotal: source.totalBytes,
    fieldMapping,
    newFields: newFields.filter((f) => fieldMapping.some((m) => m.target === f.key)),
    fieldDetails: fieldMapping.map((m, i) => ({
      column: m.column,
      target: m.target,
      fieldType: m.target === IGNORE ? "ignored" : STANDARD_KEYS.has(m.target) ? "existing" : "new",
      sample: sampleRows.slice(0, 3).map((r) => String(r[i] ?? "").trim()),
    })),
    errorMode,
  };
}

export async function runImport(o: RunImportOptions): Promise<RunImportResult> {
  const batchSize = o.batchSize ?? DEFAULT_BATCH_SIZE;
  const control = o.control ?? new ImportControl();
  const newFields = o.newFields ?? [];
  const { build, stats } = compileMapping(o.source.headers, o.mapping, newFields);
  const importId = o.resume?.importId ?? (await o.transport.start(startArgs(o.source, o.filename, o.mapping, newFields, o.sampleRows ?? [], o.errorMode ?? "ask")));
  o.onStarted?.(importId);
  const startedAt = Date.now();
  const skipBelow = o.resume?.nextRow ?? 1;
  const ignored = new Set<string>();
  let rowNo = 0;
  let errorMode = o.errorMode ?? "ask";
  let last: BatchResult = { applied: false, nextRow: skipBelow, processed: 0, imported: 0, duplicates: 0, failed: 0, errors: [] };

  const readBatch = async (): Promise<{ rows: ImportRow[]; done: boolean; bytes: number }> => {
    const rows: ImportRow[] = [];
    while (rows.length < batchSize) {
      const raw = await o.source.next(batchSize - rows.length);
      if (raw.length === 0) return { rows, done: true, bytes: o.source.bytesRead() };
      for (const cells of raw) {
        rowNo++;
        const fields = build(cells);
        if (rowNo >= skipBelow) rows.push({ row: rowNo, fields });
      }
    }
    return { rows, done: false, bytes: o.source.bytesRead() };
  };

  try {
    // Three batches in flight: the server applies one client's mutations in order, so batch N+1
    // waits behind N there (and is refused if N did not apply); it runs while N is being stored
    // and N+2 is already on its way, so neither the server nor the browser waits for the other.
    // In ask mode one at a time, so "stop import" stops at the batch whose error was shown.
    const asking = errorMode === "ask" && o.onRowError !== undefined;
    const depth = asking ? 1 : Math.max(1, o.pipeline ?? DEFAULT_PIPELINE);
    const inflight: { result: Promise<BatchResult>; bytes: number }[] = [];
    const settle = async (): Promise<"stop" | null> => {
      const head = inflight.shift()!;
      last = await head.result;
      o.onProgress?.({ ...last, importId, rowsRead: rowNo, bytesRead: head.bytes, totalBytes: o.source.totalBytes, totalRows: o.source.totalRows, startedAt });
      if (errorMode === "ask" && o.onRowError) {
        const first = last.errors.find((e) => !ignored.has(e.message));
        if (first) {
          const decision = await o.onRowError(first);
          if (decision === "stop") return "stop";
          if (decision === "ignore_similar") for (const e of last.errors) ignored.add(e.message);
        }
      }
      return null;
    };
    const drain = async () => {
      // A stop or cancel still lets the batches already sent finish, so the counts are exact.
      while (inflight.length > 0) last = await inflight.shift()!.result;
    };
    let next = readBatch();
    for (;;) {
      const batch = await next;
      await control.checkpoint();
      if (control.cancelled) {
        await drain();
        return { importId, status: "cancelled", result: last, rowsRead: rowNo };
      }
      if (batch.rows.length > 0) {
        const result = o.transport.appendBatch({ importId, startRow: batch.rows[0].row, rows: batch.rows, bytesDone: batch.bytes });
        // Observed by settle/drain; avoid an unhandled rejection while it waits its turn.
        result.catch(() => undefined);
        inflight.push({ result, bytes: batch.bytes });
      }
      if (!batch.done) next = readBatch();
      while (inflight.length >= depth || (batch.done && inflight.length > 0)) {
        if ((await settle()) === "stop") {
          await drain();
          return { importId, status: "stopped", result: last, rowsRead: rowNo };
        }
      }
      if (batch.done) break;
    }
    await o.transport.finish({
      importId,
      totalRecords: rowNo,
      columnStats: [...stats].map(([column, s]) => ({ column, processed: s.processed, errors: s.errors })),
    });
    return { importId, status: "completed", result: last, rowsRead: rowNo };
  } catch (error) {
    await o.transport.fail({ importId, error: error instanceof Error ? error.message : String(error) }).catch(() => undefined);
    throw error;
  } finally {
    errorMode = "ignore";
  }
}
