/**
 * An action worker: one `worker_threads` thread of the action pool (action-pool.ts), running
 * actions and http actions of Convex's own runtime (modules without "use node") off the engine's
 * thread, as Convex runs them in isolates of their own: password hashing or any other CPU-heavy
 * action never delays a query, a mutation or a subscription. Many invocations run here at once
 * (most of an action's time is spent awaiting the engine or `fetch`); syscalls go to the engine as
 * messages (worker-bridge.ts), console lines come back formatted as Convex's runtime formats them.
 *
 * Queries and mutations whose own work is heavy run here too (functions.ts decides, placement.ts),
 * in a function realm of this thread (realm.ts, built from the same bundle as the engine's), timed
 * by this thread's own CPU clock (realm-exec.ts); their database syscalls are synchronous calls to
 * the engine (worker-bridge.ts callSync), where their transaction lives.
 *
 * A throwing timer callback or an unhandled rejection is logged and ends nothing: it belongs to
 * one action and must not fail the others running here. Bundled by esbuild at startup.
 */
import { pathToFileURL } from "node:url";
import { parentPort, workerData } from "node:worker_threads";
import { messages } from "./limits.js";
import { SystemError, toFailure, type Failure } from "./outcome.js";
import { FunctionRealm, type RealmFunction } from "./realm.js";
import { PreemptedError, type RealmExec, type RealmHandler } from "./realm-exec.js";
import { formatLogArgs, installRuntime, runScopes, seededRandom, type RunExec, type RunScope } from "./runtime.js";
import { registerBundleDir, registerBundleFile } from "./stack-frames.js";
import {
  CallSender,
  callSync,
  type CallAnswer,
  type CallMessage,
  type SyncCallMessage,
  type SyncChannel,
} from "./worker-bridge.js";

/** An http request or response as it crosses the thread boundary. */
export type WireHeaders = Array<[string, string]>;
export type WireRequest = { url: string; method: string; headers: WireHeaders; body: Uint8Array | null };
export type WireResponse = { status: number; statusText: string; headers: WireHeaders; body: Uint8Array };

type Common = {
  id: number;
  requestId: string;
  env: Record<string, string>;
  timeoutMs: number;
  bundleDir: string;
  functionsDir: string;
};

export type ToActionWorker =
  | (Common & { type: "action"; file: string; exportName: string; modulePath: string; args: string })
  | (Common & { type: "http"; file: string; request: WireRequest })
  | ({ type: "result"; callId: number } & CallAnswer)
  | { type: "preload"; files: string[]; env: Record<string, string>; bundleDir: string; functionsDir: string }
  /** the build's function realm bundle (sent before this worker's first query or mutation) */
  | ({ type: "realm"; env: Record<string, string> } & RealmSource)
  | (Omit<Common, "bundleDir"> & {
      type: "udf";
      kind: "query" | "mutation";
      modulePath: string;
      exportName: string;
      args: string;
      patience: number;
      now: number;
      seed: number;
    })
  /** a nested call of the query or mutation timed out on the engine: it ends too */
  | { type: "abort"; id: number; message: string };

/** The function realm bundle of a build (loader.ts), as a worker builds its own realm from it. */
export type RealmSource = { code: string; filename: string; map: string | null; functionsDir: string };

/** How a query or mutation in a worker ended, with its own execution time and syscall count. */
export type UdfDone = { type: "udfDone"; id: number; userMs: number; syscalls: number } & (
  { ok: true; value: string } | { ok: false; failure: Failure; preempted?: { limitMs: number; share: number } }
);

export type FromActionWorker =
  | { type: "ready" }
  | CallMessage
  | { type: "log"; id: number; level: string; text: string }
  | { type: "done"; id: number; ok: true; value: string }
  /** "no route": the router has none for the path; "not a response": the action returned something else */
  | { type: "httpDone"; id: number; ok: true; response: WireResponse | "no route" | "not a response" }
  | { type: "done" | "httpDone"; id: number; ok: false; failure: Failure }
  | { type: "stray"; text: string }
  | SyncCallMessage
  | UdfDone;

const port = parentPort;
if (!port) throw new Error("action-worker must run in a worker thread");

