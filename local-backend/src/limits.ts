/**
 * Convex's limits on one query or mutation and on the values it writes, with the numbers and error
 * texts of the open-source backend (get-convex/convex-backend): `crates/common/src/knobs.rs`
 * (TRANSACTION_MAX_*, DATABASE_UDF_USER_TIMEOUT, TRANSACTION_MAX_NUM_SCHEDULED,
 * TRANSACTION_MAX_SCHEDULED_TOTAL_ARGUMENT_SIZE_BYTES), `crates/database/src/reads.rs` and
 * `writes.rs` (the messages), `crates/value/src` (value size, nesting, array length, fields),
 * `crates/common/src/document.rs` (MAX_USER_SIZE, MAX_DOCUMENT_NESTING),
 * `crates/model/src/scheduled_jobs/mod.rs` and `crates/isolate/src/termination.rs`.
 */

/** The per-transaction limits (Convex's `TransactionLimits`, plus the user-code time of a run). */
export type TransactionLimits = {
  /** TRANSACTION_MAX_READ_SIZE_ROWS: documents scanned (filtered-out ones included) */
  documentsRead: number;
  /** TRANSACTION_MAX_READ_SIZE_BYTES: bytes of the documents scanned */
  bytesRead: number;
  /** TRANSACTION_MAX_READ_SET_INTERVALS: disjoint index ranges read (db.get, db.query) */
  databaseQueries: number;
  /** TRANSACTION_MAX_NUM_USER_WRITES: inserts, patches, replaces and deletes */
  documentsWritten: number;
  /** TRANSACTION_MAX_USER_WRITE_SIZE_BYTES: sizes of the documents written */
  bytesWritten: number;
  /** TRANSACTION_MAX_NUM_SCHEDULED: functions one mutation schedules */
  functionsScheduled: number;
  /** TRANSACTION_MAX_SCHEDULED_TOTAL_ARGUMENT_SIZE_BYTES */
  scheduledFunctionArgsBytes: number;
  /** DATABASE_UDF_USER_TIMEOUT, in ms: time spent in the function's own code (syscalls excluded) */
  executionTimeMs: number;
};

const MiB = 1 << 20;

export const CONVEX_LIMITS: Readonly<TransactionLimits> = Object.freeze({
  documentsRead: 32_000,
  bytesRead: 16 * MiB,
  databaseQueries: 4_096,
  documentsWritten: 16_000,
  bytesWritten: 16 * MiB,
  functionsScheduled: 1_000,
  scheduledFunctionArgsBytes: 16 * MiB,
  executionTimeMs: 1_000,
});

/** What `relaxLimits` (benchmarks only) allows instead: usage is still measured, never refused. */
export const RELAXED_LIMITS: Readonly<TransactionLimits> = Object.freeze({
  documentsRead: Number.MAX_SAFE_INTEGER,
  bytesRead: Number.MAX_SAFE_INTEGER,
  databaseQueries: Number.MAX_SAFE_INTEGER,
  documentsWritten: Number.MAX_SAFE_INTEGER,
  bytesWritten: Number.MAX_SAFE_INTEGER,
  functionsScheduled: Number.MAX_SAFE_INTEGER,
  scheduledFunctionArgsBytes: Number.MAX_SAFE_INTEGER,
  executionTimeMs: 10 * 60_000,
});

/** MAX_USER_SIZE: a document, system fields included */
export const MAX_DOCUMENT_SIZE = MiB;
/** MAX_DOCUMENT_NESTING: objects and arrays inside a stored document, the document itself counted */
export const MAX_DOCUMENT_NESTING = 16;
/** MAX_NESTING: any value (arguments, return values, documents before the document check) */
export const MAX_VALUE_NESTING = 64;
/** MAX_SIZE: any value */
export const MAX_VALUE_SIZE = 1 << 25;
export const MAX_ARRAY_LENGTH = 8192;
export const MAX_OBJECT_FIELDS = 1024;
/** FUNCTION_MAX_RESULT_SIZE */
export const MAX_RESULT_SIZE = 16 * MiB;

const OVER_LIMIT_HELP =
  "Consider using smaller limits in your queries, paginating your queries, or using indexed queries with a selective index range expressions.";

/** `common::fmt::format_bytes`: the unit that divides most cleanly ("16 MiB", "4.5 MiB", "1534 bytes"). */
export function formatBytes(n: number): string {
  if (n === 0) return "0 bytes";
  const units: Array<[number, string]> = [
    [2 ** 30, "GiB"],
    [1e9, "GB"],
    [2 ** 20, "MiB"],
    [1e6, "MB"],
    [2 ** 10, "KiB"],
    [1e3, "KB"],
  ];
  for (const [size, name] of units) {
    if (n < size) continue;
    if (n % size === 0) return `${n / size} ${name}`;
    if ((n * 10) % size === 0) return `${Math.floor(n / size)}.${Math.floor((n * 10) / size) % 10} ${name}`;
  }
  return `${n} bytes`;
}

