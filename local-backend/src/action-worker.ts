/**
 * An action worker: one `worker_threads` thread of the action pool (action-pool.ts), running
 * actions and http actions of Convex's own runtime (modules without "use node") off the engine's
 * thread, as Convex runs them in isolates of their own: password hashing or any other CPU-heavy
 * action never delays a query, a mutation or a subscription. Many invocations run here at once
 * (most of an action's time is spent awaiting the engine or `fetch`); syscalls go to the engine as
 * messages (worker-bridge.ts), console lines come back formatted as Convex's runtime formats them.
 *
 * A throwing timer callback or an unhandled rejection is logged and ends nothing: it belongs to
 * one action and must not fail the others running here. Bundled by esbuild at startup.
 */
import { pathToFileURL } from "node:url";
import { parentPort } from "node:worker_threads";
import { messages } from "./limits.js";
import { toFailure, type Failure } from "./outcome.js";
import { formatLogArgs, installRuntime, scopeStorage, type RunScope } from "./runtime.js";
import { registerBundleDir } from "./stack-frames.js";
import { CallSender, type CallAnswer, type CallMessage } from "./worker-bridge.js";

/** An http request or response as it crosses the thread boundary. */
export type WireHeaders = Array<[string, string]>;
export type WireRequest = { url: string; method: string; headers: WireHeaders; body: Uint8Array | null };
export type WireResponse = { status: number; statusText: string; headers: WireHeaders; body: Uint8Array };

type Common = { id: number; requestId: string; env: Record<string, string>; timeoutMs: number; bundleDir: string; functionsDir: string };

export type ToActionWorker =
  | (Common & { type: "action"; file: string; exportName: string; modulePath: string; args: string })
  | (Common & { type: "http"; file: string; request: WireRequest })
  | ({ type: "result"; callId: number } & CallAnswer)
  | { type: "preload"; files: string[]; env: Record<string, string>; bundleDir: string; functionsDir: string };

export type FromActionWorker =
  | { type: "ready" }
  | CallMessage
  | { type: "log"; id: number; level: string; text: string }
  | { type: "done"; id: number; ok: true; value: string }
  /** "no route": the router has none for the path; "not a response": the action returned something else */
  | { type: "httpDone"; id: number; ok: true; response: WireResponse | "no route" | "not a response" }
  | { type: "done" | "httpDone"; id: number; ok: false; failure: Failure }
  | { type: "stray"; text: string };

const port = parentPort;
if (!port) throw new Error("action-worker must run in a worker thread");

const calls = new CallSender((m) => post(m));

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

process.on("uncaughtException", (e) => post({ type: "stray", text: `Uncaught ${e instanceof Error ? (e.stack ?? e.message) : String(e)}` }));
process.on("unhandledRejection", (e) => post({ type: "stray", text: `Unhandled rejection: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}` }));

async function importModule(file: string): Promise<Record<string, unknown>> {
  return (await import(pathToFileURL(file).href)) as Record<string, unknown>;
}

/** Runs `work` in the invocation's scope, failing it with Convex's time-out after `timeoutMs`. */
async function limited<T>(inv: Invocation, scope: RunScope, timeoutMs: number, work: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(messages.timeout(timeoutMs)), { timedOut: true })), timeoutMs);
  });
  try {
    return await Promise.race([scopeStorage.run(scope, work), timeout]);
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
      const fn = mod[m.exportName] as { isAction?: boolean; invokeAction?: (requestId: string, args: string) => Promise<string> } | undefined;
      if (!fn?.isAction || typeof fn.invokeAction !== "function") throw new Error(`Couldn't find action \`${m.exportName}\` in \`${m.modulePath}.js\``);
      return fn.invokeAction(m.requestId, m.args);
    });
    inv.done = true;
    post({ type: "done", id: m.id, ok: true, value });
  } catch (e) {
    inv.done = true;
    post({ type: "done", id: m.id, ok: false, failure: failureOf(e) });
  }
}

type Router = { lookup(path: string, method: string): [{ invokeHttpAction(r: Request): Promise<unknown> }, string, string] | null };

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
      const request = new Request(r.url, { method: r.method, headers: r.headers, body: r.body && r.method !== "GET" && r.method !== "HEAD" ? new Uint8Array(r.body) : null });
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
      await scopeStorage.run(scopeFor(inv, m.env), () => importModule(file));
    } catch {
      // reported when a function of it is called
    }
  }
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
  }
});

post({ type: "ready" });
