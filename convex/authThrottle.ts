/**
 * Brute-force protection for sign-in, sign-up and password reset (SECURITY.md). Internal: called
 * by the password provider in auth.ts, plus the public http action that hands out sign-in tickets.
 *
 * - Per (account, address): a few free failures, then an exponential delay that only that pair
 *   waits out. An attacker elsewhere cannot lock the owner out.
 * - Per address: a cap on attempts of every kind, and tighter ones for sign-ups and resets.
 * - Per account: a cap on failures from addresses that never signed in to it (a spread-out
 *   guessing attack); addresses the owner signed in from before are not affected by it.
 * - Globally: a ceiling on attempts per minute.
 */
import { defineRateLimits } from "convex-helpers/server/rateLimit";
import { v } from "convex/values";
import { internal } from "./_generated/api";
import { httpAction, internalMutation } from "./functions";
import type { MutationCtx } from "./_generated/server";
import { appError } from "./lib/errors";
import { clientAddress, signTicket } from "./model/clientAddress";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Failures of one (account, address) pair before delays start, and the longest delay. */
export const FREE_FAILURES = 5;
export const MAX_DELAY_MS = 15 * MINUTE;

/**
 * Per-address budgets are sized for a campaign office behind one shared address (a volunteer
 * drive signing up through invitations), not for one person.
 */
export const ATTEMPTS_PER_ADDRESS_PER_MINUTE = 60;
export const SIGN_UPS_PER_ADDRESS_PER_HOUR = 50;
export const RESETS_PER_ADDRESS_PER_HOUR = 20;

export const { rateLimit, checkRateLimit } = defineRateLimits({
  authPerAddress: { kind: "token bucket", rate: ATTEMPTS_PER_ADDRESS_PER_MINUTE, period: MINUTE, capacity: ATTEMPTS_PER_ADDRESS_PER_MINUTE },
  signUpPerAddress: { kind: "token bucket", rate: SIGN_UPS_PER_ADDRESS_PER_HOUR, period: HOUR, capacity: SIGN_UPS_PER_ADDRESS_PER_HOUR },
  resetPerAddress: { kind: "token bucket", rate: RESETS_PER_ADDRESS_PER_HOUR, period: HOUR, capacity: RESETS_PER_ADDRESS_PER_HOUR },
  resetPerAccount: { kind: "token bucket", rate: 5, period: HOUR, capacity: 5 },
  untrustedFailuresPerAccount: { kind: "token bucket", rate: 50, period: HOUR, capacity: 50 },
  authGlobal: { kind: "token bucket", rate: 3000, period: MINUTE, capacity: 3000, shards: 4 },
  ticketsPerAddress: { kind: "token bucket", rate: 2 * ATTEMPTS_PER_ADDRESS_PER_MINUTE, period: MINUTE, capacity: 2 * ATTEMPTS_PER_ADDRESS_PER_MINUTE },
});

export const TOO_MANY_SIGN_INS = "Too many login attempts. Please wait a moment and try again.";
export const TOO_MANY_REQUESTS = "Too many requests. Please wait a moment and try again.";

/** The delay after `failures` failed attempts of one pair: none for the first few, then 5 s, 10 s, 20 s … 15 min. */
export function delayAfter(failures: number): number {
  if (failures < FREE_FAILURES) return 0;
  return Math.min(MAX_DELAY_MS, 5000 * 2 ** (failures - FREE_FAILURES));
}

const vFlow = v.union(v.literal("signIn"), v.literal("signUp"), v.literal("reset"), v.literal("reset-verification"), v.literal("changePassword"));

async function pair(ctx: MutationCtx, email: string, address: string) {
  return await ctx.db
    .query("signInThrottle")
    .withIndex("by_email_address", (q) => q.eq("email", email).eq("address", address))
    .unique();
}

type LimitName = "authGlobal" | "authPerAddress" | "signUpPerAddress" | "resetPerAddress" | "resetPerAccount";

