/**
 * The function realm: the app's queries and mutations run in a `vm` context of their own (a
 * second copy of the functions bundle, built for Convex's runtime as `npx convex deploy` builds
 * it), so that the engine can stop them: code in the context runs only inside `runInContext`
 * calls with a V8 watchdog (see realm-exec.ts). Actions and http actions keep running in Node's
 * own realm ("use node" modules need it, and their time is not limited here).
 *
 * The context offers what Convex's runtime offers queries and mutations: `Convex` (syscalls, for
 * `convex/server`), a fixed `Date.now()` and a seeded `Math.random` per run, `console`,
 * `process.env`, `TextEncoder`/`TextDecoder`, `URL`, `atob`/`btoa`, `crypto` (`getRandomValues`,
 * `randomUUID`, `subtle`), `Blob`, `Headers`, `Request`, `Response`, `structuredClone`,
 * `AsyncLocalStorage`; `setTimeout`, `setInterval` and `fetch` throw Convex's "Can't use … in
 * queries and mutations". Values cross the boundary as JSON text, so realm identity of objects
 * (`instanceof`) never matters to the engine.
 */
import { AsyncLocalStorage, executionAsyncId, triggerAsyncId } from "node:async_hooks";
import { webcrypto } from "node:crypto";
import { createRequire } from "node:module";
import path from "node:path";
import vm from "node:vm";
import type { RunExec } from "./engine-host.js";
import { messages } from "./limits.js";
import { RealmExec, type RealmHandler, type RealmHost } from "./realm-exec.js";
import { realNow, runScopes, type RunScope } from "./runtime.js";

/** Defines the context's own Date, Math.random, TextEncoder, timers, fetch and crypto. */
/**
 * A promise a function rejected and nobody handled stays the function's business, as on Convex:
 * Node would otherwise end the whole backend process for it (its default for unhandled
 * rejections). Rejections of the host's own promises keep that default when nothing else listens.
 */
const realmPromisePrototypes = new WeakSet<object>();
let rejectionGuard: ((reason: unknown, promise: Promise<unknown>) => void) | null = null;
function keepRealmRejectionsInside(RealmPromise: PromiseConstructor) {
  realmPromisePrototypes.add(RealmPromise.prototype);
  if (rejectionGuard) return;
  rejectionGuard = (reason, promise) => {
    for (
      let proto = Object.getPrototypeOf(promise) as object | null;
      proto;
      proto = Object.getPrototypeOf(proto) as object | null
    ) {
      if (realmPromisePrototypes.has(proto)) return;
    }
    if (process.listenerCount("unhandledRejection") === 1) throw reason;
  };
  process.on("unhandledRejection", rejectionGuard);
}

const SETUP = `(function (host) {
  const RealDate = globalThis.Date;
  function Date(...args) {
    if (!new.target) return new RealDate(host.now()).toString();
    if (args.length === 0) return new RealDate(host.now());
    return new RealDate(...args);
  }
  Date.prototype = RealDate.prototype;
  Object.setPrototypeOf(Date, RealDate);
  Date.now = () => host.now();
  Date.parse = RealDate.parse;
  Date.UTC = RealDate.UTC;
  Object.defineProperty(RealDate.prototype, "constructor", { value: Date, writable: true, configurable: true });
  globalThis.Date = Date;
  Math.random = () => host.random();
  globalThis.queueMicrotask = (callback) => { Promise.resolve().then(() => callback()); };
  class TextEncoder {
    get encoding() { return "utf-8"; }
    encode(input = "") {
      const bytes = host.encode(String(input));
      const out = new Uint8Array(bytes.length);
      out.set(bytes);
      return out;
    }
    encodeInto(input, dest) { return host.encodeInto(String(input), dest); }
  }
  globalThis.TextEncoder = TextEncoder;
  const notAllowed = (what) => () => { throw new Error(host.notAllowed(what)); };
  globalThis.setTimeout = notAllowed("setTimeout");
  globalThis.setInterval = notAllowed("setInterval");
  globalThis.clearTimeout = () => {};
  globalThis.clearInterval = () => {};
  globalThis.fetch = async () => { throw new Error(host.notAllowed("fetch()")); };
  const toBytes = (buf) => { const out = new Uint8Array(buf.byteLength); out.set(new globalThis.__lbHostUint8Array(buf)); return out.buffer; };
  const subtle = {};
  for (const name of host.subtleMethods) {
    subtle[name] = (...args) => host.subtle(name, args).then((v) => (v instanceof globalThis.__lbHostArrayBuffer ? toBytes(v) : v));
  }
  globalThis.crypto = {
    getRandomValues: (array) => host.getRandomValues(array),
    randomUUID: () => host.randomUUID(),
    subtle,
  };
})`;

