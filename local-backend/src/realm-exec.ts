/**
 * One query or mutation running in the function realm (realm.ts), and its 1 s of execution time.
 *
 * The realm is a `vm` context with `microtaskMode: "afterEvaluate"`: the function's promise jobs
 * run only when the engine enters the context ("a pump": `script.runInContext` with a `timeout`,
 * which drains the context's microtask queue under V8's watchdog). Like Convex's isolate loop, a
 * run alternates between its own code (pumps, timed) and syscalls (not timed):
 *
 * - The function's time is the CPU time of its own thread during its pumps, minus the syscalls
 *   done inside them. The clock is Linux's per-thread one (`/proc/thread-self/schedstat`, the
 *   time this thread spent on a CPU, read through one open file: a few microseconds): time spent
 *   waiting for a CPU (a loaded machine) or on other threads (actions in workers, V8's GC
 *   helpers) is never charged. Syscalls are timed on the wall clock (cheap) and take their share
 *   of the pump's CPU time. Each syscall checks the time first; at 1 s the run fails with
 *   Convex's "Function execution timed out" (and stays failed, even if the function catches it).
 * - A pump's watchdog (wall time, V8's) fires `SLACK_MS` after the time left times the run's
 *   patience (3 at first), so code that never makes a syscall (`while (true) {}`) is stopped at
 *   about 3.1 s on an idle machine (Convex: 1 s), and the watchdog rarely lands on engine code
 *   running inside a pump. When the watchdog fires although the function's
 *   own CPU time is below its limit, the machine was busy (the thread waited for a CPU): the run
 *   is preempted (`PreemptedError`, never the function's fault) and the engine runs the query or
 *   mutation again from its start with more patience: enough for the share of a CPU it got (functions.ts); a real runaway loop
 *   reaches its 1 s of CPU after a few tries and is stopped with the time-out. V8 terminates the
 *   pump and the context's queued jobs are dropped; only this run's jobs are ever queued there.
 *   Without the per-thread clock (not Linux) the pump counts the lesser of the process's CPU
 *   time and its wall time, the watchdog allows `WALL_FACTOR` times the time left, and nothing
 *   is retried.
 * - Syscalls that complete at once (database reads and writes) run inside the pump and resolve
 *   with a value, so `await ctx.db.get()` continues in the same pump without a new watchdog. A
 *   syscall that waits for something (a nested `ctx.runQuery`), one that could change state beyond
 *   the transaction (creating a table), and every syscall once a pump has spent `DEFER_AFTER_MS`
 *   in syscalls, is deferred: it runs after the pump returns, then its result is handed in and a
 *   new pump continues the function with a fresh watchdog. So engine code runs inside a pump only
 *   with at least SLACK_MS − DEFER_AFTER_MS of watchdog time left, and each pump drains only the
 *   jobs of its own run (a result is handed in right before that run's pump).
 * - When a pump ends with the function still pending and nothing deferred, it awaits something
 *   the engine does not know of; it is polled for a while, then fails as Convex does ("Returned
 *   promise will never resolve").
 */
import fs from "node:fs";
import { promiseHooks } from "node:v8";
import type { RunExec } from "./engine-host.js";
import { runScopes, type RunScope } from "./runtime.js";
import { messages } from "./limits.js";
import { SystemError } from "./outcome.js";

/** watchdog time beyond the function's remaining time, for the syscalls a pump may run */
export const SLACK_MS = 100;
/** How much wall time a pump's watchdog allows per millisecond of CPU time left, without the thread clock. */
const WALL_FACTOR = 3;
/**
 * The watchdog's first allowance: 3 ms of wall time per ms of CPU time left, so the V8 watchdog
 * rarely lands on engine code that runs inside a pump on a loaded machine (syscalls); a run it
 * stops anyway before its own CPU time is used is run again (PreemptedError).
 */
export const INITIAL_PATIENCE = 3;
/** how much more patience each run after a preemption gets, and the most before the time-out is final */
const PATIENCE_GROWTH = 2;
export const MAX_PATIENCE = 64;

/** This process's CPU time (user + system), ms: the fallback clock. */
function processCpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/**
 * This thread's CPU time, ms, where Linux gives it per thread (the first field of
 * /proc/thread-self/schedstat: nanoseconds on a CPU); null elsewhere. The file is opened on
 * first use by the thread that runs functions (module state is per thread).
 */
