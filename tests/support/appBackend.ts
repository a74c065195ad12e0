/**
 * The app's backend (convex/) on the embedded backend, for the tests that need a real one over real
 * sockets (SMS, email, the public endpoints, co-editing) and for the benchmarks. One harness, two
 * ways to run it on a data dir made by `prepareDataDir` (Convex Auth's signing keys and the
 * providers' settings in its env.json):
 * - `startAppBackend`: a child process, as `npm start` runs it, so that a test can SIGKILL it and
 *   start it again on the same data dir; callers sign up and sign in as the web app does
 *   (`signUp`, `signIn`).
 * - `startAppBackendInProcess`: in the test's own process, for tests that write documents directly
 *   (`run`, as convex-test's t.run) or read the engine; members are created directly (as the
 *   function tests' fixtures do) and signed in with tokens signed by the deployment's own key, and
 *   their `ConvexClient`s run over `ws` whose network can be cut and restored (`network`).
 * The provider fakes are beside it: fakeTwilio.ts, fakeResend.ts.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { importPKCS8, SignJWT, type CryptoKey } from "jose";
import WebSocket from "ws";
import { ConvexClient, ConvexHttpClient } from "convex/browser";
import type { GenericMutationCtx } from "convex/server";
import { jsonToConvex } from "convex/values";
import { api } from "@convex/_generated/api";
import type { DataModel, Id } from "@convex/_generated/dataModel";
import { runInMutation, type AdhocEngine } from "../../local-backend/src/adhoc";
import { startBackend, type RunningBackend } from "../../local-backend/src/server";
import { authKeys, configureBackendEnv, signInTicket } from "../../scripts/backend-env";
import { createMember } from "../convex/fixtures";

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const FUNCTIONS_DIR = path.join(REPO_ROOT, "convex");

/** the password `signUp` gives every account */
export const PASSWORD = "correct-horse-42";

/** A data dir for the app's backend: Convex Auth's signing keys and `env` (a provider's settings: `twilioEnv`, `resendEnv`). */
export async function prepareDataDir(env: Record<string, string> = {}): Promise<string> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "precinct-app-"));
  const keys = await authKeys();
  fs.writeFileSync(
    path.join(dataDir, "env.json"),
    JSON.stringify({ ...keys, SITE_URL: "http://127.0.0.1:4173", AUTH_LOG_LEVEL: "ERROR", ...env }),
  );
  return dataDir;
}

/** Polls `check` until it returns a value (not undefined), up to `ms`. */
export async function until<T>(check: () => Promise<T | undefined>, ms = 30_000, what = "condition"): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

// ---- a child process ----

export type AppBackend = { child: ChildProcess; cloud: string; site: string; dataDir: string };

/** The app's backend as a child process on `dataDir`, ready to serve. */
export function startAppBackend(dataDir: string, opts: { adminKey?: string } = {}): Promise<AppBackend> {
  const cli = path.join(REPO_ROOT, "local-backend", "src", "cli.ts");
  const args = ["--import", "tsx", cli, "--functions", FUNCTIONS_DIR, "--data", dataDir, "--port", "0"];
  if (opts.adminKey) args.push("--admin-key", opts.adminKey);
  const child = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  return new Promise((resolve, reject) => {
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      const m = /local-backend ready: cloud=(\S+) site=(\S+)/.exec(out);
      if (m) resolve({ child, cloud: m[1], site: m[2], dataDir });
    });
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    // SMS_BACKEND_LOG=file: the backend's output, for debugging a test
    const logFile = process.env.SMS_BACKEND_LOG;
    if (logFile)
      for (const stream of [child.stdout, child.stderr])
        stream.on("data", (d: Buffer) => fs.appendFileSync(logFile, d));
    child.once("exit", (code) => reject(new Error(`backend exited (${code}) before ready:\n${err}`)));
  });
}

/** Kills the child (SIGKILL: as a crash) and waits for it to be gone. */
export async function stopBackend(b: AppBackend) {
  if (b.child.exitCode !== null || b.child.signalCode !== null) return;
  const gone = new Promise<void>((r) => b.child.once("exit", () => r()));
  b.child.kill("SIGKILL");
  await gone;
}

/** Signs up a new account (an organisation's creator: campaign manager) and returns its client. */
export async function signUp(
  b: AppBackend,
  email = `sms${randomBytes(4).toString("hex")}@example.org`,
): Promise<ConvexHttpClient> {
  const client = new ConvexHttpClient(b.cloud, { logger: false });
  const signed = (await client.action(api.auth.signIn, {
    provider: "password",
    params: {
      flow: "signUp",
      email,
      password: PASSWORD,
      firstName: "Sam",
      lastName: "Sender",
      ticket: await signInTicket(b.site),
    },
  })) as { tokens?: { token: string } | null };
  if (!signed.tokens) throw new Error("sign-up did not return tokens");
  client.setAuth(signed.tokens.token);
  return client;
}

/** Signs an account made by `signUp` in again (after a restart, say) and returns its client. */
export async function signIn(b: AppBackend, email: string): Promise<ConvexHttpClient> {
  const client = new ConvexHttpClient(b.cloud, { logger: false });
  const signed = (await client.action(api.auth.signIn, {
    provider: "password",
    params: { flow: "signIn", email, password: PASSWORD, ticket: await signInTicket(b.site) },
  })) as { tokens?: { token: string } | null };
  client.setAuth(signed.tokens!.token);
  return client;
}

// ---- in the test's process ----

export type AppMember = { userId: Id<"users">; orgId: Id<"organizations">; token: string };

export type InProcessAppBackend = {
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

/** The app's backend in this process on a new data dir (removed by `stop`). */
export async function startAppBackendInProcess(opts: { scheduler?: boolean } = {}): Promise<InProcessAppBackend> {
  const dataDir = await prepareDataDir();
  const backend = await startBackend({
    functionsDir: FUNCTIONS_DIR,
    dataDir,
    port: 0,
    log: () => {},
    scheduler: opts.scheduler ?? true,
  });
  // configureBackendEnv keeps the signing keys prepareDataDir wrote: tokens are signed with them
  await configureBackendEnv(backend.engine, { siteUrl: "http://127.0.0.1:1" });
  const signingKey = await importPKCS8(backend.engine.env.list().JWT_PRIVATE_KEY, "RS256");
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
      const m = await createMember({ run, withIdentity: (identity) => identity }, roles, {
        orgId: o.orgId,
        firstName: o.firstName,
      });
      const subject = (m.as as { subject: string }).subject;
      return { userId: m.userId, orgId: m.orgId, token: await signToken(signingKey, backend.siteUrl, subject) };
    },
    async campaignRoom(orgId) {
      const id = await run((ctx) =>
        ctx.db.insert("campaigns", {
          orgId,
          name: "Design",
          description: null,
          campaign_type: "email",
          status: "draft",
          updatedAt: Date.now(),
        }),
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
export type Network = {
  WebSocket: new (url: string | URL, protocols?: string | string[]) => WebSocket;
  cut(): void;
  restore(): void;
};

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