/** Web APIs of Node's realm the function realm shares (their objects cross as they are). */
const WEB_GLOBALS = [
  "TextDecoder",
  "TextDecoderStream",
  "TextEncoderStream",
  "URL",
  "URLSearchParams",
  "atob",
  "btoa",
  "Blob",
  "File",
  "FormData",
  "Headers",
  "Request",
  "Response",
  "AbortController",
  "AbortSignal",
  "Event",
  "EventTarget",
  "MessageChannel",
  "MessagePort",
  "MessageEvent",
  "ReadableStream",
  "ReadableStreamDefaultReader",
  "ReadableStreamBYOBReader",
  "ReadableStreamDefaultController",
  "ReadableByteStreamController",
  "WritableStream",
  "WritableStreamDefaultWriter",
  "TransformStream",
  "ByteLengthQueuingStrategy",
  "CountQueuingStrategy",
  "CompressionStream",
  "DecompressionStream",
  "DOMException",
  "CryptoKey",
  "Crypto",
  "SubtleCrypto",
  "structuredClone",
  "performance",
  "navigator",
];

const SUBTLE_METHODS = [
  "digest",
  "encrypt",
  "decrypt",
  "sign",
  "verify",
  "importKey",
  "exportKey",
  "generateKey",
  "deriveKey",
  "deriveBits",
  "wrapKey",
  "unwrapKey",
];

function scope(): RunScope | undefined {
  return runScopes.current();
}

/** The context's `Convex` global: each call goes to the run it belongs to (the pump's, runtime.ts). */
const realmConvex = {
  syscall(op: string, args: string): string {
    const s = scope();
    if (!s) throw new Error("Convex syscall outside of a function run");
    return s.exec ? (s.exec as RealmExec).syscall(op, args) : s.handler.syscall(op, args);
  },
  asyncSyscall(op: string, args: string): Promise<string> | string {
    const s = scope();
    if (!s) return Promise.reject(new Error("Convex syscall outside of a function run"));
    return s.exec ? (s.exec as RealmExec).asyncSyscall(op, args) : s.handler.asyncSyscall(op, args);
  },
  jsSyscall(op: string, args: Record<string, unknown>): unknown {
    const s = scope();
    if (!s) throw new Error("Convex syscall outside of a function run");
    const out = s.handler.jsSyscall(op, args);
    // a promise of Node's realm: the run waits for it like for a deferred syscall
    if (s.exec && out instanceof Promise) return (s.exec as RealmExec).defer(() => out);
    return out;
  },
};

/**
 * The console of Convex's runtime (udf-runtime's 02_console.ts): the log levels, trace and the
 * time family, nothing else (`console.count` is not a function there either). Each goes to the
 * engine's console hooks, which write the current run's log lines (runtime.ts).
 */
const realmConsole: Record<string, unknown> = Object.assign(Object.create({}) as object, {
  debug: (...args: unknown[]) => console.debug(...args),
  error: (...args: unknown[]) => console.error(...args),
  info: (...args: unknown[]) => console.info(...args),
  log: (...args: unknown[]) => console.log(...args),
  warn: (...args: unknown[]) => console.warn(...args),
  trace: (...args: unknown[]) => console.trace(...args),
  time: (label?: string) => console.time(label),
  timeLog: (label?: string, ...args: unknown[]) => console.timeLog(label, ...args),
  timeEnd: (label?: string) => console.timeEnd(label),
});

