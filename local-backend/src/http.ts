/**
 * HTTP endpoints of the backend.
 *
 * Cloud URL (what `ConvexHttpClient` and the upload URLs point at):
 *   POST /api/query | /api/mutation | /api/action   {path, args: [obj] | obj, format}
 *   POST /api/function                             {path, args: obj, format}
 *   POST /api/run/<module path>/<function>         {args, format}
 *   POST /api/query_ts, /api/query_at_ts           (consistent queries; see note below)
 *   POST /api/storage/upload?token=…               → {storageId}
 *   GET  /api/storage/<storageId>                  → the blob
 *   GET  /version
 * Responses follow `convex/src/browser/http_client.ts`: 200 `{status:"success", value, logLines}`,
 * 560 `{status:"error", errorMessage, errorData?, logLines}` when the function failed, other
 * statuses (400, 401, 404, 413) with a JSON `{code, message}` body that the client shows as text.
 *
 * Site URL: every request goes to the app's http actions (convex/http.ts).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Engine, FunctionKind, FunctionOutcome, UserIdentity } from "./engine-api.js";
import { AuthVerificationError } from "./auth.js";
import type { CallerResolver } from "./net-caller.js";
import {
  MAX_ARGS_BYTES,
  argsTooLargeMessage,
  callerExpired,
  describeError,
  errorOutcome,
  resolveFunction,
  unwrapArgs,
  type Caller,
} from "./net-common.js";

/** Must match STATUS_CODE_UDF_FAILED in the client. */
export const STATUS_CODE_UDF_FAILED = 560;
/** JSON request bodies: 8 MiB of args plus the envelope */
const MAX_JSON_BODY = MAX_ARGS_BYTES + 64 * 1024;
/** uploads are buffered in memory before the engine stores them */
const MAX_UPLOAD_BYTES = 512 * 1024 * 1024;
/** Convex caps http action request bodies at 20 MiB */
const MAX_HTTP_ACTION_BODY = 20 * 1024 * 1024;

export const BACKEND_VERSION = "local-backend-0.1.0";

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export type CloudHandlerOptions = {
  engine: Engine;
  callers: CallerResolver;
  log?: (line: string) => void;
  onLogLines?: (kind: string, path: string, lines: string[]) => void;
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

function tooLarge(size: number, limit: number): string {
  return limit === MAX_JSON_BODY ? argsTooLargeMessage(size) : `Request body is too large (${size} bytes; the maximum is ${limit} bytes).`;
}

/** Convex answers cross-origin calls from any origin (the deployment URL is public). */
function setCors(req: IncomingMessage, res: ServerResponse): void {
  const origin = req.headers.origin;
  if (origin) {
    res.setHeader("Access-Control-Allow-Origin", origin);
    res.setHeader("Access-Control-Allow-Credentials", "true");
    res.setHeader("Vary", "Origin");
  } else {
    res.setHeader("Access-Control-Allow-Origin", "*");
  }
  res.setHeader("Access-Control-Expose-Headers", "*");
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text) });
  res.end(text);
}

function sendError(res: ServerResponse, e: HttpError): void {
  sendJson(res, e.status, { code: e.code, message: e.message });
}

function outcomeResponse(res: ServerResponse, outcome: FunctionOutcome): void {
  if (outcome.status === "success") {
    sendJson(res, 200, { status: "success", value: outcome.value, logLines: outcome.logLines });
  } else {
    sendJson(res, STATUS_CODE_UDF_FAILED, {
      status: "error",
      errorMessage: outcome.errorMessage,
      ...(outcome.errorData !== undefined ? { errorData: outcome.errorData } : {}),
      logLines: outcome.logLines,
    });
  }
}

