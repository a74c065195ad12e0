/**
 * What one transaction (a query or mutation with its nested calls) read, wrote and scheduled,
 * checked against Convex's limits as it goes: documents and bytes scanned, disjoint index ranges
 * read, documents and bytes written, functions scheduled and their argument bytes. The counting
 * follows the backend: system tables (`_storage`, `_scheduled_functions`) do not count toward
 * documents and bytes; ranges are merged per index like Convex's read set (overlapping or
 * adjacent ranges count once); a write counts before it is checked, so once over a limit every
 * further write fails too. Also the engine-wide maxima per transaction (`TransactionStats`).
 */
import { CONVEX_LIMITS, LimitError, messages, type TransactionLimits } from "./limits.js";

/** What one transaction has used of each counted limit (all but the execution time). */
export type TransactionUsage = Omit<TransactionLimits, "executionTimeMs">;

/** `ctx.meta.getTransactionMetrics()`: used and remaining per limit. */
export type TransactionMetricsJson = { [K in keyof TransactionUsage]: { used: number; remaining: number } };

type Interval = { lo: Buffer; hi: Buffer };

/** Disjoint [lo, hi) key ranges per index, merged when they overlap or touch (Convex's IntervalSet). */
class IntervalCounter {
  private readonly byIndex = new Map<number, Interval[]>();

  /** Adds [lo, hi) to the index's set; returns how the number of intervals in it changed. */
  add(indexId: number, lo: Buffer, hi: Buffer): number {
    if (Buffer.compare(lo, hi) >= 0) return 0;
    let list = this.byIndex.get(indexId);
    if (!list) this.byIndex.set(indexId, (list = []));
    // first interval whose end reaches lo (ends are ascending: the intervals are disjoint)
    let a = 0;
    let b = list.length;
    while (a < b) {
      const m = (a + b) >>> 1;
      if (Buffer.compare(list[m].hi, lo) < 0) a = m + 1;
      else b = m;
    }
    let end = a;
    let mlo = lo;
    let mhi = hi;
    while (end < list.length && Buffer.compare(list[end].lo, hi) <= 0) {
      if (Buffer.compare(list[end].lo, mlo) < 0) mlo = list[end].lo;
      if (Buffer.compare(list[end].hi, mhi) > 0) mhi = list[end].hi;
      end++;
    }
    list.splice(a, end - a, { lo: mlo, hi: mhi });
    return 1 - (end - a);
  }
}

/** An index range being read whose covered part grows row by row (an index stream). */
export interface GrowingRange {
  /** the range covered so far: [indexId, lo, hi) */
  coveredRange(): [number, Buffer, Buffer];
}

type WriteUsage = Pick<
  TransactionUsage,
  "documentsWritten" | "bytesWritten" | "functionsScheduled" | "scheduledFunctionArgsBytes"
>;

export class TxMetrics {
  documentsRead = 0;
  bytesRead = 0;
  documentsWritten = 0;
  bytesWritten = 0;
  functionsScheduled = 0;
  scheduledFunctionArgsBytes = 0;
  private readonly intervals = new IntervalCounter();
  /**
   * Convex's `num_intervals`: changed only by ranges read directly, by how much each changed its
   * index's set, which also holds the ranges a transaction depends on without reading them (the
   * ids it inserts): reading a document inserted earlier in the transaction adds nothing.
   */
  private ranges = 0;
  /** ids this transaction inserted: `by_id` points already in its read set */
  private readonly inserted = new Set<string>();
  private readonly growing = new Set<GrowingRange>();
  /** counting only while the function's own code runs (not the scheduler's bookkeeping around it) */
  active = false;

  /** `enforce` false: usage is measured, never refused (system and ad-hoc transactions, relaxed limits) */
  constructor(
    readonly limits: TransactionLimits = CONVEX_LIMITS,
    readonly enforce = true,
  ) {}

  get databaseQueries(): number {
    this.flush();
    return this.ranges;
  }

  private flush() {
    if (this.growing.size === 0) return;
    for (const g of this.growing) {
      const [indexId, lo, hi] = g.coveredRange();
      this.ranges += this.intervals.add(indexId, lo, hi);
    }
    this.growing.clear();
  }

  /** A document scanned (by db.get, a query or a search), whether or not a filter keeps it. */
  readDocument(table: string, size: number) {
    if (!this.active || table.charCodeAt(0) === 95 /* _ */) return;
    this.documentsRead++;
    this.bytesRead += size;
    if (!this.enforce) return;
    if (this.documentsRead > this.limits.documentsRead)
      throw new LimitError(messages.documentsRead(this.limits.documentsRead));
    if (this.bytesRead > this.limits.bytesRead) throw new LimitError(messages.bytesRead(this.limits.bytesRead));
  }

  /** An index range read directly (`db.get`'s point, a query's first row or its exhausted range). */
  readRange(indexId: number, lo: Buffer, hi: Buffer) {
    if (!this.active) return;
    this.flush();
    this.ranges += this.intervals.add(indexId, lo, hi);
    if (this.enforce && this.ranges > this.limits.databaseQueries) {
      throw new LimitError(messages.databaseQueries(this.limits.databaseQueries));
    }
  }

