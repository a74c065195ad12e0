/**
 * The syscall runner: one `Run` per function execution dispatches the syscalls the `convex/server`
 * library makes (`globalThis.Convex.syscall / asyncSyscall / jsSyscall`), owns the run's query
 * streams and captures its logs. Database syscalls are in syscalls-db.ts; everything else it needs
 * of the engine comes through `SyscallHost` (engine-host.ts).
 */
import { convexToJson, type JSONValue } from "convex/values";
import { randomUUID } from "node:crypto";
import type { FunctionOutcome } from "./engine-api.js";
import type { RunOptions, SyscallHost } from "./engine-host.js";
import { identityError } from "./identity-error.js";
import { canonicalizePath } from "./loader.js";
import { NestedCallError, platformErrors, toNestedError, type PlatformError } from "./outcome.js";
import { QueryManager, type SerializedQuery } from "./query.js";
import { formatLogArgs, realNow, seededRandom, type RunExec, type RunScope, type SyscallHandler } from "./runtime.js";
import { dbGet, dbInsert, dbPatchOrReplace, dbRemove, normalizeId, queryPage } from "./syscalls-db.js";
import type { Tx } from "./transaction.js";
import { jsonValueSize } from "./value-size.js";

/** The run's transaction; only queries and mutations have one. */
export function runTx(o: RunOptions): Tx {
  if (!o.tx) throw new Error("This operation is only available in queries and mutations.");
  return o.tx;
}

/** One function execution: owns its syscall dispatch, query streams and log capture. */
export class Run implements SyscallHandler {
  readonly queries: QueryManager | null;
  readonly requestId = randomUUID();
  newJournal: string | null = null;
  /** a platform failure raised in this run: it fails the run even if the function caught it */
  platformError: PlatformError | null = null;
  readonly now: number;
  /** Math.random's seed in queries and mutations (a worker running one seeds its own the same) */
  readonly seed: number;
  readonly scope: RunScope;

  constructor(
    readonly host: SyscallHost,
    readonly o: RunOptions,
  ) {
    this.queries = o.tx ? new QueryManager(o.tx) : null;
    this.now = realNow();
    this.seed = this.now ^ 0x5bd1e995;
    const transactional = o.kind === "query" || o.kind === "mutation";
    this.scope = {
      handler: this,
      now: transactional ? this.now : null,
      random: transactional ? seededRandom(this.seed) : null,
      log: (level, args) => this.log(level, args),
      env: host.functionEnv(),
      allowFetch: !transactional,
    };
  }

  get tx(): Tx {
    return runTx(this.o);
  }

  /** the syscalls, for the function realm */
  get handler(): this {
    return this;
  }

  /** The run now executes in the function realm (realm.ts). */
  setExec(exec: RunExec) {
    this.scope.exec = exec;
    this.o.exec = exec;
  }

  private log(level: string, args: unknown[]) {
    const tag = level === "log" ? "LOG" : level.toUpperCase();
    const line = `[${tag}] ${formatLogArgs(args)}`;
    this.o.logLines.push(line);
    this.host.emitLog(`${this.o.fnPath} ${line}`);
  }

  // ----- sync syscalls -----
  syscall(op: string, argsStr: string): string {
    const args = JSON.parse(argsStr);
    switch (op) {
      case "1.0/queryStream": {
        const queryId = this.queriesOrThrow().start(args.query as SerializedQuery);
        return `{"queryId":${queryId}}`;
      }
      case "1.0/queryCleanup":
        this.queriesOrThrow().cleanup(args.queryId);
        return "{}";
      case "1.0/db/normalizeId":
        return normalizeId(this.host.catalog, args);
      case "1.0/getSnapshotTs":
        return JSON.stringify(convexToJson(this.host.currentTs()));
      case "throwOcc":
        throw (this.platformError = platformErrors.occ());
      case "throwOverloaded":
        throw (this.platformError = platformErrors.overloaded());
      default:
        throw new Error(`Unknown syscall "${op}"`);
    }
  }

  private queriesOrThrow(): QueryManager {
    if (!this.queries)
      throw new Error("The database is not available in actions. Use ctx.runQuery or ctx.runMutation.");
    return this.queries;
  }

  // ----- async syscalls -----
  async asyncSyscall(op: string, argsStr: string): Promise<string> {
    const args = JSON.parse(argsStr);
    if (op === "1.0/queryStreamNext" || op === "1.0/queryPage") {
      const waits = this.queries?.needsStore(op === "1.0/queryPage" ? args.query : args.queryId);
      if (waits) await this.tx.hooks.store.caughtUp();
    }
    return this.complete(op, args, argsStr, false) ?? (await this.asyncOnly(op, args));
  }

