/**
 * Where a query or mutation runs: on the engine's thread (in the engine's function realm) or in a
 * worker of the action pool (in that worker's realm). Convex runs every function in an isolate of
 * its own, beside the others; here the engine's thread also answers every syscall and the sync
 * protocol, so a function whose own work is heavy (password hashing in a sign-in's mutation)
 * would hold every other request behind it. Such a function runs in a worker, on another core.
 *
 * The choice is by cost, per function, from its recent runs: a worker pays a round trip between
 * threads for each syscall (≈0.1 ms on this kind of machine), so a function goes to the pool once
 * its own execution time is at least OFF_THREAD_MS and well above what its syscalls would cost
 * there (an import batch of a thousand inserts stays on the engine's thread; a sign-in's 150 ms
 * of hashing with ten syscalls goes). Its own time is remembered as the larger of the newest run
 * and a decaying memory of the earlier ones, so a function that is sometimes heavy stays in the
 * pool. Where a function runs changes nothing of what it does: the same bundle, limits, clock,
 * errors and transaction (the syscalls run on the engine either way).
 */

/** own execution time (ms) from which a function goes to the pool */
const OFF_THREAD_MS = 20;
/** what a syscall costs from a worker (ms): a synchronous round trip between threads */
const WORKER_SYSCALL_MS = 0.1;
/** how much more than its syscalls' cost there its own time must be for the pool */
const WORTH_IT = 4;
/** per run, the remembered own time keeps this share */
const DECAY = 0.95;

type Cost = { runs: number; ownMs: number; syscalls: number; pooled: boolean };

export type PlacementMode = "auto" | "pool" | "engine";

export class Placement {
  private readonly costs = new Map<string, Cost>();

  /** "pool" / "engine": every top-level query and mutation there (tests) */
  constructor(private readonly mode: PlacementMode = "auto") {}

  /** whether the function at `path` runs in the pool */
  pooled(path: string): boolean {
    if (this.mode !== "auto") return this.mode === "pool";
    return this.costs.get(path)?.pooled ?? false;
  }

  /** A run of `path` ended: its own execution time and how many syscalls it made. */
  record(path: string, ownMs: number, syscalls: number): void {
    const c = this.costs.get(path);
    // the first run compiles the function's code as it goes: not what its runs cost
    if (!c) {
      this.costs.set(path, { runs: 1, ownMs: 0, syscalls: 0, pooled: false });
      return;
    }
    if (++c.runs === 2) {
      c.ownMs = ownMs;
      c.syscalls = syscalls;
    } else {
      c.ownMs = Math.max(ownMs, c.ownMs * DECAY);
      c.syscalls = c.syscalls * 0.8 + syscalls * 0.2;
    }
    const there = c.syscalls * WORKER_SYSCALL_MS;
    if (!c.pooled) c.pooled = c.ownMs >= OFF_THREAD_MS && c.ownMs >= WORTH_IT * there;
    // back with hysteresis, so a function near the line does not go back and forth
    else c.pooled = c.ownMs >= OFF_THREAD_MS / 2 && c.ownMs >= (WORTH_IT / 2) * there;
  }
}
