/**
 * A benchmark's embedded backend (a fresh one on the app's convex/ folder in a temp dir) and its
 * signed-up user: an HTTP client, a live (WebSocket) client, and an admin client.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import WebSocket from "ws";
import { ConvexClient, ConvexHttpClient } from "convex/browser";
import { api } from "../convex/_generated/api";
import { startBackend } from "../local-backend/src/server";
import { configureBackendEnv, signInTicket } from "../scripts/backend-env";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** A fresh backend in a temp dir (`dir`, removed by the caller), Convex Auth configured for `webOrigin`. */
export async function startBenchBackend(name: string, adminKey: string, webOrigin = "http://127.0.0.1:1") {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `precinct-bench-${name}-`));
  const backend = await startBackend({
    functionsDir: path.join(root, "convex"),
    dataDir: path.join(dir, "data"),
    port: 0,
    adminKey,
    allowedOrigins: [webOrigin],
  });
  await configureBackendEnv(backend.engine, { siteUrl: webOrigin });
  backend.engine.env.set("AUTH_LOG_LEVEL", "ERROR");
  return { backend, dir };
}

export async function benchSession(
  backend: { cloudUrl: string; siteUrl: string },
  who: { email: string; firstName: string; lastName: string },
  adminKey: string,
) {
  const http = new ConvexHttpClient(backend.cloudUrl, { logger: false });
  const signed = (await http.action(api.auth.signIn, {
    provider: "password",
    params: {
      flow: "signUp",
      email: who.email,
      password: "correct-horse-42",
      firstName: who.firstName,
      lastName: who.lastName,
      ticket: await signInTicket(backend.siteUrl),
    },
  })) as { tokens?: { token: string; refreshToken: string } | null };
  const tokens = signed.tokens!;
  const token = tokens.token;
  http.setAuth(token);
  const socket = new ConvexClient(backend.cloudUrl, {
    webSocketConstructor: WebSocket as unknown as typeof globalThis.WebSocket,
    logger: false,
  });
  socket.setAuth(async () => token);
  const admin = new ConvexHttpClient(backend.cloudUrl, { logger: false });
  (admin as unknown as { setAdminAuth(k: string): void }).setAdminAuth(adminKey);
  return { http, socket, admin, token, tokens };
}