let threadClock: (() => number) | null | undefined;
function threadCpuClock(): (() => number) | null {
  if (threadClock !== undefined) return threadClock;
  threadClock = null;
  if (process.env.LOCAL_BACKEND_THREAD_CLOCK === "off") return null;
  try {
    const fd = fs.openSync("/proc/thread-self/schedstat", "r");
    const buf = Buffer.alloc(128);
    const read = () => {
      const n = fs.readSync(fd, buf, 0, buf.length, 0);
      const end = buf.indexOf(32);
      return Number(buf.toString("latin1", 0, end > 0 && end < n ? end : n)) / 1e6;
    };
    const a = read();
    if (Number.isFinite(a) && a > 0) threadClock = read;
    else fs.closeSync(fd);
  } catch {
    threadClock = null;
  }
  return threadClock;
}

/**
 * The function was stopped by the wall-clock watchdog before it used its own time: the machine
 * kept its thread waiting. Not the function's failure: the engine runs it again with more patience.
 */
export class PreemptedError extends SystemError {
  constructor(
    readonly limitMs: number,
    /** the share of its wall time the thread spent on a CPU in the stopped pump */
    readonly share: number,
  ) {
    super("The function was preempted by a busy machine and is run again");
  }

  /** The next run's patience: enough wall time for the share of a CPU it got, at least PATIENCE_GROWTH times more. */
  nextPatience(patience: number): number {
    const needed = Math.ceil(1.5 / Math.max(this.share, 1 / MAX_PATIENCE));
    return Math.min(MAX_PATIENCE, Math.max(patience * PATIENCE_GROWTH, needed));
  }
}
/** syscall time after which a pump defers the rest of its syscalls */
const DEFER_AFTER_MS = 25;
/**
 * Wall time a run goes on in one turn of the event loop: after it, its next async syscall waits for
 * the next turn (setImmediate), so the requests that arrived meanwhile (a teammate's mutation, the
 * sync protocol's messages) start before it continues. Runs are optimistic: interleaving them is
 * safe, and a 250 ms import batch no longer holds every live view for 250 ms.
 */
export const YIELD_AFTER_MS = 8;
/** how long a run may wait on something the engine does not know of before it is declared stuck */
const STUCK_AFTER_MS = 100;

/** What a run needs of its realm. */
export interface RealmHost {
  /**
   * Enters the context with a watchdog of `timeoutMs`: calls `call` there (its result is
   * returned) or, without one, only drains the context's microtask queue.
   */
  enter(call: (() => unknown) | null, timeoutMs: number): unknown;
  /** a promise of the realm (so the function's `await` continues inside the realm) */
  newPromise<T>(executor: (resolve: (v: T) => void, reject: (e: unknown) => void) => void): Promise<T>;
}

/** The syscalls of one run (syscalls.ts `Run`). */
export interface RealmHandler {
  syscall(op: string, args: string): string;
  asyncSyscall(op: string, args: string): Promise<string>;
  asyncSyscallNow(op: string, args: string): string | undefined;
}

function isWatchdogTimeout(e: unknown): boolean {
  return typeof e === "object" && e !== null && (e as { code?: string }).code === "ERR_SCRIPT_EXECUTION_TIMEOUT";
}

export class RealmExec implements RunExec {
  /** the function's own execution time so far, ms */
  userMs = 0;
  /** syscalls it made (placement.ts weighs them) */
  syscalls = 0;
  /** the pump's start on the CPU clock and on the wall clock */
  private pumpStart = 0;
  private pumpStartWall = 0;
  /** wall time of the syscalls run inside the pump (not the function's time) */
  private pumpSys = 0;
  private inPump = false;
  private outstanding = 0;
  /** when this run's current turn of the event loop began (YIELD_AFTER_MS) */
  private turnStart = performance.now();
  private finished = false;
  private waitingSince = 0;
  private failure: Error | null = null;
  /** stopped at its time limit */
  private timedOutOnce = false;
  /** the share of the last pump's wall time this thread spent on a CPU */
  private lastShare = 1;
  /** this thread's CPU clock, where there is one */
  private readonly clock = threadCpuClock();
  /** while a timed-out function still runs in this pump: the promise hook that handles its rejections */
  private stopStrayHook: (() => void) | null = null;
  private settle!: { resolve: (v: string) => void; reject: (e: unknown) => void };
  readonly result: Promise<string>;

