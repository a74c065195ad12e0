/**
 * HTTP endpoints of the backend.
 *
 * Cloud URL (what `ConvexHttpClient` and the upload URLs point at):
 *   POST /api/query | /api/mutation | /api/action   {path, args: [obj] | obj, format}
 *   POST /api/function                             {path, args: obj, format}
 *   POST /api/run/<module path>/<function>         {args, format}
 *   POST /api/query_ts, /api/query_at_ts           consistentQuery: a timestamp (base64 u64), then
 *                                                    queries at it (snapshots.ts; 30 s)
 *   POST /api/storage/upload?token=…               → {storageId} (token checked before the body
 *                                                    is read; streamed to a file; size and
 *                                                    concurrency capped; `Digest: sha-256=…`
 *                                                    checked against the body)
 *   GET  /api/storage/<storageId>                  → the blob, whole or one `Range` (206), with
 *                                                    nosniff, a sandboxing CSP and a disposition
 *                                                    (`storedFileHeaders`)
 *   GET  /version
 * Responses follow `convex/src/browser/http_client.ts`: 200 `{status:"success", value, logLines}`,
 * 560 `{status:"error", errorMessage, errorData?, logLines}` when the function failed, other
 * statuses (400, 401, 404, 413, 503) with a JSON `{code, message}` body that the client shows as
 * text. CORS: any origin may call (`Access-Control-Allow-Origin: *`, no credentials: callers
 * authenticate with bearer tokens, not cookies); origins in `allowedOrigins` get their origin
 * reflected with `Access-Control-Allow-Credentials: true`.
 *
 * Site URL: every request goes to the app's http actions (convex/http.ts), with `X-Forwarded-For`
 * set to the TCP peer's address (the client's own value is replaced unless `trustProxy`).
 */
import fs from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { pipeline } from "node:stream/promises";
import type { Engine, FunctionKind, FunctionOutcome, UserIdentity } from "./engine-api.js";
import { AuthVerificationError } from "./auth.js";
import { unverifiedIdentity } from "./identity-error.js";
import { PlatformError, clientErrorMessage, newRequestId } from "./outcome.js";
import type { CallerResolver } from "./net-caller.js";
import {
  MAX_ARGS_BYTES,
  MAX_JSON_TEXT_DEPTH,
  argsDepthError,
  argsTooLargeMessage,
  decodeTs,
  describeError,
  encodeTs,
  errorOutcome,
  jsonTextTooDeep,
  resolveFunction,
  tooDeepMessage,
  unwrapArgs,
  type Caller,
} from "./net-common.js";

/** Must match STATUS_CODE_UDF_FAILED in the client. */
const STATUS_CODE_UDF_FAILED = 560;
/** JSON request bodies: 8 MiB of args plus the envelope */
const MAX_JSON_BODY = MAX_ARGS_BYTES + 64 * 1024;
/** largest accepted upload unless configured (`maxUploadBytes`, CLI `--max-upload-bytes`) */
const DEFAULT_MAX_UPLOAD_BYTES = 100 * 1024 * 1024;
/** uploads received at once unless configured (`maxConcurrentUploads`, CLI `--max-concurrent-uploads`) */
const DEFAULT_MAX_CONCURRENT_UPLOADS = 4;
/** Convex caps http action request bodies at 20 MiB */
const MAX_HTTP_ACTION_BODY = 20 * 1024 * 1024;

const BACKEND_VERSION = "local-backend-0.1.0";

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /**
     * The request body was (possibly) not read to the end: answer with `Connection: close`, so
     * Node closes the connection after the response instead of reading the rest of the body to
     * reuse it.
     */
    readonly closeConnection = false,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export type CloudHandlerOptions = {
  engine: Engine;
  callers: CallerResolver;
  log?: (line: string) => void;
  onLogLines?: (kind: string, path: string, lines: string[]) => void;
  /**
   * Origins (e.g. `http://localhost:5173`) answered with their own origin and
   * `Access-Control-Allow-Credentials: true`; every other origin gets `*` without credentials.
   */
  allowedOrigins?: readonly string[];
  /** largest upload body in bytes (default DEFAULT_MAX_UPLOAD_BYTES, 100 MiB); larger ones get 413 */
  maxUploadBytes?: number;
  /** uploads received at once (default DEFAULT_MAX_CONCURRENT_UPLOADS, 4); more get 503 */
  maxConcurrentUploads?: number;
};

