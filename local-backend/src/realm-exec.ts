/**
 * One query or mutation running in the function realm (realm.ts), and its 1 s of execution time.
 *
 * The realm is a `vm` context with `microtaskMode: "afterEvaluate"`: the function's promise jobs
 * run only when the engine enters the context ("a pump": `script.runInContext` with a `timeout`,
 * which drains the context's microtask queue under V8's watchdog). Like Convex's isolate loop, a
 * run alternates between its own code (pumps, timed) and syscalls (not timed):
 *
 * - The function's time is the time of its pumps minus the syscalls done inside them, each pump
 *   counted as the lesser of its CPU time and its wall time. Node 20 has no per-thread CPU clock,
 *   and each clock alone overcounts: wall time ran 2-3x the CPU time on a loaded 2-core machine
 *   (sign-ups timed out), and the process's CPU clock also counts its other threads (V8's
 *   parallel GC helpers): a 300 ms function once timed out in CI. Its own thread cannot have
 *   spent more than either.
 *   Syscalls are timed on the wall clock (cheap); the CPU clock is a system call, read at a
 *   pump's start and end and, inside a pump, only once the wall clock says the limit may be near.
 *   Each syscall checks it first; at 1 s the run fails with Convex's "Function execution timed
 *   out" (and stays failed, even if the function catches the error).
 * - A pump's watchdog (wall time, V8's) fires at WALL_FACTOR times the time left plus `SLACK_MS`,
 *   so code that never makes a syscall (`while (true) {}`) is stopped within about 3 s on an idle
 *   machine (Convex: 1 s; a difference listed in the README). V8 terminates it and the
 *   context's queued jobs are dropped; only this run's jobs are ever queued there (below).
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
import { promiseHooks } from "node:v8";
import type { RunExec } from "./engine-host.js";
import { messages } from "./limits.js";
import { SystemError } from "./outcome.js";

/** watchdog time beyond the function's remaining time, for the syscalls a pump may run */
export const SLACK_MS = 100;
/** How much wall time a pump's watchdog allows per millisecond of CPU time left. */
export const WALL_FACTOR = 3;

/** This process's CPU time (user + system), ms: the function-time clock. */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}
/** syscall time after which a pump defers the rest of its syscalls */
export const DEFER_AFTER_MS = 25;
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
  /** the pump's start on the CPU clock and on the wall clock */
  private pumpStart = 0;
  private pumpStartWall = 0;
  /** wall time of the syscalls run inside the pump (not the function's time) */
  private pumpSys = 0;
  private inPump = false;
  private outstanding = 0;
  private finished = false;
  private waitingSince = 0;
  private failure: Error | null = null;
  /** stopped at its time limit */
  private timedOutOnce = false;
  /** while a timed-out function still runs in this pump: the promise hook that handles its rejections */
  private stopStrayHook: (() => void) | null = null;
  private settle!: { resolve: (v: string) => void; reject: (e: unknown) => void };
  readonly result: Promise<string>;

  constructor(
    private readonly realm: RealmHost,
    private readonly handler: RealmHandler,
    /** the execution time limit (Convex: 1 s) */
    readonly limitMs: number,
    /** the run that called this one (`ctx.runQuery` / `ctx.runMutation`): a timeout ends it too */
    private readonly parent: RunExec | null,
    /** enters the function (inside the realm) and returns its promise */
    private readonly call: () => unknown,
  ) {
    this.result = new Promise<string>((resolve, reject) => (this.settle = { resolve, reject }));
  }

  /** Starts the function (`call` is entered inside the realm) and resolves with its JSON result. */
  start(): Promise<string> {
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

  /** The current pump's time so far: the lesser of its CPU and wall time, syscalls excluded. */
  private pumpTime(): number {
    const cpu = cpuMs() - this.pumpStart;
    const wall = performance.now() - this.pumpStartWall;
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
    this.pumpStart = cpuMs();
    this.pumpStartWall = performance.now();
    let out: unknown;
    try {
      out = this.realm.enter(call, Math.ceil(remaining * WALL_FACTOR + SLACK_MS));
    } catch (e) {
      if (isWatchdogTimeout(e)) this.timedOut();
      else this.abort(e instanceof Error ? e : new Error(String(e)));
    } finally {
      this.inPump = false;
      this.userMs += this.pumpTime();
      this.stopStrayHook?.();
      this.stopStrayHook = null;
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
    this.checkTime();
    const t0 = performance.now();
    try {
      return this.handler.syscall(op, args);
    } finally {
      if (this.inPump) this.pumpSys += performance.now() - t0;
    }
  }

  asyncSyscall(op: string, args: string): Promise<string> | string {
    this.checkTime();
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
   * Runs `work` after the current pump and continues the function with its outcome in a new pump:
   * a realm promise the function awaits.
   */
  defer<T>(work: () => Promise<T> | T): Promise<T> {
    return this.realm.newPromise<T>((resolve, reject) => {
      this.outstanding++;
      queueMicrotask(() => {
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
    settle();
    this.pump(null);
  }
}