  constructor(
    private readonly realm: RealmHost,
    /** the run's scope: its code runs as this run's (runtime.ts) */
    private readonly scope: RunScope,
    private readonly handler: RealmHandler,
    /** the execution time limit (Convex: 1 s) */
    readonly limitMs: number,
    /** the run that called this one (`ctx.runQuery` / `ctx.runMutation`): a timeout ends it too */
    private readonly parent: RunExec | null,
    /** enters the function (inside the realm) and returns its promise */
    private readonly call: () => unknown,
    /** wall time the watchdog allows per millisecond left (doubled on each run after a preemption) */
    private readonly patience = INITIAL_PATIENCE,
  ) {
    this.result = new Promise<string>((resolve, reject) => (this.settle = { resolve, reject }));
  }

  /** Starts the function (`call` is entered inside the realm) and resolves with its JSON result. */
  start(): Promise<string> {
    this.turnStart = performance.now();
    const p = this.pump(this.call);
    if (p && typeof (p as Promise<unknown>).then === "function") {
      (p as Promise<unknown>).then(
        (v) => this.complete(v),
        (e) => this.fail(e),
      );
    } else if (!this.finished) this.fail(new Error("The function did not return a promise"));
    return this.result;
  }

  private timeoutError(): SystemError {
    return new SystemError(messages.timeout(this.limitMs));
  }

  /** Ends the run with `e`; a timeout also ends the runs that called it (Convex stops the isolate). */
  abort(e: Error, timeout = false) {
    if (this.finished) return;
    this.finished = true;
    this.failure = e;
    this.settle.reject(e);
    if (timeout) this.parent?.abort(e, true);
  }

  private timedOut() {
    this.timedOutOnce = true;
    if (this.inPump) this.handleStrayRejections();
    this.userMs = Math.max(this.userMs, this.limitMs);
    this.abort(this.timeoutError(), true);
  }

  private complete(v: unknown) {
    if (this.finished) return;
    if (this.userMs >= this.limitMs) return this.timedOut();
    this.finished = true;
    this.settle.resolve(v as string);
  }

  private fail(e: unknown) {
    if (this.finished) return;
    this.finished = true;
    this.settle.reject(e);
  }

  /**
   * A function that catches its time-out and goes on runs until the pump's watchdog terminates
   * it (Convex would stop the isolate at once). The watchdog can land between a promise's
   * rejection and the await that handles it; Node would then report an unhandled rejection from
   * a function that is already over. Until this pump ends, every new promise gets a handler.
   */
  private handleStrayRejections() {
    if (this.stopStrayHook) return;
    let attaching = false;
    const ignore = () => undefined;
    const stop = promiseHooks.onInit((promise) => {
      if (attaching) return;
      attaching = true;
      try {
        promise.then(undefined, ignore);
      } finally {
        attaching = false;
      }
    }) as () => void;
    this.stopStrayHook = stop;
  }

  /**
   * The current pump's time so far, syscalls excluded: its wall time outside syscalls times the
   * share of the pump this thread spent on a CPU (the thread clock); without that clock, the
   * lesser of the process's CPU time and the wall time.
   */
  private pumpTime(): number {
    const wall = performance.now() - this.pumpStartWall;
    if (this.clock) {
      const cpu = this.clock() - this.pumpStart;
      const share = wall > 0 ? Math.min(1, Math.max(0, cpu / wall)) : 1;
      this.lastShare = share;
      return Math.max(0, (wall - this.pumpSys) * share);
    }
    const cpu = processCpuMs() - this.pumpStart;
    return Math.max(0, Math.min(cpu, wall) - this.pumpSys);
  }

  /** Throws (and fails the run) once it is over its time or already failed. */
  private checkTime() {
    if (this.failure) {
      if (this.timedOutOnce && this.inPump) this.handleStrayRejections();
      throw this.failure;
    }
    if (!this.inPump && this.userMs < this.limitMs) return;
    // the cheap wall clock first: this pump's own time is below its wall time, so the process's
    // CPU clock (a syscall) is read only once the wall clock says the limit may be reached
    if (this.inPump && this.userMs + (performance.now() - this.pumpStartWall - this.pumpSys) < this.limitMs) return;
    const used = this.userMs + (this.inPump ? this.pumpTime() : 0);
    if (used >= this.limitMs) {
      this.timedOut();
      throw this.failure ?? this.timeoutError();
    }
  }