function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers["content-length"]);
    if (Number.isFinite(declared) && declared > limit) {
      req.resume(); // drain so the socket can carry the error response
      reject(new HttpError(413, "PayloadTooLarge", tooLarge(declared, limit)));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on("data", (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > limit) {
        failed = true;
        reject(new HttpError(413, "PayloadTooLarge", tooLarge(size, limit)));
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => {
      if (!failed) resolve(Buffer.concat(chunks));
    });
    req.on("error", (e) => {
      if (!failed) reject(e);
      failed = true;
    });
  });
}

/** The request body chunk by chunk; throws 413 once more than `limit` bytes arrived. */
async function* limitedBody(req: IncomingMessage, limit: number): AsyncGenerator<Uint8Array> {
  let size = 0;
  // destroyOnReturn: false keeps the socket open when this stops early, to answer 413 on it
  for await (const chunk of req.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new HttpError(413, "PayloadTooLarge", uploadTooLarge(null, limit), true);
    yield chunk;
  }
}

/** Convex's storage GETs: immutable files, cached privately for 30 days */
const STORAGE_CACHE_CONTROL = "private, max-age=2592000";

/** stored types a browser may show in place: images and PDFs, which run no script in this origin */
const INLINE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp", "application/pdf"]);
/** other stored types served as declared (always as a download): inert data, never a document with script */
const INERT_TYPES = new Set([
  "text/plain",
  "text/csv",
  "application/json",
  "application/zip",
  "application/gzip",
  "application/octet-stream",
]);
/** every stored file but a PDF: no script, no plugin, nothing loaded but its own images, a unique origin */
const STORAGE_CSP = "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox";

/**
 * The headers that say how a stored file may be shown. The uploader declares the type, so it is
 * not trusted as Convex trusts it (Convex serves files from a domain of their own; this backend
 * shares its origin with the API): `nosniff` always; images and PDFs `inline`, everything else
 * `attachment`; a type that could render active content (HTML, SVG, XML, JavaScript, anything
 * not known to be inert) is served as `application/octet-stream`. The CSP sandboxes every file
 * but a PDF: Chrome and Safari refuse to show a PDF under `sandbox` (and Chrome's viewer page
 * needs its own styles), and a PDF viewer runs no script in this origin.
 */
function storedFileHeaders(declared: string | null): Record<string, string> {
  const essence = (declared ?? "").split(";")[0].trim().toLowerCase();
  const headers: Record<string, string> = { "X-Content-Type-Options": "nosniff" };
  if (INLINE_TYPES.has(essence)) {
    headers["Content-Type"] = essence;
    headers["Content-Disposition"] = "inline";
    if (essence !== "application/pdf") headers["Content-Security-Policy"] = STORAGE_CSP;
    return headers;
  }
  const inert = INERT_TYPES.has(essence) || /^(audio|video)\/[a-z0-9][a-z0-9.+-]*$/.test(essence);
  const charset = /;\s*charset="?([a-z0-9_-]+)"?\s*(;|$)/i.exec(declared ?? "")?.[1];
  headers["Content-Type"] = !inert
    ? "application/octet-stream"
    : essence.startsWith("text/") && charset
      ? `${essence}; charset=${charset}`
      : essence;
  headers["Content-Disposition"] = "attachment";
  headers["Content-Security-Policy"] = STORAGE_CSP;
  return headers;
}

/**
 * A `Range` header against a file of `size` bytes: null to serve the whole file (no header, or
 * one Convex would not parse), the one inclusive byte range asked for, or "unsatisfiable" (several
 * ranges, or one starting past the end).
 */
