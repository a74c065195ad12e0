/**
 * The action pool: actions and http actions of Convex's own runtime (modules without "use node")
 * run in `worker_threads` workers (action-worker.ts), never on the engine's thread, as Convex runs
 * them in isolates beside its database. A sign-in storm's password hashing, or any CPU-heavy
 * action, then takes other cores while queries, mutations and subscriptions go on.
 *
 * Sized to the machine: one worker per core the machine offers (os.availableParallelism()). A
 * worker runs many invocations at once (an action mostly awaits the engine or `fetch`); each call
 * goes to the least busy worker. Beyond `PER_WORKER` invocations on every worker, top-level calls
 * wait in order; a call made from inside an action (ctx.runAction) never waits, so an action that
 * waits on another can never deadlock the pool.
 *
 * Time limits are Convex's (30 minutes): the worker fails the invocation at the limit. A worker
 * that cannot even do that (a busy loop) is ended a little later, with every invocation it held.
 * A new build retires the workers (they end once idle); calls go to fresh ones.
 */
import os from "node:os";
import { MessageChannel, Worker } from "node:worker_threads";
import type { FromActionWorker, RealmSource, ToActionWorker, WireRequest, WireResponse } from "./action-worker.js";
import { bundleWorkerScript, EXECUTE_TIMEOUT_MESSAGE, type NodeRun } from "./node-executor.js";
import { FailureError, type Failure } from "./outcome.js";
import { PreemptedError, SLACK_MS } from "./realm-exec.js";
import { RawLogText, type RunExec } from "./runtime.js";
import {
  answerCall,
  answerSync,
  encodeError,
  FINISHED_MESSAGE,
  type CallAnswer,
  type SyncChannel,
} from "./worker-bridge.js";

/** invocations a worker runs at once before top-level calls wait */
const PER_WORKER = 32;

/** An action's module as bundled for Node (loader.ts). */
export type BundledAction = { file: string; exportName: string; modulePath: string; bundleDir: string };

/** A query's or mutation's run as the pool runs it (syscalls.ts `Run`): its syscalls stay on the engine. */
export interface RealmRun extends NodeRun {
  readonly now: number;
  readonly seed: number;
  syscall(op: string, args: string): string;
  asyncSyscallNow(op: string, args: string): string | undefined;
  setExec(exec: RunExec): void;
}

/** A query's or mutation's execution in a worker, as the engine sees it (its time comes with the result). */
export class RemoteExec implements RunExec {
  userMs = 0;
  syscalls = 0;
  /** set once the call is posted: ends it in its worker */
  abortRemote: ((message: string) => void) | null = null;
  abort(e: Error): void {
    this.abortRemote?.(e.message);
  }
}

type Outcome = { ok: true; value: unknown } | { ok: false; failure: Failure } | { ok: false; error: Error };

type Invocation = {
  run: NodeRun;
  timer: NodeJS.Timeout;
  /** a query or mutation: its stuck timer starts again at each of its syscalls (it is not stuck) */
  exec?: RemoteExec;
  settle(r: Outcome): void;
};

class PoolWorker {
  readonly worker: Worker;
  readonly ready: Promise<void>;
  readonly inflight = new Map<number, Invocation>();
  /** the engine's side of the worker's synchronous syscalls */
  readonly sync: SyncChannel;
  /** the realm bundle this worker was given (one per build: a new build retires the worker) */
  realmSent = false;
  dead = false;
  retired = false;

  constructor(
    script: string,
    onMessage: (w: PoolWorker, m: FromActionWorker) => void,
    onGone: (w: PoolWorker, why: string) => void,
  ) {
    const flag = new Int32Array(new SharedArrayBuffer(4));
    const { port1, port2 } = new MessageChannel();
    this.sync = { flag, port: port1 };
    this.worker = new Worker(script, {
      execArgv: [],
      stdout: false,
      stderr: false,
      workerData: { sync: { flag, port: port2 } },
      transferList: [port2],
    });
    this.worker.unref();
    this.ready = new Promise<void>((resolve, reject) => {
      this.worker.on("message", (m: FromActionWorker) => {
        if (m.type === "ready") resolve();
        else onMessage(this, m);
      });
      this.worker.once("exit", () => reject(new Error("The action worker did not start")));
    });
    this.ready.catch(() => undefined);
    this.worker.on("error", (e) => onGone(this, `Uncaught ${e instanceof Error ? e.message : String(e)}`));
    this.worker.on("exit", (code) => onGone(this, `The action worker ended (exit code ${code})`));
  }

