/**
 * The client side of an import, shared by the browser wizard and `bench/import.ts`: reads the
 * RowSource in batches, normalises rows, and sends them one atomic `imports.appendBatch` at a time
 * (the next batch is prepared while the previous one is in flight). Memory holds at most two
 * batches. A retried batch is harmless: the server skips a start row it has already applied.
 */
import type { Id } from "@convex/_generated/dataModel";
import { BATCH_LOOKUP_BUDGET, cleanImportRow, plannedLookups, type MatchRule } from "@convex/lib/import/rows";
import type { BatchResult, ImportAttestation, RowOutcome as RowError, StartImportArgs } from "@convex/tables/imports";
import type { ElectionRecord } from "@convex/tables/voters";
import { CREATE_NEW, IGNORE, isHistoryMapping, STANDARD_KEYS, type ColumnMapping, type NewFieldDef } from "./fields";
import type { RowSource } from "./rowSource";
import { BatchSizer, batchRefusal } from "./batchSizer";
import { compileMapping, type ImportRow } from "./transform";

/** The most rows a batch carries (the server's MAX_BATCH_ROWS); batchSizer.ts picks fewer when the server is slower. */
const DEFAULT_BATCH_SIZE = 4_000;
/**
 * Characters of values one batch carries at most, so its arguments stay well within Convex's
 * (a value may hold 10,000 characters; a voter file's row about 400).
 */
export const MAX_BATCH_CHARS = 2 * 1024 * 1024;

/** About how many characters a row's values and their names take in a batch. */
function rowChars(fields: ImportRow["fields"]): number {
  let n = 0;
  for (const [k, v] of Object.entries(fields)) {
    if (typeof v === "string") n += k.length + v.length + 6;
    else if (k === "custom_fields" && v) for (const [ck, cv] of Object.entries(v)) n += ck.length + cv.length + 6;
    else n += k.length + JSON.stringify(v ?? null).length + 4;
  }
  return n;
}
/** Batches sent before the oldest one's result is needed. */
const DEFAULT_PIPELINE = 3;

export type { BatchResult, RowOutcome as RowError } from "@convex/tables/imports";
export type StartArgs = StartImportArgs;
/** An import's id (the server's importHistory document). */
export type ImportId = Id<"importHistory">;

export type ImportTransport = {
  start(args: StartArgs): Promise<ImportId>;
  appendBatch(args: {
    importId: ImportId;
    startRow: number;
    rows: ImportRow[];
    bytesDone?: number;
  }): Promise<BatchResult>;
  finish(args: {
    importId: ImportId;
    totalRecords: number;
    columnStats: { column: string; processed: number; errors: number }[];
  }): Promise<void>;
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

export type ImportProgress = BatchResult & {
  importId: ImportId;
  rowsRead: number;
  bytesRead: number;
  totalBytes: number;
  totalRows: number | null;
  startedAt: number;
};

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
  /** the file's state and permitted use, attested by the admin (the server refuses to start without it) */
  attestation: ImportAttestation;
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

export type RunImportResult = {
  importId: ImportId;
  status: "completed" | "cancelled" | "stopped";
  result: BatchResult;
  rowsRead: number;
};

function startArgs(
  source: RowSource,
  filename: string,
  mapping: ColumnMapping,
  newFields: NewFieldDef[],
  sampleRows: string[][],
  errorMode: "ask" | "ignore",
  attestation: ImportAttestation,
  more: { matchRule?: MatchRule; updateExisting?: boolean; elections?: ElectionRecord[] } = {},
): StartArgs {
  const fieldMapping = source.headers.map((h) => ({
    column: h,
    target: mapping[h] && mapping[h] !== CREATE_NEW ? mapping[h] : IGNORE,
  }));
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
    attestation,
  };
}

