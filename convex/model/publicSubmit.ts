/**
 * What public respondent endpoints share (forms' /api/forms/*, surveys' /api/surveys/*): JSON
 * bodies read with a size cap, signed fill tokens (what, which, client address, issue time) and
 * the offline spam rules (a filled honeypot, a submission sooner than a person could). The rate
 * limits are in convex/publicSubmit.ts.
 */
import { readToken, signToken } from "./clientAddress";

/** A person needs at least this long between the page loading and sending it. */
export const MIN_FILL_MS = 2_000;
/** A fill token is good for a day. */
export const FILL_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;
export const SUBMIT_RATE_PER_ADDRESS = 10;
export const SUBMIT_RATE_PER_TARGET = 120;
export const SUBMIT_RATE_GLOBAL = 1_200;
export const START_RATE_PER_ADDRESS = 60;

export type TargetKind = "form" | "survey";

export const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", ...headers } });

/** The parsed JSON body, or the answer refusing it (413 over `maxBytes`, 400 when not JSON). */
export async function readJsonBody(request: Request, maxBytes: number): Promise<{ value: unknown } | Response> {
  const tooLarge = () => json(413, { error: "This submission is too large." });
  if (Number(request.headers.get("Content-Length") ?? 0) > maxBytes) return tooLarge();
  const raw = await request.text();
  if (raw.length > maxBytes) return tooLarge();
  try {
    return { value: JSON.parse(raw) as unknown };
  } catch {
    return json(400, { error: "Invalid request." });
  }
}

export async function issueFillToken(kind: TargetKind, target: string, address: string): Promise<string> {
  const now = Date.now();
  return await signToken({ k: `fill:${kind}`, f: target, a: address, t: now, e: now + FILL_TOKEN_TTL_MS });
}

/**
 * "ok"; "invalid" (forged, expired, or issued for another target or address: 403); "spam" (the
 * honeypot filled, or sooner than MIN_FILL_MS after the token: answered like a success, dropped).
 */
export async function judgeFill(
  kind: TargetKind,
  target: string,
  address: string,
  token: string,
  honeypot: string | undefined,
): Promise<"ok" | "invalid" | "spam"> {
  const claims = await readToken(token, `fill:${kind}`);
  if (!claims || claims.f !== target || claims.a !== address || typeof claims.t !== "number") return "invalid";
  if ((honeypot ?? "") !== "" || Date.now() - claims.t < MIN_FILL_MS) return "spam";
  return "ok";
}
