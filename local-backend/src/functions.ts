/**
 * Function execution: resolving a path to a loaded function (visibility, kind), argument and
 * return validation, invoking it inside its run's scope, and the top-level runs: queries under
 * the read lock, mutations optimistically up to a validated commit (pipelined: the outcome is
 * reported once the writes are stored), actions, http actions, nested calls and ad-hoc mutations.
 * Heavy top-level queries and mutations run in the action pool's workers (placement.ts).
 */
import { convexToJson, jsonToConvex, type JSONValue, type Value } from "convex/values";
import fs from "node:fs";
import type { CommitPipeline } from "./commit.js";
import type { CallRequest, FunctionOutcome, PipelinedMutation, QueryResult, UserIdentity } from "./engine-api.js";
import type {
  ActionRunOptions,
  FunctionCalls,
  MutationRunOptions,
  MutationRunResult,
  RunKind,
  RunOptions,
  SyscallHost,
} from "./engine-host.js";
import type { FileStorage } from "./file-storage.js";
import { CANONICAL, PLAIN, jsonShape } from "./json-shape.js";
import {
  MAX_RESULT_SIZE,
  NODE_ACTION_TIMEOUT_MS,
  V8_ACTION_TIMEOUT_MS,
  messages,
  type TransactionLimits,
} from "./limits.js";
import { canonicalizePath, type RegisteredFunction } from "./loader.js";
import type { FunctionModules } from "./modules.js";
import { httpActionErrorResponse } from "./http-action-error.js";
import { PlatformError, SystemError, nestedFromFailure, newRequestId, strippedPath, toFailure } from "./outcome.js";
import { Placement, type PlacementMode } from "./placement.js";
import { INITIAL_PATIENCE, MAX_PATIENCE, PreemptedError } from "./realm-exec.js";
import { installRuntime, runScopes } from "./runtime.js";
import { Run, runTx } from "./syscalls.js";
import type { Tx } from "./transaction.js";
import { TxMetrics, type TransactionStatsRecorder } from "./tx-metrics.js";
import { checkValue } from "./validators.js";
import { jsonValueSize } from "./value-size.js";

const MAX_ARGS_BYTES = 8 * 1024 * 1024;
/** optimistic runs of a mutation before it runs holding the write lock */
export const OPTIMISTIC_ATTEMPTS = 4;

/** What function execution needs besides the syscall host its runs get. */
export type FunctionRunnerDeps = {
  commits: CommitPipeline;
  modules: Pick<FunctionModules, "lookup" | "httpRouter" | "nodeExecutor" | "actionPool" | "httpModule">;
  /** ad-hoc mutations store and read files inside their transaction */
  files: Pick<FileStorage, "storeInTx" | "getInTx">;
  /** what every run's syscalls use; `calls` is this runner */
  services: Omit<SyscallHost, "calls">;
  /** the limits of each query and mutation (Convex's, or relaxed ones for benchmarks) */
  limits: TransactionLimits;
  /** the largest usage per transaction (Engine.transactionStats) */
  stats: TransactionStatsRecorder;
  /** tests only: actions' time limits instead of Convex's (EngineOptions.actionTimeoutsMs) */
  actionTimeoutsMs?: { v8?: number; node?: number };
  /** where top-level queries and mutations run (EngineOptions.functionPlacement) */
  placement?: PlacementMode;
};

/** A run still preempted at the most patience fails with the time-out it would have had. */
function preemptedAtLast(e: unknown): unknown {
  return e instanceof PreemptedError ? new SystemError(messages.timeout(e.limitMs)) : e;
}

/** A nested call from an action failed: the caller's `ctx.run*` rejects with the callee's error (outcome.ts). */
function throwIfFailed(outcome: FunctionOutcome): void {
  if (outcome.status === "error") throw nestedFromFailure(outcome);
}

export class FunctionRunner implements FunctionCalls {
  private readonly commits: CommitPipeline;
  private readonly modules: Pick<
    FunctionModules,
    "lookup" | "httpRouter" | "nodeExecutor" | "actionPool" | "httpModule"
  >;
  private readonly files: Pick<FileStorage, "storeInTx" | "getInTx">;
  private readonly host: SyscallHost;
  private readonly limits: TransactionLimits;
  private readonly stats: TransactionStatsRecorder;