function parseRange(header: string | undefined, size: number): [number, number] | "unsatisfiable" | null {
  if (header === undefined || size === 0) return null;
  const m = /^\s*bytes\s*=\s*(.+)$/i.exec(header);
  if (!m) return null;
  const specs = m[1]
    .split(",")
    .map((x) => x.trim())
    .filter((x) => x !== "");
  const ranges: Array<[number, number]> = [];
  for (const spec of specs) {
    const r = /^(\d*)-(\d*)$/.exec(spec);
    if (!r || (r[1] === "" && r[2] === "")) return null;
    if (r[1] === "") {
      const n = Number(r[2]);
      if (n === 0) continue;
      ranges.push([Math.max(0, size - n), size - 1]);
      continue;
    }
    const first = Number(r[1]);
    const last = r[2] === "" ? size - 1 : Math.min(Number(r[2]), size - 1);
    if (r[2] !== "" && Number(r[2]) < first) return null;
    if (first >= size) continue;
    ranges.push([first, last]);
  }
  if (ranges.length !== 1) return "unsatisfiable";
  return ranges[0];
}

/** The base64 digest of a `Digest: sha-256=<base64>` upload header; 400 `BadHeader` when malformed. */
function digestHeader(value: string | string[] | undefined): string | undefined {
  if (value === undefined) return undefined;
  const v = Array.isArray(value) ? value[0] : value;
  const b64 = v.startsWith("sha-256=") ? v.slice("sha-256=".length) : null;
  const bytes = b64 !== null && /^[A-Za-z0-9+/]+={0,2}$/.test(b64) ? Buffer.from(b64, "base64") : null;
  if (!bytes || bytes.length !== 32)
    throw new HttpError(400, "BadHeader", "Bad header for digest: invalid HTTP header", true);
  return bytes.toString("base64");
}

/** `size`: the declared Content-Length, or null when the streamed body went over the limit */
function uploadTooLarge(size: number | null, limit: number): string {
  const got = size === null ? `more than ${limit} bytes` : `${size} bytes`;
  return `File is too large (${got}; the maximum upload size is ${limit} bytes = ${formatMiB(limit)}).`;
}

function formatMiB(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  return `${Number.isInteger(mib) ? mib : mib.toFixed(2)} MiB`;
}

function tooLarge(size: number, limit: number): string {
  return limit === MAX_JSON_BODY
    ? argsTooLargeMessage(size)
    : `Request body is too large (${size} bytes; the maximum is ${limit} bytes).`;
}

/**
 * Any origin may call (the deployment URL is public and callers authenticate with bearer tokens,
 * so no credentials are involved): `*` without `Allow-Credentials`. Only origins on the
 * allow-list get their origin reflected together with `Access-Control-Allow-Credentials: true`.
 */
function setCors(req: IncomingMessage, res: ServerResponse, allowed: ReadonlySet<string>): void {
  const origin = req.headers.origin;
  if (origin && allowed.has(origin)) {
    res.setHeader("Access-Control-Allow-Origin", origin);
    res.setHeader("Access-Control-Allow-Credentials", "true");
  } else {
    res.setHeader("Access-Control-Allow-Origin", "*");
  }
  if (allowed.size > 0) res.setHeader("Vary", "Origin");
  res.setHeader("Access-Control-Expose-Headers", "*");
}

/** `http://Example.com:80/` → `http://example.com`; what browsers send in `Origin`. */
function normalizeOrigin(origin: string): string {
  const trimmed = origin.trim();
  try {
    const o = new URL(trimmed).origin;
    return o === "null" ? trimmed : o;
  } catch {
    return trimmed;
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text) });
  res.end(text);
}

function sendError(res: ServerResponse, e: HttpError): void {
  for (const [name, value] of Object.entries(e.headers)) res.setHeader(name, value);
  if (e.closeConnection) res.setHeader("Connection", "close");
  sendJson(res, e.status, { code: e.code, message: e.message });
}