async function take(ctx: MutationCtx, name: LimitName, key: string | undefined, message: string) {
  const { ok, retryAt } = await rateLimit(ctx, { name, key });
  if (!ok) throw appError("RATE_LIMIT", retryAt ? `${message} (retry in ${Math.ceil((retryAt - Date.now()) / 1000)} s)` : message);
}

/** Before an attempt: refuses it (RATE_LIMIT) when any limit that applies is spent. */
export const begin = internalMutation({
  args: { flow: vFlow, email: v.string(), address: v.string() },
  handler: async (ctx, { flow, email, address }) => {
    const message = flow === "signIn" ? TOO_MANY_SIGN_INS : TOO_MANY_REQUESTS;
    await take(ctx, "authGlobal", undefined, message);
    await take(ctx, "authPerAddress", address, message);
    if (flow === "signUp") await take(ctx, "signUpPerAddress", address, message);
    if (flow === "reset") {
      await take(ctx, "resetPerAddress", address, message);
      await take(ctx, "resetPerAccount", email, message);
    }
    if (flow === "signIn" || flow === "reset-verification" || flow === "changePassword") {
      const row = await pair(ctx, email, address);
      const now = Date.now();
      if (row && row.nextAllowedAt > now) {
        throw appError("RATE_LIMIT", `${message} (retry in ${Math.ceil((row.nextAllowedAt - now) / 1000)} s)`);
      }
      if (!row?.trusted && flow !== "changePassword") {
        // Spent by failures from addresses new to this account: those wait; known ones go on.
        const { ok } = await checkRateLimit(ctx, { name: "untrustedFailuresPerAccount", key: email });
        if (!ok) throw appError("RATE_LIMIT", message);
      }
    }
  },
});

/** After a failed attempt: lengthens this pair's delay and spends the account's untrusted budget. */
export const failed = internalMutation({
  args: { email: v.string(), address: v.string(), spendAccountBudget: v.optional(v.boolean()) },
  handler: async (ctx, { email, address, spendAccountBudget }) => {
    const now = Date.now();
    const row = await pair(ctx, email, address);
    const failures = (row?.failures ?? 0) + 1;
    const next = { failures, nextAllowedAt: now + delayAfter(failures), lastFailureAt: now };
    if (row) await ctx.db.patch(row._id, next);
    else await ctx.db.insert("signInThrottle", { email, address, trusted: false, ...next });
    if (!row?.trusted && spendAccountBudget !== false) await rateLimit(ctx, { name: "untrustedFailuresPerAccount", key: email });
    // Bounded storage: a few stale, untrusted pairs go with every failure recorded.
    const stale = await ctx.db
      .query("signInThrottle")
      .withIndex("by_last_failure", (q) => q.lt("lastFailureAt", now - 24 * HOUR))
      .take(5);
    for (const s of stale) if (!s.trusted) await ctx.db.delete(s._id);
  },
});

/** After a successful sign-in: the pair starts over and the address becomes known to the account. */
export const succeeded = internalMutation({
  args: { email: v.string(), address: v.string() },
  handler: async (ctx, { email, address }) => {
    const now = Date.now();
    const row = await pair(ctx, email, address);
    const reset = { failures: 0, nextAllowedAt: 0, lastFailureAt: now, trusted: true };
    if (row) await ctx.db.patch(row._id, reset);
    else await ctx.db.insert("signInThrottle", { email, address, ...reset });
  },
});

/** POST /api/auth/ticket → { ticket }: binds the next sign-in attempts to the caller's address. */
export const issueSignInTicket = httpAction(async (ctx, request) => {
  const address = clientAddress(request);
  const headers = { "Content-Type": "application/json", "Cache-Control": "no-store" };
  const allowed = await ctx.runMutation(internal.authThrottle.ticketAllowed, { address });
  if (!allowed) return new Response(JSON.stringify({ error: TOO_MANY_REQUESTS }), { status: 429, headers });
  return new Response(JSON.stringify({ ticket: await signTicket(address) }), { status: 200, headers });
});

export const ticketAllowed = internalMutation({
  args: { address: v.string() },
  handler: async (ctx, { address }) => (await rateLimit(ctx, { name: "ticketsPerAddress", key: address })).ok,
});
