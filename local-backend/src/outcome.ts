/**
 * What a caller hears of a failed function run: errors thrown inside a run (ConvexError with its
 * data, system errors, argument/return validation, nested calls) turned into the outcome's
 * `errorMessage`/`errorData`, and back into an error for a failed nested call.
 */
import { convexToJson, type JSONValue, type Value } from "convex/values";
import { createHash, randomBytes } from "node:crypto";
import { userFrames } from "./stack-frames.js";

/** A user-visible error that should reach the caller without an "Uncaught" prefix. */
export class SystemError extends Error {}

/**
 * A failure of the platform, not of the function (Convex's ErrorMetadata with an OCC or Overloaded
 * code): never the function's outcome. Over HTTP it is the status and code; a WebSocket client
 * loses its connection, reconnects and sends the mutation again (Convex's client retries it).
 */
export class PlatformError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status = 503,
  ) {
    super(message);
  }
}

/** Convex's test-only syscalls `throwOcc` and `throwOverloaded` (isolate/src/environment/udf/syscall.rs). */
export const platformErrors = {
  occ: () =>
    new PlatformError(
      "OptimisticConcurrencyControlFailure",
      "Documents read from or written to some table changed while this mutation was being run and on every subsequent retry. See https://docs.convex.dev/error#1",
    ),
  overloaded: () => new PlatformError("Busy", "I'm a bit busy."),
};

/** Carries a failed nested call through the asyncSyscall boundary (`data` set for ConvexError). */
export class NestedCallError extends Error {
  constructor(
    message: string,
    readonly data?: JSONValue,
  ) {
    super(message);
  }
}

/**
 * A failure as Convex's `JsError`: `errorMessage` is its message ("Uncaught Error: boom"),
 * `frames` the user's stack frames ("    at handler (../convex/x.ts:3:9)"), if any.
 */
export type Failure = { errorMessage: string; errorData?: JSONValue; frames?: string[] };

/** A failure already in Convex's shape (a Node action's, reported by its worker): reported as it is. */
export class FailureError extends Error {
  constructor(readonly failure: Failure) {
    super(failure.errorMessage);
  }
}

function isConvexError(e: unknown): e is Error & { data: unknown } {
  return typeof e === "object" && e !== null && Symbol.for("ConvexError") in e;
}

function convexErrorData(e: { data: unknown }): JSONValue {
  if (typeof e.data === "string") {
    // invokeFunction serialised it already
    try {
      return JSON.parse(e.data) as JSONValue;
    } catch {
      return e.data;
    }
  }
  return convexToJson((e.data ?? null) as Value);
}

/** An Error of any realm (functions run in their own realm, see realm.ts). */
function isError(e: unknown): e is Error {
  return e instanceof Error || Object.prototype.toString.call(e) === "[object Error]";
}

/** Convex's `UdfPath::strip`: `messages:default` → `messages`, `messages:list` as it is. */
export function strippedPath(canonical: string): string {
  return canonical.endsWith(":default") ? canonical.slice(0, -":default".length) : canonical;
}

/** Convex's `format_uncaught_error` (crates/isolate/src/helpers.rs). */
export function formatUncaught(message: string, name: string): string {
  if (name !== "" && message !== "") return `Uncaught ${name}: ${message}`;
  if (name !== "") return `Uncaught ${name}`;
  if (message !== "") return `Uncaught ${message}`;
  return "Uncaught";
}

function safeString(v: unknown, fallback: string): string {
  try {
    return v === undefined ? fallback : typeof v === "string" ? v : (v as { toString(): string }).toString();
  } catch {
    return fallback;
  }
}

function withFrames(f: Failure, stack: unknown): Failure {
  let frames: string[] = [];
  try {
    frames = userFrames(stack);
  } catch {
    frames = [];
  }
  return frames.length > 0 ? { ...f, frames } : f;
}

/**
 * Turns anything thrown by a function run into what the client sees: `Uncaught <name>: <message>`
 * under the error's own `name` (a ConvexError subclass under its name) with the user's frames;
 * system errors (limits, timeouts, validation) as they are.
 */
export function toFailure(e: unknown): Failure {
  if (e instanceof NestedCallError) {
    return e.data !== undefined
      ? { errorMessage: formatUncaught(e.message, "ConvexError"), errorData: e.data }
      : { errorMessage: formatUncaught(e.message, "Error") };
  }
  if (e instanceof SystemError) return { errorMessage: e.message };
  if (e instanceof FailureError) return e.failure;
  if (isConvexError(e)) {
    return withFrames(
      {
        errorMessage: formatUncaught(safeString(e.message, ""), safeString(e.name, "ConvexError")),
        errorData: convexErrorData(e),
      },
      e.stack,
    );
  }
  if (isError(e)) {
    if (/^(ArgumentValidationError|ReturnsValidationError):/.test(e.message)) return { errorMessage: e.message };
    let stack: unknown;
    try {
      stack = e.stack;
    } catch {
      stack = undefined;
    }
    return withFrames({ errorMessage: formatUncaught(safeString(e.message, ""), safeString(e.name, "Error")) }, stack);
  }
  return { errorMessage: formatUncaught(safeString(e, "unknown error"), "") };
}

/** Convex's `JsError` display: the message, a newline, then one line per frame. */
function jsErrorText(f: { errorMessage: string; frames?: string[] }): string {
  return `${f.errorMessage}\n${(f.frames ?? []).map((l) => `${l}\n`).join("")}`;
}

/**
 * What a client receives for a failed call (Convex's `RedactedJsError` of a dev deployment):
 * `[Request ID: <id>] Server Error`, a newline, then the error with its frames.
 */
export function clientErrorMessage(f: { errorMessage: string; frames?: string[] }, requestId: string): string {
  return `[Request ID: ${requestId}] Server Error\n${jsErrorText(f)}`;
}

/** A request id as Convex makes one for an HTTP request: 8 random bytes, hex. */
export function newRequestId(): string {
  return randomBytes(8).toString("hex");
}

/** The request id Convex derives for a WebSocket request (`RequestId::new_for_ws_session`). */
export function wsRequestId(sessionId: string | null, requestId: number): string {
  if (sessionId === null) return newRequestId();
  return createHash("sha256").update(`${sessionId}|${requestId}`).digest("hex").slice(0, 16);
}

/**
 * What a failing nested call (`ctx.runQuery`/`runMutation`/`runAction`) rejects with: the
 * callee's whole error text (message and frames), as Convex hands a nested `JsError` to the
 * caller; the library turns it into an `Error` (a `ConvexError` with the data) thrown at the
 * call, so an uncaught one reads `Uncaught Error: Uncaught Error: boom\n    at handler (…)`.
 */
export function toNestedError(e: unknown): NestedCallError {
  if (e instanceof NestedCallError) return e;
  return nestedFromFailure(toFailure(e));
}

/** The error a caller's `ctx.run*` rejects with when the callee failed with `f`. */
export function nestedFromFailure(f: Failure): NestedCallError {
  return new NestedCallError(jsErrorText(f), f.errorData);
}