type AsyncWrapBinding = {
  async_hook_fields: Uint32Array;
  async_id_fields: Float64Array;
  async_ids_stack: Float64Array;
  execution_async_resources: unknown[];
  constants: { kStackLength: number; kExecutionAsyncId: number; kTriggerAsyncId: number };
};
let asyncWrap: AsyncWrapBinding | null | undefined;

/**
 * After V8 terminated code inside a promise job of the realm, the job's async context (pushed by
 * Node's promise hook, which AsyncLocalStorage enables) is never popped, and Node later aborts
 * ("Assertion failed: (env_->execution_async_id()) == (0)", nodejs/node#38503). This pops the
 * contexts left above the one the pump started in, as Node's own popAsyncContext would. It uses
 * `process.binding("async_wrap")` (deprecated, still present in Node 20 and 22), only after a
 * termination. Returns false when that binding is unavailable.
 */
function repairAsyncContext(id: number, trigger: number): boolean {
  if (asyncWrap === undefined) {
    const quiet = process.noDeprecation;
    process.noDeprecation = true;
    try {
      asyncWrap = (process as unknown as { binding(name: string): AsyncWrapBinding }).binding("async_wrap");
    } catch {
      asyncWrap = null;
    } finally {
      process.noDeprecation = quiet;
    }
  }
  const b = asyncWrap;
  if (!b?.async_hook_fields || !b.constants) return false;
  const { kStackLength, kExecutionAsyncId, kTriggerAsyncId } = b.constants;
  const fields = b.async_hook_fields;
  const ids = b.async_id_fields;
  for (let n = 0; n < 1000 && fields[kStackLength] > 0; n++) {
    if (ids[kExecutionAsyncId] === id && ids[kTriggerAsyncId] === trigger) return true;
    const offset = fields[kStackLength] - 1;
    ids[kExecutionAsyncId] = b.async_ids_stack[2 * offset];
    ids[kTriggerAsyncId] = b.async_ids_stack[2 * offset + 1];
    b.execution_async_resources.pop();
    fields[kStackLength] = offset;
  }
  return ids[kExecutionAsyncId] === id;
}

export type RealmFunction = { invokeQuery?(args: string): unknown; invokeMutation?(args: string): unknown };

/** Names never bound as locals: `eval` must stay a direct eval, the rest are not plain values. */
const NOT_LOCAL = new Set(["eval", "undefined", "NaN", "Infinity", "arguments"]);

/**
 * Wraps the bundle in a function whose parameters are the context's globals (Math, Object, JSON,
 * Convex, console, …), bound once to their values after SETUP. In a `vm` context every global
 * name is looked up through the context's interceptor, which keeps V8 from optimising the code
 * around it: a loop calling `Math.imul` ran 25 times slower than in Node's own realm. As locals
 * they cost what they cost on Convex. The wrapper takes one line (the script's `lineOffset` keeps
 * the bundle's line numbers for its source map).
 */
function withGlobalsAsLocals(code: string, context: vm.Context): string {
  const names = (vm.runInContext("Object.getOwnPropertyNames(globalThis)", context) as string[]).filter(
    (n) => /^[A-Za-z_$][\w$]*$/.test(n) && !NOT_LOCAL.has(n) && !n.startsWith("__lb"),
  );
  const list = names.join(", ");
  return `(function (${list}) {\n${code}\n}).call(globalThis, ${names.map((n) => `globalThis.${n}`).join(", ")});`;
}

export class FunctionRealm implements RealmHost {
  private readonly context: vm.Context;
  private readonly drainScript = new vm.Script("undefined");
  private readonly callScript = new vm.Script("__lbCall()");
  private readonly RealmPromise: PromiseConstructor;
  private entered = false;
  /** module path ("messages", "folder/file") → its exports, as the bundle defined them */
  readonly modules: Record<string, Record<string, unknown>>;

