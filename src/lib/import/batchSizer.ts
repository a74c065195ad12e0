/**
 * Rows per appendBatch, sized by how long the server takes for them rather than fixed: a batch
 * should use about TARGET_BATCH_MS of the mutation's 1 s execution limit, whatever the machine.
 * Convex's transaction metrics (`ctx.meta.getTransactionMetrics`) count queries, reads and writes,
 * not time, and a row's writes are bounded (the server's MAX_BATCH_ROWS keeps a batch within
 * those limits); its time is what differs up to ~3× between machines of one kind. So the client
 * watches each batch's server time and steers the next batch's size toward the target, and a
 * batch refused for its size is sent again in halves: one that ran out of time, or one over a
 * transaction limit that its rows' own work reached (a re-import where nearly every row updates a
 * voter reads its districts, place, door and name keys too: several index ranges a row).
 */
export const TARGET_BATCH_MS = 250;
/** The size a batch refused for its size is not halved below: such a batch is the row's fault, not the size's. */
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

  /** A batch of `rows` was too large (time or a transaction limit): false when it was already as small as batches get. */
  shrink(rows: number): boolean {
    if (rows <= MIN_BATCH_ROWS) return false;
    this.size = Math.max(MIN_BATCH_ROWS, Math.floor(Math.min(this.size, rows) / 2));
    return true;
  }
}

/**
 * Convex's refusals of a mutation too large for one transaction, which stored nothing of it: its
 * execution time ("Function execution timed out …") and its reads, writes and scheduled functions
 * ("Too many reads in a single function execution …", "Too many functions scheduled by this mutation …").
 */
const BATCH_TOO_LARGE = [
  /execution timed out/i,
  /Too many (documents read|bytes read|reads|writes|bytes written) in a single function execution/,
  /Too many functions scheduled by this mutation/,
  /Too large total size of the arguments of scheduled functions/,
];

/**
 * A production deployment redacts a function's errors other than ConvexError: the client hears
 * only "[Request ID: …] Server Error", which a time-out or a transaction limit may be behind.
 */
const REDACTED = /\] Server Error\s*(Called by client\s*)?$/;

/**
 * A batch the server refused for its size (time or a transaction limit), or without saying why:
 * smaller batches may pass. The app's own refusals (ConvexError) always say why.
 */
export function isBatchTooLargeError(e: unknown): boolean {
  return e instanceof Error && (BATCH_TOO_LARGE.some((re) => re.test(e.message)) || REDACTED.test(e.message));
}