/** `humansize::format_size(n, BINARY)`: "1 MiB", "1.00 MiB" (not whole: two decimals), "512 B". */
export function humanSize(n: number): string {
  const scales = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
  let size = n;
  let i = 0;
  while (Math.abs(size) >= 1024 && i < scales.length - 1) {
    size /= 1024;
    i++;
  }
  const whole = Math.abs(size - Math.trunc(size)) < Number.EPSILON;
  return `${size.toFixed(whole ? 0 : 2)} ${scales[i]}`;
}

/**
 * Actions' execution time (knobs.rs): `V8_ACTION_USER_TIMEOUT` (actions and http actions in
 * Convex's own runtime, 30 minutes) and `NODE_ACTION_USER_TIMEOUT` ("use node" actions, 10 minutes).
 */
export const V8_ACTION_TIMEOUT_MS = 1_800_000;
export const NODE_ACTION_TIMEOUT_MS = 600_000;

// ----- the texts (thrown into the function as plain errors: "Uncaught Error: …" unless caught) -----

export const messages = {
  documentsRead: (limit: number) =>
    `Too many documents read in a single function execution (limit: ${limit}). ${OVER_LIMIT_HELP}`,
  bytesRead: (limit: number) =>
    `Too many bytes read in a single function execution (limit: ${limit} bytes). ${OVER_LIMIT_HELP}`,
  databaseQueries: (limit: number) =>
    `Too many reads in a single function execution (limit: ${limit}). ${OVER_LIMIT_HELP}`,
  documentsWritten: (limit: number) => `Too many writes in a single function execution (limit: ${limit})`,
  bytesWritten: (limit: number) =>
    `Too many bytes written in a single function execution (limit: ${formatBytes(limit)})`,
  functionsScheduled: (limit: number) => `Too many functions scheduled by this mutation (limit: ${limit})`,
  scheduledFunctionArgsBytes: (limit: number) =>
    `Too large total size of the arguments of scheduled functions from this mutation (limit: ${limit} bytes)`,
  /** `UserTimeoutError`; Convex prints the Duration with `{:?}` ("1s") */
  timeout: (ms: number) =>
    `Function execution timed out (maximum duration: ${ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`})`,
  /** paginating from a cursor another query returned (database/src/query/mod.rs invalid_cursor) */
  invalidCursor: () =>
    "InvalidCursor: Tried to run a query starting from a cursor, but it looks like this cursor is from a different query.",
  neverResolves: () => "Returned promise will never resolve",
  /** a missing or internal function (crates/udf/src/validation.rs `missing_or_internal_error`) */
  functionNotFound: (strippedPath: string) =>
    `Could not find public function for '${strippedPath}'. Did you forget to run \`npx convex dev\`?`,
  documentTooLarge: (size: number) =>
    `Value is too large (${humanSize(size)} > maximum size ${humanSize(MAX_DOCUMENT_SIZE)})`,
  valueTooLarge: (size: number) =>
    `Value is too large (${humanSize(size)} > maximum size ${humanSize(MAX_VALUE_SIZE)})`,
  valueTooNested: (nesting: number) =>
    `Value is too nested (nested ${nesting} levels deep > maximum nesting ${MAX_VALUE_NESTING})`,
  documentTooNested: (nesting: number) =>
    `Document is too nested (nested ${nesting} levels deep > maximum nesting ${MAX_DOCUMENT_NESTING})`,
  arrayTooLong: (len: number) => `Array length is too long (${len} > maximum length ${MAX_ARRAY_LENGTH})`,
  tooManyFields: (n: number) => `Object has too many fields (${n} > maximum number ${MAX_OBJECT_FIELDS})`,
  systemField: (field: string) =>
    `Field '${field}' starts with an underscore, which is only allowed for system fields like '_id'`,
  resultTooLarge: (path: string, size: number) =>
    `Function ${path} return value is too large (actual: ${humanSize(size)}, limit: ${humanSize(MAX_RESULT_SIZE)})`,
  /** `not_allowed_in_udf` */
  notInQueriesOrMutations: (what: string) =>
    `Can't use ${what} in queries and mutations. Please consider using an action. See https://docs.convex.dev/functions/actions for more details.`,
};

/** A limit a function exceeded: a plain `Error` for the function (Convex throws these into JS). */
export class LimitError extends Error {
  override name = "Error";
}
