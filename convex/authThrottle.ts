/**
 * Brute-force protection for sign-in, sign-up and password reset (SECURITY.md). Internal: called
 * by the password provider in auth.ts, plus the public http action that hands out sign-in tickets.
 *
 * Nothing an attacker does from their own addresses refuses the owner's attempt from another one:
 * every refusal is a cost of the caller's own address (or of its pair with the account), or the
 * global ceiling.
 *
 * - Per (account, address): a few free failures, then an exponential delay that only that pair
 *   waits out.
 * - Per address: a cap on attempts of every kind, and tighter ones for sign-ups and resets.
 * - Per account, failures from addresses that never signed in to it (a spread-out guessing
 *   attack) have a budget. Once it is spent, such an address gets no free failures: its delay
 *   starts at its first failure, and longer. It never blocks an address without failures, so the
 *   owner with the right password gets in from a new device; addresses that signed in before keep
 *   the usual allowance.
 * - Per account, reset emails have a budget. Beyond it a request gets the usual answer but no new
 *   email; the last code sent stays valid (it was sent less than a refill period ago, and lives
 *   longer), so the owner's inbox always holds a working code.
 * - Globally: a ceiling on attempts per minute.
 */
import { defineRateLimits } from "convex-helpers/server/rateLimit";
import { v } from "convex/values";
import { internal } from "./_generated/api";
import { httpAction, internalMutation } from "./functions";
import type { MutationCtx } from "./_generated/server";
import { appError } from "./lib/errors";
import { clientAddress, signTicket } from "./model/clientAddress";
import { RESET_EMAILS_PER_ACCOUNT_PER_HOUR } from "./model/passwords";
import { TEXTS } from "./lib/texts";
import { ACCOUNT_EVENTS, auditAccountEvent } from "./model/audit";

/** The audit log entry an outcome makes (model/audit.ts auditAccountEvent), when it makes one. */
const vAccountEvent = v.optional(v.union(...ACCOUNT_EVENTS.map((e) => v.literal(e))));

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Failures of one (account, address) pair before delays start, the first delay and the longest. */
export const FREE_FAILURES = 5;
export const FIRST_DELAY_MS = 5000;
export const MAX_DELAY_MS = 15 * MINUTE;

/**
 * Failures an hour from addresses that never signed in to the account. Beyond it, such an
 * address's delay starts at its first failure, at UNDER_ATTACK_FIRST_DELAY_MS.
 */
export const UNTRUSTED_FAILURES_PER_ACCOUNT_PER_HOUR = 50;
export const UNDER_ATTACK_FIRST_DELAY_MS = MINUTE;

/**
 * Per-address budgets are sized for a campaign office behind one shared address (a volunteer
 * drive signing up through invitations), not for one person.
 */
export const ATTEMPTS_PER_ADDRESS_PER_MINUTE = 60;
export const SIGN_UPS_PER_ADDRESS_PER_HOUR = 50;
export const RESETS_PER_ADDRESS_PER_HOUR = 20;

/**
 * The deployment's SIGN_UPS_PER_ADDRESS_PER_HOUR, when set to a whole number from 1 to 10,000,
 * replaces the sign-up budget (an office whose drive signs up more people through one address; the
 * e2e suite, whose every browser signs up from 127.0.0.1).
 */
export function signUpsPerAddressPerHour(setting = process.env.SIGN_UPS_PER_ADDRESS_PER_HOUR): number {
  const n = Number(setting);
  return setting && Number.isInteger(n) && n >= 1 && n <= 10_000 ? n : SIGN_UPS_PER_ADDRESS_PER_HOUR;
}
const signUps = signUpsPerAddressPerHour();

export const { rateLimit } = defineRateLimits({
  authPerAddress: {
    kind: "token bucket",
    rate: ATTEMPTS_PER_ADDRESS_PER_MINUTE,
    period: MINUTE,
    capacity: ATTEMPTS_PER_ADDRESS_PER_MINUTE,
  },
  signUpPerAddress: { kind: "token bucket", rate: signUps, period: HOUR, capacity: signUps },
  resetPerAddress: {
    kind: "token bucket",
    rate: RESETS_PER_ADDRESS_PER_HOUR,
    period: HOUR,
    capacity: RESETS_PER_ADDRESS_PER_HOUR,
  },
  resetPerAccount: {
    kind: "token bucket",
    rate: RESET_EMAILS_PER_ACCOUNT_PER_HOUR,
    period: HOUR,
    capacity: RESET_EMAILS_PER_ACCOUNT_PER_HOUR,
  },
  untrustedFailuresPerAccount: {
    kind: "token bucket",
    rate: UNTRUSTED_FAILURES_PER_ACCOUNT_PER_HOUR,
    period: HOUR,
    capacity: UNTRUSTED_FAILURES_PER_ACCOUNT_PER_HOUR,
  },
  authGlobal: { kind: "token bucket", rate: 3000, period: MINUTE, capacity: 3000, shards: 4 },
  ticketsPerAddress: {
    kind: "token bucket",
    rate: 2 * ATTEMPTS_PER_ADDRESS_PER_MINUTE,
    period: MINUTE,
    capacity: 2 * ATTEMPTS_PER_ADDRESS_PER_MINUTE,
  },
});