  constructor(deps: FunctionRunnerDeps) {
    this.commits = deps.commits;
    this.modules = deps.modules;
    this.files = deps.files;
    // Runs' nested calls from actions reject with the callee's error, as Convex's do.
    const calls: FunctionCalls = {
      runNested: (parent, kind, p, args, snapshot) => this.runNested(parent, kind, p, args, snapshot),
      runQueryTop: async (req, journal, logLines, depth) => {
        const r = await this.runQueryTop(req, journal, logLines, depth);
        throwIfFailed(r.outcome);
        return r;
      },
      runMutationTop: async (req, o) => {
        const r = await this.runMutationTop(req, o);
        throwIfFailed(r.outcome);
        return r;
      },
      runActionTop: async (req, o) => {
        const r = await this.runActionTop(req, o);
        throwIfFailed(r.outcome);
        return r;
      },
    };
    this.host = { ...deps.services, calls };
    this.limits = deps.limits;
    this.stats = deps.stats;
    this.placement = new Placement(deps.placement);
    this.actionTimeouts = {
      v8: deps.actionTimeoutsMs?.v8 ?? V8_ACTION_TIMEOUT_MS,
      node: deps.actionTimeoutsMs?.node ?? NODE_ACTION_TIMEOUT_MS,
    };
  }

  private readonly actionTimeouts: { v8: number; node: number };

  /** A transaction of a top-level query or mutation, with its limits. */
  private limited(tx: Tx): Tx {
    tx.metrics = new TxMetrics(this.limits);
    return tx;
  }

  /**
   * Runs a top-level query or mutation's function with its transaction's usage counted, and
   * records the usage of a successful one in the engine's stats.
   */
  private async invokeCounted(f: RegisteredFunction, args: Value, run: Run, tx: Tx): Promise<JSONValue> {
    const start = performance.now();
    tx.metrics.active = true;
    let value: JSONValue;
    try {
      const invoked = this.invoke(f, args, run);
      args = null;
      value = await invoked;
    } finally {
      tx.metrics.active = false;
    }
    const executionMs = run.o.exec ? run.o.exec.userMs : performance.now() - start;
    this.stats.record(
      f.kind === "query" ? "query" : "mutation",
      f.path,
      tx.metrics.usage(),
      Math.round(executionMs * 10) / 10,
    );
    return value;
  }

  /** JSON text of checked arguments whose JSON form was already canonical (see checkArgs). */
  private argsText = new WeakMap<object, string>();

  private checkArgs(f: RegisteredFunction, argsJson: JSONValue): Value {
    return this.checkArgsText(f, argsJson).args;
  }

  /** checkArgs, with the arguments' JSON text (what another attempt of a mutation parses again) */
  private checkArgsText(f: RegisteredFunction, argsJson: JSONValue): { args: Value; text: string } {
    const text = JSON.stringify(argsJson ?? null);
    const size = text.length;
    if (size > MAX_ARGS_BYTES) {
      throw new SystemError(
        `ArgumentValidationError: Arguments for ${f.path} are too large (${size} bytes, maximum is ${MAX_ARGS_BYTES} bytes).`,
      );
    }
    let args: Value;
    if (argsJson !== null && typeof argsJson === "object" && !Array.isArray(argsJson)) {
      // In-process callers may pass `{x: undefined}`; over the wire that field would be absent.
      argsJson = Object.fromEntries(Object.entries(argsJson).filter(([, v]) => v !== undefined));
    }
    const shape = argsJson === null || argsJson === undefined ? 0 : jsonShape(argsJson);
    try {
      args = (shape & PLAIN) !== 0 ? argsJson : jsonToConvex(argsJson ?? {});
    } catch (e) {
      throw new SystemError(`ArgumentValidationError: Invalid arguments for ${f.path}: ${(e as Error).message}`);
    }
    if (args === null || typeof args !== "object" || Array.isArray(args) || args instanceof ArrayBuffer) {
      throw new SystemError(
        `ArgumentValidationError: The arguments to a Convex function must be an object. Received: ${JSON.stringify(argsJson)}`,
      );
    }
    if (f.args) {
      const err = checkValue(f.args, args, (id) => this.host.catalog.tableName(id));
      if (err) throw new SystemError(`ArgumentValidationError: ${err}`);
    }
    // When argsJson is already what convexToJson(args) would give, invoke() reuses its text.
    if ((shape & CANONICAL) !== 0) this.argsText.set(args, text);
    return { args, text };
  }