export function createCloudHandler(opts: CloudHandlerOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const { engine, callers } = opts;

  async function caller(req: IncomingMessage): Promise<Caller> {
    try {
      const c = await callers.fromHeader(req.headers.authorization);
      if (callerExpired(c)) throw new AuthVerificationError("Token expired");
      return c;
    } catch (e) {
      const message = e instanceof AuthVerificationError ? e.message : `Could not verify token: ${describeError(e)}`;
      throw new HttpError(401, "Unauthenticated", message);
    }
  }

  async function jsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
    const buf = await readBody(req, MAX_JSON_BODY);
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
  ): Promise<void> {
    const who = await caller(req);
    const body = await jsonBody(req);
    const path = pathOverride ?? body.path;
    if (typeof path !== "string" || path === "") throw new HttpError(400, "BadJsonBody", "Missing `path` (the function name, e.g. \"messages:list\")");
    if (body.componentPath !== undefined && body.componentPath !== null && body.componentPath !== "") {
      throw new HttpError(400, "BadRequest", "Components are not supported by local-backend");
    }
    if (body.format !== undefined && body.format !== "convex_encoded_json" && body.format !== "json") {
      throw new HttpError(400, "BadJsonBody", `Unsupported format ${JSON.stringify(body.format)}`);
    }
    const args = unwrapArgs(body.args);
    if (!args.ok) throw new HttpError(400, "BadJsonBody", args.message);
    const resolved = resolveFunction(engine, path, expected, who);
    if (!resolved.ok) return outcomeResponse(res, resolved.outcome);
    const call = { path: resolved.path, args: args.args, identity: who.identity, internal: who.admin };
    let outcome: FunctionOutcome;
    try {
      if (resolved.kind === "query") outcome = (await engine.runQuery(call)).outcome;
      else if (resolved.kind === "mutation") outcome = (await engine.runMutation(call)).outcome;
      else outcome = (await engine.runAction(call)).outcome;
    } catch (e) {
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
        case "/api/query_at_ts":
          // Snapshot reads at an old ts are not kept; the current snapshot is at least as new as
          // the one query_ts handed out, which is what consistentQuery callers observe anyway.
          return runFunction(req, res, "query");
        case "/api/mutation":
          return runFunction(req, res, "mutation");
        case "/api/action":
          return runFunction(req, res, "action");
        case "/api/function":
          return runFunction(req, res, "any");
        case "/api/query_ts":
          req.resume();
          return sendJson(res, 200, { ts: engine.currentTs().toString() });
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
      return serveBlob(res, decodeURIComponent(p.slice("/api/storage/".length)), method === "HEAD");
    }
    req.resume();
    throw new HttpError(404, "NotFound", `No route for ${method} ${url.pathname}`);
  }

  async function upload(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const token = url.searchParams.get("token");
    if (!token) {
      req.resume();
      throw new HttpError(400, "MissingToken", "Missing `token` query parameter; get an upload URL from generateUploadUrl()");
    }
    const body = await readBody(req, MAX_UPLOAD_BYTES);
    const contentType = req.headers["content-type"] ?? null;
    let storageId: string;
    try {
      storageId = await engine.storeUpload(token, new Uint8Array(body.buffer, body.byteOffset, body.byteLength), contentType);
    } catch (e) {
      throw new HttpError(400, "StorageUploadFailed", describeError(e));
    }
    sendJson(res, 200, { storageId });
  }

  async function serveBlob(res: ServerResponse, id: string, head: boolean): Promise<void> {
    let blob: Awaited<ReturnType<Engine["getStorageBlob"]>>;
    try {
      blob = id ? await engine.getStorageBlob(id) : null;
    } catch {
      blob = null; // a malformed id is just a missing file to the outside
    }
    if (!blob) throw new HttpError(404, "FileNotFound", `File not found: ${id}`);
    res.writeHead(200, {
      "Content-Type": blob.contentType ?? "application/octet-stream",
      "Content-Length": blob.body.byteLength,
      // storage ids are immutable
      "Cache-Control": "private, max-age=2592000, immutable",
    });
    res.end(head ? undefined : Buffer.from(blob.body.buffer, blob.body.byteOffset, blob.body.byteLength));
  }

  return (req, res) => {
    setCors(req, res);
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
  /** verifies `Authorization: Bearer <jwt>` so http actions see `ctx.auth` as on Convex */
  callers?: CallerResolver;
  log?: (line: string) => void;
};

/** Build a WHATWG Request for an incoming Node request, addressed at the public site URL. */
export async function toFetchRequest(req: IncomingMessage, siteUrl: string): Promise<Request> {
  const url = new URL(req.url ?? "/", siteUrl);
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i];
    // hop-by-hop headers are meaningless to the http action and some are refused by Request
    if (/^(connection|keep-alive|transfer-encoding|upgrade|host)$/i.test(name)) continue;
    headers.append(name, req.rawHeaders[i + 1]);
  }
  const method = req.method ?? "GET";
  const hasBody = method !== "GET" && method !== "HEAD";
  const body = hasBody ? await readBody(req, MAX_HTTP_ACTION_BODY) : undefined;
  return new Request(url, {
    method,
    headers,
    body: body && body.length > 0 ? new Uint8Array(body) : undefined,
  });
}

export function createSiteHandler(opts: SiteHandlerOptions): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    void (async () => {
      let request: Request;
      try {
        request = await toFetchRequest(req, opts.siteUrl);
      } catch (e) {
        if (e instanceof HttpError) return sendError(res, e);
        throw e;
      }
      let identity: UserIdentity | null = null;
      const authorization = req.headers.authorization;
      if (authorization && opts.callers) {
        // An unverifiable token leaves the request anonymous rather than failing it, so public
        // routes (webhooks, error reports) keep working with a stale session.
        identity = await opts.callers.fromHeader(authorization).then((c) => c.identity, () => null);
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
