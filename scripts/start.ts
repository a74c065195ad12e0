/**
 * `npm start` / `npm run dev` / the e2e server: the embedded backend on the app's convex/ folder
 * plus the web app, with no configuration and no network on first run.
 *
 *   npm start        backend (data in .precinct-data/) + production build served by vite preview
 *   npm run dev      the same with hot reload (vite dev server, functions reloaded on change)
 *   --e2e            fresh temporary data directory and the e2e ports (used by Playwright); with
 *                    E2E_RESEND_PORT set, email goes to a local fake of Resend on that port (the
 *                    tests read what it received and post its signed webhooks)
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build, createServer, preview } from "vite";
import { startBackend } from "../local-backend/src/server";
import { configureBackendEnv } from "./backend-env";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const args = new Set(process.argv.slice(2));
const dev = args.has("--dev");
const e2e = args.has("--e2e");

const backendPort = Number(process.env.BACKEND_PORT ?? (e2e ? 3310 : 3210));
const webPort = Number(process.env.WEB_PORT ?? (e2e ? 4310 : dev ? 5173 : 4173));
const dataDir = e2e
  ? mkdtempSync(path.join(tmpdir(), "precinct-e2e-"))
  : path.resolve(root, process.env.PRECINCT_DATA ?? ".precinct-data");
const webOrigin = `http://127.0.0.1:${webPort}`;

// every e2e browser signs up from 127.0.0.1, more than the default 50 an hour of one address
if (e2e) process.env.SIGN_UPS_PER_ADDRESS_PER_HOUR ??= "1000";

if (e2e && process.env.E2E_RESEND_PORT) {
  const { FakeResend, RESEND_KEY, WEBHOOK_SECRET } = await import("../tests/support/fakeResend");
  const fake = new FakeResend();
  const url = await fake.start(Number(process.env.E2E_RESEND_PORT));
  Object.assign(process.env, {
    RESEND_API_KEY: RESEND_KEY,
    RESEND_BASE_URL: url,
    RESEND_WEBHOOK_SECRET: WEBHOOK_SECRET,
    EMAIL_BATCHES_PER_SECOND: "20",
  });
}

// SMS stays in demo mode (no account or number), but Twilio's webhook signing secret is set, so the
// e2e can post signed inbound replies (a STOP) as Twilio would
if (e2e) {
  const { AUTH_TOKEN } = await import("../tests/support/fakeTwilio");
  process.env.TWILIO_AUTH_TOKEN ??= AUTH_TOKEN;
}

const backend = await startBackend({
  functionsDir: path.join(root, "convex"),
  dataDir,
  port: backendPort,
  watch: dev,
  // the web app may call with credentials; everyone else gets `*` without them
  allowedOrigins: [webOrigin],
  log: (line: string) => process.stdout.write(`[backend] ${line}\n`),
});
const { mailboxKey } = await configureBackendEnv(backend.engine, { siteUrl: webOrigin });

process.env.VITE_CONVEX_URL = backend.cloudUrl;
process.env.VITE_CONVEX_SITE_URL = backend.siteUrl;

let closeWeb: () => Promise<void>;
if (dev) {
  const server = await createServer({ root, server: { port: webPort, host: "127.0.0.1", strictPort: true } });
  await server.listen();
  closeWeb = () => server.close();
} else {
  await build({ root, logLevel: "warn", mode: e2e ? "e2e" : "production" });
  const server = await preview({ root, preview: { port: webPort, host: "127.0.0.1", strictPort: true } });
  closeWeb = () => new Promise<void>((resolve) => server.httpServer.close(() => resolve()));
}

console.log(
  `Precinct is running: app ${webOrigin}  backend ${backend.cloudUrl} (site ${backend.siteUrl})  data ${dataDir}`,
);
if (mailboxKey) {
  // The operator's link: the key after # never reaches a server log. Keep it to yourself.
  console.log(
    `Email demo mode: emails are not sent. Read them (operator only) at ${webOrigin}/dev/mailbox#key=${mailboxKey}`,
  );
}

let stopping = false;
async function shutdown() {
  if (stopping) return;
  stopping = true;
  await closeWeb().catch(() => undefined);
  await backend.stop();
  if (e2e) rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
}
process.on("SIGINT", () => void shutdown());
process.on("SIGTERM", () => void shutdown());