  private checkReturns(f: RegisteredFunction, resultJson: JSONValue) {
    if (!f.returns) return;
    const err = checkValue(f.returns, jsonToConvex(resultJson), (id) => this.host.catalog.tableName(id));
    if (err) throw new SystemError(`ReturnsValidationError: ${err}`);
  }

  private resolve(p: string, kind: RunKind, internalAllowed: boolean): RegisteredFunction {
    const f = this.modules.lookup(p);
    if (!f) {
      throw new SystemError(
        messages.functionNotFound(strippedPath(typeof p === "string" ? canonicalizePath(p) : String(p))),
      );
    }
    if (f.visibility === "internal" && !internalAllowed) {
      throw new SystemError(messages.functionNotFound(strippedPath(f.path)));
    }
    if (f.kind !== kind) {
      throw new SystemError(
        `Trying to execute ${f.path.replace(/:([^:]*)$/, ".js:$1")} as ${kind === "action" ? "Action" : kind === "query" ? "Query" : "Mutation"}, but it is defined as ${f.kind === "action" ? "Action" : f.kind === "query" ? "Query" : f.kind === "mutation" ? "Mutation" : "HttpAction"}.`,
      );
    }
    return f;
  }

  private async invoke(f: RegisteredFunction, args: Value, run: Run): Promise<JSONValue> {
    installRuntime();
    const known = typeof args === "object" && args !== null ? this.argsText.get(args) : undefined;
    const argsStr = known !== undefined ? `[${known}]` : JSON.stringify([convexToJson(args)]);
    // the function gets the text: nothing here holds the objects while it runs
    args = null;
    const resultStr = await this.execute(f, argsStr, run);
    // FUNCTION_MAX_RESULT_SIZE (a Convex size is at most 9 bytes per JSON character)
    if (resultStr.length * 9 > MAX_RESULT_SIZE) {
      const size = jsonValueSize(resultStr);
      if (size > MAX_RESULT_SIZE) throw new SystemError(messages.resultTooLarge(f.path, size));
    }
    const result = JSON.parse(resultStr) as JSONValue;
    this.checkReturns(f, result);
    return result;
  }

  /** Runs the function where it runs; resolves with its JSON result. */
  private async execute(f: RegisteredFunction, argsStr: string, run: Run): Promise<string> {
    if (f.realm && (f.kind === "query" || f.kind === "mutation")) {
      // In the function realm: stopped after the execution time limit (realm-exec.ts). Its pumps
      // name the run whose code they run.
      const limitMs = run.o.tx?.metrics.limits.executionTimeMs ?? this.limits.executionTimeMs;
      const patience = run.o.patience ?? INITIAL_PATIENCE;
      const pool = this.modules.actionPool();
      // a top-level one whose own work is heavy: in a worker's realm (placement.ts)
      const pooled = run.o.depth === 0 && pool.hasRealm() && this.placement.pooled(f.path);
      // one heavy function per worker at a time (it is CPU-bound), begun once it has its worker
      const slot = pooled ? await pool.realmSlot() : null;
      try {
        await run.o.begin?.();
        if (pooled) return await pool.invokeRealm(run, f.kind, f.path, argsStr, limitMs, patience);
        return await f.realm.realm.invoke(run, f.kind, f.realm.fn, argsStr, limitMs, run.o.parentExec ?? null, patience)
          .result;
      } finally {
        const exec = run.o.exec;
        if (run.o.depth === 0 && exec) this.placement.record(f.path, exec.userMs, exec.syscalls);
        if (pooled) this.pooledRuns++;
        slot?.();
      }
    }
    // without the realm (it could not be built): in Node's realm, scoped by an AsyncLocalStorage
    if (f.kind === "query") return await runScopes.run(run.scope, () => f.fn.invokeQuery(argsStr));
    if (f.kind === "mutation") return await runScopes.run(run.scope, () => f.fn.invokeMutation(argsStr));
    // Actions run in workers, which scope them; their calls back come with their run.
    // "use node": in a worker of the node executor, isolated from the engine, 10 minutes
    if (f.node) return await this.modules.nodeExecutor().invoke(run, f.node, argsStr, this.actionTimeouts.node);
    // Convex's runtime: in the action pool, off the engine's thread; V8_ACTION_USER_TIMEOUT,
    // reported like a query's timeout
    const limit = this.actionTimeouts.v8;
    if (!f.pooled) throw new SystemError(`${f.path} has no bundled module to run`);
    return await this.modules.actionPool().invoke(run, f.pooled, argsStr, limit, run.o.depth > 0);
  }

