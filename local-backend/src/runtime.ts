/**
 * Process-wide hooks that make per-run state visible to function code. `globalThis.Convex`,
 * `Date`, `Math.random`, `console`, `process.env` and `fetch` are single globals, while several
 * function runs may be in flight at once (an action awaiting fetch while queries run), so each
 * hook looks up the current run (`runScopes.current()`) and falls back to the original behaviour
 * outside of function runs.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { inspect } from "node:util";
import { userFrames } from "./stack-frames.js";

export interface SyscallHandler {
  syscall(op: string, args: string): string;
  asyncSyscall(op: string, args: string): Promise<string>;
  jsSyscall(op: string, args: Record<string, unknown>): unknown;
}

/** A run's execution in the function realm (realm-exec.ts), as the rest of the engine sees it. */
export interface RunExec {
  /** the function's own execution time so far, ms */
  readonly userMs: number;
  /** syscalls it made so far (placement.ts weighs them) */
  readonly syscalls: number;
  /** ends the run with `e`; `timeout`: also the runs that called it */
  abort(e: Error, timeout?: boolean): void;
}

/** Text that goes into a log line as it is (console.time's "label: 5ms", a worker's formatted line). */
export class RawLogText {
  constructor(readonly text: string) {}
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
  /**
   * Which runtime's console this run has: Convex's own runtime ("v8", the default: log levels,
   * trace, time/timeLog/timeEnd; other console methods do not exist there) or a "use node"
   * action's (Convex's node executor: log levels, time family; everything else goes nowhere).
   */
  consoleStyle?: "v8" | "node";
};

/** console.time's timers of each run (Convex keeps them per execution). */
const consoleTimers = new WeakMap<RunScope, Map<string, number>>();

function timersOf(s: RunScope): Map<string, number> {
  let t = consoleTimers.get(s);
  if (!t) consoleTimers.set(s, (t = new Map()));
  return t;
}

/** Convex's `toString(label, "default")` for timer labels. */
function timerLabel(label: unknown): string {
  return label === undefined ? "default" : label === null ? "null" : (label as { toString(): string }).toString();
}

/** A log message as Convex's node executor writes it: `util.inspect` of the value. */
export function nodeInspect(v: unknown): string {
  return inspect(v, { maxStringLength: 32768 });
}

/**
 * console.time / timeLog / timeEnd / trace inside a run, as Convex's runtimes print them: in its
 * own runtime the timer lines are plain text (`[INFO] label: 5ms`, `[WARN] Timer 'x' does not
 * exist`), in the node executor they are inspected like any message (`[INFO] 'label: 5ms'`).
 */
function consoleExtra(s: RunScope, method: string, args: unknown[]): boolean {
  const node = s.consoleStyle === "node";
  const text = (t: string) => (node ? t : new RawLogText(t));
  const timers = timersOf(s);
  switch (method) {
    case "time": {
      const label = timerLabel(args[0]);
      if (timers.has(label)) s.log("warn", [text(`Timer '${label}' already exists`)]);
      else timers.set(label, RealDate.now());
      return true;
    }
    case "timeLog":
    case "timeEnd": {
      const label = timerLabel(args[0]);
      const start = timers.get(label);
      if (start === undefined) {
        s.log("warn", [text(`Timer '${label}' does not exist`)]);
        return true;
      }
      const line = text(`${label}: ${RealDate.now() - start}ms`);
      if (method === "timeEnd") {
        timers.delete(label);
        s.log("info", [line]);
      } else s.log("info", [line, ...args.slice(1)]);
      return true;
    }
    case "trace": {
      // the node executor leaves trace to Node's console, whose output it discards
      if (node) return true;
      const frames = new Error().stack ?? "";
      s.log("log", [
        ...args,
        new RawLogText(
          `\n${userFrames(frames)
            .map((l) => `${l}\n`)
            .join("")}`,
        ),
      ]);
      return true;
    }
    default:
      return false;
  }
}

/**
 * An AsyncLocalStorage enabled only while one of its runs is in flight. On Node 20 an enabled
 * AsyncLocalStorage installs promise hooks that run JavaScript for every promise the thread
 * creates and settles (in a 200k-row import about 5 % of the engine's thread); once its last run
 * is over, this one removes them (a later run enables them again).
 */
export class ScopedStorage<T> {
  private readonly storage = new AsyncLocalStorage<T>();
  private running = 0;

  getStore(): T | undefined {
    return this.running > 0 ? this.storage.getStore() : undefined;
  }

  /** Runs `fn` and everything it starts, until its promise settles, with `store`. */
  run<R>(store: T, fn: () => R): R {
    this.running++;
    let out: R;
    try {
      out = this.storage.run(store, fn);
    } catch (e) {
      this.done();
      throw e;
    }
    const then = (out as { then?: unknown } | null)?.then;
    if (typeof then !== "function") {
      this.done();
      return out;
    }
    return (out as PromiseLike<unknown>).then(
      (v) => {
        this.done();
        return v;
      },
      (e: unknown) => {
        this.done();
        throw e;
      },
    ) as R;
  }

  exit<R>(fn: () => R): R {
    return this.running > 0 ? this.storage.exit(fn) : fn();
  }

  private done() {
    if (--this.running === 0) this.storage.disable();
  }
}

/**
 * Which run the code executing now belongs to.
 *
 * - In the function realm (queries and mutations, realm-exec.ts) the engine knows: the realm's
 *   code runs only inside a pump, and a pump runs one run's jobs. `beginPump()` names that run for the
 *   pump's length, at no cost to any promise.
 * - Elsewhere (actions in their workers, module imports, queries and mutations when the realm
 *   could not be built) `run()` scopes an async call tree with a ScopedStorage. So the engine's
 *   thread serves queries and mutations with no promise hook installed.
 */
