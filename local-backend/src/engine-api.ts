/**
 * The contract between the engine (storage, query engine, syscalls, function runtime, scheduler)
 * and the network layer (WebSocket sync protocol, HTTP API, auth verification, CLI).
 * Generic: nothing here knows about any particular app's tables.
 */
import type { JSONValue } from "convex/values";
import type { TransactionStats } from "./tx-metrics.js";

export type { TransactionStats } from "./tx-metrics.js";
/** Identity as seen by `ctx.auth.getUserIdentity()`; tokenIdentifier = `${iss}|${sub}`. */
export type UserIdentity = {
  tokenIdentifier: string;
  subject: string;
  issuer: string;
  [claim: string]: JSONValue | undefined;
};

export type FunctionKind = "query" | "mutation" | "action" | "httpAction";
export type FunctionVisibility = "public" | "internal";

export type FunctionInfo = {
  /** canonical path, e.g. "voters:list" or "folder/file:fn" (default export → "file:default") */
  path: string;
  kind: FunctionKind;
  visibility: FunctionVisibility;
};

/** Values in `value`/`errorData` are `convexToJson`-encoded ($integer, $float, $bytes ...). */
export type FunctionOutcome =
  | { status: "success"; value: JSONValue; logLines: string[] }
  | {
      status: "error";
      /** Convex's error message, e.g. `Uncaught Error: boom` (the network layer adds `[Request ID: …] Server Error`, see outcome.ts) */
      errorMessage: string;
      errorData?: JSONValue;
      logLines: string[];
      /** the user's stack frames, Convex-formatted: `    at handler (../convex/file.ts:12:3)` */
      frames?: string[];
    };

/** Opaque to the network layer: what a query read (tables, index ranges, search). */
export interface ReadSet {
  readonly __readSet: true;
}
/** Opaque to the network layer: what a mutation commit wrote. */
export interface WriteSet {
  readonly __writeSet: true;
}

export type CommitEvent = { ts: bigint; writes: WriteSet };

export type CallRequest = {
  path: string;
  /** convexToJson-encoded argument object (not the array) */
  args: JSONValue;
  identity: UserIdentity | null;
  /** allow internal functions: only for admin-key callers (as `npx convex run` does) */
  internal?: boolean;
};

export type PipelinedMutation = {
  result: Promise<{ outcome: FunctionOutcome; ts: bigint }>;
};

export type QueryResult = {
  outcome: FunctionOutcome;
  readSet: ReadSet;
  /** the snapshot timestamp the query read at */
  ts: bigint;
  /** pagination journal (protocol `QueryJournal`), null when none */
  journal: string | null;
};

export type EngineOptions = {
  /** folder holding the app's convex/ modules (schema.ts, http.ts, crons.ts, auth.config.ts ...) */
  functionsDir: string;
  /** data directory; ":memory:"-like temp dirs allowed for tests */
  dataDir: string;
  /** public URLs, injected as CONVEX_CLOUD_URL / CONVEX_SITE_URL and used for storage URLs */
  cloudUrl: string;
  siteUrl: string;
  /** reload modules when files under functionsDir change (data is kept) */
  watch?: boolean;
  /** run the scheduler and crons (default true) */
  scheduler?: boolean;
  log?: (line: string) => void;
  /**
   * Benchmarks only, never by default nor in tests: no query or mutation is refused for its
   * reads, writes, index ranges, scheduled functions or execution time (up to 10 minutes); usage
   * is still measured (`transactionStats()`). Document and value rules (1 MiB, nesting, arrays,
   * field names) still apply. CLI: `--relax-limits`.
   */
  relaxLimits?: boolean;
  /**
   * Tests only: actions' time limits in ms instead of Convex's (`v8`: actions and http actions in
   * Convex's runtime, 30 minutes; `node`: "use node" actions, 10 minutes).
   */
  actionTimeoutsMs?: { v8?: number; node?: number };
  /**
   * Tests only: where top-level queries and mutations run. "auto" (the default): on the engine's
   * thread, or in the action pool's workers once their own work proves heavy (placement.ts);
   * "pool": always in the workers; "engine": never.
   */
  functionPlacement?: "auto" | "pool" | "engine";
};