const calls = new CallSender((m) => post(m));
/** where synchronous syscalls are answered (the pool gives every worker its own) */
const sync = (workerData as { sync?: SyncChannel } | null)?.sync ?? null;

function post(m: FromActionWorker): void {
  port!.postMessage(m);
}

type Invocation = { id: number; done: boolean };

function scopeFor(inv: Invocation, env: Record<string, string>): RunScope {
  return {
    handler: calls.handler(inv.id, () => inv.done),
    now: null,
    random: null,
    // Convex's runtime: strings as they are, other values inspected (runtime.ts formatLogArgs)
    log: (level, args) => {
      if (!inv.done) post({ type: "log", id: inv.id, level, text: formatLogArgs(args) });
    },
    env,
    allowFetch: true,
    consoleStyle: "v8",
  };
}

process.on("uncaughtException", (e) =>
  post({ type: "stray", text: `Uncaught ${e instanceof Error ? (e.stack ?? e.message) : String(e)}` }),
);
process.on("unhandledRejection", (e) =>
  post({ type: "stray", text: `Unhandled rejection: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}` }),
);

async function importModule(file: string): Promise<Record<string, unknown>> {
  return (await import(pathToFileURL(file).href)) as Record<string, unknown>;
}

/** Runs `work` in the invocation's scope, failing it with Convex's time-out after `timeoutMs`. */
async function limited<T>(inv: Invocation, scope: RunScope, timeoutMs: number, work: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(Object.assign(new Error(messages.timeout(timeoutMs)), { timedOut: true })),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([runScopes.run(scope, work), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function failureOf(e: unknown): Failure {
  // the time-out is Convex's system error: no "Uncaught", no frames
  if ((e as { timedOut?: boolean } | null)?.timedOut) return { errorMessage: (e as Error).message };
  return toFailure(e);
}

async function runAction(m: Extract<ToActionWorker, { type: "action" }>): Promise<void> {
  registerBundleDir(m.bundleDir, m.functionsDir);
  installRuntime();
  const inv: Invocation = { id: m.id, done: false };
  const scope = scopeFor(inv, m.env);
  try {
    const value = await limited(inv, scope, m.timeoutMs, async () => {
      const mod = await importModule(m.file);
      const fn = mod[m.exportName] as
        { isAction?: boolean; invokeAction?: (requestId: string, args: string) => Promise<string> } | undefined;
      if (!fn?.isAction || typeof fn.invokeAction !== "function")
        throw new Error(`Couldn't find action \`${m.exportName}\` in \`${m.modulePath}.js\``);
      return fn.invokeAction(m.requestId, m.args);
    });
    inv.done = true;
    post({ type: "done", id: m.id, ok: true, value });
  } catch (e) {
    inv.done = true;
    post({ type: "done", id: m.id, ok: false, failure: failureOf(e) });
  }
}

type Router = {
  lookup(path: string, method: string): [{ invokeHttpAction(r: Request): Promise<unknown> }, string, string] | null;
};

async function runHttp(m: Extract<ToActionWorker, { type: "http" }>): Promise<void> {
  registerBundleDir(m.bundleDir, m.functionsDir);
  installRuntime();
  const inv: Invocation = { id: m.id, done: false };
  const scope = scopeFor(inv, m.env);
  try {
    const response = await limited(inv, scope, m.timeoutMs, async () => {
      const router = (await importModule(m.file)).default as Router | undefined;
      const match = router?.lookup(new URL(m.request.url).pathname, m.request.method);
      if (!match) return "no route" as const;
      const r = m.request;
      const request = new Request(r.url, {
        method: r.method,
        headers: r.headers,
        body: r.body && r.method !== "GET" && r.method !== "HEAD" ? new Uint8Array(r.body) : null,
      });
      const res = await match[0].invokeHttpAction(request);
      if (!(res instanceof Response)) return "not a response" as const;
      const headers: WireHeaders = [];
      res.headers.forEach((value, name) => {
        if (name !== "set-cookie") headers.push([name, value]);
      });
      for (const cookie of res.headers.getSetCookie()) headers.push(["set-cookie", cookie]);
      return { status: res.status, statusText: res.statusText, headers, body: new Uint8Array(await res.arrayBuffer()) };
    });
    inv.done = true;
    post({ type: "httpDone", id: m.id, ok: true, response });
  } catch (e) {
    inv.done = true;
    post({ type: "httpDone", id: m.id, ok: false, failure: failureOf(e) });
  }
}

async function preload(m: Extract<ToActionWorker, { type: "preload" }>): Promise<void> {
  registerBundleDir(m.bundleDir, m.functionsDir);
  installRuntime();
  const inv: Invocation = { id: -1, done: true };
  for (const file of m.files) {
    try {
      await runScopes.run(scopeFor(inv, m.env), () => importModule(file));
    } catch {
      // reported when a function of it is called
    }
  }
}

let realm: FunctionRealm | null = null;
let realmError: string | null = null;
/** queries and mutations running here, by invocation id */
const udfs = new Map<number, RealmExec>();

function loadRealm(m: Extract<ToActionWorker, { type: "realm" }>): void {
  installRuntime();
  if (m.map) registerBundleFile(m.filename, JSON.parse(m.map), m.functionsDir, m.functionsDir);
  const inv: Invocation = { id: -1, done: true };
  try {
    // module top-level code may read process.env
    realm = runScopes.run(scopeFor(inv, m.env), () => new FunctionRealm(m.code, m.functionsDir, m.filename));
  } catch (e) {
    realmError = `The function realm could not be loaded in a worker: ${e instanceof Error ? e.message : String(e)}`;
  }
}

function runUdf(m: Extract<ToActionWorker, { type: "udf" }>): void {
  installRuntime();
  const inv: Invocation = { id: m.id, done: false };
  const base = scopeFor(inv, m.env);
  const scope: RunScope = { ...base, now: m.now, random: seededRandom(m.seed), allowFetch: false };
  let exec: RealmExec | null = null;
  const done = (
    r: { ok: true; value: string } | { ok: false; failure: Failure; preempted?: { limitMs: number; share: number } },
  ) => {
    inv.done = true;
    udfs.delete(m.id);
    post({ type: "udfDone", id: m.id, userMs: exec?.userMs ?? 0, syscalls: exec?.syscalls ?? 0, ...r });
  };
  const fn = realm?.modules[m.modulePath]?.[m.exportName] as RealmFunction | undefined;
  if (!realm || !fn || !sync)
    return done({
      ok: false,
      failure: { errorMessage: realmError ?? `Couldn't find ${m.kind} \`${m.exportName}\` in \`${m.modulePath}.js\`` },
    });
  const channel = sync;
  const handler: RealmHandler = {
    syscall: (op, args) => callSync(channel, post, { id: m.id, kind: "syscall", op, args }) as string,
    asyncSyscallNow: (op, args) =>
      (callSync(channel, post, { id: m.id, kind: "now", op, args }) as string | undefined) ?? undefined,
    asyncSyscall: (op, args) => calls.send(m.id, inv.done, { kind: "async", op, args }, true) as Promise<string>,
  };
  const run = {
    scope,
    handler,
    setExec(e: RunExec) {
      scope.exec = e;
    },
  };
  const started = runScopes.run(scope, () => realm!.invoke(run, m.kind, fn, m.args, m.timeoutMs, null, m.patience));
  exec = started.exec;
  udfs.set(m.id, exec);
  started.result.then(
    (value) => done({ ok: true, value }),
    (e: unknown) =>
      done(
        e instanceof PreemptedError
          ? { ok: false, failure: { errorMessage: e.message }, preempted: { limitMs: e.limitMs, share: e.share } }
          : { ok: false, failure: toFailure(e) },
      ),
  );
}

port.on("message", (m: ToActionWorker) => {
  switch (m.type) {
    case "action":
      void runAction(m);
      return;
    case "http":
      void runHttp(m);
      return;
    case "result":
      calls.answer(m.callId, m);
      return;
    case "preload":
      void preload(m);
      return;
    case "realm":
      loadRealm(m);
      return;
    case "udf":
      runUdf(m);
      return;
    case "abort":
      udfs.get(m.id)?.abort(new SystemError(m.message), true);
      return;
  }
});

post({ type: "ready" });