function outcomeResponse(res: ServerResponse, outcome: FunctionOutcome): void {
  if (outcome.status === "success") {
    sendJson(res, 200, { status: "success", value: outcome.value, logLines: outcome.logLines });
  } else {
    sendJson(res, STATUS_CODE_UDF_FAILED, {
      status: "error",
      // as Convex answers: "[Request ID: …] Server Error" and the error with the user's frames
      errorMessage: clientErrorMessage(outcome, newRequestId()),
      ...(outcome.errorData !== undefined ? { errorData: outcome.errorData } : {}),
      logLines: outcome.logLines,
    });
  }
}

export function createCloudHandler(opts: CloudHandlerOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const { engine, callers } = opts;
  const allowedOrigins = new Set((opts.allowedOrigins ?? []).map(normalizeOrigin).filter((o) => o !== ""));
  const maxUploadBytes = opts.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES;
  const maxConcurrentUploads = opts.maxConcurrentUploads ?? DEFAULT_MAX_CONCURRENT_UPLOADS;
  let activeUploads = 0;

  async function caller(req: IncomingMessage): Promise<Caller> {
    // verified now, with Convex's codes and statuses (401 InvalidAuthHeader / NoAuthProvider, …)
    try {
      return await callers.fromHeader(req.headers.authorization);
    } catch (e) {
      if (e instanceof AuthVerificationError) throw new HttpError(e.status, e.code, e.message);
      throw new HttpError(401, "Unauthenticated", `Could not verify token: ${describeError(e)}`);
    }
  }

  async function jsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
    const buf = await readBody(req, MAX_JSON_BODY);
    // before JSON.parse and anything recursive: hostile nesting must not reach the stack
    if (jsonTextTooDeep(buf, MAX_JSON_TEXT_DEPTH))
      throw new HttpError(400, "TooDeeplyNested", tooDeepMessage("Request body"));
    let body: unknown;
    try {
      body = JSON.parse(buf.toString("utf8"));
    } catch {
      throw new HttpError(400, "BadJsonBody", "Request body is not valid JSON");
    }
    if (body === null || typeof body !== "object" || Array.isArray(body)) {
      throw new HttpError(400, "BadJsonBody", "Request body must be a JSON object");
    }
    return body as Record<string, unknown>;
  }

  async function runFunction(
    req: IncomingMessage,
    res: ServerResponse,
    expected: FunctionKind | "any",
    pathOverride?: string,
    atTs = false,
  ): Promise<void> {
    const who = await caller(req);
    const body = await jsonBody(req);
    const path = pathOverride ?? body.path;
    if (typeof path !== "string" || path === "")
      throw new HttpError(400, "BadJsonBody", 'Missing `path` (the function name, e.g. "messages:list")');
    if (body.componentPath !== undefined && body.componentPath !== null && body.componentPath !== "") {
      throw new HttpError(400, "BadRequest", "Components are not supported by local-backend");
    }
    if (body.format !== undefined && body.format !== "convex_encoded_json" && body.format !== "json") {
      throw new HttpError(400, "BadJsonBody", `Unsupported format ${JSON.stringify(body.format)}`);
    }
    const args = unwrapArgs(body.args);
    if (!args.ok) throw new HttpError(400, "BadJsonBody", args.message);
    const tooDeep = argsDepthError(args.args);
    if (tooDeep !== null) throw new HttpError(400, "TooDeeplyNested", tooDeep);
    const resolved = resolveFunction(engine, path, expected, who);
    if (!resolved.ok) return outcomeResponse(res, resolved.outcome);
    const call = { path: resolved.path, args: args.args, identity: who.identity, internal: who.admin };
    let ts: bigint | undefined;
    if (atTs) {
      ts =
        typeof body.ts === "string"
          ? /^\d+$/.test(body.ts)
            ? BigInt(body.ts)
            : (decodeTs(body.ts) ?? undefined)
          : undefined;
      if (ts === undefined)
        throw new HttpError(400, "BadJsonBody", "Missing or invalid `ts` (the timestamp from /api/query_ts)");
    }
    let outcome: FunctionOutcome;
    try {
      if (resolved.kind === "query")
        outcome = (await engine.runQuery(ts === undefined ? call : { ...call, ts })).outcome;
      else if (resolved.kind === "mutation") outcome = (await engine.runMutation(call)).outcome;
      else outcome = (await engine.runAction(call)).outcome;
    } catch (e) {
      if (e instanceof Error && e.name === "SnapshotUnavailable") {
        // Convex: OutOfRetention (503) for a timestamp too early, an internal error for one ahead
        const tooOld = (e as Error & { tooOld?: boolean }).tooOld === true;
        opts.log?.(`http: query_at_ts: ${e.message}`);
        throw new HttpError(
          tooOld ? 503 : 500,
          "InternalServerError",
          "Your request couldn't be completed. Try again later.",
        );
      }
      if (e instanceof PlatformError) throw new HttpError(e.status, e.code, e.message);
      outcome = errorOutcome(`Internal error: ${describeError(e)}`);
    }
    opts.onLogLines?.(resolved.kind, resolved.path, outcome.logLines);
    outcomeResponse(res, outcome);
  }

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://localhost");
    const p = url.pathname.replace(/\/+$/, "") || "/";
    const method = req.method ?? "GET";
    if (method === "OPTIONS") {
      res.setHeader("Access-Control-Allow-Methods", "GET, POST, PUT, DELETE, OPTIONS");
      res.setHeader("Access-Control-Allow-Headers", req.headers["access-control-request-headers"] ?? "*");
      res.setHeader("Access-Control-Max-Age", "86400");
      res.writeHead(204);
      res.end();
      return;
    }
    if (p === "/version" && (method === "GET" || method === "HEAD")) {
      res.writeHead(200, { "Content-Type": "text/plain" });
      res.end(BACKEND_VERSION);
      return;
    }
    if (p === "/" && method === "GET") {
      res.writeHead(200, { "Content-Type": "text/plain" });
      res.end("This Convex-compatible deployment (local-backend) is running.");
      return;
    }
    if (method === "POST") {
      switch (p) {
        case "/api/query":
          return runFunction(req, res, "query");
        case "/api/query_at_ts":
          // consistentQuery: the state at the `ts` that /api/query_ts handed out
          return runFunction(req, res, "query", undefined, true);
        case "/api/mutation":
          return runFunction(req, res, "mutation");
        case "/api/action":
          return runFunction(req, res, "action");
        case "/api/function":
          return runFunction(req, res, "any");
        case "/api/query_ts":
          req.resume();
          // Convex's SerializedTs (u64 little-endian, base64); reads at it stay possible for 30 s
          return sendJson(res, 200, { ts: encodeTs(engine.pinTs()) });
        case "/api/storage/upload":
          return upload(req, res, url);
      }
      if (p.startsWith("/api/run/")) {
        // Convex's "run" endpoint: /api/run/folder/module/function
        const parts = p.slice("/api/run/".length).split("/").filter(Boolean);
        if (parts.length < 2) throw new HttpError(404, "NotFound", "Expected /api/run/<module>/<function>");
        const fn = parts.pop()!;
        return runFunction(req, res, "any", `${parts.join("/")}:${fn}`);
      }
    }
    if ((method === "GET" || method === "HEAD") && p.startsWith("/api/storage/")) {
      return serveBlob(req, res, decodeURIComponent(p.slice("/api/storage/".length)), method === "HEAD");
    }
    req.resume();
    throw new HttpError(404, "NotFound", `No route for ${method} ${url.pathname}`);
  }

  /**
   * Everything that can refuse an upload is checked from the URL and headers alone, before a byte
   * of the body is read (refusals close the connection rather than drain the body). An accepted
   * body is streamed to a file in the data dir (memory stays bounded), counting bytes on the way.
   */
  async function upload(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const token = url.searchParams.get("token");
    if (!token) {
      throw new HttpError(400, "BadQueryArgs", "Failed to deserialize query string: missing field `token`", true);
    }
    // Convex's refusals of a bad upload token (keybroker: check_store_file_authorization)
    const tokenStatus = engine.uploadTokenStatus(token);
    if (tokenStatus === "invalid") {
      throw new HttpError(401, "StorageTokenInvalid", "Couldn't decode the StoreFileAuthorization token", true);
    }
    if (tokenStatus === "expired")
      throw new HttpError(401, "StorageTokenExpired", "Store File Authorization expired", true);
    const expectedSha256 = digestHeader(req.headers.digest);
    const declared = Number(req.headers["content-length"]);
    if (req.headers["content-length"] !== undefined && Number.isFinite(declared) && declared > maxUploadBytes) {
      throw new HttpError(413, "PayloadTooLarge", uploadTooLarge(declared, maxUploadBytes), true);
    }
    if (activeUploads >= maxConcurrentUploads) {
      throw new HttpError(
        503,
        "TooManyConcurrentUploads",
        `Too many uploads in progress (the maximum is ${maxConcurrentUploads} at once); try again shortly.`,
        true,
        { "Retry-After": "1" },
      );
    }
    activeUploads++;
    try {
      const contentType = req.headers["content-type"] ?? null;
      let storageId: string;
      try {
        storageId = await engine.storeUploadStream(
          token,
          limitedBody(req, maxUploadBytes),
          contentType,
          expectedSha256,
        );
      } catch (e) {
        if (e instanceof HttpError) throw e;
        if ((e as { code?: unknown }).code === "Sha256Mismatch")
          throw new HttpError(400, "Sha256Mismatch", describeError(e));
        throw new HttpError(400, "StorageUploadFailed", describeError(e), !req.complete);
      }
      sendJson(res, 200, { storageId });
    } finally {
      activeUploads--;
    }
  }

  /**
   * A stored file, as Convex's storage_get serves it: `Cache-Control: private, max-age=2592000`,
   * `Accept-Ranges: bytes`, the whole file with `Digest: sha-256=…`, or one byte range (206 with
   * `Content-Range`; several ranges get 416, as Convex serves one range at most). Unlike Convex,
   * the type, disposition and CSP come from `storedFileHeaders`, not straight from the uploader.
   */
  async function serveBlob(req: IncomingMessage, res: ServerResponse, id: string, head: boolean): Promise<void> {
    const file = await engine.storageFile(id);
    if (file === "invalid") {
      throw new HttpError(
        400,
        "InvalidStoragePath",
        `Invalid storage path: "${id}". Please use \`storage.getUrl(storageId: Id<"_storage">)\` to generate a valid URL to retrieve files. See https://docs.convex.dev/file-storage/serve-files for more details`,
      );
    }
    if (!file) throw new HttpError(404, "FileNotFound", `File ${id} not found`);
    const headers: Record<string, string | number> = {
      "Cache-Control": STORAGE_CACHE_CONTROL,
      "Accept-Ranges": "bytes",
      ...storedFileHeaders(file.contentType),
    };
    const range = parseRange(req.headers.range, file.size);
    let start = 0;
    let end = file.size - 1;
    let status = 200;
    if (range === "unsatisfiable") {
      res.writeHead(416, { ...headers, "Content-Range": `bytes */${file.size}`, "Content-Length": 0 });
      res.end();
      return;
    }
    if (range !== null && file.size > 0) {
      [start, end] = range;
      status = 206;
      headers["Content-Range"] = `bytes ${start}-${end}/${file.size}`;
    } else {
      headers.Digest = `sha-256=${file.sha256}`;
    }
    headers["Content-Length"] = file.size === 0 ? 0 : end - start + 1;
    res.writeHead(status, headers);
    if (head || file.size === 0) {
      res.end();
      return;
    }
    await pipeline(fs.createReadStream(file.path, { start, end }), res);
  }

  return (req, res) => {
    setCors(req, res, allowedOrigins);
    route(req, res).catch((e: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (e instanceof HttpError) return sendError(res, e);
      opts.log?.(`http: ${req.method} ${req.url}: ${describeError(e)}`);
      sendError(res, new HttpError(500, "InternalServerError", describeError(e)));
    });
  };
}

