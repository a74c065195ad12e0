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
import { Worker } from "node:worker_threads";
import type { FromActionWorker, ToActionWorker, WireRequest, WireResponse } from "./action-worker.js";
import { bundleWorkerScript, EXECUTE_TIMEOUT_MESSAGE, type NodeRun } from "./node-executor.js";
import { FailureError, type Failure } from "./outcome.js";
import { RawLogText } from "./runtime.js";
import { answerCall } from "./worker-bridge.js";

/** invocations a worker runs at once before top-level calls wait */
export const PER_WORKER = 32;

/** An action's module as bundled for Node (loader.ts). */
export type BundledAction = { file: string; exportName: string; modulePath: string; bundleDir: string };

type Invocation = {
  run: NodeRun;
  timer: NodeJS.Timeout;
  settle(r: { ok: true; value: unknown } | { ok: false; failure: Failure }): void;
};

class PoolWorker {
  readonly worker: Worker;
  readonly ready: Promise<void>;
  readonly inflight = new Map<number, Invocation>();
  dead = false;
  retired = false;

  constructor(script: string, onMessage: (w: PoolWorker, m: FromActionWorker) => void, onGone: (w: PoolWorker, why: string) => void) {
    this.worker = new Worker(script, { execArgv: [], stdout: false, stderr: false });
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
      const best = live.reduce<PoolWorker | null>((a, w) => (a === null || w.inflight.size < a.inflight.size ? w : a), null);
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

  private dispatch<T>(run: NodeRun, nested: boolean, timeoutMs: number, message: (id: number) => ToActionWorker): Promise<T> {
    return (async () => {
      const w = await this.acquire(nested);
      const id = ++this.nextId;
      w.worker.ref();
      return new Promise<T>((resolve, reject) => {
        // the worker fails the call at the limit itself; this fires only when it cannot (a busy loop)
        const timer = setTimeout(() => this.stuck(w, id), timeoutMs + Math.min(timeoutMs, 5_000));
        w.inflight.set(id, {
          run,
          timer,
          settle: (r) => (r.ok ? resolve(r.value as T) : reject(new FailureError(r.failure))),
        });
        w.post(message(id));
      });
    })();
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
  invokeHttp(run: NodeRun, file: string, bundleDir: string, request: WireRequest, timeoutMs: number): Promise<WireResponse | "no route" | "not a response"> {
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

  private finish(w: PoolWorker, id: number, r: { ok: true; value: unknown } | { ok: false; failure: Failure }): void {
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
        void answerCall(w.inflight.get(m.id)?.run, m).then((answer) => w.post({ type: "result", callId: m.callId, ...answer }));
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