  /**
   * An async syscall that completes synchronously: its result, or undefined when it must run
   * asynchronously (nested calls, storage, vector search) or would change state beyond this
   * transaction (a first write or query that creates its table). The function realm runs these
   * inside the function's own time slice (see realm.ts).
   */
  asyncSyscallNow(op: string, argsStr: string): string | undefined {
    return this.complete(op, JSON.parse(argsStr), argsStr, true);
  }

  private complete(op: string, args: any, argsStr: string, containedOnly: boolean): string | undefined {
    switch (op) {
      case "1.0/get":
        return dbGet(this.tx, this.host.catalog, args);
      case "1.0/insert":
        if (containedOnly && this.host.catalog.tableNumber(args.table) === undefined) return undefined;
        return dbInsert(this.tx, this.host.catalog, args, argsStr);
      case "1.0/shallowMerge":
        return dbPatchOrReplace(this.tx, this.host.catalog, args, "patch");
      case "1.0/replace":
        return dbPatchOrReplace(this.tx, this.host.catalog, args, "replace");
      case "1.0/remove":
        return dbRemove(this.tx, this.host.catalog, args);
      case "1.0/queryStreamNext":
        if (containedOnly && !this.queriesOrThrow().isContained(args.queryId)) return undefined;
        return this.queriesOrThrow().next(args.queryId);
      case "1.0/queryPage": {
        if (containedOnly && !this.queriesOrThrow().isContained(args.query)) return undefined;
        const page = queryPage(this.queriesOrThrow(), args, this.o);
        if (page.journal !== undefined) this.newJournal = page.journal;
        return page.json;
      }
      case "1.0/count":
        return JSON.stringify(this.queriesOrThrow().count(args.table));
      case "1.0/getUserIdentity": {
        // a bad Bearer token on an http action: Convex throws its verification error there
        const error = identityError(this.o.identity);
        if (error === undefined) return JSON.stringify(this.o.identity);
        if (this.o.kind === "httpAction" || this.o.kind === "action") throw new Error(error);
        return "null";
      }
      case "1.0/schedule": {
        const tx = this.tx;
        // Convex counts the `[args]` array scheduled by a mutation
        tx.metrics.schedule(2 + jsonValueSize(JSON.stringify(args.args ?? {})));
        return JSON.stringify(this.host.scheduler.schedule(tx, args));
      }
      case "1.0/cancel_job":
        this.host.scheduler.cancel(this.tx, args.id);
        return JSON.stringify({});
      case "1.0/storageGenerateUploadUrl":
        return JSON.stringify(this.host.files.generateUploadUrl());
      case "1.0/storageGetUrl":
        return this.o.tx ? JSON.stringify(this.host.files.storageUrl(this.o.tx, args.storageId)) : undefined;
      case "1.0/storageGetMetadata":
        return this.o.tx ? JSON.stringify(this.host.files.storageMetadata(this.o.tx, args.storageId)) : undefined;
      case "1.0/storageDelete":
        if (!this.o.tx) return undefined;
        this.host.files.deleteStorage(this.o.tx, args.storageId);
        return JSON.stringify({});
      case "1.0/getFunctionMetadata":
        return JSON.stringify({ name: this.o.fnPath, componentPath: "" });
      case "1.0/getRequestMetadata":
        if (this.o.kind === "query") {
          throw new Error("getRequestMetadata() can only be called from a mutation, action or HTTP action.");
        }
        return JSON.stringify({
          ip: null,
          userAgent: null,
          requestId: this.requestId,
          scheduledFunctionId: this.o.scheduledJobId ?? null,
          authToken: null,
        });
      case "1.0/getDeploymentMetadata":
        return JSON.stringify({ name: "local", region: null, class: "s16" });
      case "1.0/getTransactionMetrics":
        if (!this.o.tx) {
          throw new Error("getTransactionMetrics() can only be called from a query or mutation.");
        }
        return JSON.stringify(this.o.tx.metrics.toJson());
      case "1.0/createFunctionHandle": {
        const name = args.name ?? args.functionHandle;
        return JSON.stringify(`function://;${canonicalizePath(String(name))}`);
      }
      case "1.0/auditLog":
        return JSON.stringify(null);
      default:
        return undefined;
    }
  }