export type SiteHandlerOptions = {
  engine: Engine;
  siteUrl: string;
  /**
   * Keep the client's `X-Forwarded-For` (a trusted reverse proxy in front sets it). By default it
   * is replaced by the TCP peer's address, so clients cannot spoof the address apps rate-limit on.
   */
  trustProxy?: boolean;
  /** verifies `Authorization: Bearer <jwt>` so http actions see `ctx.auth` as on Convex */
  callers?: CallerResolver;
  log?: (line: string) => void;
};

/**
 * Build a WHATWG Request for an incoming Node request, addressed at the public site URL.
 * This backend is the deployment's proxy: `X-Forwarded-For` names the TCP peer, replacing what the
 * client sent, unless `trustProxy` (then the client's header is kept, and set only when absent).
 */
async function toFetchRequest(
  req: IncomingMessage,
  siteUrl: string,
  opts: { trustProxy?: boolean } = {},
): Promise<Request> {
  const url = new URL(req.url ?? "/", siteUrl);
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i];
    // hop-by-hop headers are meaningless to the http action and some are refused by Request
    if (/^(connection|keep-alive|transfer-encoding|upgrade|host)$/i.test(name)) continue;
    if (!opts.trustProxy && /^x-forwarded-for$/i.test(name)) continue;
    headers.append(name, req.rawHeaders[i + 1]);
  }
  const peer = peerAddress(req);
  if (peer !== null && !headers.has("x-forwarded-for")) headers.set("x-forwarded-for", peer);
  const method = req.method ?? "GET";
  const hasBody = method !== "GET" && method !== "HEAD";
  const body = hasBody ? await readBody(req, MAX_HTTP_ACTION_BODY) : undefined;
  return new Request(url, {
    method,
    headers,
    body: body && body.length > 0 ? new Uint8Array(body) : undefined,
  });
}

