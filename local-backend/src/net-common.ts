/**
 * Pieces shared by the WebSocket sync protocol (sync.ts) and the HTTP API (http.ts): function
 * lookup with Convex's visibility rules, argument-size limits, timestamp encoding and the caller's
 * authentication state.
 */
import type { JSONValue } from "convex/values";
import type { Engine, FunctionKind, FunctionOutcome, UserIdentity } from "./engine-api.js";
import { strippedPath } from "./outcome.js";
import { messages } from "./limits.js";

/** Convex refuses function arguments above 8 MiB (and the client never sends more). */
export const MAX_ARGS_BYTES = 8 * 1024 * 1024;

/** Who is calling. `admin`: authenticated with the admin key (may impersonate a user). */
export type Caller = {
  identity: UserIdentity | null;
  /** seconds since epoch; the token stops being accepted for new calls after it */
  expiresAt?: number;
  admin: boolean;
};

export const ANONYMOUS: Caller = { identity: null, admin: false };

/** Same rules as `canonicalizeUdfPath` in the client: default export, optional `.js` suffix. */
function canonicalizePath(udfPath: string): string {
  const pieces = udfPath.split(":");
  let moduleName: string;
  let functionName: string;
  if (pieces.length === 1) {
    moduleName = pieces[0];
    functionName = "default";
  } else {
    moduleName = pieces.slice(0, -1).join(":");
    functionName = pieces[pieces.length - 1];
  }
  if (moduleName.endsWith(".js")) moduleName = moduleName.slice(0, -3);
  return `${moduleName}:${functionName}`;
}

const KIND_NAMES: Record<FunctionKind, string> = {
  query: "Query",
  mutation: "Mutation",
  action: "Action",
  httpAction: "HttpAction",
};

/**
 * Resolve a path for an external caller. Returns the canonical path, or an error outcome worded
 * like Convex's so client-side error handling and messages match.
 */
export function resolveFunction(
  engine: Engine,
  rawPath: string,
  expected: FunctionKind | "any",
  caller: Caller,
): { ok: true; path: string; kind: FunctionKind } | { ok: false; outcome: FunctionOutcome } {
  const path = canonicalizePath(rawPath);
  const info = engine.getFunction(path);
  // Internal functions are indistinguishable from missing ones for outside callers, as in Convex;
  // admin-key callers may run them (like `npx convex run`).
  if (!info || (info.visibility === "internal" && !caller.admin) || info.kind === "httpAction") {
    return {
      ok: false,
      // Convex's text (crates/udf/src/validation.rs) names the stripped path: no `:default`, no `.js`
      outcome: errorOutcome(messages.functionNotFound(strippedPath(path))),
    };
  }
  if (expected !== "any" && info.kind !== expected) {
    return {
      ok: false,
      outcome: errorOutcome(
        // Convex prints the canonicalized path here, module with its `.js`
        `Trying to execute ${path.replace(/:([^:]*)$/, ".js:$1")} as ${KIND_NAMES[expected]}, but it is defined as ${KIND_NAMES[info.kind]}.`,
      ),
    };
  }
  return { ok: true, path, kind: info.kind };
}

export function errorOutcome(errorMessage: string): FunctionOutcome {
  return { status: "error", errorMessage, logLines: [] };
}

/** Protocol args are `[argsObject]`; the engine wants the object. */
export function unwrapArgs(args: unknown): { ok: true; args: JSONValue } | { ok: false; message: string } {
  if (Array.isArray(args)) {
    if (args.length !== 1) {
      return { ok: false, message: `Expected exactly one argument object, received ${args.length} arguments` };
    }
    args = args[0];
  }
  if (args === undefined || args === null) return { ok: true, args: {} };
  if (typeof args !== "object" || Array.isArray(args)) {
    return {
      ok: false,
      message: `Function arguments must be an object, received ${JSON.stringify(args)?.slice(0, 100)}`,
    };
  }
  return { ok: true, args: args as JSONValue };
}

/** Convex refuses values nested deeper than 64 levels (the arguments object is level 1). */
const MAX_VALUE_DEPTH = 64;
/**
 * Raw request text (an HTTP body, a sync message) nested deeper than this is refused before it is
 * parsed. It leaves room for the envelope around the arguments (`{modifications: [{args: [{…}]}]}`)
 * and for arguments a little over MAX_VALUE_DEPTH, which then get a per-request error; anything
 * parsed stays shallow enough that no later recursion (JSON.stringify, validators) can overflow.
 */
