/**
 * Process-wide hooks that make per-run state visible to function code. `globalThis.Convex`,
 * `Date`, `Math.random`, `console`, `process.env` and `fetch` are single globals, while several
 * function runs may be in flight at once (an action awaiting fetch while queries run), so each
 * hook looks up the current run in an AsyncLocalStorage and falls back to the original behaviour
 * outside of function runs.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { inspect } from "node:util";

export interface SyscallHandler {
  syscall(op: string, args: string): string;
  asyncSyscall(op: string, args: string): Promise<string>;
  jsSyscall(op: string, args: Record<string, unknown>): unknown;
}

/** A run's execution in the function realm (realm-exec.ts), as the rest of the engine sees it. */
export interface RunExec {
  /** the function's own execution time so far, ms */
  readonly userMs: number;
  /** ends the run with `e`; `timeout`: also the runs that called it */
  abort(e: Error, timeout?: boolean): void;
}

export type RunScope = {
  handler: SyscallHandler;
  /** set while the run executes in the function realm */
  exec?: RunExec;
  /** fixed Date.now() for queries/mutations; null in actions */
  now: number | null;
  random: (() => number) | null;
  log: (level: string, args: unknown[]) => void;
  env: Record<string, string>;
  /** fetch is not available inside queries and mutations */
  allowFetch: boolean;
};

export const scopeStorage = new AsyncLocalStorage<RunScope>();

const RealDate = Date;
const realRandom = Math.random;
let installed = false;
let previousConvex: SyscallHandler | undefined;

const convexGlobal: SyscallHandler = {
  syscall(op, args) {
    const s = scopeStorage.getStore();
    if (s) return s.handler.syscall(op, args);
    if (previousConvex) return previousConvex.syscall(op, args);
    throw new Error("Convex syscall outside of a function run");
  },
  asyncSyscall(op, args) {
    const s = scopeStorage.getStore();
    if (s) return s.handler.asyncSyscall(op, args);
    if (previousConvex) return previousConvex.asyncSyscall(op, args);
    return Promise.reject(new Error("Convex syscall outside of a function run"));
  },
  jsSyscall(op, args) {
    const s = scopeStorage.getStore();
    if (s) return s.handler.jsSyscall(op, args);
    if (previousConvex) return previousConvex.jsSyscall(op, args);
    throw new Error("Convex syscall outside of a function run");
  },
};

/** Seeded PRNG (mulberry32) so query/mutation re-runs are deterministic per seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function formatLogArgs(args: unknown[]): string {
  return args.map((a) => (typeof a === "string" ? `'${a}'` : inspect(a, { depth: 4, breakLength: Infinity }))).join(" ");
}

/**
 * Installs the hooks (idempotent). Called before every run too, because another library in
 * the same process (convex-test) may have replaced `globalThis.Convex` in the meantime; in that
 * case its object becomes the fallback for calls made outside our runs.
 */
export function installRuntime() {
  const g = globalThis as unknown as { Convex?: SyscallHandler };
  if (g.Convex !== convexGlobal) {
    if (g.Convex !== undefined) previousConvex = g.Convex;
    try {
      Object.defineProperty(globalThis, "Convex", { value: convexGlobal, writable: true, configurable: true });
    } catch {
      g.Convex = convexGlobal;
    }
  }
  if (installed) return;
  installed = true;

  // Date: `Date.now()` and `new Date()` observe the run's fixed clock.
  const PatchedDate = function (this: unknown, ...args: unknown[]) {
    const s = scopeStorage.getStore();
    if (!new.target) return new RealDate(s?.now ?? RealDate.now()).toString();
    if (args.length === 0 && s?.now != null) return new RealDate(s.now);
    return new (RealDate as unknown as new (...a: unknown[]) => Date)(...args);
  } as unknown as DateConstructor;
  Object.setPrototypeOf(PatchedDate, RealDate);
  (PatchedDate as unknown as { prototype: Date }).prototype = RealDate.prototype;
  PatchedDate.now = () => {
    const s = scopeStorage.getStore();
    return s?.now ?? RealDate.now();
  };
  PatchedDate.parse = RealDate.parse;
  PatchedDate.UTC = RealDate.UTC;
  globalThis.Date = PatchedDate;

  Math.random = () => {
    const s = scopeStorage.getStore();
    return s?.random ? s.random() : realRandom();
  };

  for (const level of ["log", "info", "warn", "error", "debug"] as const) {
    const original = console[level].bind(console);
    console[level] = (...args: unknown[]) => {
      const s = scopeStorage.getStore();
      if (s) s.log(level, args);
      else original(...args);
    };
  }

  const realEnv = process.env;
  process.env = new Proxy(realEnv, {
    get(target, key) {
      const s = scopeStorage.getStore();
      if (s && typeof key === "string" && Object.prototype.hasOwnProperty.call(s.env, key)) return s.env[key];
      return Reflect.get(target, key);
    },
    has(target, key) {
      const s = scopeStorage.getStore();
      if (s && typeof key === "string" && Object.prototype.hasOwnProperty.call(s.env, key)) return true;
      return Reflect.has(target, key);
    },
    ownKeys(target) {
      const s = scopeStorage.getStore();
      const keys = Reflect.ownKeys(target);
      if (!s) return keys;
      return [...new Set([...keys, ...Object.keys(s.env)])];
    },
    getOwnPropertyDescriptor(target, key) {
      const s = scopeStorage.getStore();
      if (s && typeof key === "string" && Object.prototype.hasOwnProperty.call(s.env, key)) {
        return { value: s.env[key], writable: true, enumerable: true, configurable: true };
      }
      return Reflect.getOwnPropertyDescriptor(target, key);
    },
  });

  const realFetch = globalThis.fetch;
  if (realFetch) {
    globalThis.fetch = ((...args: Parameters<typeof fetch>) => {
      const s = scopeStorage.getStore();
      if (s && !s.allowFetch) {
        return Promise.reject(
          new Error("Can't use fetch() in queries and mutations. Please consider using an action."),
        );
      }
      return realFetch(...args);
    });
  }
}

/** Wall clock that ignores the per-run frozen Date. */
export const realNow: () => number = RealDate.now.bind(RealDate);

/** Readers-writer lock with FIFO fairness: queries share it, commits take it alone. */
export class RWLock {
  private readers = 0;
  private writer = false;
  private queue: Array<{ write: boolean; resolve: () => void }> = [];

  private grant() {
    while (this.queue.length > 0) {
      const head = this.queue[0];
      if (head.write) {
        if (this.writer || this.readers > 0) return;
        this.queue.shift();
        this.writer = true;
        head.resolve();
        return;
      }
      if (this.writer) return;
      this.queue.shift();
      this.readers++;
      head.resolve();
    }
  }

  async read(): Promise<() => void> {
    await new Promise<void>((resolve) => {
      this.queue.push({ write: false, resolve });
      this.grant();
    });
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.readers--;
      this.grant();
    };
  }

  async write(): Promise<() => void> {
    await new Promise<void>((resolve) => {
      this.queue.push({ write: true, resolve });
      this.grant();
    });
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.writer = false;
      this.grant();
    };
  }
}
