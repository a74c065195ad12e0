/**
 * Rows per appendBatch, sized by how long the server takes for them rather than fixed: a batch
 * should use about TARGET_BATCH_MS of the mutation's 1 s execution limit, whatever the machine.
 * Convex's transaction metrics (`ctx.meta.getTransactionMetrics`) count queries, reads and writes,
 * not time, and a new voter's reads and writes are bounded (the runner cuts a batch by its rows'
 * planned lookups, and the server's MAX_BATCH_ROWS bounds its writes); its time is what differs
 * up to ~3× between machines of one kind. So the client watches each batch's server time and
 * steers the next batch's size toward the target, and a batch refused for its size is sent again
 * in halves: one that ran out of time (the next ones are sized by time again), or one over a
 * transaction limit that its rows' own work reached (a re-import where nearly every row updates a
 * voter reads its districts, place, door and name keys too: several index ranges a row), after
 * which batches stay at the halved size.
 */
export const TARGET_BATCH_MS = 250;
/** The size a batch refused for its size is not halved below: such a batch is the row's fault, not the size's. */
export const MIN_BATCH_ROWS = 10;
const START_ROWS = 250;

export class BatchSizer {
  size: number;
  /** the most rows a batch carries: `max`, lowered for good by a refusal over a transaction limit */
  private ceiling: number;

  constructor(readonly max: number) {
    this.ceiling = max;
    this.size = Math.max(1, Math.min(max, START_ROWS));
  }

  /** A batch of `rows` took `ms` of the server's time. */
  observe(rows: number, ms: number) {
    // a short batch (the file's last, or ask mode's pieces) says little about a full one
    if (rows < this.size / 2) return;
    const ideal = ms > 0 ? (rows * TARGET_BATCH_MS) / ms : this.ceiling;
    const next = Math.min(this.size * 2, Math.round((this.size + ideal) / 2));
    this.size = Math.max(Math.min(MIN_BATCH_ROWS, this.ceiling), Math.min(this.ceiling, next));
  }

  /**
   * A batch of `rows` was refused for its size: false when it was already as small as batches
   * get. Time is the machine's (the next batches are sized by it again); a transaction limit is
   * the rows' own reads and writes, so the halved size stays the most a batch carries: growing
   * back would have every other batch refused.
   */
  shrink(rows: number, refusal: BatchRefusal = "time"): boolean {
    if (rows <= MIN_BATCH_ROWS) return false;
    this.size = Math.max(MIN_BATCH_ROWS, Math.floor(Math.min(this.size, rows) / 2));
    if (refusal === "limit") this.ceiling = Math.min(this.ceiling, this.size);
    return true;
  }
}

/** Why a batch was refused for its size: its execution time, or a transaction limit its rows reached. */
export type BatchRefusal = "time" | "limit";

/**
 * Convex's refusals of a mutation too large for one transaction, which stored nothing of it: its
 * reads, writes and scheduled functions ("Too many reads in a single function execution …", "Too
 * many functions scheduled by this mutation …").
 */
const OVER_LIMIT = [
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
 * Why the server refused a batch for its size: "time" ("Function execution timed out …"), "limit"
 * (a transaction limit, or no reason given: taken as the rows' doing), null for any other error
 * (the app's own refusals are ConvexErrors and always say why).
 */
export function batchRefusal(e: unknown): BatchRefusal | null {
  if (!(e instanceof Error)) return null;
  if (/execution timed out/i.test(e.message)) return "time";
  if (OVER_LIMIT.some((re) => re.test(e.message)) || REDACTED.test(e.message)) return "limit";
  return null;
}
