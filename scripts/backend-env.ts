/**
 * Backend environment for a local run: Convex Auth's signing keys (made once per data directory),
 * the web app's origin, and provider credentials passed through from the shell environment.
 */
import { randomBytes } from "node:crypto";
import { exportJWK, exportPKCS8, generateKeyPair } from "jose";
import type { Engine } from "../local-backend/src/engine-api";

const PASSTHROUGH = [
  "RESEND_API_KEY",
  "RESEND_BASE_URL",
  "RESEND_WEBHOOK_SECRET",
  "EMAIL_FROM",
  "EMAIL_BATCHES_PER_SECOND",
  "EMAIL_UNSUBSCRIBE_MAILTO",
  "TWILIO_ACCOUNT_SID",
  "TWILIO_AUTH_TOKEN",
  "TWILIO_PHONE_NUMBER",
  "TWILIO_MESSAGING_SERVICE_SID",
  "TWILIO_API_BASE_URL",
  "TWILIO_WEBHOOK_BASE_URL",
  "CLERK_JWT_ISSUER_DOMAIN",
  "SUPER_ADMIN_EMAILS",
  "SIGN_UPS_PER_ADDRESS_PER_HOUR",
];

/**
 * A sign-in ticket from the backend's http actions, as the web app fetches one before each
 * sign-in, sign-up or reset (convex/model/clientAddress.ts): scripts signing up need it too.
 */
export async function signInTicket(siteUrl: string): Promise<string> {
  const res = await fetch(`${siteUrl}/api/auth/ticket`, { method: "POST" });
  const body = (await res.json()) as { ticket?: string; error?: string };
  if (!res.ok || !body.ticket) throw new Error(`no sign-in ticket from ${siteUrl}: ${res.status} ${body.error ?? ""}`);
  return body.ticket;
}

export async function authKeys(): Promise<{ JWT_PRIVATE_KEY: string; JWKS: string }> {
  const keys = await generateKeyPair("RS256", { extractable: true });
  const privateKey = await exportPKCS8(keys.privateKey);
  const publicKey = await exportJWK(keys.publicKey);
  return {
    // Convex Auth reads the PEM with its newlines folded into spaces.
    JWT_PRIVATE_KEY: privateKey.trimEnd().replace(/\n/g, " "),
    JWKS: JSON.stringify({ keys: [{ use: "sig", ...publicKey }] }),
  };
}

/**
 * Sets the backend's environment. Returns the demo mailbox key when email runs in demo mode (no
 * provider): the operator's secret for /dev/mailbox, made once per data directory (or taken from
 * DEV_MAILBOX_KEY in the shell) and printed by npm start, never handed to a tenant.
 */
export async function configureBackendEnv(
  engine: Engine,
  opts: { siteUrl: string },
): Promise<{ mailboxKey: string | null }> {
  const current = engine.env.list();
  if (!current.JWT_PRIVATE_KEY || !current.JWKS) {
    const keys = await authKeys();
    engine.env.set("JWT_PRIVATE_KEY", keys.JWT_PRIVATE_KEY);
    engine.env.set("JWKS", keys.JWKS);
  }
  engine.env.set("SITE_URL", opts.siteUrl);
  // Convex Auth logs every token refresh at INFO: keep the console for what needs attention.
  engine.env.set("AUTH_LOG_LEVEL", process.env.AUTH_LOG_LEVEL ?? "WARN");
  for (const name of PASSTHROUGH) {
    const value = process.env[name];
    if (value) engine.env.set(name, value);
  }
  // Without an email provider nothing can be delivered: the operator's demo mailbox shows what would be sent.
  if (process.env.RESEND_API_KEY) {
    engine.env.remove("DEV_MAILBOX_KEY");
    return { mailboxKey: null };
  }
  const key = process.env.DEV_MAILBOX_KEY ?? current.DEV_MAILBOX_KEY ?? randomBytes(24).toString("base64url");
  engine.env.set("DEV_MAILBOX_KEY", key);
  return { mailboxKey: key };
}