  /**
   * A document this transaction inserted: Convex adds its id to the read set (a range of `by_id`),
   * so a later `db.get` of it reads no new range.
   */
  insertedDocument(id: string) {
    if (this.active) this.inserted.add(id);
  }

  /** `db.get(id)`: the point range of `id` in `by_id`. */
  readId(indexId: number, id: string, lo: Buffer, hi: Buffer) {
    if (!this.active || this.inserted.has(id)) return;
    this.readRange(indexId, lo, hi);
  }

  /** A range read earlier grew (its stream returned another row): merged before the next count. */
  rangeGrew(range: GrowingRange) {
    if (this.active) this.growing.add(range);
  }

  /** An insert, patch, replace or delete of a user document (`size`: the new document, 0 for a delete). */
  write(table: string, size: number) {
    if (!this.active || table.charCodeAt(0) === 95) return;
    this.documentsWritten++;
    this.bytesWritten += size;
    if (!this.enforce) return;
    if (this.documentsWritten > this.limits.documentsWritten)
      throw new LimitError(messages.documentsWritten(this.limits.documentsWritten));
    if (this.bytesWritten > this.limits.bytesWritten)
      throw new LimitError(messages.bytesWritten(this.limits.bytesWritten));
  }

  /** `ctx.scheduler.runAfter/runAt` in a mutation; `argsSize`: Convex size of the `[args]` array. */
  schedule(argsSize: number) {
    if (!this.active) return;
    if (this.enforce) {
      if (this.functionsScheduled >= this.limits.functionsScheduled) {
        throw new LimitError(messages.functionsScheduled(this.limits.functionsScheduled));
      }
      if (this.scheduledFunctionArgsBytes + argsSize > this.limits.scheduledFunctionArgsBytes) {
        throw new LimitError(messages.scheduledFunctionArgsBytes(this.limits.scheduledFunctionArgsBytes));
      }
    }
    this.functionsScheduled++;
    this.scheduledFunctionArgsBytes += argsSize;
  }

  /** The write side, to restore when a nested mutation's writes are rolled back (its reads still count). */
  writeUsage(): WriteUsage {
    const { documentsWritten, bytesWritten, functionsScheduled, scheduledFunctionArgsBytes } = this;
    return { documentsWritten, bytesWritten, functionsScheduled, scheduledFunctionArgsBytes };
  }

  restoreWrites(w: WriteUsage) {
    Object.assign(this, w);
  }

  usage(): TransactionUsage {
    return {
      documentsRead: this.documentsRead,
      bytesRead: this.bytesRead,
      databaseQueries: this.databaseQueries,
      documentsWritten: this.documentsWritten,
      bytesWritten: this.bytesWritten,
      functionsScheduled: this.functionsScheduled,
      scheduledFunctionArgsBytes: this.scheduledFunctionArgsBytes,
    };
  }

  /** `1.0/getTransactionMetrics`: Convex's shape (remaining may go negative). */
  toJson(): TransactionMetricsJson {
    const u = this.usage();
    const out = {} as TransactionMetricsJson;
    for (const k of Object.keys(u) as Array<keyof TransactionUsage>)
      out[k] = { used: u[k], remaining: this.limits[k] - u[k] };
    return out;
  }
}

// ----- engine-wide maxima -----

export type TransactionStatsKey = keyof TransactionUsage | "executionMs";

/** The largest value of one measure seen in a transaction, and where. */
export type TransactionMax = { value: number; functionPath: string | null; kind: "query" | "mutation" | null };

export type TransactionStats = {
  /** top-level queries and mutations measured since the start or the last reset */
  transactions: number;
  /** per measure, the largest value one transaction reached (nested calls included) */
  max: Record<TransactionStatsKey, TransactionMax>;
  /** the limits in force (relaxed ones when the engine runs with `relaxLimits`) */
  limits: TransactionLimits;
};

const STATS_KEYS: TransactionStatsKey[] = [
  "documentsRead",
  "bytesRead",
  "databaseQueries",
  "documentsWritten",
  "bytesWritten",
  "functionsScheduled",
  "scheduledFunctionArgsBytes",
  "executionMs",
];

export class TransactionStatsRecorder {
  private transactions = 0;
  private max = emptyMax();

  constructor(private readonly limits: TransactionLimits) {}

  record(kind: "query" | "mutation", functionPath: string, usage: TransactionUsage, executionMs: number) {
    this.transactions++;
    const values: Record<TransactionStatsKey, number> = { ...usage, executionMs };
    for (const k of STATS_KEYS) {
      if (values[k] > this.max[k].value) this.max[k] = { value: values[k], functionPath, kind };
    }
  }

  snapshot(): TransactionStats {
    const max = {} as Record<TransactionStatsKey, TransactionMax>;
    for (const k of STATS_KEYS) max[k] = { ...this.max[k] };
    return { transactions: this.transactions, max, limits: { ...this.limits } };
  }

  reset() {
    this.transactions = 0;
    this.max = emptyMax();
  }
}

function emptyMax(): Record<TransactionStatsKey, TransactionMax> {
  const max = {} as Record<TransactionStatsKey, TransactionMax>;
  for (const k of STATS_KEYS) max[k] = { value: 0, functionPath: null, kind: null };
  return max;
}