/** The socket's remote address; IPv4 clients of a dual-stack socket as plain `1.2.3.4`. */
function peerAddress(req: IncomingMessage): string | null {
  const address = req.socket.remoteAddress;
  if (!address) return null;
  return /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(address) ? address.slice(7) : address;
}

export function createSiteHandler(opts: SiteHandlerOptions): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    void (async () => {
      let request: Request;
      try {
        request = await toFetchRequest(req, opts.siteUrl, { trustProxy: opts.trustProxy });
      } catch (e) {
        if (e instanceof HttpError) return sendError(res, e);
        throw e;
      }
      let identity: UserIdentity | null = null;
      const authorization = req.headers.authorization;
      if (authorization && opts.callers) {
        // As on Convex, a header that does not verify does not fail the request (it may be the
        // app's own scheme): the action runs, and `ctx.auth.getUserIdentity()` throws the error.
        identity = await opts.callers.fromHeader(authorization).then(
          (c) => c.identity,
          (e: unknown) =>
            unverifiedIdentity(
              e instanceof AuthVerificationError ? e.message : `Could not verify token: ${describeError(e)}`,
            ),
        );
      }
      const response = await opts.engine.runHttpAction(request, identity);
      const headers: Record<string, string | string[]> = {};
      response.headers.forEach((value, name) => {
        if (name !== "set-cookie") headers[name] = value;
      });
      const cookies = response.headers.getSetCookie();
      if (cookies.length > 0) headers["set-cookie"] = cookies;
      res.writeHead(response.status, response.statusText || undefined, headers);
      if (response.body && req.method !== "HEAD") {
        // stream: http actions may return streamed bodies
        const reader = response.body.getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          if (res.destroyed) {
            await reader.cancel();
            break;
          }
          if (!res.write(value)) {
            // wait for the client to catch up, or give up when it goes away
            await new Promise<void>((r) => {
              res.once("drain", r);
              res.once("close", r);
            });
          }
        }
      }
      res.end();
    })().catch((e: unknown) => {
      opts.log?.(`site: ${req.method} ${req.url}: ${describeError(e)}`);
      if (res.headersSent) res.destroy();
      else sendError(res, new HttpError(500, "InternalServerError", describeError(e)));
    });
  };
}