export const TOO_MANY_SIGN_INS = TEXTS.auth.tooManyAttempts;
export const TOO_MANY_REQUESTS = "Too many requests. Please wait a moment and try again.";

/**
 * The delay after `failures` failed attempts of one pair: none for the first few, then 5 s, 10 s,
 * 20 s … 15 min. For an untrusted address while its account's budget is spent: 1 min after the
 * first failure, then 2, 4, 8, 15 min.
 */
export function delayAfter(failures: number, underAttack = false): number {
  const [from, first] = underAttack ? [1, UNDER_ATTACK_FIRST_DELAY_MS] : [FREE_FAILURES, FIRST_DELAY_MS];
  if (failures < from) return 0;
  return Math.min(MAX_DELAY_MS, first * 2 ** (failures - from));
}

const vFlow = v.union(
  v.literal("signIn"),
  v.literal("signUp"),
  v.literal("reset"),
  v.literal("reset-verification"),
  v.literal("changePassword"),
);

async function pair(ctx: MutationCtx, email: string, address: string) {
  return await ctx.db
    .query("signInThrottle")
    .withIndex("by_email_address", (q) => q.eq("email", email).eq("address", address))
    .unique();
}

type LimitName = "authGlobal" | "authPerAddress" | "signUpPerAddress" | "resetPerAddress" | "resetPerAccount";

async function take(ctx: MutationCtx, name: LimitName, key: string | undefined, message: string) {
  const { ok, retryAt } = await rateLimit(ctx, { name, key });
  if (!ok)
    throw appError(
      "RATE_LIMIT",
      retryAt ? `${message} (retry in ${Math.ceil((retryAt - Date.now()) / 1000)} s)` : message,
    );
}

/**
 * Before an attempt: refuses it (RATE_LIMIT) when a limit of the caller's own address, of its
 * pair with the account, or the global one is spent. For a reset request, `quiet` says the
 * account's email budget is spent: answer as usual, send nothing.
 */
export const begin = internalMutation({
  args: { flow: vFlow, email: v.string(), address: v.string() },
  returns: v.object({ quiet: v.boolean() }),
  handler: async (ctx, { flow, email, address }) => {
    const message = flow === "signIn" ? TOO_MANY_SIGN_INS : TOO_MANY_REQUESTS;
    await take(ctx, "authGlobal", undefined, message);
    await take(ctx, "authPerAddress", address, message);
    if (flow === "signUp") await take(ctx, "signUpPerAddress", address, message);
    if (flow === "reset") {
      await take(ctx, "resetPerAddress", address, message);
      // Not a refusal: that would let anyone keep the owner from asking for a reset.
      const { ok } = await rateLimit(ctx, { name: "resetPerAccount", key: email });
      return { quiet: !ok };
    }
    if (flow === "signIn" || flow === "reset-verification" || flow === "changePassword") {
      const row = await pair(ctx, email, address);
      const now = Date.now();
      if (row && row.nextAllowedAt > now) {
        throw appError("RATE_LIMIT", `${message} (retry in ${Math.ceil((row.nextAllowedAt - now) / 1000)} s)`);
      }
    }
    return { quiet: false };
  },
});

/**
 * After a failed attempt: lengthens this pair's delay. A failure from an address that never
 * signed in to the account spends the account's budget; once that is spent, the delay of such an
 * address starts at once (delayAfter's `underAttack`).
 */
export const failed = internalMutation({
  args: {
    email: v.string(),
    address: v.string(),
    spendAccountBudget: v.optional(v.boolean()),
    audit: vAccountEvent,
  },
  handler: async (ctx, { email, address, spendAccountBudget, audit }) => {
    const now = Date.now();
    const row = await pair(ctx, email, address);
    const failures = (row?.failures ?? 0) + 1;
    const underAttack =
      !row?.trusted &&
      spendAccountBudget !== false &&
      !(await rateLimit(ctx, { name: "untrustedFailuresPerAccount", key: email })).ok;
    const next = { failures, nextAllowedAt: now + delayAfter(failures, underAttack), lastFailureAt: now };
    if (row) await ctx.db.patch("signInThrottle", row._id, next);
    else await ctx.db.insert("signInThrottle", { email, address, trusted: false, ...next });
    // Bounded storage: a few stale, untrusted pairs go with every failure recorded.
    const stale = await ctx.db
      .query("signInThrottle")
      .withIndex("by_last_failure", (q) => q.lt("lastFailureAt", now - 24 * HOUR))
      .take(5);
    for (const s of stale) if (!s.trusted) await ctx.db.delete("signInThrottle", s._id);
    if (audit) await auditAccountEvent(ctx, email, audit, address);
  },
});

/** After a successful sign-in: the pair starts over and the address becomes known to the account. */
export const succeeded = internalMutation({
  args: { email: v.string(), address: v.string(), audit: vAccountEvent },
  handler: async (ctx, { email, address, audit }) => {
    const now = Date.now();
    const row = await pair(ctx, email, address);
    const reset = { failures: 0, nextAllowedAt: 0, lastFailureAt: now, trusted: true };
    if (row) await ctx.db.patch("signInThrottle", row._id, reset);
    else await ctx.db.insert("signInThrottle", { email, address, ...reset });
    if (audit) await auditAccountEvent(ctx, email, audit, address);
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