  /**
   * Evaluates `code`, the realm bundle (it assigns `globalThis.__lbModules`), in a new context.
   * Module top-level code runs in the caller's run scope (it may read `process.env`).
   */
  constructor(code: string, functionsDir: string, filename = path.join(functionsDir, "(functions realm bundle).js")) {
    const encoder = new TextEncoder();
    const web: Record<string, unknown> = {};
    for (const name of WEB_GLOBALS) if (name in globalThis) web[name] = (globalThis as Record<string, unknown>)[name];
    this.context = vm.createContext(
      {
        ...web,
        Convex: realmConvex,
        console: realmConsole,
        process: { env: process.env },
        require: createRequire(path.join(functionsDir, "noop.js")),
        AsyncLocalStorage,
        __lbHostUint8Array: Uint8Array,
        __lbHostArrayBuffer: ArrayBuffer,
      },
      { name: "convex functions", microtaskMode: "afterEvaluate", codeGeneration: { strings: true, wasm: true } },
    );
    const host = {
      now: () => scope()?.now ?? realNow(),
      random: () => {
        const s = scope();
        return s?.random ? s.random() : Math.random();
      },
      encode: (s: string) => encoder.encode(s),
      encodeInto: (s: string, dest: Uint8Array) => encoder.encodeInto(s, dest),
      notAllowed: (what: string) => messages.notInQueriesOrMutations(what),
      getRandomValues: <T extends ArrayBufferView>(a: T) => webcrypto.getRandomValues(a as never) as T,
      randomUUID: () => webcrypto.randomUUID(),
      subtleMethods: SUBTLE_METHODS,
      subtle: (name: string, args: unknown[]) => {
        const call = () =>
          (webcrypto.subtle as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[name](...args);
        const exec = scope()?.exec as RealmExec | undefined;
        if (exec) return exec.defer(call);
        return this.newPromise((resolve, reject) => {
          call().then(resolve, reject);
        });
      },
    };
    (vm.runInContext(SETUP, this.context) as (h: typeof host) => void)(host);
    this.RealmPromise = vm.runInContext("Promise", this.context) as PromiseConstructor;
    keepRealmRejectionsInside(this.RealmPromise);
    new vm.Script(withGlobalsAsLocals(code, this.context), { filename, lineOffset: -1 }).runInContext(this.context, {
      timeout: 60_000,
    });
    this.modules = (this.context.__lbModules ?? {}) as Record<string, Record<string, unknown>>;
    delete this.context.__lbModules;
  }

  enter(call: (() => unknown) | null, timeoutMs: number): unknown {
    if (this.entered) throw new Error("The function realm was entered from inside itself");
    this.entered = true;
    const id = executionAsyncId();
    const trigger = triggerAsyncId();
    try {
      if (!call) return this.drainScript.runInContext(this.context, { timeout: timeoutMs });
      this.context.__lbCall = call;
      return this.callScript.runInContext(this.context, { timeout: timeoutMs });
    } catch (e) {
      if (executionAsyncId() !== id || triggerAsyncId() !== trigger) repairAsyncContext(id, trigger);
      throw e;
    } finally {
      this.context.__lbCall = undefined;
      this.entered = false;
    }
  }

  newPromise<T>(executor: (resolve: (v: T) => void, reject: (e: unknown) => void) => void): Promise<T> {
    return new this.RealmPromise<T>(executor);
  }

  /**
   * Runs `fn` (a query or mutation of this realm) with the JSON arguments text; resolves with its
   * JSON result. Each pump runs as `run.scope` (`runScopes.pump`), whose `exec` it sets. `parent`: the calling run's exec for nested calls; `patience`: how much wall
   * time its watchdog allows per millisecond of CPU time left (realm-exec.ts).
   */
  invoke(
    run: { scope: RunScope; handler: RealmHandler; setExec(exec: RunExec): void },
    kind: "query" | "mutation",
    fn: RealmFunction,
    argsStr: string,
    limitMs: number,
    parent: RunExec | null,
    patience?: number,
  ): { exec: RealmExec; result: Promise<string> } {
    const call = () => (kind === "query" ? fn.invokeQuery!(argsStr) : fn.invokeMutation!(argsStr));
    const exec = new RealmExec(this, run.scope, run.handler, limitMs, parent, call, patience);
    run.setExec(exec);
    return { exec, result: exec.start() };
  }
}