  /** Nested ctx.runQuery / ctx.runMutation inside a query or mutation: same transaction. */
  async runNested(
    parent: RunOptions,
    kind: "query" | "mutation",
    p: string,
    argsJson: JSONValue,
    snapshot: boolean,
  ): Promise<JSONValue> {
    const f = this.resolve(p, kind, true);
    const args = this.checkArgs(f, argsJson);
    const parentTx = runTx(parent);
    let tx = parentTx;
    if (snapshot) {
      tx = this.commits.readTx();
      // its reads count toward the calling transaction
      tx.metrics = parentTx.metrics;
    }
    const run = new Run(this.host, {
      kind,
      fnPath: f.path,
      identity: parent.identity,
      tx,
      logLines: parent.logLines,
      depth: parent.depth + 1,
      scheduledJobId: parent.scheduledJobId,
      parentExec: parent.exec ?? null,
      patience: parent.patience,
    });
    const writes = kind === "mutation" ? tx.metrics.writeUsage() : null;
    if (kind === "mutation") tx.pushLayer();
    try {
      const value = await this.invoke(f, args, run);
      if (kind === "mutation") tx.popLayer(true);
      return value;
    } catch (e) {
      if (kind === "mutation") tx.popLayer(false);
      // its writes are undone, so they no longer count (its reads still do)
      if (writes) tx.metrics.restoreWrites(writes);
      throw e;
    } finally {
      if (tx !== parentTx) parentTx.readSet.merge(tx.finishReads());
    }
  }

  async runQuery(req: CallRequest & { journal?: string | null }): Promise<QueryResult> {
    let journal: { endCursor: string | null } | null = null;
    if (req.journal) {
      try {
        const parsed = JSON.parse(req.journal);
        if (parsed && typeof parsed.endCursor === "string") journal = { endCursor: parsed.endCursor };
      } catch {
        journal = null;
      }
    }
    return this.runQueryTop(req, journal, [], 0, req.internal === true);
  }

  async runQueryTop(
    req: CallRequest,
    journal: { endCursor: string | null } | null,
    logLines: string[],
    depth: number,
    internalAllowed = true,
  ): Promise<QueryResult> {
    const logsBefore = logLines.length;
    for (let patience = INITIAL_PATIENCE, conflicts = 0; ;) {
      // Optimistic, like a mutation: no lock, so a long query never holds a commit back; a commit
      // made meanwhile that wrote what it read makes it run again. After OPTIMISTIC_ATTEMPTS
      // conflicts it runs holding the read lock (no commit happens meanwhile).
      const locked = conflicts >= OPTIMISTIC_ATTEMPTS;
      const release = locked ? await this.commits.lock.read() : null;
      const optimistic = locked ? null : this.commits.beginOptimistic(false);
      const tx = this.limited(optimistic ? optimistic.tx : this.commits.readTx());
      let outcome: FunctionOutcome;
      let newJournal: string | null = null;
      try {
        this.commits.assertOpen();
        const f = this.resolve(req.path, "query", internalAllowed);
        const args = this.checkArgs(f, req.args);
        const begin = optimistic ? () => this.commits.rebase(optimistic) : undefined;
        const run = new Run(this.host, {
          kind: "query",
          fnPath: f.path,
          identity: req.identity,
          tx,
          logLines,
          journal,
          depth,
          patience,
          begin,
        });
        const value = await this.invokeCounted(f, args, run, tx);
        newJournal = run.newJournal;
        outcome = { status: "success", value, logLines };
      } catch (e) {
        if (this.runAgain(e, patience, logLines, logsBefore)) {
          if (optimistic) this.commits.endOptimistic(optimistic);
          patience = (e as PreemptedError).nextPatience(patience);
          continue;
        }
        outcome = { status: "error", ...toFailure(preemptedAtLast(e)), logLines };
      } finally {
        release?.();
      }
      // the result as of its start: nothing committed since changed what it read
      const ts = optimistic ? optimistic.ts : this.commits.currentTs();
      if (optimistic) {
        const valid = this.commits.validate(optimistic);
        this.commits.endOptimistic(optimistic);
        if (!valid) {
          conflicts++;
          this.conflicts++;
          logLines.length = logsBefore;
          continue;
        }
      }
      // The result may rest on committed writes still being stored.
      if (tx.base.length > 0) outcome = await this.onceStored(this.commits.durable(), outcome);
      return { outcome, readSet: tx.finishReads(), ts, journal: newJournal };
    }
  }

