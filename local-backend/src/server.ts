/**
 * Starts the backend: the engine plus two HTTP servers.
 *   cloud URL — sync WebSocket (`/api/<version>/sync`, `/api/sync`), HTTP API, storage
 *   site URL  — the app's http actions (convex/http.ts)
 * The ports are bound before the engine is created because the engine needs the public URLs
 * (CONVEX_CLOUD_URL / CONVEX_SITE_URL, storage URLs); requests that arrive before the engine has
 * started wait for it.
 */
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { WebSocketServer } from "ws";
import type { Engine, EngineOptions } from "./engine-api.js";
import { createEngine } from "./engine.js";
import { AuthVerifier } from "./auth.js";
import { CallerResolver } from "./net-caller.js";
import { createCloudHandler, createSiteHandler } from "./http.js";
import { MAX_WS_MESSAGE_BYTES, SyncServer } from "./sync.js";

export type BackendOptions = {
  functionsDir: string;
  dataDir: string;
  /** cloud URL port; 0 picks a free one */
  port: number;
  /** site URL port; default port + 1 (or a free one when port is 0) */
  sitePort?: number;
  host?: string;
  watch?: boolean;
  /** run the scheduler and crons (default true) */
  scheduler?: boolean;
  /** backend diagnostics */
  log?: (line: string) => void;
  /** function log lines (console.log inside functions), tagged with the function path */
  onFunctionLog?: (kind: string, path: string, lines: string[]) => void;
  /** accept `Authorization: Convex <adminKey>` / admin Authenticate (may call internal functions) */
  adminKey?: string;
  /**
   * Origins answered with their own origin plus `Access-Control-Allow-Credentials: true` on the
   * cloud URL; all others get `Access-Control-Allow-Origin: *` without credentials (callers use
   * bearer tokens, so none need credentials). CLI: `--allowed-origins a,b`.
   */
  allowedOrigins?: readonly string[];
  /** largest storage upload in bytes (default 100 MiB); CLI `--max-upload-bytes` */
  maxUploadBytes?: number;
  /** storage uploads received at once (default 4); CLI `--max-concurrent-uploads` */
  maxConcurrentUploads?: number;
  /**
   * Keep the client's `X-Forwarded-For` on http action requests (a trusted reverse proxy sits in
   * front). Default: replaced by the TCP peer's address. CLI `--trust-proxy`.
   */
  trustProxy?: boolean;
  /**
   * Benchmarks only (never by default, never in tests): queries and mutations are not held to
   * Convex's transaction and execution-time limits; usage is still measured
   * (`engine.transactionStats()`). CLI `--relax-limits`.
   */
  relaxLimits?: boolean;
  /** injectable for tests; defaults to createEngine from ./engine */
  createEngine?: (opts: EngineOptions) => Engine;
};

export type RunningBackend = {
  cloudUrl: string;
  siteUrl: string;
  engine: Engine;
  /** live sync connections, for diagnostics and tests */
  syncConnections(): number;
  stop(): Promise<void>;
};