  post(m: ToActionWorker): void {
    if (!this.dead) this.worker.postMessage(m);
  }
}

export type ActionPoolOptions = {
  functionsDir: string;
  emitLog(line: string): void;
  /** workers (default: the machine's cores) */
  size?: number;
};

export class ActionPool {
  private readonly workers: PoolWorker[] = [];
  private starting: Promise<PoolWorker> | null = null;
  private readonly waiting: Array<() => void> = [];
  private nextId = 0;
  private closed = false;
  private realm: RealmSource | null = null;
  readonly size: number;

  constructor(private readonly opts: ActionPoolOptions) {
    this.size = Math.max(1, opts.size ?? os.availableParallelism());
  }

  /**
   * Starts one worker ahead of the first call, importing `files` (the functions' env vars set);
   * the others start when the calls need them (a start imports the whole app: on a 2-core machine
   * warming every worker at once delayed the backend's start).
   */
  warm(files: string[], bundleDir: string, env: Record<string, string>): void {
    if (this.closed) return;
    void (async () => {
      try {
        const w = this.live()[0] ?? (await this.spawn());
        w.post({ type: "preload", files, env, bundleDir, functionsDir: this.opts.functionsDir });
      } catch (e) {
        this.opts.emitLog(`[action pool] could not start a worker: ${e instanceof Error ? e.message : String(e)}`);
      }
    })();
  }

  private live(): PoolWorker[] {
    return this.workers.filter((w) => !w.dead && !w.retired);
  }

  private async spawn(): Promise<PoolWorker> {
    // one start at a time, so a burst of calls does not start more workers than the pool's size
    if (this.starting) return this.starting;
    this.starting = (async () => {
      for (;;) {
        const script = await bundleWorkerScript("action-worker.ts");
        const w = new PoolWorker(
          script,
          (pw, m) => this.onMessage(pw, m),
          (pw, why) => this.onGone(pw, why),
        );
        this.workers.push(w);
        try {
          await w.ready;
          return w;
        } catch (e) {
          // a new build retired it while it started (an env change right after another): start
          // one for the new build instead
          if (!w.retired || this.closed) throw e;
        }
      }
    })();
    try {
      return await this.starting;
    } finally {
      this.starting = null;
    }
  }

  /** The least busy worker with room (or any, for a nested call); null when all are full. */
  private async pick(nested: boolean): Promise<PoolWorker | null> {
    for (;;) {
      const live = this.live();
      const best = live.reduce<PoolWorker | null>(
        (a, w) => (a === null || w.inflight.size < a.inflight.size ? w : a),
        null,
      );
      if (live.length < this.size && (best === null || best.inflight.size > 0)) {
        await this.spawn();
        continue;
      }
      if (best && (nested || best.inflight.size < PER_WORKER)) return best;
      return null;
    }
  }