  /**
   * Whether a top-level query or mutation that failed with `e` is run again: it was preempted (its
   * watchdog fired while the machine kept it waiting, realm-exec.ts) and may have more patience.
   * Its log lines of the stopped run are dropped.
   */
  private runAgain(e: unknown, patience: number, logLines: string[], logsBefore: number): boolean {
    if (!(e instanceof PreemptedError) || patience >= MAX_PATIENCE) return false;
    logLines.length = logsBefore;
    this.preemptions++;
    return true;
  }

  /** top-level queries and mutations run again after a preemption (tests read it) */
  preemptions = 0;
  /** optimistic mutation runs that found a conflict at commit and ran again (tests read it) */
  conflicts = 0;
  /** mutations run holding the write lock after OPTIMISTIC_ATTEMPTS conflicts */
  exclusiveRuns = 0;
  /** top-level queries and mutations run in a worker of the action pool (placement.ts) */
  pooledRuns = 0;
  private readonly placement: Placement;

  async runMutation(req: CallRequest): Promise<{ outcome: FunctionOutcome; ts: bigint }> {
    return this.runMutationTop(req, { logLines: [], internalAllowed: req.internal === true });
  }

  async runMutationTop(req: CallRequest, o: MutationRunOptions): Promise<MutationRunResult> {
    const { durable, ...r } = await this.runMutationCommitted(req, o);
    const outcome = await this.onceStored(durable, r.outcome);
    return outcome === r.outcome ? r : { outcome, ts: this.commits.currentTs() };
  }

  /**
   * A client's mutation over the sync protocol. It takes `req.args` over (the session's message
   * holds them no longer): an import batch's arguments are thousands of rows, which should die
   * young rather than be copied by every collection while the batch runs.
   */
  async runMutationPipelined(req: CallRequest): Promise<PipelinedMutation> {
    const args = { json: req.args };
    req.args = null;
    const { durable, ...r } = await this.runMutationCommitted(
      req,
      { logLines: [], internalAllowed: req.internal === true },
      args,
    );
    const result = this.onceStored(durable, r.outcome).then((outcome) =>
      outcome === r.outcome ? r : { outcome, ts: this.commits.currentTs() },
    );
    return { result };
  }

  /** `outcome` once the writes it rests on are stored; an error outcome if storing them failed. */
  private async onceStored(durable: Promise<void>, outcome: FunctionOutcome): Promise<FunctionOutcome> {
    try {
      await durable;
      return outcome;
    } catch (e) {
      return { status: "error", ...toFailure(e), logLines: outcome.logLines };
    }
  }