export async function runImport(o: RunImportOptions): Promise<RunImportResult> {
  const sizer = new BatchSizer(o.batchSize ?? DEFAULT_BATCH_SIZE);
  const control = o.control ?? new ImportControl();
  const newFields = o.newFields ?? [];
  const { build, stats, elections } = compileMapping(o.source.headers, o.mapping, newFields);
  const historyOnly = isHistoryMapping(o.mapping);
  const importId =
    o.resume?.importId ??
    (await o.transport.start(
      startArgs(o.source, o.filename, o.mapping, newFields, o.sampleRows ?? [], o.errorMode ?? "ask", o.attestation, {
        matchRule: o.matchRule,
        updateExisting: o.updateExisting,
        elections,
      }),
    ));
  o.onStarted?.(importId);
  const startedAt = Date.now();
  const skipBelow = o.resume?.nextRow ?? 1;
  const ignored = new Set<string>();
  /** ask mode: rows the user already decided about (a batch sent again does not ask twice) */
  const decided = new Set<number>();
  let rowNo = 0;
  let errorMode = o.errorMode ?? "ask";
  let last: BatchResult = {
    applied: false,
    nextRow: skipBelow,
    processed: 0,
    imported: 0,
    duplicates: 0,
    failed: 0,
    updated: 0,
    errors: [],
  };

  // Rows read and not yet sent, each with the file's bytes read once it was (the progress bar).
  type Held = { row: ImportRow; bytes: number; lookups: number; chars: number };
  const buffer: Held[] = [];
  let sourceDone = false;
  // A resumed import may have been started with either rule: count a row as the costlier one does.
  const lookupsOf = (fields: ImportRow["fields"]) =>
    o.resume && !o.matchRule
      ? Math.max(plannedLookups(fields, "standard", historyOnly), plannedLookups(fields, "name", historyOnly))
      : plannedLookups(fields, o.matchRule ?? "standard", historyOnly);
  /** The next batch: up to `size` rows, fewer when their lookups or characters would pass a batch's budget. */
  const take = (size: number): Held[] => {
    let lookups = 0;
    let chars = 0;
    let n = 0;
    while (n < Math.min(size, buffer.length)) {
      lookups += buffer[n].lookups;
      chars += buffer[n].chars;
      if (n > 0 && (lookups > BATCH_LOOKUP_BUDGET || chars > MAX_BATCH_CHARS)) break;
      n++;
    }
    return buffer.splice(0, n);
  };
  const fill = async (n: number) => {
    while (!sourceDone && buffer.length < n) {
      const raw = await o.source.next(n - buffer.length);
      if (raw.length === 0) {
        sourceDone = true;
        return;
      }
      const lines = o.source.lastLines();
      const bytes = o.source.bytesRead();
      for (let i = 0; i < raw.length; i++) {
        rowNo++;
        const fields = build(raw[i]);
        if (rowNo >= skipBelow)
          buffer.push({
            row: { row: rowNo, line: lines[i] ?? rowNo + 1, fields },
            bytes,
            lookups: lookupsOf(fields),
            chars: rowChars(fields),
          });
      }
    }
  };

  try {
    // Three batches in flight: the server applies one client's mutations in order, so batch N+1
    // waits behind N there (and is refused if N did not apply); it runs while N is being stored
    // and N+2 is already on its way, so neither the server nor the browser waits for the other.
    // In ask mode one at a time, and a batch is cut before a row that will fail: the rows before
    // it are stored, then the question is asked, so "Stop Import" keeps exactly those rows.
    const asking = errorMode === "ask" && o.onRowError !== undefined;
    const depth = asking ? 1 : Math.max(1, o.pipeline ?? DEFAULT_PIPELINE);
    const inflight: { result: Promise<BatchResult>; held: Held[]; sentAt: number }[] = [];
    /** when the server finished the previous batch: a pipelined batch starts there, not when sent */
    let lastDone = 0;
    const send = (held: Held[]) => {
      const rows = held.map((h) => h.row);
      const result = o.transport.appendBatch({
        importId,
        startRow: rows[0].row,
        rows,
        bytesDone: held[held.length - 1].bytes,
      });
      // Observed by settle/drain; avoid an unhandled rejection while it waits its turn.
      result.catch(() => undefined);
      inflight.push({ result, held, sentAt: performance.now() });
    };
    /**
     * Waits for the oldest batch. One refused for its size (out of time, or over a transaction
     * limit) stored nothing, and the batches sent after it were refused for the gap: their rows go
     * back to the front of the buffer, to be sent again in smaller batches. Returns how many rows
     * went back (0: the batch was stored).
     */
    const settle = async (): Promise<number> => {
      const head = inflight.shift()!;
      try {
        last = await head.result;
      } catch (error) {
        const refusal = batchRefusal(error);
        if (!refusal || !sizer.shrink(head.held.length, refusal)) throw error;
        const later = inflight.splice(0);
        for (const b of later) {
          const stored = await b.result.then(
            (r) => r.applied,
            () => false,
          );
          if (stored) throw error; // cannot happen: the server refuses a batch after a gap
        }
        const again = [head, ...later].flatMap((b) => b.held);
        buffer.unshift(...again);
        lastDone = performance.now();
        return again.length;
      }
      const done = performance.now();
      sizer.observe(head.held.length, done - Math.max(head.sentAt, lastDone));
      lastDone = done;
      o.onProgress?.({
        ...last,
        importId,
        rowsRead: rowNo,
        bytesRead: head.held[head.held.length - 1].bytes,
        totalBytes: o.source.totalBytes,
        totalRows: o.source.totalRows,
        startedAt,
      });
      return 0;
    };
    const drain = async () => {
      // A stop or cancel still lets the batches already sent finish, so the counts are exact.
      while (inflight.length > 0) last = await inflight.shift()!.result;
    };
    /** Ask mode: sends the batch in pieces around the rows that fail; false when the user stops. */
    const sendAsking = async (held: Held[]): Promise<boolean> => {
      let from = 0;
      const piece = async (to: number) => {
        send(held.slice(from, to));
        const back = await settle();
        // sent again later, after the rows that went back, with the rest of this batch
        if (back > 0) buffer.splice(back, 0, ...held.slice(to));
        return back === 0;
      };
      for (let i = 0; i < held.length; i++) {
        const { row, line, fields } = held[i].row;
        if (decided.has(row)) continue;
        const problem = cleanImportRow(fields, { historyOnly });
        if (typeof problem !== "string" || ignored.has(problem)) continue;
        if (i > from && !(await piece(i))) return true;
        const decision = await o.onRowError!({
          row: line ?? row,
          first_name: fields.first_name,
          last_name: fields.last_name,
          email: fields.email ?? "",
          message: problem,
        });
        if (decision === "stop") return false;
        decided.add(row);
        if (decision === "ignore_similar") ignored.add(problem);
        // the failing row goes with the next piece: the server records it as not imported
        from = i;
      }
      if (from < held.length) await piece(held.length);
      return true;
    };
    /** every row of the file read and sent */
    const end = () => sourceDone && buffer.length === 0;
    let filling = fill(sizer.size);
    for (;;) {
      await filling;
      await fill(sizer.size);
      await control.checkpoint();
      if (control.cancelled) {
        await drain();
        return { importId, status: "cancelled", result: last, rowsRead: rowNo };
      }
      const held = take(sizer.size);
      // read the next batch while this one is on its way
      filling = fill(sizer.size);
      if (held.length > 0 && asking) {
        if (!(await sendAsking(held))) {
          await drain();
          return { importId, status: "stopped", result: last, rowsRead: rowNo };
        }
      } else if (held.length > 0) send(held);
      while (inflight.length >= depth || (end() && inflight.length > 0)) await settle();
      if (end() && inflight.length === 0) {
        await filling;
        if (end()) break;
      }
    }
    await o.transport.finish({
      importId,
      totalRecords: rowNo,
      columnStats: [...stats].map(([column, s]) => ({ column, processed: s.processed, errors: s.errors })),
    });
    return { importId, status: "completed", result: last, rowsRead: rowNo };
  } catch (error) {
    await o.transport
      .fail({ importId, error: error instanceof Error ? error.message : String(error) })
      .catch(() => undefined);
    throw error;
  } finally {
    errorMode = "ignore";
  }
}
