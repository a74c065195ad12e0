/**
 * The narrow interfaces between the engine's parts: what the syscall runner (syscalls.ts) and the
 * scheduler (scheduler.ts) may use of the engine. engine.ts, the composition, provides them; the
 * parts depend on these and never on the engine class, so nothing imports the composition.
 * (engine-api.ts is the other contract: the engine as the network layer sees it.)
 */
import type { JSONValue, Value } from "convex/values";
import type { Catalog } from "./catalog.js";
import type {
  CallRequest,
  CommitEvent,
  FunctionKind,
  FunctionOutcome,
  QueryResult,
  UserIdentity,
} from "./engine-api.js";
import type { RunExec } from "./runtime.js";
import type { Tx } from "./transaction.js";

export type { RunExec };

export type RunKind = "query" | "mutation" | "action" | "httpAction";

/** One function execution, as its syscalls see it. */
export type RunOptions = {
  kind: RunKind;
  fnPath: string;
  identity: UserIdentity | null;
  /** the run's transaction (queries and mutations); null in actions and http actions */
  tx: Tx | null;
  logLines: string[];
  journal?: { endCursor: string | null } | null;
  scheduledJobId?: string | null;
  visibility?: "public" | "internal";
  depth: number;
  /** the run's execution in the function realm, once it started there */
  exec?: RunExec;
  /** the calling run's execution (nested `ctx.runQuery` / `ctx.runMutation`) */
  parentExec?: RunExec | null;
  /**
   * A top-level run's transaction begins: called right before its function starts (after it
   * waited for a worker), so that an optimistic one begins then and an exclusive one takes the
   * right to commit only then. May be called more than once (the scheduler's prepare step).
   */
  begin?: () => void | Promise<void>;
  /** the watchdog's wall time per millisecond of CPU time left: 3 at first, more on each run after a preemption (PreemptedError.nextPatience) */
  patience?: number;
};

export type MutationRunOptions = {
  logLines: string[];
  internalAllowed: boolean;
  scheduledJobId?: string | null;
  /** runs in the mutation's transaction before the function; return false to skip it */
  prepare?: (tx: Tx) => boolean;
  onSuccess?: (tx: Tx) => void;
};

export type ActionRunOptions = {
  logLines: string[];
  internalAllowed: boolean;
  depth: number;
  scheduledJobId?: string | null;
};

export type MutationRunResult = { outcome: FunctionOutcome; ts: bigint; skipped?: boolean };

/** Running functions from inside other runs and from the scheduler (functions.ts). */
export interface FunctionCalls {
  /** ctx.runQuery / ctx.runMutation inside a query or mutation: the parent's transaction */
  runNested(
    parent: RunOptions,
    kind: "query" | "mutation",
    path: string,
    argsJson: JSONValue,
    snapshot: boolean,
  ): Promise<JSONValue>;
  runQueryTop(
    req: CallRequest,
    journal: { endCursor: string | null } | null,
    logLines: string[],
    depth: number,
  ): Promise<QueryResult>;
  runMutationTop(req: CallRequest, o: MutationRunOptions): Promise<MutationRunResult>;
  runActionTop(req: CallRequest, o: ActionRunOptions): Promise<{ outcome: FunctionOutcome }>;
}

export type ScheduleArgs = { name?: string; functionHandle?: string; ts: number; args: JSONValue };

/** `ctx.scheduler` inside a transaction (scheduler.ts). */
export interface SchedulingSyscalls {
  schedule(tx: Tx, args: ScheduleArgs): string;
  cancel(tx: Tx, idJson: JSONValue): void;
}

export type StorageMetadata = { storageId: string; sha256: Value; size: Value; contentType: Value };
export type StorageBlob = { body: Uint8Array; contentType: string | null };

/** `ctx.storage` (file-storage.ts). */
export interface FileSyscalls {
  generateUploadUrl(): string;
  storageUrl(tx: Tx, storageId: string): string | null;
  storageMetadata(tx: Tx, storageId: string): StorageMetadata | null;
  /** in a mutation the blob is removed only if it commits */
  deleteStorage(tx: Tx, storageId: string): void;
  storeBytes(body: Uint8Array, contentType: string | null, expectedSha?: string): Promise<string>;
  getStorageBlob(storageId: string): Promise<StorageBlob | null>;
}

export type VectorQuery = { indexName: string; limit?: number; vector: number[]; expressions?: unknown };
export type VectorResults = { results: Array<{ _id: string; _score: number }> };

/** What the syscall runner (one `Run` per function execution) needs of the engine. */
export interface SyscallHost {
  readonly catalog: Catalog;
  readonly calls: FunctionCalls;
  readonly scheduler: SchedulingSyscalls;
  readonly files: FileSyscalls;
  currentTs(): bigint;
  /** `process.env` inside functions */
  functionEnv(): Record<string, string>;
  emitLog(line: string): void;
  /** a read-only transaction on the committed state (storage reads from actions) */
  readTx(): Tx;
  withReadLock<T>(fn: () => T | Promise<T>): Promise<T>;
  /** runs `fn` in its own write transaction and commits it (scheduling and storage from actions) */
  systemWrite<T>(fn: (tx: Tx) => T): Promise<T>;
  vectorSearch(query: VectorQuery): Promise<VectorResults>;
}

/** A cron job as `crons.ts` exports it. */
export type CronSpec = { name: string; args: JSONValue[]; schedule: any };

/** What the scheduler needs of the engine. */
export interface SchedulerHost {
  readonly catalog: Pick<Catalog, "tableName" | "tableNumber" | "dbIndex">;
  readonly calls: Pick<FunctionCalls, "runMutationTop" | "runActionTop">;
  /** the kind of the loaded function at `path`, undefined when there is none */
  functionKind(path: string): FunctionKind | undefined;
  cronSpecs(): Record<string, CronSpec>;
  getMeta(key: string): string | undefined;
  setMeta(key: string, value: string): void;
  isStopped(): boolean;
  emitLog(line: string): void;
  readTx(): Tx;
  systemWrite<T>(fn: (tx: Tx) => T): Promise<T>;
  onCommit(listener: (event: CommitEvent) => void): () => void;
}
