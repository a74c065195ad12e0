/**
 * The app's own convex/ functions on the embedded backend over real sockets, for co-editing tests
 * and the collab benchmark: a backend in a temp dir, members created directly (as the function
 * tests' fixtures do) and signed in with Convex Auth tokens signed by the deployment's own key, and
 * `ConvexClient`s over `ws` whose network can be cut and restored.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { exportJWK, exportPKCS8, generateKeyPair, SignJWT, type CryptoKey } from "jose";
import WebSocket from "ws";
import { ConvexClient } from "convex/browser";
import type { GenericMutationCtx } from "convex/server";
import { jsonToConvex } from "convex/values";
import type { DataModel, Id } from "@convex/_generated/dataModel";
import { runInMutation, type AdhocEngine } from "../../../local-backend/src/adhoc";
import { startBackend, type RunningBackend } from "../../../local-backend/src/server";
import { configureBackendEnv } from "../../../scripts/backend-env";
import { createMember } from "../../convex/fixtures";

const FUNCTIONS_DIR = fileURLToPath(new URL("../../../convex", import.meta.url));

export type AppMember = { userId: Id<"users">; orgId: Id<"organizations">; token: string };

export type AppBackend = {
  backend: RunningBackend;
  /** direct writes, as a mutation (like convex-test's t.run) */
  run<T>(handler: (ctx: GenericMutationCtx<DataModel>) => Promise<T>): Promise<T>;
  /** a member holding `roles` (a new organisation without `orgId`), with a sign-in token */
  member(roles: string[], opts?: { orgId?: Id<"organizations">; firstName?: string }): Promise<AppMember>;
  /** a campaign record of the organisation, and its co-editing room id */
  campaignRoom(orgId: Id<"organizations">): Promise<string>;
  /** a signed-in client; `network` lets the test cut its connection */
  client(member: AppMember, network?: Network): ConvexClient;
  stop(): Promise<void>;
};

export async function startAppBackend(opts: { scheduler?: boolean } = {}): Promise<AppBackend> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "precinct-collab-"));
  const backend = await startBackend({ functionsDir: FUNCTIONS_DIR, dataDir, port: 0, log: () => {}, scheduler: opts.scheduler ?? true });
  // Convex Auth's signing key, set before configureBackendEnv (which keeps keys already there)
  const keys = await generateKeyPair("RS256", { extractable: true });
  backend.engine.env.set("JWT_PRIVATE_KEY", (await exportPKCS8(keys.privateKey)).trimEnd().replace(/\n/g, " "));
  backend.engine.env.set("JWKS", JSON.stringify({ keys: [{ use: "sig", ...(await exportJWK(keys.publicKey)) }] }));
  await configureBackendEnv(backend.engine, { siteUrl: "http://127.0.0.1:1" });
  const engine = backend.engine as unknown as AdhocEngine;
  const clients: ConvexClient[] = [];

  const run = async <T>(handler: (ctx: GenericMutationCtx<DataModel>) => Promise<T>): Promise<T> => {
    const outcome = await runInMutation(engine, handler as never);
    if (outcome.status !== "success") throw new Error(outcome.errorMessage);
    return jsonToConvex(outcome.value) as T;
  };

  return {
    backend,
    run,
    async member(roles, o = {}) {
      const m = await createMember({ run, withIdentity: (identity) => identity }, roles, { orgId: o.orgId, firstName: o.firstName });
      const subject = (m.as as { subject: string }).subject;
      return { userId: m.userId, orgId: m.orgId, token: await signToken(keys.privateKey, backend.siteUrl, subject) };
    },
    async campaignRoom(orgId) {
      const id = await run((ctx) =>
        ctx.db.insert("campaigns", { orgId, name: "Design", description: null, campaign_type: "email", status: "draft", updatedAt: Date.now() }),
      );
      return `campaign:${id}`;
    },
    client(member, network) {
      const c = new ConvexClient(backend.cloudUrl, {
        webSocketConstructor: (network?.WebSocket ?? WebSocket) as unknown as typeof globalThis.WebSocket,
        unsavedChangesWarning: false,
        logger: false,
      });
      c.setAuth(async () => member.token);
      clients.push(c);
      return c;
    },
    async stop() {
      await Promise.all(clients.map((c) => c.close().catch(() => {})));
      await backend.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A Convex Auth access token for `subject` ("userId|sessionId"), as Convex Auth signs them. */
function signToken(key: CryptoKey, issuer: string, subject: string): Promise<string> {
  return new SignJWT({})
    .setProtectedHeader({ alg: "RS256" })
    .setSubject(subject)
    .setIssuer(issuer)
    .setAudience("convex")
    .setIssuedAt()
    .setExpirationTime("1h")
    .sign(key);
}

/**
 * One client's network: `cut()` drops its open sockets and makes new ones fail to connect (as a
 * lost connection does) until `restore()`.
 */
export type Network = { WebSocket: new (url: string | URL, protocols?: string | string[]) => WebSocket; cut(): void; restore(): void };

export function network(): Network {
  let down = false;
  const open = new Set<WebSocket>();
  class NetworkSocket extends WebSocket {
    constructor(url: string | URL, protocols?: string | string[]) {
      // nothing listens on port 9 of the loopback: the connection is refused
      super(down ? "ws://127.0.0.1:9/" : url, protocols);
      open.add(this);
      this.on("close", () => open.delete(this));
      this.on("error", () => {});
    }
  }
  return {
    WebSocket: NetworkSocket,
    cut() {
      down = true;
      for (const s of open) s.terminate();
    },
    restore() {
      down = false;
    },
  };
}