export const MAX_JSON_TEXT_DEPTH = 256;

/**
 * Whether JSON text nests `[`/`{` deeper than `limit` (brackets inside strings do not count).
 * Iterative and allocation-free, so it is safe on hostile input; works on UTF-8 bytes too (no
 * ASCII byte appears inside a multi-byte sequence). String contents are skipped with indexOf.
 */
export function jsonTextTooDeep(text: string | Uint8Array, limit: number): boolean {
  const buf = typeof text === "string" ? null : Buffer.from(text.buffer, text.byteOffset, text.byteLength);
  const str = typeof text === "string" ? text : "";
  const code = buf ? (i: number) => buf[i] : (i: number) => str.charCodeAt(i);
  const nextQuote = buf ? (from: number) => buf.indexOf(34, from) : (from: number) => str.indexOf('"', from);
  const n = text.length;
  let depth = 0;
  for (let i = 0; i < n; i++) {
    const c = code(i);
    if (c === 34 /* " */) {
      // the closing quote is the next one preceded by an even number of backslashes
      let j = i;
      for (;;) {
        j = nextQuote(j + 1);
        if (j < 0) return false; // unterminated string: JSON.parse refuses it
        let backslashes = 0;
        while (code(j - 1 - backslashes) === 92 /* \\ */) backslashes++;
        if (backslashes % 2 === 0) break;
      }
      i = j;
    } else if (c === 91 /* [ */ || c === 123 /* { */) {
      if (++depth > limit) return true;
    } else if (c === 93 /* ] */ || c === 125 /* } */) {
      depth--;
    }
  }
  return false;
}

/**
 * Nesting depth of a parsed JSON value (scalars 0, `{}`/`[]` 1, `{a: {}}` 2), computed without
 * recursion; stops counting once it exceeds `limit` (the result is then `limit + 1`).
 */
export function valueDepth(value: unknown, limit: number): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== "object") continue;
    const depth = d + 1;
    if (depth > max) {
      max = depth;
      if (max > limit) return limit + 1;
    }
    const children = Array.isArray(v) ? v : Object.values(v as Record<string, unknown>);
    for (const child of children) if (child !== null && typeof child === "object") stack.push([child, depth]);
  }
  return max;
}

export function tooDeepMessage(what = "Arguments"): string {
  return `${what} nested too deeply: the maximum nesting depth of a value is ${MAX_VALUE_DEPTH}.`;
}

/**
 * The error to report for arguments nested deeper than Convex allows, or null when they are fine.
 * Takes the arguments as sent (`[argsObject]` or the object itself); the object is level 1.
 */
export function argsDepthError(args: unknown): string | null {
  const value = Array.isArray(args) && args.length === 1 ? (args[0] as unknown) : args;
  return valueDepth(value, MAX_VALUE_DEPTH) > MAX_VALUE_DEPTH ? tooDeepMessage() : null;
}

export function argsTooLargeMessage(bytes: number): string {
  return `Arguments are too large (${bytes} bytes; the maximum is ${MAX_ARGS_BYTES} bytes = 8 MiB).`;
}

/** u64 little-endian, base64 — the protocol's `EncodedTs`. */
export function encodeTs(ts: bigint): string {
  const buf = Buffer.alloc(8);
  buf.writeBigUInt64LE(ts < 0n ? 0n : ts);
  return buf.toString("base64");
}

export function decodeTs(encoded: string): bigint | null {
  const buf = Buffer.from(encoded, "base64");
  if (buf.length !== 8) return null;
  return buf.readBigUInt64LE();
}

/** Whether a caller's token has expired (new calls then get an AuthError / 401). */
export function callerExpired(caller: Caller, nowMs = Date.now()): boolean {
  return caller.expiresAt !== undefined && caller.expiresAt * 1000 < nowMs;
}

/** Constant-time string comparison for admin keys. */
export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  if (ab.length !== bb.length) return false;
  let diff = 0;
  for (let i = 0; i < ab.length; i++) diff |= ab[i] ^ bb[i];
  return diff === 0;
}

export function describeError(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
