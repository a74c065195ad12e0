/**
 * Item 5: brute force without lock-out. Attempts are throttled per (account, address) with an
 * exponential delay and capped per address; an attacker elsewhere cannot lock the owner out;
 * answers do not tell whether an email has an account; sign-up refuses weak passwords.
 */
import { describe, expect, test } from "vitest";
import { api, internal } from "../../../convex/_generated/api";
import { ATTEMPTS_PER_ADDRESS_PER_MINUTE as CAP, FREE_FAILURES, TOO_MANY_SIGN_INS } from "../../../convex/authThrottle";
import { INVALID_CREDENTIALS, STALE_FORM } from "../../../convex/auth";
import { enableSignIn, ticketFor } from "./harness";
import { setupTest, type TestConvex } from "./setup";

const OWNER = "198.51.100.7";
const ATTACKER = "203.0.113.66";

async function attempt(t: TestConvex, address: string, params: Record<string, string>) {
  const ticket = await ticketFor(t, address);
  return await t.action(api.auth.signIn, { provider: "password", params: { ...params, ticket } });
}

const failure = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
  throw new Error("expected the attempt to fail");
};

async function owner(t: TestConvex) {
  await enableSignIn(t);
  await attempt(t, OWNER, { flow: "signUp", email: "owner@example.org", password: "correct-horse-42", firstName: "Olive", lastName: "Owner" });
}

describe("5. brute force and lock-out", () => {
  test("wrong passwords from one address neither lock the owner out nor go on unthrottled", async () => {
    const t = setupTest();
    await owner(t);
    for (let i = 0; i < FREE_FAILURES; i++) {
      expect(await failure(attempt(t, ATTACKER, { flow: "signIn", email: "owner@example.org", password: `guess-${i}` }))).toContain(INVALID_CREDENTIALS);
    }
    // The attacker's (account, address) pair now waits, even with the right password...
    expect(await failure(attempt(t, ATTACKER, { flow: "signIn", email: "owner@example.org", password: "correct-horse-42" }))).toContain(TOO_MANY_SIGN_INS);
    for (let i = 0; i < 3; i++) await failure(attempt(t, ATTACKER, { flow: "signIn", email: "owner@example.org", password: `more-${i}` }));
    // ...while the owner, from their own address, signs in.
    const ok = await attempt(t, OWNER, { flow: "signIn", email: "owner@example.org", password: "correct-horse-42" });
    expect(ok.tokens?.token).toEqual(expect.any(String));
    const pair = await t.run(async (ctx) => ctx.db.query("signInThrottle").collect());
    expect(pair.find((p) => p.address === ATTACKER)).toMatchObject({ failures: FREE_FAILURES, trusted: false });
    expect(pair.find((p) => p.address === OWNER)).toMatchObject({ failures: 0, trusted: true });
  }, 120_000);

  test("one address is capped across accounts", async () => {
    const t = setupTest();
    // The throttle's own gate, called as the password provider calls it before each attempt
    // (fast, so the bucket's refill during the loop stays small; it is bounded below anyway).
    const started = Date.now();
    const outcomes: boolean[] = [];
    const total = CAP + 20;
    for (let i = 0; i < total; i++) {
      outcomes.push(
        await t.mutation(internal.authThrottle.begin, { flow: "signIn", email: `user${i}@example.org`, address: ATTACKER }).then(
          () => true,
          (e: unknown) => {
            expect(String(e)).toContain(TOO_MANY_SIGN_INS);
            return false;
          },
        ),
      );
    }
    // A token bucket of CAP a minute: CAP at once, then one more every 60/CAP s of the run.
    const refilled = Math.ceil(((Date.now() - started) * CAP) / 60_000) + 1;
    const allowed = outcomes.filter(Boolean).length;
    expect(outcomes.slice(0, CAP).every(Boolean)).toBe(true);
    expect(allowed).toBeLessThanOrEqual(CAP + refilled);
    expect(allowed).toBeLessThan(total);
    // Another address is not affected.
    await t.mutation(internal.authThrottle.begin, { flow: "signIn", email: "user0@example.org", address: OWNER });
  });

  test("an unknown email and a wrong password get the same answer; attempts need a ticket", async () => {
    const t = setupTest();
    await owner(t);
    const unknown = await failure(attempt(t, ATTACKER, { flow: "signIn", email: "nobody@example.org", password: "x-123456" }));
    const wrong = await failure(attempt(t, ATTACKER, { flow: "signIn", email: "owner@example.org", password: "x-123456" }));
    expect(unknown).toContain(INVALID_CREDENTIALS);
    expect(wrong).toBe(unknown);
    expect(unknown).not.toMatch(/InvalidAccountId|InvalidSecret/);
    const reset = (email: string) => attempt(t, ATTACKER, { flow: "reset", email, redirectTo: "/reset-password" });
    expect(await reset("nobody@example.org")).toEqual(await reset("owner@example.org"));
    expect(await failure(t.action(api.auth.signIn, { provider: "password", params: { flow: "signIn", email: "owner@example.org", password: "correct-horse-42" } }))).toContain(STALE_FORM);
    expect(await failure(t.action(api.auth.signIn, { provider: "password", params: { flow: "signIn", email: "owner@example.org", password: "correct-horse-42", ticket: "forged.ticket" } }))).toContain(STALE_FORM);
  });

  test("sign-up refuses the weak passwords that change-password refuses", async () => {
    const t = setupTest();
    await enableSignIn(t);
    for (const password of ["aaaaaaaa", "password", "12345678"]) {
      expect(await failure(attempt(t, OWNER, { flow: "signUp", email: "weak@example.org", password, firstName: "W", lastName: "Eak" }))).toMatch(/too weak/);
    }
    expect(await t.run(async (ctx) => ctx.db.query("users").collect())).toEqual([]);
  });
});
