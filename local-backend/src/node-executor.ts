/**
 * The node executor: "use node" actions run in a pool of `worker_threads` workers
 * (node-executor-worker.ts), one action per worker at a time, as Convex runs each in a Node
 * process of its own. What a worker does to itself (a callback that throws, an unhandled
 * rejection, `process.exit()`, a stuck promise) fails only the action it was running; the engine,
 * its subscriptions and the other actions go on, and the worker is replaced.
 *
 * Syscalls (ctx.runQuery/runMutation/runAction, auth, scheduler, storage, vector search) come to
 * the engine as messages and run on the action's `Run`, as they would in the engine's own realm.
 * One worker is kept warm (started with the modules, and again after a crash), so a call does not
 * wait for a thread to start; a few idle ones are kept for reuse.
 *
 * Time limits are Convex's (NODE_ACTION_USER_TIMEOUT, 10 minutes): the worker stops waiting at
 * the limit with Convex's "Action `name` execution timed out (maximum duration 600s)"; a worker
 * that cannot even do that (a busy loop) is terminated a little later with Convex's "Function
 * execution unexpectedly timed out …". A worker that timed out is discarded with what it held.
 */
import * as esbuild from "esbuild";
import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { FailureError, type Failure } from "./outcome.js";
import { RawLogText, type RunScope } from "./runtime.js";
import type { FromWorker, ToWorker } from "./node-executor-worker.js";
import { answerCall, type BridgedRun } from "./worker-bridge.js";

/** Convex's text when the node process itself does not answer in time (crates/node_executor). */
export const EXECUTE_TIMEOUT_MESSAGE =
  "Function execution unexpectedly timed out. Check your function for infinite loops or other long-running operations.";

/** The run a worker's action belongs to: its syscalls and log (syscalls.ts `Run`). */
export interface NodeRun extends BridgedRun {
  readonly requestId: string;
  readonly scope: RunScope;
}

/** A "use node" action: its module's bundled file and export. */
export type NodeAction = { file: string; exportName: string; modulePath: string; bundleDir: string };

/** Environment the worker starts with, like Convex's node executor: only these of the host's. */
const ALLOWED_ENV = ["PATH", "PWD", "LANG", "NODE_PATH", "TZ", "UTC"];
/** idle workers kept for reuse */
const MAX_IDLE = 2;

const workerScripts = new Map<string, Promise<string>>();

/**
 * Bundles a worker's entry (`node-executor-worker.ts`, `action-worker.ts`) once per process: it
 * must run without the TS loader. The file is named by its content's hash, so every backend start
 * of the same code reuses one file instead of leaving a new one in the temp folder each time.
 */
export function bundleWorkerScript(entry: string): Promise<string> {
  let script = workerScripts.get(entry);
  if (!script) {
    script = esbuild
      .build({
        entryPoints: [fileURLToPath(new URL(`./${entry}`, import.meta.url))],
        write: false,
        bundle: true,
        format: "esm",
        platform: "node",
        target: "node20",
        logLevel: "silent",
        banner: { js: "import { createRequire as __pcr } from 'node:module'; const require = __pcr(import.meta.url);" },
      })
      .then(async (built) => {
        const code = built.outputFiles[0].contents;
        const hash = createHash("sha256").update(code).digest("hex").slice(0, 16);
        const outfile = path.join(os.tmpdir(), `local-backend-${path.basename(entry, ".ts")}-${hash}.mjs`);
        // written beside, then renamed: a concurrent start never reads a half-written file
        const partial = `${outfile}.${process.pid}.${Date.now()}.tmp`;
        await fs.writeFile(partial, code);
        await fs.rename(partial, outfile);
        return outfile;
      });
    workerScripts.set(entry, script);
    script.catch(() => workerScripts.delete(entry));
  }
  return script;
}

type Invocation = {
  id: number;
  run: NodeRun;
  resolve: (v: string) => void;
  reject: (e: unknown) => void;
  timer: NodeJS.Timeout;
};

class Slot {
  readonly worker: Worker;
  readonly ready: Promise<void>;
  current: Invocation | null = null;
  dead = false;
  /** runs of invocations this worker ran, by id, while their syscalls may still answer */
  readonly runs = new Map<number, NodeRun>();

  constructor(
    script: string,
    onMessage: (slot: Slot, m: FromWorker) => void,
    onGone: (slot: Slot, why: Failure) => void,
  ) {
    const env: Record<string, string> = {};
    for (const name of ALLOWED_ENV) if (process.env[name] !== undefined) env[name] = process.env[name]!;
    this.worker = new Worker(script, { env, execArgv: [], stdout: false, stderr: false });
    this.worker.unref();
    this.ready = new Promise<void>((resolve) => {
      this.worker.on("message", (m: FromWorker) => {
        if (m.type === "ready") resolve();
        else onMessage(this, m);
      });
    });
    this.worker.on("error", (e) =>
      onGone(this, { errorMessage: `Uncaught uncaughtException: ${e instanceof Error ? e.message : String(e)}` }),
    );
    this.worker.on("exit", (code) =>
      onGone(this, { errorMessage: `Uncaught process.exit: process.exit() called with exit code ${code}` }),
    );
  }

  post(m: ToWorker): void {
    if (!this.dead) this.worker.postMessage(m);
  }
}

export type NodeExecutorOptions = {
  functionsDir: string;
  /** a " use node" action's limit (Convex: 10 minutes) */
  timeoutMs: number;
  emitLog(line: string): void;
};

