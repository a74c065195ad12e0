/**
 * Rows per appendBatch, sized by how long the server takes for them rather than fixed: a batch
 * should use about TARGET_BATCH_MS of the mutation's 1 s execution limit, whatever the machine.
 * Convex's transaction metrics (`ctx.meta.getTransactionMetrics`) count queries, reads and writes,
 * not time, and a row's writes are bounded (the server's MAX_BATCH_ROWS keeps a batch within
 * those limits); its time is what differs up to ~3× between machines of one kind. So the client
 * watches each batch's server time and steers the next batch's size toward the target, and a
 * batch refused for running out of time is sent again in halves.
 */
export const TARGET_BATCH_MS = 250;
/** The size a timed-out batch is not halved below: such a batch is the row's fault, not the size's. */
export const MIN_BATCH_ROWS = 10;
const START_ROWS = 250;

export class BatchSizer {
  size: number;

  constructor(readonly max: number) {
    this.size = Math.max(1, Math.min(max, START_ROWS));
  }

  /** A batch of `rows` took `ms` of the server's time. */
  observe(rows: number, ms: number) {
    // a short batch (the file's last, or ask mode's pieces) says little about a full one
    if (rows < this.size / 2) return;
    const ideal = ms > 0 ? (rows * TARGET_BATCH_MS) / ms : this.max;
    const next = Math.min(this.size * 2, Math.round((this.size + ideal) / 2));
    this.size = Math.max(Math.min(MIN_BATCH_ROWS, this.max), Math.min(this.max, next));
  }

  /** A batch of `rows` ran out of time: false when it was already as small as batches get. */
  shrink(rows: number): boolean {
    if (rows <= MIN_BATCH_ROWS) return false;
    this.size = Math.max(MIN_BATCH_ROWS, Math.floor(Math.min(this.size, rows) / 2));
    return true;
  }
}

/** Convex's refusal of a function that used up its execution time ("Function execution timed out …"). */
export function isTimeLimitError(e: unknown): boolean {
  return e instanceof Error && /execution timed out/i.test(e.message);
}