  /** The async syscalls that wait for something: nested calls, storage outside a transaction, vector search. */
  private async asyncOnly(op: string, args: any): Promise<string> {
    switch (op) {
      case "1.0/runUdf":
        return this.runUdf(args);
      case "1.0/actions/query":
        return this.actionCall("query", args);
      case "1.0/actions/mutation":
        return this.actionCall("mutation", args);
      case "1.0/actions/action":
        return this.actionCall("action", args);
      case "1.0/actions/schedule":
        this.requireAction(op);
        return JSON.stringify(await this.host.systemWrite((tx) => this.host.scheduler.schedule(tx, args)));
      case "1.0/actions/cancel_job":
        this.requireAction(op);
        await this.host.systemWrite((tx) => this.host.scheduler.cancel(tx, args.id));
        return JSON.stringify({});
      case "1.0/storageGetUrl":
        return JSON.stringify(await this.withReadTx((tx) => this.host.files.storageUrl(tx, args.storageId)));
      case "1.0/storageGetMetadata":
        return JSON.stringify(await this.withReadTx((tx) => this.host.files.storageMetadata(tx, args.storageId)));
      case "1.0/storageDelete":
        await this.host.systemWrite((tx) => this.host.files.deleteStorage(tx, args.storageId));
        return JSON.stringify({});
      case "1.0/storageStore": {
        this.requireAction(op);
        const bytes = Buffer.from(args.blob as string, "base64");
        return JSON.stringify(
          await this.host.files.storeBytes(bytes, (args.contentType as string) || null, args.sha256),
        );
      }
      case "1.0/storageGet": {
        this.requireAction(op);
        const blob = await this.host.files.getStorageBlob(args.storageId);
        return JSON.stringify(
          blob ? { blob: Buffer.from(blob.body).toString("base64"), contentType: blob.contentType } : null,
        );
      }
      case "1.0/actions/vectorSearch":
        this.requireAction(op);
        return JSON.stringify(await this.host.vectorSearch(args.query));
      default:
        throw new Error(`Unknown async syscall "${op}"`);
    }
  }

  jsSyscall(op: string, args: Record<string, unknown>): unknown {
    switch (op) {
      case "storage/storeBlob": {
        const blob = args.blob as Blob;
        return (async () => {
          const bytes = new Uint8Array(await blob.arrayBuffer());
          const sha = (args.options as { sha256?: string } | undefined)?.sha256;
          return this.host.files.storeBytes(bytes, blob.type || null, sha);
        })();
      }
      case "storage/getBlob":
        return (async () => {
          const r = await this.host.files.getStorageBlob(args.storageId as string);
          if (!r) return null;
          return new Blob([new Uint8Array(r.body)], { type: r.contentType ?? "" });
        })();
      default:
        throw new Error(`Unknown JS syscall "${op}"`);
    }
  }

  private requireAction(op: string) {
    if (this.o.kind !== "action" && this.o.kind !== "httpAction") throw new Error(`${op} can only be used in actions.`);
  }

  private async withReadTx<T>(fn: (tx: Tx) => T): Promise<T> {
    if (this.o.tx) return fn(this.o.tx);
    return this.host.withReadLock(() => fn(this.host.readTx()));
  }

  private async runUdf(args: {
    udfType: string;
    name?: string;
    functionHandle?: string;
    args: JSONValue;
  }): Promise<string> {
    const name =
      args.name ?? (args.functionHandle ? args.functionHandle.replace(/^function:\/\/[^;]*;/, "") : undefined);
    if (!name) throw new Error("runUdf requires a function name");
    const kind = args.udfType === "mutation" ? "mutation" : "query";
    if (kind === "mutation" && this.o.kind !== "mutation")
      throw new Error("ctx.runMutation can only be called from mutations.");
    try {
      const value = await this.host.calls.runNested(
        this.o,
        kind,
        canonicalizePath(name),
        args.args,
        args.udfType === "snapshotQuery",
      );
      return JSON.stringify(value);
    } catch (e) {
      throw toNestedError(e);
    }
  }

  private async actionCall(
    kind: "query" | "mutation" | "action",
    args: { name?: string; functionHandle?: string; args: JSONValue },
  ) {
    this.requireAction(`ctx.run${kind[0].toUpperCase()}${kind.slice(1)}`);
    const name =
      args.name ?? (args.functionHandle ? args.functionHandle.replace(/^function:\/\/[^;]*;/, "") : undefined);
    if (!name) throw new Error("Function reference without a name");
    const path = canonicalizePath(name);
    // queries and mutations called with an unverified identity see none (Convex: Identity::Unknown)
    const identity = kind !== "action" && identityError(this.o.identity) !== undefined ? null : this.o.identity;
    const req = { path, args: args.args, identity };
    let out: { outcome: FunctionOutcome };
    if (kind === "query") out = await this.host.calls.runQueryTop(req, null, this.o.logLines, this.o.depth + 1);
    else if (kind === "mutation")
      out = await this.host.calls.runMutationTop(req, { logLines: this.o.logLines, internalAllowed: true });
    else
      out = await this.host.calls.runActionTop(req, {
        logLines: this.o.logLines,
        internalAllowed: true,
        depth: this.o.depth + 1,
      });
    if (out.outcome.status === "success") return JSON.stringify(out.outcome.value);
    const o = out.outcome;
    if (o.errorData !== undefined)
      throw new NestedCallError(o.errorMessage.replace(/^Uncaught ConvexError: /, ""), o.errorData);
    throw new NestedCallError(o.errorMessage.replace(/^Uncaught Error: /, ""));
  }
}