  /**
   * Runs a mutation up to its commit: `durable` resolves once everything it committed or read is
   * stored; nobody may hear of the outcome before.
   *
   * Optimistic concurrency, as Convex runs mutations: a mutation runs without any lock, beside
   * queries and other mutations, recording what it reads. At its end it takes the write lock
   * (briefly: running queries finish first) and commits only if no commit made meanwhile wrote
   * anything it read (commit.ts validate); otherwise it runs again from its start. After
   * `OPTIMISTIC_ATTEMPTS` conflicts it runs once more holding the right to commit throughout
   * (nothing else commits; queries go on), so a mutation under heavy contention still finishes.
   * A failed mutation is validated too: its error may rest on a read a concurrent commit changed.
   */
  private async runMutationCommitted(
    req: CallRequest,
    o: MutationRunOptions,
    /** the arguments when taken over (see runMutationPipelined): dropped once an attempt holds their text */
    taken: { json: JSONValue | null } = { json: req.args },
  ): Promise<MutationRunResult & { durable: Promise<void> }> {
    let argsRetry: string | null = null;
    const logLines = o.logLines;
    const logsBefore = logLines.length;
    let result: MutationRunResult | null = null;
    for (let patience = INITIAL_PATIENCE, conflicts = 0; result === null;) {
      const exclusive = conflicts >= OPTIMISTIC_ATTEMPTS;
      // run exclusively: nothing else commits from its start (queries go on); its commit takes the lock
      /** what this attempt holds: the right to commit for its run (exclusive), the write section for its commit */
      const held: { run: (() => void) | null; commit: (() => void) | null } = { run: null, commit: null };
      if (exclusive) this.exclusiveRuns++;
      const optimistic = exclusive ? null : this.commits.beginOptimistic();
      let exclusiveTx: Tx | null = null;
      const begin: () => Promise<void> = optimistic
        ? async () => this.commits.rebase(optimistic)
        : async () => {
            if (held.run) return;
            held.run = await this.commits.gate.write();
            // it begins now: what was committed while it waited is what it reads through
            if (exclusiveTx?.untouched()) exclusiveTx.rebase();
          };
      let run: Run | null = null;
      /** the optimistic run saw a state a concurrent commit changed: run it again */
      const stale = async () => {
        if (!optimistic) return false;
        held.commit = await this.commits.writeSection();
        if (this.commits.validate(optimistic)) return false;
        conflicts++;
        this.conflicts++;
        logLines.length = logsBefore;
        return true;
      };
      try {
        this.commits.assertOpen();
        const f = this.resolve(req.path, "mutation", o.internalAllowed);
        let args: Value;
        ({ args, text: argsRetry } = this.checkArgsText(
          f,
          argsRetry === null ? taken.json : (JSON.parse(argsRetry) as JSONValue),
        ));
        taken.json = null;
        const tx = this.limited(optimistic ? optimistic.tx : this.commits.writeTx());
        if (!optimistic) exclusiveTx = tx;
        if (o.prepare) await begin();
        if (o.prepare && !o.prepare(tx)) {
          if (await stale()) continue;
          result = {
            outcome: { status: "success", value: null, logLines },
            ts: this.commits.currentTs(),
            skipped: true,
          };
        } else {
          run = new Run(this.host, {
            kind: "mutation",
            fnPath: f.path,
            identity: req.identity,
            tx,
            logLines,
            depth: 0,
            scheduledJobId: o.scheduledJobId ?? null,
            patience,
            begin,
          });
          // outside the function realm nothing calls begin (invoke does, for realm functions)
          if (!f.realm) await begin();
          const invoked = this.invokeCounted(f, args, run, tx);
          args = null;
          const value = await invoked;
          if (run.platformError) throw run.platformError;
          if (optimistic) await this.commits.admit(tx);
          if (await stale()) continue;
          if (exclusive) held.commit = await this.commits.lock.write();
          o.onSuccess?.(tx);
          const ts = this.commits.commit(tx);
          result = { outcome: { status: "success", value, logLines }, ts };
        }
      } catch (e) {
        // the platform's failure, not the function's: its transaction is dropped, the caller hears of it
        const platform = e instanceof PlatformError ? e : run?.platformError;
        if (platform) throw platform;
        // a preempted mutation's transaction is dropped unwritten; it runs again from its start
        if (this.runAgain(e, patience, logLines, logsBefore)) {
          patience = (e as PreemptedError).nextPatience(patience);
          continue;
        }
        if (held.commit === null && (await stale())) continue;
        result = {
          outcome: { status: "error", ...toFailure(preemptedAtLast(e)), logLines },
          ts: this.commits.currentTs(),
        };
      } finally {
        held.commit?.();
        held.run?.();
        if (optimistic) this.commits.endOptimistic(optimistic);
      }
    }
    const durable = this.commits.durable();
    durable.catch(() => undefined);
    return { ...result, durable };
  }

  async runAction(req: CallRequest): Promise<{ outcome: FunctionOutcome }> {
    return this.runActionTop(req, { logLines: [], internalAllowed: req.internal === true, depth: 0 });
  }

  async runActionTop(req: CallRequest, o: ActionRunOptions): Promise<{ outcome: FunctionOutcome }> {
    const logLines = o.logLines;
    try {
      this.commits.assertOpen();
      const f = this.resolve(req.path, "action", o.internalAllowed);
      const args = this.checkArgs(f, req.args);
      const run = new Run(this.host, {
        kind: "action",
        fnPath: f.path,
        identity: req.identity,
        tx: null,
        logLines,
        depth: o.depth,
        scheduledJobId: o.scheduledJobId ?? null,
      });
      const value = await this.invoke(f, args, run);
      return { outcome: { status: "success", value, logLines } };
    } catch (e) {
      return { outcome: { status: "error", ...toFailure(e), logLines } };
    }
  }