export interface Engine {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** latest committed timestamp (monotonic across restarts) */
  currentTs(): bigint;
  listFunctions(): FunctionInfo[];
  getFunction(path: string): FunctionInfo | undefined;
  /** auth providers read from auth.config.ts (`{ domain, applicationID }` or customJwt entries) */
  authProviders(): JSONValue[];

  /**
   * `ts`: read the state at that timestamp (one `pinTs()` handed out within the last 30 s); an
   * unavailable one rejects with an error named "SnapshotUnavailable" (`tooOld` set when too early).
   */
  runQuery(req: CallRequest & { journal?: string | null; ts?: bigint }): Promise<QueryResult>;
  /** The current timestamp, readable with `runQuery({ ts })` for the next 30 s (`/api/query_ts`). */
  pinTs(): bigint;
  /** ts = commit timestamp of the mutation (currentTs() when it wrote nothing or failed) */
  runMutation(req: CallRequest): Promise<{ outcome: FunctionOutcome; ts: bigint }>;
  /**
   * Resolves as soon as the mutation committed (the next one may start: the engine stores this
   * one's writes meanwhile); `result` is what runMutation resolves to, once they are stored.
   * Callers that keep a client's mutations in order start the next one once this resolves.
   */
  runMutationPipelined(req: CallRequest): Promise<PipelinedMutation>;
  runAction(req: CallRequest): Promise<{ outcome: FunctionOutcome }>;
  /**
   * http actions from convex/http.ts; returns 404 Response when no route matches.
   * `identity` (optional) is what `ctx.auth.getUserIdentity()` returns inside the action, for
   * callers that verified a bearer token on the request.
   */
  runHttpAction(request: Request, identity?: UserIdentity | null): Promise<Response>;

  /** called synchronously after each commit (mutations, scheduler bookkeeping, storage) */
  onCommit(listener: (event: CommitEvent) => void): () => void;
  /** true when a commit's writes may change the result of a query that read `readSet` */
  readSetIntersects(readSet: ReadSet, writes: WriteSet): boolean;

  /** storage upload/serve, used by the HTTP layer */
  storeUpload(token: string, body: Uint8Array, contentType: string | null): Promise<string>;
  /** whether an upload token is genuine and unexpired (checked before reading an upload's body) */
  checkUploadToken(token: string): boolean;
  /**
   * Stores an upload read from `body` (streamed to a temp file in the data dir and hashed on the
   * way, never held in memory); an error thrown by `body` aborts it and is rethrown as is.
   */
  storeUploadStream(
    token: string,
    body: AsyncIterable<Uint8Array>,
    contentType: string | null,
    expectedSha256?: string,
  ): Promise<string>;
  getStorageBlob(storageId: string): Promise<{ body: Uint8Array; contentType: string | null } | null>;
  /** an upload token's state: "invalid" and "expired" get Convex's 401s */
  uploadTokenStatus(token: string): "valid" | "invalid" | "expired";
  /**
   * The file behind a storage URL path, to serve whole or by byte range: "invalid" when the path
   * names no storage id, null when there is no such file. `sha256` is base64.
   */
  storageFile(
    storageId: string,
  ): Promise<{ path: string; size: number; contentType: string | null; sha256: string } | "invalid" | null>;

  /** backend environment variables, persisted in the data dir, visible as process.env */
  env: {
    list(): Record<string, string>;
    set(name: string, value: string): void;
    remove(name: string): void;
  };

  /**
   * The largest usage one transaction (a top-level query or mutation that succeeded, nested calls
   * included) reached per measure since the start or the last reset, and which function it was:
   * documents and bytes read, index ranges, documents and bytes written, functions scheduled and
   * their argument bytes, execution time (ms of the function's own code). `reset: true` starts
   * over after taking the snapshot.
   */
  transactionStats(opts?: { reset?: boolean }): TransactionStats;

  /**
   * How mutations ran concurrently since the start: `conflicts`, optimistic runs that found a
   * commit made meanwhile had written what they read, and ran again; `exclusiveRuns`, mutations
   * that then ran holding the write lock; `pooledRuns`, top-level queries and mutations run in a
   * worker of the action pool.
   */
  concurrency(): { conflicts: number; exclusiveRuns: number; pooledRuns: number };

  /** backup/restore of all tables (user and system) as JSON lines */
  exportJsonl(): AsyncIterable<string>;
  importJsonl(lines: AsyncIterable<string>): Promise<number>;
}