export class NodeExecutor {
  private readonly idle: Slot[] = [];
  private readonly all = new Set<Slot>();
  private nextId = 0;
  private closed = false;

  constructor(private readonly opts: NodeExecutorOptions) {}

  /** Starts one worker ahead of the first call and has it import `files` (env: the functions' env vars). */
  warm(files: string[], bundleDir: string, env: Record<string, string>): void {
    if (this.closed) return;
    void (async () => {
      try {
        const slot = this.idle.length > 0 ? this.idle[this.idle.length - 1] : await this.spawn();
        if (!this.idle.includes(slot) && !slot.current && !slot.dead) this.idle.push(slot);
        slot.post({ type: "preload", files, env, bundleDir, functionsDir: this.opts.functionsDir });
      } catch (e) {
        this.opts.emitLog(`[node executor] could not start a worker: ${e instanceof Error ? e.message : String(e)}`);
      }
    })();
  }

  private async spawn(): Promise<Slot> {
    const script = await bundleWorkerScript("node-executor-worker.ts");
    const slot = new Slot(
      script,
      (s, m) => this.onMessage(s, m),
      (s, why) => this.onGone(s, why),
    );
    this.all.add(slot);
    await slot.ready;
    return slot;
  }

  private async acquire(): Promise<Slot> {
    for (;;) {
      const slot = this.idle.pop();
      if (!slot) return this.spawn();
      if (!slot.dead) return slot;
    }
  }

  /** Runs a "use node" action for `run`; resolves with its JSON result text. */
  async invoke(run: NodeRun, action: NodeAction, argsStr: string, timeoutMs = this.opts.timeoutMs): Promise<string> {
    if (this.closed) throw new Error("The backend is shutting down");
    const slot = await this.acquire();
    const id = ++this.nextId;
    slot.worker.ref();
    return new Promise<string>((resolve, reject) => {
      // the worker stops the action at the limit itself; this only fires when it cannot
      const grace = Math.min(timeoutMs, 5_000);
      const timer = setTimeout(() => {
        if (slot.current?.id !== id) return;
        this.finish(slot, { ok: false, failure: { errorMessage: EXECUTE_TIMEOUT_MESSAGE } });
        this.discard(slot);
      }, timeoutMs + grace);
      slot.current = { id, run, resolve, reject, timer };
      slot.runs.set(id, run);
      slot.post({
        type: "invoke",
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
      });
    });
  }

  private finish(slot: Slot, r: { ok: true; value: string } | { ok: false; failure: Failure }): void {
    const inv = slot.current;
    if (!inv) return;
    slot.current = null;
    clearTimeout(inv.timer);
    slot.runs.delete(inv.id);
    if (r.ok) inv.resolve(r.value);
    else inv.reject(new FailureError(r.failure));
  }

  private release(slot: Slot): void {
    if (slot.dead) return;
    slot.worker.unref();
    if (this.closed || this.idle.length >= MAX_IDLE) this.discard(slot);
    else this.idle.push(slot);
  }

  /** Ends a worker; keeps one warm unless shutting down. */
  private discard(slot: Slot): void {
    if (slot.dead) return;
    slot.dead = true;
    this.all.delete(slot);
    const i = this.idle.indexOf(slot);
    if (i >= 0) this.idle.splice(i, 1);
    void slot.worker.terminate();
    if (!this.closed && this.idle.length === 0) {
      void this.spawn().then(
        (s) => (this.closed ? this.discard(s) : this.idle.push(s)),
        () => undefined,
      );
    }
  }

  private onGone(slot: Slot, why: Failure): void {
    if (slot.dead) return;
    this.finish(slot, { ok: false, failure: why });
    this.discard(slot);
  }

  private onMessage(slot: Slot, m: FromWorker): void {
    switch (m.type) {
      case "call":
        void this.onCall(slot, m);
        return;
      case "log": {
        const run = slot.runs.get(m.id);
        run?.scope.log(m.level, [new RawLogText(m.text)]);
        return;
      }
      case "done":
        if (slot.current?.id !== m.id) return;
        this.finish(slot, m.ok ? { ok: true, value: m.value } : { ok: false, failure: m.failure });
        if (!m.ok && m.discard) this.discard(slot);
        else this.release(slot);
        return;
      case "fatal":
        // Convex's node executor answers, then exits the process: nothing of it is reused
        if (m.id !== null && slot.current?.id === m.id) this.finish(slot, { ok: false, failure: m.failure });
        this.discard(slot);
        return;
    }
  }

  private async onCall(slot: Slot, m: Extract<FromWorker, { type: "call" }>): Promise<void> {
    const answer = await answerCall(slot.runs.get(m.id), m);
    slot.post({ type: "result", callId: m.callId, ...answer });
  }

  /** Ends the idle workers (they hold modules of a replaced build); busy ones end after their action. */
  dropIdle(): void {
    for (const slot of this.idle.splice(0)) {
      slot.dead = true;
      this.all.delete(slot);
      void slot.worker.terminate();
    }
  }

  /** Terminates every worker; calls in flight fail. */
  async close(): Promise<void> {
    this.closed = true;
    const slots = [...this.all];
    for (const s of slots) {
      this.finish(s, { ok: false, failure: { errorMessage: "The backend is shutting down" } });
      this.discard(s);
    }
    await Promise.all(slots.map((s) => s.worker.terminate().catch(() => undefined)));
  }
}