  async runHttpAction(request: Request, identity: UserIdentity | null = null): Promise<Response> {
    const router = this.modules.httpRouter();
    const url = new URL(request.url);
    const match = router && typeof router.lookup === "function" ? router.lookup(url.pathname, request.method) : null;
    if (!match) return new Response(`No HttpAction routed for ${url.pathname}`, { status: 404 });
    const [, method, routePath] = match as [unknown, string, string];
    const fnPath = `${method} ${routePath}`;
    const logLines: string[] = [];
    const run = new Run(this.host, { kind: "httpAction", fnPath, identity, tx: null, logLines, depth: 0 });
    try {
      this.commits.assertOpen();
      const limit = this.actionTimeouts.v8;
      const pooled = this.modules.httpModule();
      if (!pooled) return new Response(`No HttpAction routed for ${url.pathname}`, { status: 404 });
      const body =
        request.method === "GET" || request.method === "HEAD" ? null : new Uint8Array(await request.arrayBuffer());
      const wire = { url: request.url, method: request.method, headers: [...request.headers], body };
      const r = await this.modules.actionPool().invokeHttp(run, pooled.file, pooled.bundleDir, wire, limit);
      if (r === "no route") return new Response(`No HttpAction routed for ${url.pathname}`, { status: 404 });
      if (r === "not a response")
        return new Response(`Http action ${fnPath} did not return a Response`, { status: 500 });
      return new Response(
        r.status === 204 || r.status === 304 || request.method === "HEAD" ? null : new Uint8Array(r.body),
        {
          status: r.status,
          statusText: r.statusText,
          headers: r.headers,
        },
      );
    } catch (e) {
      const failure = toFailure(e);
      this.host.emitLog(`${fnPath} [ERROR] ${failure.errorMessage}`);
      // Convex's JSON body: code with the request id, trace, a ConvexError's data
      return httpActionErrorResponse(failure, newRequestId());
    }
  }

  /**
   * Runs `fn`, a mutation built with convex/server's `mutationGeneric` that is not one of the
   * loaded modules, as a top-level mutation. Its ctx may also use the action-only `storage.store`
   * / `storage.get` (convex-test's `t.run` ctx offers them): a stored file joins the transaction
   * and is removed again when the mutation fails.
   */
  async runAdhocMutation(
    fn: { invokeMutation(args: string): Promise<string> },
    identity: UserIdentity | null = null,
  ): Promise<FunctionOutcome> {
    const release = await this.commits.writeSection();
    const logLines: string[] = [];
    const files: string[] = [];
    let outcome: FunctionOutcome;
    try {
      this.commits.assertOpen();
      const tx = this.commits.writeTx();
      // Test tooling, like convex-test's `t.run`: usage is counted (functions it calls see it), never refused.
      tx.metrics = new TxMetrics(this.limits, false);
      tx.metrics.active = true;
      const f: RegisteredFunction = {
        path: "_adhoc:run",
        kind: "mutation",
        visibility: "internal",
        fn,
        args: null,
        returns: null,
      };
      const run = new Run(this.host, { kind: "mutation", fnPath: f.path, identity, tx, logLines, depth: 0 });
      const asyncSyscall = run.asyncSyscall.bind(run);
      run.asyncSyscall = async (op, argsStr) => {
        if (op !== "1.0/storageStore" && op !== "1.0/storageGet") return asyncSyscall(op, argsStr);
        const a = JSON.parse(argsStr);
        if (op === "1.0/storageGet") return JSON.stringify(this.files.getInTx(tx, a.storageId));
        return JSON.stringify(this.files.storeInTx(tx, a, files));
      };
      const value = await this.invoke(f, {}, run);
      this.commits.commit(tx);
      files.length = 0;
      outcome = { status: "success", value, logLines };
    } catch (e) {
      return { status: "error", ...toFailure(e), logLines };
    } finally {
      for (const file of files) fs.rmSync(file, { force: true });
      release();
    }
    return this.onceStored(this.commits.durable(), outcome);
  }
}
