/**
 * The Node-action worker: one `worker_threads` thread of the node executor (node-executor.ts),
 * running one "use node" action at a time, as Convex's node executor runs each in its own Node
 * process. Syscalls go to the engine as messages; the action's console lines come back formatted
 * the way Convex's node executor formats them. An uncaught exception, an unhandled rejection or
 * `process.exit()` fails the action running here with Convex's `Uncaught uncaughtException: …`
 * (`unhandledRejection`, `process.exit`) and the engine replaces this worker; the engine's own
 * process never sees it.
 *
 * Bundled by esbuild at startup (node:* built-ins only, plus convex/values through outcome.ts).
 */
import { pathToFileURL } from "node:url";
import { parentPort } from "node:worker_threads";
import { formatUncaught, toFailure, type Failure } from "./outcome.js";
import { installRuntime, nodeInspect, runScopes, type RunScope, type SyscallHandler } from "./runtime.js";
import { registerBundleDir } from "./stack-frames.js";
import { CallSender, type CallAnswer, type CallMessage } from "./worker-bridge.js";

export type InvokeMessage = {
  type: "invoke";
  id: number;
  /** the bundled module (.mjs) and the action's export */
  file: string;
  exportName: string;
  /** `file:name` relative to the functions folder, for messages */
  modulePath: string;
  args: string;
  requestId: string;
  env: Record<string, string>;
  timeoutMs: number;
  bundleDir: string;
  functionsDir: string;
};

export type ToWorker =
  | InvokeMessage
  | ({ type: "result"; callId: number } & CallAnswer)
  | { type: "preload"; files: string[]; env: Record<string, string>; bundleDir: string; functionsDir: string };

export type FromWorker =
  | { type: "ready" }
  | CallMessage
  | { type: "log"; id: number; level: string; text: string }
  | { type: "done"; id: number; ok: true; value: string }
  | { type: "done"; id: number; ok: false; failure: Failure; discard?: boolean }
  | { type: "fatal"; id: number | null; failure: Failure };

const port = parentPort;
if (!port) throw new Error("node-executor-worker must run in a worker thread");

type Invocation = { id: number; done: boolean };
let current: Invocation | null = null;
const calls = new CallSender((m) => post(m));
let fatalSent = false;

function post(m: FromWorker): void {
  port!.postMessage(m);
}

function handlerFor(inv: Invocation): SyscallHandler {
  return calls.handler(inv.id, () => inv.done);
}

function scopeFor(inv: Invocation, env: Record<string, string>): RunScope {
  return {
    handler: handlerFor(inv),
    now: null,
    random: null,
    // Convex's node executor: each argument through util.inspect, joined by spaces
    log: (level, args) => {
      if (!inv.done) post({ type: "log", id: inv.id, level, text: args.map((a) => nodeInspect(a)).join(" ") });
    },
    env,
    allowFetch: true,
    consoleStyle: "node",
  };
}

/** Convex's `extractErrorMessage` (npm-packages/node-executor/src/errors.ts). */
function extractErrorMessage(e: unknown): string {
  if (e === null || e === undefined) return "unknown error";
  try {
    const m = (e as { message?: unknown }).message;
    // like Convex's: message.toString(), else the thrown value's own toString()
    if (m !== undefined && m !== null && typeof (m as { toString?: unknown }).toString === "function")
      return (m as { toString(): string }).toString();
    return (e as { toString(): string }).toString();
  } catch {
    return "unknown error";
  }
}

/** The action running here failed outside its own promise: report it, then the engine ends this worker. */
function fatal(event: "uncaughtException" | "unhandledRejection" | "process.exit", e: unknown): void {
  if (fatalSent) return;
  fatalSent = true;
  let frames: string[] | undefined;
  try {
    frames = toFailure(e).frames;
  } catch {
    frames = undefined;
  }
  const failure: Failure = {
    errorMessage: formatUncaught(extractErrorMessage(e), event),
    ...(frames ? { frames } : {}),
  };
  if (current) current.done = true;
  post({ type: "fatal", id: current?.id ?? null, failure });
}

