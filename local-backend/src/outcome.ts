/**
 * What a caller hears of a failed function run: errors thrown inside a run (ConvexError with its
 * data, system errors, argument/return validation, nested calls) turned into the outcome's
 * `errorMessage`/`errorData`, and back into an error for a failed nested call.
 */
import { convexToJson, type JSONValue, type Value } from "convex/values";

/** A user-visible error that should reach the caller without an "Uncaught" prefix. */
export class SystemError extends Error {}

/** Carries a failed nested call through the asyncSyscall boundary (`data` set for ConvexError). */
export class NestedCallError extends Error {
  constructor(
    message: string,
    readonly data?: JSONValue,
  ) {
    super(message);
  }
}

export type Failure = { errorMessage: string; errorData?: JSONValue };

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

/** Turns anything thrown by a function run into what the client sees. */
export function toFailure(e: unknown): Failure {
  if (e instanceof NestedCallError) {
    return e.data !== undefined ? { errorMessage: `Uncaught ConvexError: ${e.message}`, errorData: e.data } : { errorMessage: e.message };
  }
  if (isConvexError(e)) return { errorMessage: `Uncaught ConvexError: ${e.message}`, errorData: convexErrorData(e) };
  if (e instanceof SystemError) return { errorMessage: e.message };
  if (isError(e)) {
    if (/^(ArgumentValidationError|ReturnsValidationError):/.test(e.message)) return { errorMessage: e.message };
    return { errorMessage: `Uncaught ${e.name || "Error"}: ${e.message}` };
  }
  return { errorMessage: `Uncaught ${String(e)}` };
}

/** What a failing nested call rejects with (the library rebuilds a ConvexError from `data`). */
export function toNestedError(e: unknown): NestedCallError {
  if (e instanceof NestedCallError) return e;
  if (isConvexError(e)) return new NestedCallError(e.message, convexErrorData(e));
  if (isError(e)) return new NestedCallError(e.message);
  return new NestedCallError(String(e));
}