  private pump(call: (() => unknown) | null): unknown {
    if (this.finished) return undefined;
    const remaining = this.limitMs - this.userMs;
    if (remaining <= 0) {
      this.timedOut();
      return undefined;
    }
    this.inPump = true;
    this.pumpSys = 0;
    this.pumpStart = this.clock ? this.clock() : processCpuMs();
    this.pumpStartWall = performance.now();
    let out: unknown;
    let outer: RunScope | undefined;
    let watchdog = false;
    try {
      outer = runScopes.beginPump(this.scope);
      out = this.realm.enter(call, Math.ceil(remaining * (this.clock ? this.patience : WALL_FACTOR) + SLACK_MS));
    } catch (e) {
      if (isWatchdogTimeout(e)) watchdog = true;
      else this.abort(e instanceof Error ? e : new Error(String(e)));
    } finally {
      runScopes.endPump(outer);
      this.inPump = false;
      this.userMs += this.pumpTime();
      this.stopStrayHook?.();
      this.stopStrayHook = null;
    }
    if (watchdog) {
      // its own time is below the limit: it waited for a CPU, it did not run away
      if (this.clock && this.userMs < this.limitMs && !this.timedOutOnce)
        this.abort(new PreemptedError(this.limitMs, this.lastShare), true);
      else this.timedOut();
    }
    this.afterPump();
    return out;
  }

  /** A pump ended with the function pending and nothing deferred: it waits on something unknown. */
  private afterPump() {
    if (this.finished || this.outstanding > 0) {
      this.waitingSince = 0;
      return;
    }
    const first = this.waitingSince === 0;
    if (first) this.waitingSince = performance.now();
    const poll = () => {
      if (this.finished || this.outstanding > 0) return;
      if (performance.now() - this.waitingSince > STUCK_AFTER_MS) {
        this.abort(new SystemError(messages.neverResolves()));
        return;
      }
      this.pump(null);
    };
    // at once (the usual case: the function already returned), then every millisecond
    if (first) setImmediate(poll);
    else setTimeout(poll, 1);
  }

  // ----- the realm's Convex global calls these (realm.ts) -----

  syscall(op: string, args: string): string {
    this.syscalls++;
    this.checkTime();
    const t0 = performance.now();
    try {
      return this.handler.syscall(op, args);
    } finally {
      if (this.inPump) this.pumpSys += performance.now() - t0;
    }
  }

  asyncSyscall(op: string, args: string): Promise<string> | string {
    this.syscalls++;
    this.checkTime();
    if (performance.now() - this.turnStart >= YIELD_AFTER_MS)
      return this.defer(() => this.handler.asyncSyscall(op, args), true);
    if (this.inPump && this.pumpSys < DEFER_AFTER_MS) {
      const t0 = performance.now();
      let now: string | undefined;
      try {
        now = this.handler.asyncSyscallNow(op, args);
      } finally {
        this.pumpSys += performance.now() - t0;
      }
      if (now !== undefined) return now;
    }
    return this.defer(() => this.handler.asyncSyscall(op, args));
  }

  /**
   * Runs `work` after the current pump (`nextTurn`: in the event loop's next turn) and continues
   * the function with its outcome in a new pump: a realm promise the function awaits.
   */
  defer<T>(work: () => Promise<T> | T, nextTurn = false): Promise<T> {
    return this.realm.newPromise<T>((resolve, reject) => {
      this.outstanding++;
      const later = nextTurn ? (f: () => void) => setImmediate(f) : queueMicrotask;
      later(() => {
        if (nextTurn) this.turnStart = performance.now();
        let p: Promise<T>;
        try {
          p = Promise.resolve(work());
        } catch (e) {
          p = Promise.reject(e instanceof Error ? e : new Error(String(e)));
        }
        p.then(
          (v) => this.handIn(() => resolve(v)),
          (e) => this.handIn(() => reject(e)),
        );
      });
    });
  }

  private handIn(settle: () => void) {
    this.outstanding--;
    if (this.finished) return;
    // Out of time: end it here. Settling would queue the function's continuation in the context,
    // and a pump that does not start (no time left) would leave it there for the next run's pump.
    if (this.userMs >= this.limitMs) {
      this.timedOut();
      return;
    }
    settle();
    this.pump(null);
  }
}