process.on("uncaughtException", (e) => fatal("uncaughtException", e));
process.on("unhandledRejection", (e) => fatal("unhandledRejection", e));
process.exit = (code?: number) => {
  fatal(
    "process.exit",
    new Error(`process.exit() called ${code === undefined ? "with no exit code" : `with exit code ${code}`}`),
  );
  throw new Error("unreachable (process.exit)");
};

/**
 * An action whose promise is pending while nothing can settle it (no timer, socket, file
 * operation or child process keeps the worker's event loop alive, no call to the engine is
 * unanswered) has deadlocked on itself: it is failed as timed out at once instead of after the
 * full limit. Checked every DEADLOCK_CHECK_MS, DEADLOCK_CHECKS times in a row.
 */
const DEADLOCK_CHECK_MS = 250;
const DEADLOCK_CHECKS = 4;
function awaitsNothing(): boolean {
  return calls.inFlight === 0 && process.getActiveResourcesInfo().every((r) => r === "MessagePort");
}

async function importModule(file: string): Promise<Record<string, unknown>> {
  return (await import(pathToFileURL(file).href)) as Record<string, unknown>;
}

async function invoke(m: InvokeMessage): Promise<void> {
  registerBundleDir(m.bundleDir, m.functionsDir);
  const inv: Invocation = { id: m.id, done: false };
  current = inv;
  const scope = scopeFor(inv, m.env);
  installRuntime();
  let timer: NodeJS.Timeout | undefined;
  let deadlockCheck: NodeJS.Timeout | undefined;
  let stillCount = 0;
  try {
    const mod = await runScopes.run(scope, () => importModule(m.file));
    const fn = mod[m.exportName] as
      { isAction?: boolean; invokeAction?: (requestId: string, args: string) => Promise<string> } | undefined;
    const rel = `${m.modulePath}.js`;
    if (!fn) throw new Error(`Couldn't find action \`${m.exportName}\` in \`${rel}\``);
    if (!fn.isAction || typeof fn.invokeAction !== "function")
      throw new Error(`\`${m.exportName}\` wasn't registered as a Convex action in \`${rel}\``);
    const timedOut = Symbol("timeout");
    const timeout = new Promise<symbol>((resolve) => {
      // unref'd, like the deadlock check: neither keeps the action alive (see awaitsNothing)
      timer = setTimeout(() => resolve(timedOut), m.timeoutMs).unref();
      deadlockCheck = setInterval(() => {
        stillCount = awaitsNothing() ? stillCount + 1 : 0;
        if (stillCount >= DEADLOCK_CHECKS) resolve(timedOut);
      }, DEADLOCK_CHECK_MS).unref();
    });
    const result = await runScopes.run(scope, () =>
      Promise.race<string | symbol>([fn.invokeAction!(m.requestId, m.args), timeout]),
    );
    if (inv.done) return;
    inv.done = true;
    if (result === timedOut) {
      // Convex's node executor: no "Uncaught", no frames; the stuck work goes with this worker
      const failure = {
        errorMessage: `Action \`${m.exportName}\` execution timed out (maximum duration ${m.timeoutMs / 1000}s)`,
      };
      post({ type: "done", id: m.id, ok: false, failure, discard: true });
    } else if (typeof result !== "string") {
      post({
        type: "done",
        id: m.id,
        ok: false,
        failure: {
          errorMessage: `Action \`${m.exportName}\` did not return a string (returned \`${String(result)}\`)`,
        },
      });
    } else {
      post({ type: "done", id: m.id, ok: true, value: result });
    }
  } catch (e) {
    if (inv.done) return;
    inv.done = true;
    post({ type: "done", id: m.id, ok: false, failure: toFailure(e) });
  } finally {
    if (timer) clearTimeout(timer);
    if (deadlockCheck) clearInterval(deadlockCheck);
    if (current === inv) current = null;
  }
}

async function preload(m: Extract<ToWorker, { type: "preload" }>): Promise<void> {
  registerBundleDir(m.bundleDir, m.functionsDir);
  installRuntime();
  const inv: Invocation = { id: -1, done: true };
  for (const file of m.files) {
    try {
      await runScopes.run(scopeFor(inv, m.env), () => importModule(file));
    } catch {
      // reported when an action of it is called
    }
  }
}

port.on("message", (m: ToWorker) => {
  switch (m.type) {
    case "invoke":
      void invoke(m);
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
