/**
 * Proving that a user holds their address, by a code emailed to it. Sign-up does not verify the
 * address, so an address listed in SUPER_ADMIN_EMAILS gives super administrator access only once
 * verified: whoever signs up first with it gets nothing from the list until the code that went to
 * that inbox comes back (SECURITY.md, "Accounts and sessions").
 *
 * Codes: 10 characters from 32 (50 bits), stored as SHA-256 only, one per user, valid
 * CODE_TTL_MS; MAX_ATTEMPTS wrong entries delete it, and a user gets SENDS_PER_HOUR codes an hour.
 */
import { defineRateLimits } from "convex-helpers/server/rateLimit";
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { appError, CODE_REFUSED } from "../lib/errors";
import { queueEmail } from "./emails";
import { isSuperAdminEmail, SUPER_ADMIN_ROLE, superAdminPendingVerification } from "./orgs";
import { normalizeEmail, sha256Hex } from "./strings";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export const CODE_TTL_MS = 30 * MINUTE;
export const MAX_ATTEMPTS = 5;
export const SENDS_PER_HOUR = 5;
export const CODE_LENGTH = 10;
/** 32 symbols (a byte maps onto them without bias), without 0/O and 1/I. */
const CODE_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ";

export const VERIFICATION_MESSAGES = {
  notNeeded: "Your email address does not need to be verified.",
  noEmail: "Your account has no email address to verify.",
  wrong: CODE_REFUSED,
  locked: "Too many wrong codes. Request a new code.",
  tooManySends: "Too many codes requested. Please wait a moment and try again.",
} as const;

const { rateLimit } = defineRateLimits({
  emailVerificationSends: { kind: "token bucket", rate: SENDS_PER_HOUR, period: HOUR, capacity: SENDS_PER_HOUR },
});

/** A fresh code, shown as two groups of five ("ABCDE-FGHJK"). */
export function newVerificationCode(): string {
  const bytes = new Uint8Array(CODE_LENGTH);
  crypto.getRandomValues(bytes);
  const chars = [...bytes].map((b) => CODE_ALPHABET[b % CODE_ALPHABET.length]).join("");
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

/** What the user typed, as stored: upper case, without spaces and dashes. */
export function normalizeVerificationCode(input: string): string {
  return input.toUpperCase().replace(/[\s-]/g, "");
}

async function codeRow(ctx: QueryCtx, userId: Id<"users">) {
  return await ctx.db
    .query("emailVerificationCodes")
    .withIndex("by_user", (q) => q.eq("userId", userId))
    .first();
}

/** Emails a new code to the user's own address (the previous one stops working). */
export async function sendVerificationCode(ctx: MutationCtx, user: Doc<"users">) {
  const email = normalizeEmail(user.email ?? "");
  if (!email) throw appError("VALIDATION_ERROR", VERIFICATION_MESSAGES.noEmail);
  if (!superAdminPendingVerification(user)) throw appError("VALIDATION_ERROR", VERIFICATION_MESSAGES.notNeeded);
  const { ok } = await rateLimit(ctx, { name: "emailVerificationSends", key: user._id });
  if (!ok) throw appError("RATE_LIMIT", VERIFICATION_MESSAGES.tooManySends);
  const old = await codeRow(ctx, user._id);
  if (old) await ctx.db.delete("emailVerificationCodes", old._id);
  const code = newVerificationCode();
  const now = Date.now();
  const expiresAt = now + CODE_TTL_MS;
  await ctx.db.insert("emailVerificationCodes", {
    userId: user._id,
    email,
    codeHash: await sha256Hex(normalizeVerificationCode(code)),
    expiresAt,
    attempts: 0,
    sentAt: now,
  });
  await queueEmail(ctx, {
    to: email,
    kind: "email_verification",
    subject: `Your Precinct verification code: ${code}`,
    text: `Enter this code in Precinct to verify your email address and activate super administrator access:\n\n${code}\n\nIt works for ${CODE_TTL_MS / MINUTE} minutes, once. If you did not ask for it, ignore this email: nothing changes without the code.`,
  });
  return { sentTo: email, expiresAt };
}

export type CodeCheck = "verified" | "wrong" | "locked";

/**
 * Checks a code. Returns instead of throwing so that a wrong attempt is counted (a throw would
 * roll the count back); the caller turns "wrong" / "locked" into the refusal.
 */
export async function checkVerificationCode(ctx: MutationCtx, user: Doc<"users">, input: string): Promise<CodeCheck> {
  const row = await codeRow(ctx, user._id);
  if (row === null) return "wrong";
  if (row.expiresAt < Date.now() || row.email !== normalizeEmail(user.email ?? "")) {
    await ctx.db.delete("emailVerificationCodes", row._id);
    return "wrong";
  }
  const given = normalizeVerificationCode(input);
  if (given.length !== CODE_LENGTH || (await sha256Hex(given)) !== row.codeHash) {
    const attempts = row.attempts + 1;
    if (attempts >= MAX_ATTEMPTS) {
      await ctx.db.delete("emailVerificationCodes", row._id);
      return "locked";
    }
    await ctx.db.patch("emailVerificationCodes", row._id, { attempts });
    return "wrong";
  }
  await ctx.db.delete("emailVerificationCodes", row._id);
  await markEmailVerified(ctx, user._id);
  return "verified";
}

/**
 * Records that the user holds their address (a verification code, or a completed password
 * reset: both came to that inbox). A listed address then gets the super admin role in the
 * organisations the user created, as sign-up used to give it.
 */
export async function markEmailVerified(ctx: MutationCtx, userId: Id<"users">) {
  const user = await ctx.db.get("users", userId);
  if (user === null) return;
  if (user.emailVerificationTime === undefined)
    await ctx.db.patch("users", userId, { emailVerificationTime: Date.now() });
  if (!isSuperAdminEmail(user.email)) return;
  const memberships = await ctx.db
    .query("memberships")
    .withIndex("by_user", (q) => q.eq("userId", userId))
    .collect();
  for (const m of memberships) {
    if (m.status !== "active" || m.roles.includes(SUPER_ADMIN_ROLE)) continue;
    const org = await ctx.db.get("organizations", m.orgId);
    if (org?.createdBy === userId) await ctx.db.patch("memberships", m._id, { roles: [SUPER_ADMIN_ROLE, ...m.roles] });
  }
}

/** The code awaiting entry, for the screen: when it was sent and until when it works. */
export async function pendingCode(ctx: QueryCtx, userId: Id<"users">) {
  const row = await codeRow(ctx, userId);
  if (row === null || row.expiresAt < Date.now()) return null;
  return { sentAt: row.sentAt, expiresAt: row.expiresAt };
}
