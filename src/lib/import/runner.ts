/**
 * The client side of an import, shared by the browser wizard and `bench/import.ts`: reads the
 * RowSource in batches, normalises rows, and sends them one atomic `imports.appendBatch` at a time
 * (the next batch is prepared while the previous one is in flight). Memory holds at most two
 * batches. A retried batch is harmless: the server skips a start row it has already applied.
 */
import type { Id } from "@convex/_generated/dataModel";
import { cleanImportRow, type MatchRule } from "@convex/lib/importRows";
import type { BatchResult, RowOutcome as RowError, StartImportArgs } from "@convex/tables/imports";
import type { ElectionRecord } from "@convex/tables/voters";
import { CREATE_NEW, IGNORE, isHistoryMapping, STANDARD_KEYS, type ColumnMapping, type NewFieldDef } from "./fields";
import type { RowSource } from "./rowSource";
import { compileMapping, type ImportRow } from "./transform";

export const DEFAULT_BATCH_SIZE = 1_000;
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
  /** "Match existing records by" (default: the standard rule) */
  matchRule?: MatchRule;
  /** apply changed fields to matched voters, recorded in their history */
  updateExisting?: boolean;
  batchSize?: number;
  /** batches in flight at once (default DEFAULT_PIPELINE) */
  pipeline?: number;
  /** resume an interrupted import: rows below nextRow are read but not sent again */
  resume?: { importId: ImportId; nextRow: number };
  control?: ImportControl;
  onStarted?(importId: ImportId): void;
  onProgress?(p: ImportProgress): void;
  /**
   * Ask mode: a row that will fail, before it is sent (every row is checked by the server's own
   * rules first), unless its kind of error was ignored; rows before it are already stored.
   */
  onRowError?(error: RowError): Promise<ErrorDecision>;
};

export type RunImportResult = { importId: ImportId; status: "completed" | "cancelled" | "stopped"; result: BatchResult; rowsRead: number };

export function startArgs(
  source: RowSource,
  filename: string,
  mapping: ColumnMapping,
  newFields: NewFieldDef[],
  sampleRows: string[][],
  errorMode: "ask" | "ignore",
  more: { matchRule?: MatchRule; updateExisting?: boolean; elections?: ElectionRecord[] } = {},
): StartArgs {
  const fieldMapping = source.headers.map((h) => ({ column: h, target: mapping[h] && mapping[h] !== CREATE_NEW ? mapping[h] : IGNORE }));
  const history = isHistoryMapping(mapping);
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
    kind: history ? "history" : "voters",
    matchRule: more.matchRule ?? "standard",
    updateExisting: history ? true : (more.updateExisting ?? false),
    ...(more.elections && more.elections.length > 0 ? { elections: more.elections } : {}),
  };
}

export async function runImport(o: RunImportOptions): Promise<RunImportResult> {
  const batchSize = o.batchSize ?? DEFAULT_BATCH_SIZE;
  const control = o.control ?? new ImportControl();
  const newFields = o.newFields ?? [];
  const { build, stats, elections } = compileMapping(o.source.headers, o.mapping, newFields);
  const historyOnly = isHistoryMapping(o.mapping);
  const importId =
    o.resume?.importId ??
    (await o.transport.start(
      startArgs(o.source, o.filename, o.mapping, newFields, o.sampleRows ?? [], o.errorMode ?? "ask", { matchRule: o.matchRule, updateExisting: o.updateExisting, elections }),
    ));
  o.onStarted?.(importId);
  const startedAt = Date.now();
  const skipBelow = o.resume?.nextRow ?? 1;
  const ignored = new Set<string>();
  let rowNo = 0;
  let errorMode = o.errorMode ?? "ask";
  let last: BatchResult = { applied: false, nextRow: skipBelow, processed: 0, imported: 0, duplicates: 0, failed: 0, updated: 0, errors: [] };

  const readBatch = async (): Promise<{ rows: ImportRow[]; done: boolean; bytes: number }> => {
    const rows: ImportRow[] = [];
    while (rows.length < batchSize) {
      const raw = await o.source.next(batchSize - rows.length);
      if (raw.length === 0) return { rows, done: true, bytes: o.source.bytesRead() };
      const lines = o.source.lastLines();
      for (let i = 0; i < raw.length; i++) {
        rowNo++;
        const fields = build(raw[i]);
        if (rowNo >= skipBelow) rows.push({ row: rowNo, line: lines[i] ?? rowNo + 1, fields });
      }
    }
    return { rows, done: false, bytes: o.source.bytesRead() };
  };

  try {
    // Three batches in flight: the server applies one client's mutations in order, so batch N+1
    // waits behind N there (and is refused if N did not apply); it runs while N is being stored
    // and N+2 is already on its way, so neither the server nor the browser waits for the other.
    // In ask mode one at a time, and a batch is cut before a row that will fail: the rows before
    // it are stored, then the question is asked, so "Stop Import" keeps exactly those rows.
    const asking = errorMode === "ask" && o.onRowError !== undefined;
    const depth = asking ? 1 : Math.max(1, o.pipeline ?? DEFAULT_PIPELINE);
    const inflight: { result: Promise<BatchResult>; bytes: number }[] = [];
    const send = (rows: ImportRow[], bytes: number) => {
      const result = o.transport.appendBatch({ importId, startRow: rows[0].row, rows, bytesDone: bytes });
      // Observed by settle/drain; avoid an unhandled rejection while it waits its turn.
      result.catch(() => undefined);
      inflight.push({ result, bytes });
    };
    const settle = async () => {
      const head = inflight.shift()!;
      last = await head.result;
      o.onProgress?.({ ...last, importId, rowsRead: rowNo, bytesRead: head.bytes, totalBytes: o.source.totalBytes, totalRows: o.source.totalRows, startedAt });
    };
    const drain = async () => {
      // A stop or cancel still lets the batches already sent finish, so the counts are exact.
      while (inflight.length > 0) last = await inflight.shift()!.result;
    };
    /** Ask mode: sends the batch in pieces around the rows that fail; false when the user stops. */
    const sendAsking = async (rows: ImportRow[], bytes: number): Promise<boolean> => {
      let from = 0;
      for (let i = 0; i < rows.length; i++) {
        const problem = cleanImportRow(rows[i].fields, { historyOnly });
        if (typeof problem !== "string" || ignored.has(problem)) continue;
        if (i > from) {
          send(rows.slice(from, i), bytes);
          await settle();
        }
        const f = rows[i].fields;
        const decision = await o.onRowError!({ row: rows[i].line, first_name: f.first_name, last_name: f.last_name, email: f.email ?? "", message: problem });
        if (decision === "stop") return false;
        if (decision === "ignore_similar") ignored.add(problem);
        // the failing row goes with the next piece: the server records it as not imported
        from = i;
      }
      if (from < rows.length) {
        send(rows.slice(from), bytes);
        await settle();
      }
      return true;
    };
    let next = readBatch();
    for (;;) {
      const batch = await next;
      await control.checkpoint();
      if (control.cancelled) {
        await drain();
        return { importId, status: "cancelled", result: last, rowsRead: rowNo };
      }
      if (!batch.done) next = readBatch();
      if (batch.rows.length > 0 && asking) {
        if (!(await sendAsking(batch.rows, batch.bytes))) {
          await drain();
          return { importId, status: "stopped", result: last, rowsRead: rowNo };
        }
      } else if (batch.rows.length > 0) send(batch.rows, batch.bytes);
      while (inflight.length >= depth || (batch.done && inflight.length > 0)) await settle();
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