class RunScopes {
  private readonly storage = new ScopedStorage<RunScope>();
  private pumping: RunScope | undefined;

  current(): RunScope | undefined {
    return this.pumping ?? this.storage.getStore();
  }

  /**
   * A realm's pump begins: until `endPump` with what this returns, the code running is `scope`'s.
   * (No callback: a function's error stack counts the engine's frames below the pump against its
   * limit of 10, so the pump adds none.)
   */
  beginPump(scope: RunScope): RunScope | undefined {
    const outer = this.pumping;
    this.pumping = scope;
    return outer;
  }

  endPump(outer: RunScope | undefined) {
    this.pumping = outer;
  }

  /** Runs `fn` and everything it starts, until its promise settles, as `scope`'s code. */
  run<R>(scope: RunScope, fn: () => R): R {
    return this.storage.run(scope, fn);
  }

  /** Runs `fn` outside of any run (the engine's own logging and listeners). */
  exit<R>(fn: () => R): R {
    const outer = this.pumping;
    this.pumping = undefined;
    try {
      return this.storage.exit(fn);
    } finally {
      this.pumping = outer;
    }
  }
}

export const runScopes = new RunScopes();

const RealDate = Date;
const realRandom = Math.random;
let installed = false;
let previousConvex: SyscallHandler | undefined;

const convexGlobal: SyscallHandler = {
  syscall(op, args) {
    const s = runScopes.current();
    if (s) return s.handler.syscall(op, args);
    if (previousConvex) return previousConvex.syscall(op, args);
    throw new Error("Convex syscall outside of a function run");
  },
  asyncSyscall(op, args) {
    const s = runScopes.current();
    if (s) return s.handler.asyncSyscall(op, args);
    if (previousConvex) return previousConvex.asyncSyscall(op, args);
    return Promise.reject(new Error("Convex syscall outside of a function run"));
  },
  jsSyscall(op, args) {
    const s = runScopes.current();
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
  return args
    .map((a) =>
      a instanceof RawLogText
        ? a.text
        : typeof a === "string"
          ? `'${a}'`
          : inspect(a, { depth: 4, breakLength: Infinity }),
    )
    .join(" ");
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
    const s = runScopes.current();
    if (!new.target) return new RealDate(s?.now ?? RealDate.now()).toString();
    if (args.length === 0 && s?.now != null) return new RealDate(s.now);
    return new (RealDate as unknown as new (...a: unknown[]) => Date)(...args);
  } as unknown as DateConstructor;
  Object.setPrototypeOf(PatchedDate, RealDate);
  (PatchedDate as unknown as { prototype: Date }).prototype = RealDate.prototype;
  PatchedDate.now = () => {
    const s = runScopes.current();
    return s?.now ?? RealDate.now();
  };
  PatchedDate.parse = RealDate.parse;
  PatchedDate.UTC = RealDate.UTC;
  globalThis.Date = PatchedDate;

  Math.random = () => {
    const s = runScopes.current();
    return s?.random ? s.random() : realRandom();
  };

  for (const level of ["log", "info", "warn", "error", "debug"] as const) {
    const original = console[level].bind(console);
    console[level] = (...args: unknown[]) => {
      const s = runScopes.current();
      if (s) s.log(level, args);
      else original(...args);
    };
  }
  // Node's own console.time & co. print through console.log with "%s" formats; inside a run they
  // print as Convex does. Other methods (count, table, group, …): Convex's runtime has none of
  // them, its node executor discards them.
  const extras = [
    "time",
    "timeLog",
    "timeEnd",
    "trace",
    "count",
    "countReset",
    "assert",
    "table",
    "group",
    "groupCollapsed",
    "groupEnd",
    "dir",
    "dirxml",
  ] as const;
  for (const method of extras) {
    const original = (console[method] as (...a: unknown[]) => void).bind(console);
    (console as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
      const s = runScopes.current();
      if (!s) return original(...args);
      if (consoleExtra(s, method, args)) return;
      if (s.consoleStyle === "node") return;
      throw new TypeError(`console.${method} is not a function`);
    };
  }

  const realEnv = process.env;
  process.env = new Proxy(realEnv, {
    // straight to the real object: through the proxy, assigning a variable that exists became a
    // defineProperty with a value alone, which Node's process.env refuses
    set(target, key, value) {
      return Reflect.set(target, key, value);
    },
    get(target, key) {
      const s = runScopes.current();
      if (s && typeof key === "string" && Object.prototype.hasOwnProperty.call(s.env, key)) return s.env[key];
      return Reflect.get(target, key);
    },
    has(target, key) {
      const s = runScopes.current();
      if (s && typeof key === "string" && Object.prototype.hasOwnProperty.call(s.env, key)) return true;
      return Reflect.has(target, key);
    },
    ownKeys(target) {
      const s = runScopes.current();
      const keys = Reflect.ownKeys(target);
      if (!s) return keys;
      return [...new Set([...keys, ...Object.keys(s.env)])];
    },
    getOwnPropertyDescriptor(target, key) {
      const s = runScopes.current();
      if (s && typeof key === "string" && Object.prototype.hasOwnProperty.call(s.env, key)) {
        return { value: s.env[key], writable: true, enumerable: true, configurable: true };
      }
      return Reflect.getOwnPropertyDescriptor(target, key);
    },
  });

  const realFetch = globalThis.fetch;
  if (realFetch) {
    globalThis.fetch = (...args: Parameters<typeof fetch>) => {
      const s = runScopes.current();
      if (s && !s.allowFetch) {
        return Promise.reject(
          new Error("Can't use fetch() in queries and mutations. Please consider using an action."),
        );
      }
      return realFetch(...args);
    };
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
