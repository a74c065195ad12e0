/**
 * Shared helpers for the network-layer tests: a backend on a temp data dir serving the fixture
 * app, real `convex/browser` clients over `ws`, and a raw sync-protocol client for malformed input.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import WebSocket from "ws";
import { ConvexClient } from "convex/browser";
import type { FunctionReference } from "convex/server";
import { startBackend, type BackendOptions, type RunningBackend } from "../../../local-backend/src/server";

export const FIXTURE_DIR = fileURLToPath(new URL("../fixture/convex", import.meta.url));
export const REPO_ROOT = fileURLToPath(new URL("../../..", import.meta.url));

export function tempDir(prefix = "lb-protocol-"): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export async function startFixture(opts: Partial<BackendOptions> = {}): Promise<RunningBackend & { dataDir: string }> {
  const dataDir = opts.dataDir ?? tempDir();
  const backend = await startBackend({ functionsDir: FIXTURE_DIR, dataDir, port: 0, ...opts });
  return Object.assign(backend, { dataDir });
}

export function newClient(url: string): ConvexClient {
  return new ConvexClient(url, {
    webSocketConstructor: WebSocket as unknown as typeof globalThis.WebSocket,
    unsavedChangesWarning: false,
    logger: false,
  });
}

/**
 * Resolves with the first value of a subscription that satisfies `predicate`; rejects when the
 * query fails. No timers: the test timeout is the only bound.
 */
export function waitForQuery<T>(
  client: ConvexClient,
  query: FunctionReference<"query">,
  args: Record<string, unknown>,
  predicate: (value: T) => boolean,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let done = false;
    const unsubscribe = client.onUpdate(
      query,
      args,
      (value: T) => {
        if (done || !predicate(value)) return;
        done = true;
        resolve(value);
        // unsubscribing inside the callback is allowed; defer to keep the client's loop simple
        queueMicrotask(() => unsubscribe());
      },
      (error: Error) => {
        if (done) return;
        done = true;
        reject(error);
      },
    );
  });
}

type ServerMessage = { type: string; [k: string]: unknown };

/** A bare sync-protocol client: send arbitrary frames, await specific replies. */
export class RawSyncClient {
  readonly ws: WebSocket;
  readonly messages: ServerMessage[] = [];
  closeCode: number | null = null;
  private waiters: Array<() => void> = [];
  readonly opened: Promise<void>;
  readonly closed: Promise<number>;

  constructor(cloudUrl: string) {
    this.ws = new WebSocket(`${cloudUrl.replace(/^http/, "ws")}/api/1.48.0/sync`);
    this.opened = new Promise((resolve, reject) => {
      this.ws.once("open", () => resolve());
      this.ws.once("error", reject);
    });
    this.closed = new Promise((resolve) =>
      this.ws.once("close", (code) => {
        this.closeCode = code;
        resolve(code);
        this.wake();
      }),
    );
    this.ws.on("message", (data: Buffer) => {
      this.messages.push(JSON.parse(data.toString("utf8")) as ServerMessage);
      this.wake();
    });
  }

  private wake() {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  sendRaw(data: string): void {
    this.ws.send(data);
  }

  send(message: Record<string, unknown>): void {
    this.ws.send(JSON.stringify(message));
  }

  connect(sessionId = `s-${Math.random().toString(36).slice(2)}`): string {
    this.send({ type: "Connect", sessionId, connectionCount: 0, lastCloseReason: null, clientTs: Date.now() });
    return sessionId;
  }

  /** Wait for (and consume) the first message matching the predicate. */
  async next(predicate: (m: ServerMessage) => boolean = () => true): Promise<ServerMessage> {
    for (;;) {
      const i = this.messages.findIndex(predicate);
      if (i >= 0) return this.messages.splice(i, 1)[0];
      if (this.closeCode !== null) throw new Error(`socket closed (${this.closeCode}) before the expected message`);
      await new Promise<void>((r) => this.waiters.push(r));
    }
  }

  close(): void {
    this.ws.close();
  }
}

/** `u64` little-endian base64 → bigint (protocol timestamps). */
export function decodeTs(encoded: unknown): bigint {
  return Buffer.from(String(encoded), "base64").readBigUInt64LE();
}

/**
 * A JWT issuer on loopback serving JSON documents by path (OIDC discovery, JWKS). `documents` is
 * called with the issuer's base URL, known only once it listens.
 */
export async function startIssuer(
  documents: (url: string) => Record<string, unknown>,
): Promise<{ url: string; close(): Promise<void> }> {
  let routes: Record<string, unknown> = {};
  const server = http.createServer((req, res) => {
    const body = routes[req.url ?? ""];
    if (body === undefined) {
      res.writeHead(404);
      res.end();
      return;
    }
    res.writeHead(200, { "Content-Type": "application/json" });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  routes = documents(url);
  return { url, close: () => new Promise<void>((r) => server.close(() => r())) };
}