  private async acquire(nested: boolean): Promise<PoolWorker> {
    for (;;) {
      if (this.closed) throw new Error("The backend is shutting down");
      const w = await this.pick(nested);
      if (w) return w;
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  private dispatch<T>(
    run: NodeRun,
    nested: boolean,
    timeoutMs: number,
    message: (id: number, w: PoolWorker) => ToActionWorker,
    exec?: RemoteExec,
  ): Promise<T> {
    return (async () => {
      const w = await this.acquire(nested);
      const id = ++this.nextId;
      w.worker.ref();
      return new Promise<T>((resolve, reject) => {
        // the worker fails the call at the limit itself; this fires only when it cannot (a busy loop)
        w.inflight.set(id, {
          run,
          timer: setTimeout(() => this.stuck(w, id), timeoutMs + Math.min(timeoutMs, 5_000)),
          exec,
          settle: (r) => (r.ok ? resolve(r.value as T) : reject("error" in r ? r.error : new FailureError(r.failure))),
        });
        w.post(message(id, w));
      });
    })();
  }

  private realmRunning = 0;
  private readonly realmWaiting: Array<() => void> = [];

  /**
   * A turn for a query or mutation: as many run at once as the pool has workers (they are
   * CPU-bound; more at once would only start their transactions long before they get a CPU).
   * Resolves to its release.
   */
  async realmSlot(): Promise<() => void> {
    if (this.realmRunning >= this.size) await new Promise<void>((resolve) => this.realmWaiting.push(resolve));
    else this.realmRunning++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.realmWaiting.shift();
      if (next) next();
      else this.realmRunning--;
    };
  }

  /** The build's function realm bundle, for queries and mutations run here (null: none). */
  setRealm(realm: RealmSource | null): void {
    this.realm = realm;
  }

  hasRealm(): boolean {
    return this.realm !== null && !this.closed;
  }

  /**
   * Runs a query or mutation of the function realm for `run` in a worker; resolves with its JSON
   * result text, rejects with its failure (a PreemptedError when the busy machine stopped it
   * before its own time was used, as on the engine's thread). Its execution time and syscall
   * count land on the run's exec (a RemoteExec).
   */
  invokeRealm(
    run: RealmRun,
    kind: "query" | "mutation",
    fnPath: string,
    argsStr: string,
    limitMs: number,
    patience: number,
  ): Promise<string> {
    const realm = this.realm;
    if (!realm) return Promise.reject(new Error("No function realm to run in the action pool"));
    const exec = new RemoteExec();
    run.setExec(exec);
    const colon = fnPath.lastIndexOf(":");
    // the worker's watchdog stops the function (realm-exec.ts); this only catches a worker that cannot
    const stuckAfter = limitMs * patience + SLACK_MS + 5_000;
    return this.dispatch<string>(
      run,
      false,
      stuckAfter,
      (id, w) => {
        if (!w.realmSent) {
          w.realmSent = true;
          w.post({ type: "realm", env: run.scope.env, ...realm });
        }
        exec.abortRemote = (message) => w.post({ type: "abort", id, message });
        return {
          type: "udf",
          id,
          kind,
          modulePath: fnPath.slice(0, colon),
          exportName: fnPath.slice(colon + 1),
          args: argsStr,
          requestId: run.requestId,
          env: run.scope.env,
          timeoutMs: limitMs,
          patience,
          now: run.now,
          seed: run.seed,
          functionsDir: this.opts.functionsDir,
        };
      },
      exec,
    );
  }

  /** Runs an action of Convex's runtime for `run`; resolves with its JSON result text. */
  invoke(run: NodeRun, action: BundledAction, argsStr: string, timeoutMs: number, nested: boolean): Promise<string> {
    return this.dispatch<string>(run, nested, timeoutMs, (id) => ({
      type: "action",
      id,
      file: action.file,
      exportName: action.exportName,
      modulePath: action.modulePath,
      args: argsStr,
      requestId: run.requestId,
      env: run.scope.env,
      timeoutMs,
      bundleDir: action.bundleDir,
      functionsDir: this.opts.functionsDir,
    }));
  }

  /** Runs the http router of `file` (the bundled http module) on `request` for `run`. */
  invokeHttp(
    run: NodeRun,
    file: string,
    bundleDir: string,
    request: WireRequest,
    timeoutMs: number,
  ): Promise<WireResponse | "no route" | "not a response"> {
    return this.dispatch(run, false, timeoutMs, (id) => ({
      type: "http",
      id,
      file,
      request,
      requestId: run.requestId,
      env: run.scope.env,
      timeoutMs,
      bundleDir,
      functionsDir: this.opts.functionsDir,
    }));
  }

  private finish(w: PoolWorker, id: number, r: Outcome): void {
    const inv = w.inflight.get(id);
    if (!inv) return;
    w.inflight.delete(id);
    clearTimeout(inv.timer);
    inv.settle(r);
    if (w.inflight.size === 0) {
      w.worker.unref();
      if (w.retired) this.end(w);
    }
    this.waiting.shift()?.();
  }

  /** A query or mutation that makes syscalls is not stuck: its timer starts again. */
  private notStuck(inv: Invocation | undefined): void {
    if (inv?.exec) inv.timer.refresh();
  }

  /** A call the worker did not fail at its limit: the worker is stuck; it ends with what it held. */
  private stuck(w: PoolWorker, id: number): void {
    if (!w.inflight.has(id)) return;
    this.finish(w, id, { ok: false, failure: { errorMessage: EXECUTE_TIMEOUT_MESSAGE } });
    this.onGone(w, "The action worker was stopped: an action in it did not give back the thread");
  }

  private onGone(w: PoolWorker, why: string): void {
    if (w.dead) return;
    for (const id of [...w.inflight.keys()]) this.finish(w, id, { ok: false, failure: { errorMessage: why } });
    this.end(w);
  }

  private end(w: PoolWorker): void {
    if (w.dead) return;
    w.dead = true;
    const i = this.workers.indexOf(w);
    if (i >= 0) this.workers.splice(i, 1);
    void w.worker.terminate();
    for (const wake of this.waiting.splice(0)) wake();
  }

  private onMessage(w: PoolWorker, m: FromActionWorker): void {
    switch (m.type) {
      case "call":
        this.notStuck(w.inflight.get(m.id));
        void answerCall(w.inflight.get(m.id)?.run, m).then((answer) =>
          w.post({ type: "result", callId: m.callId, ...answer }),
        );
        return;
      case "log":
        w.inflight.get(m.id)?.run.scope.log(m.level, [new RawLogText(m.text)]);
        return;
      case "done":
        this.finish(w, m.id, m.ok ? { ok: true, value: m.value } : { ok: false, failure: m.failure });
        return;
      case "httpDone":
        this.finish(w, m.id, m.ok ? { ok: true, value: m.response } : { ok: false, failure: m.failure });
        return;
      case "stray":
        this.opts.emitLog(`[action worker] ${m.text}`);
        return;
      case "sync": {
        const inv = w.inflight.get(m.id);
        this.notStuck(inv);
        const run = inv?.run as RealmRun | undefined;
        let answer: CallAnswer;
        if (!run) answer = { ok: false, message: FINISHED_MESSAGE };
        else {
          try {
            answer = {
              ok: true,
              value: m.kind === "syscall" ? run.syscall(m.op, m.args) : run.asyncSyscallNow(m.op, m.args),
            };
          } catch (e) {
            answer = encodeError(e);
          }
        }
        answerSync(w.sync, m.seq, answer);
        return;
      }
      case "udfDone": {
        const exec = w.inflight.get(m.id)?.exec;
        if (exec) {
          exec.userMs = m.userMs;
          exec.syscalls = m.syscalls;
        }
        if (m.ok) this.finish(w, m.id, { ok: true, value: m.value });
        else if (m.preempted)
          this.finish(w, m.id, { ok: false, error: new PreemptedError(m.preempted.limitMs, m.preempted.share) });
        else this.finish(w, m.id, { ok: false, failure: m.failure });
        return;
      }
    }
  }

  /** A new build: the workers holding the old one take no new calls and end once idle. */
  retire(): void {
    for (const w of this.live()) {
      w.retired = true;
      if (w.inflight.size === 0) this.end(w);
    }
  }

  /** Ends every worker; calls in flight fail. */
  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.workers];
    for (const w of all) this.onGone(w, "The backend is shutting down");
    for (const wake of this.waiting.splice(0)) wake();
    await Promise.all(all.map((w) => w.worker.terminate().catch(() => undefined)));
  }
}