function listen(server: http.Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (e: Error) => reject(e);
    server.once("error", onError);
    server.listen(port, host, () => {
      server.off("error", onError);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function urlFor(host: string, port: number): string {
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
}

/** Track sockets so stop() does not wait for idle keep-alive connections. */
function trackSockets(server: http.Server): Set<Socket> {
  const sockets = new Set<Socket>();
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  return sockets;
}

export async function startBackend(opts: BackendOptions): Promise<RunningBackend> {
  const host = opts.host ?? "127.0.0.1";
  const log = opts.log;

  let ready!: () => void;
  let failed!: (e: unknown) => void;
  const started = new Promise<void>((res, rej) => {
    ready = res;
    failed = rej;
  });
  started.catch(() => {});
  let cloudHandler: http.RequestListener | null = null;
  let siteHandler: http.RequestListener | null = null;
  const waitThen =
    (get: () => http.RequestListener | null): http.RequestListener =>
    (req, res) => {
      const h = get();
      if (h) return h(req, res);
      started.then(
        () => get()!(req, res),
        () => {
          res.writeHead(503);
          res.end("backend failed to start");
        },
      );
    };

  const cloudServer = http.createServer(waitThen(() => cloudHandler));
  const siteServer = http.createServer(waitThen(() => siteHandler));
  for (const s of [cloudServer, siteServer]) {
    // slow or broken clients must never take the process down
    s.on("clientError", (_e, socket) => socket.destroy());
    // Longer than clients' own idle timeouts (undici: 4 s by default), so the client is the one
    // that drops an idle connection; otherwise a request can race the server's close (ECONNRESET),
    // which happens easily when a long synchronous query delays both timers.
    s.keepAliveTimeout = 65_000;
  }
  const cloudSockets = trackSockets(cloudServer);
  const siteSockets = trackSockets(siteServer);

  const cloudPort = await listen(cloudServer, opts.port, host);
  let sitePort: number;
  try {
    sitePort = await listen(siteServer, opts.sitePort ?? (opts.port === 0 ? 0 : cloudPort + 1), host);
  } catch (e) {
    cloudServer.close();
    throw e;
  }
  const cloudUrl = urlFor(host, cloudPort);
  const siteUrl = urlFor(host, sitePort);

  const engine = (opts.createEngine ?? createEngine)({
    functionsDir: opts.functionsDir,
    dataDir: opts.dataDir,
    cloudUrl,
    siteUrl,
    watch: opts.watch,
    scheduler: opts.scheduler,
    log,
    relaxLimits: opts.relaxLimits === true,
  });
  try {
    await engine.start();
  } catch (e) {
    failed(e);
    cloudServer.close();
    siteServer.close();
    for (const s of [...cloudSockets, ...siteSockets]) s.destroy();
    throw e;
  }

  // Convex Auth serves its OIDC discovery + JWKS from this app's own http actions: answer those
  // in-process instead of going through our own socket.
  const siteOrigin = new URL(siteUrl).origin;
  const verifier = new AuthVerifier({
    providers: () => engine.authProviders(),
    fetch: (url) =>
      new URL(url).origin === siteOrigin
        ? engine.runHttpAction(new Request(url))
        : fetch(url, { signal: AbortSignal.timeout(10_000) }),
  });
  const callers = new CallerResolver(verifier, opts.adminKey);
  const sync = new SyncServer({ engine, callers, log, onLogLines: opts.onFunctionLog });
  cloudHandler = createCloudHandler({
    engine,
    callers,
    log,
    onLogLines: opts.onFunctionLog,
    allowedOrigins: opts.allowedOrigins,
    maxUploadBytes: opts.maxUploadBytes,
    maxConcurrentUploads: opts.maxConcurrentUploads,
  });
  siteHandler = createSiteHandler({ engine, siteUrl, callers, log, trustProxy: opts.trustProxy });

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_WS_MESSAGE_BYTES });
  wss.on("connection", (ws, req) => sync.handleConnection(ws, req));
  cloudServer.on("upgrade", (req, socket, head) => {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    if (!/^\/api\/(?:[^/]+\/)?sync\/?$/.test(path)) {
      socket.end("HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n");
      return;
    }
    socket.on("error", () => socket.destroy());
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit("connection", ws, req));
  });
  ready();
  log?.(`local-backend listening: cloud=${cloudUrl} site=${siteUrl}`);

  let stopping: Promise<void> | null = null;
  const stop = () => {
    stopping ??= (async () => {
      sync.close();
      wss.close();
      const closed = Promise.all([cloudServer, siteServer].map((s) => new Promise<void>((r) => s.close(() => r()))));
      for (const s of [...cloudSockets, ...siteSockets]) s.destroy();
      await closed;
      await engine.stop();
    })();
    return stopping;
  };

  return { cloudUrl, siteUrl, engine, syncConnections: () => sync.connectionCount, stop };
}
