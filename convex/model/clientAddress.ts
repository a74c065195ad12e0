/**
 * The caller's network address, for per-client rate limits on public endpoints and sign-in.
 *
 * Functions never see a socket: the address comes from the first `X-Forwarded-For` entry that the
 * deployment's edge proxy sets (the embedded backend sets it from the TCP peer and replaces what
 * the client sent). Sign-in runs in an action called over the WebSocket, which has no request at
 * all, so the web app first fetches a short-lived ticket from an http action: the ticket carries
 * the address the proxy saw, signed with a server key, and the sign-in checks it.
 */

export const TICKET_TTL_MS = 10 * 60 * 1000;
const MAX_ADDRESS_LENGTH = 64;

/** The client address of an http action's request ("unknown" when no proxy said). */
export function clientAddress(request: Request): string {
  const first = (request.headers.get("X-Forwarded-For") ?? "").split(",")[0]?.trim() ?? "";
  return first && first.length <= MAX_ADDRESS_LENGTH ? first.toLowerCase() : "unknown";
}

function b64url(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromB64url(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  const bin = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4));
  const out = new Uint8Array(new ArrayBuffer(bin.length));
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/**
 * The signing key: AUTH_TICKET_SECRET when set, else derived from Convex Auth's JWT_PRIVATE_KEY
 * (which every deployment already keeps secret), so no extra configuration is needed.
 */
async function ticketKey(): Promise<CryptoKey> {
  const secret = process.env.AUTH_TICKET_SECRET ?? `precinct-sign-in-ticket:${process.env.JWT_PRIVATE_KEY ?? ""}`;
  if (secret.length < 32)
    throw new Error("No secret to sign sign-in tickets: set JWT_PRIVATE_KEY or AUTH_TICKET_SECRET.");
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(secret));
  return await crypto.subtle.importKey("raw", digest, { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
}

/** A signed token carrying `claims` (a `k` claim names what it is for): payload.signature, both base64url. */
export async function signToken(claims: Record<string, string | number>): Promise<string> {
  const payload = new TextEncoder().encode(JSON.stringify(claims));
  const sig = new Uint8Array(await crypto.subtle.sign("HMAC", await ticketKey(), payload));
  return `${b64url(payload)}.${b64url(sig)}`;
}

/** The claims of a token this server signed for `kind`, unexpired (`e`, when present); null for anything else. */
export async function readToken(
  token: unknown,
  kind: string,
  now = Date.now(),
): Promise<Record<string, unknown> | null> {
  if (typeof token !== "string" || token.length > 512) return null;
  const [p, s, extra] = token.split(".");
  if (!p || !s || extra !== undefined) return null;
  const payload = fromB64url(p);
  const sig = fromB64url(s);
  if (!payload || !sig) return null;
  if (!(await crypto.subtle.verify("HMAC", await ticketKey(), sig, payload))) return null;
  try {
    const claims = JSON.parse(new TextDecoder().decode(payload)) as Record<string, unknown>;
    if (claims === null || typeof claims !== "object" || claims.k !== kind) return null;
    if (claims.e !== undefined && (typeof claims.e !== "number" || claims.e < now)) return null;
    return claims;
  } catch {
    return null;
  }
}

/** A ticket binding `address` until `now + TICKET_TTL_MS`. */
export async function signTicket(address: string, now = Date.now()): Promise<string> {
  return await signToken({ k: "sign-in", a: address, e: now + TICKET_TTL_MS });
}

/** The address a valid, unexpired ticket was issued to; null for anything else. */
export async function verifyTicket(ticket: unknown, now = Date.now()): Promise<string | null> {
  const claims = await readToken(ticket, "sign-in", now);
  return claims && typeof claims.a === "string" && typeof claims.e === "number" ? claims.a : null;
}
