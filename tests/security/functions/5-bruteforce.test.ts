/**
 * Item 5: brute force without lock-out. Attempts are throttled per (account, address) with an
 * exponential delay and capped per address; an attacker elsewhere cannot lock the owner out of
 * sign-in or of a reset; answers do not tell whether an email has an account, not even by the
 * work done; a wrong reset code gets a clear refusal; sign-up refuses weak passwords.
 */
import { Scrypt } from "lucia";
import { describe, expect, test, vi } from "vitest";
import { api, internal } from "@convex/_generated/api";
import {
  ATTEMPTS_PER_ADDRESS_PER_MINUTE as CAP,
  FREE_FAILURES,
  TOO_MANY_SIGN_INS,
  SIGN_UPS_PER_ADDRESS_PER_HOUR,
  UNTRUSTED_FAILURES_PER_ACCOUNT_PER_HOUR,
  delayAfter,
  signUpsPerAddressPerHour,
} from "@convex/authThrottle";
import { INVALID_CREDENTIALS, STALE_FORM } from "@convex/auth";
import { CODE_REFUSED } from "@convex/lib/errors";
import { RESET_CODE_MAX_AGE_MS, RESET_EMAILS_PER_ACCOUNT_PER_HOUR } from "@convex/model/passwords";
import { enableSignIn, setEnv, ticketFor } from "./harness";
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
  await attempt(t, OWNER, {
    flow: "signUp",
    email: "owner@example.org",
    password: "correct-horse-42",
    firstName: "Olive",
    lastName: "Owner",
  });
}

/** The reset emails sent to the owner, oldest first, with the code of each one's link. */
async function resetEmails(t: TestConvex) {
  const rows = await t.run(async (ctx) => ctx.db.query("emailOutbox").collect());
  return rows
    .filter((m) => m.to === "owner@example.org" && m.kind === "password_reset")
    .sort((a, b) => a.createdAt - b.createdAt || a._creationTime - b._creationTime)
    .map((m) => /[?&]code=([A-Za-z0-9]+)/.exec(m.text)![1]);
}

const resetWith = (t: TestConvex, address: string, code: string, newPassword: string) =>
  attempt(t, address, { flow: "reset-verification", email: "owner@example.org", code, newPassword });

describe("5. brute force and lock-out", () => {
  test("wrong passwords from one address neither lock the owner out nor go on unthrottled", async () => {
    const t = setupTest();
    await owner(t);
    for (let i = 0; i < FREE_FAILURES; i++) {
      expect(
        await failure(attempt(t, ATTACKER, { flow: "signIn", email: "owner@example.org", password: `guess-${i}` })),
      ).toContain(INVALID_CREDENTIALS);
    }
    // The attacker's (account, address) pair now waits, even with the right password...
    expect(
      await failure(attempt(t, ATTACKER, { flow: "signIn", email: "owner@example.org", password: "correct-horse-42" })),
    ).toContain(TOO_MANY_SIGN_INS);
    for (let i = 0; i < 3; i++)
      await failure(attempt(t, ATTACKER, { flow: "signIn", email: "owner@example.org", password: `more-${i}` }));
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
        await t
          .mutation(internal.authThrottle.begin, { flow: "signIn", email: `user${i}@example.org`, address: ATTACKER })
          .then(
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
    const unknown = await failure(
      attempt(t, ATTACKER, { flow: "signIn", email: "nobody@example.org", password: "x-123456" }),
    );
    const wrong = await failure(
      attempt(t, ATTACKER, { flow: "signIn", email: "owner@example.org", password: "x-123456" }),
    );
    expect(unknown).toContain(INVALID_CREDENTIALS);
    expect(wrong).toBe(unknown);
    expect(unknown).not.toMatch(/InvalidAccountId|InvalidSecret/);
    const reset = (email: string) => attempt(t, ATTACKER, { flow: "reset", email, redirectTo: "/reset-password" });
    expect(await reset("nobody@example.org")).toEqual(await reset("owner@example.org"));
    expect(
      await failure(
        t.action(api.auth.signIn, {
          provider: "password",
          params: { flow: "signIn", email: "owner@example.org", password: "correct-horse-42" },
        }),
      ),
    ).toContain(STALE_FORM);
    expect(
      await failure(
        t.action(api.auth.signIn, {
          provider: "password",
          params: { flow: "signIn", email: "owner@example.org", password: "correct-horse-42", ticket: "forged.ticket" },
        }),
      ),
    ).toContain(STALE_FORM);
  });

  test("failures from many addresses slow those addresses only: the owner signs in and resets from a new device", async () => {
    const t = setupTest();
    await owner(t);
    // 10 addresses, 5 wrong passwords each: the account's budget for new addresses is spent
    // (recorded by the mutation every failed sign-in calls; real attempts follow below).
    for (let a = 0; a < 10; a++) {
      for (let i = 0; i < UNTRUSTED_FAILURES_PER_ACCOUNT_PER_HOUR / 10; i++) {
        await t.mutation(internal.authThrottle.failed, { email: "owner@example.org", address: `203.0.113.${100 + a}` });
      }
    }
    // The owner, with the right password, signs in from a device never seen before...
    const ok = await attempt(t, "192.0.2.10", {
      flow: "signIn",
      email: "owner@example.org",
      password: "correct-horse-42",
    });
    expect(ok.tokens?.token).toEqual(expect.any(String));
    // ...while a further attacker's address is slowed at once: its delay starts at its first failure.
    const next = "203.0.113.200";
    expect(
      await failure(attempt(t, next, { flow: "signIn", email: "owner@example.org", password: "guess-1" })),
    ).toContain(INVALID_CREDENTIALS);
    expect(
      await failure(attempt(t, next, { flow: "signIn", email: "owner@example.org", password: "guess-2" })),
    ).toContain(TOO_MANY_SIGN_INS);
    // From yet another new device the owner asks for a reset and completes it.
    const device = "192.0.2.11";
    await attempt(t, device, { flow: "reset", email: "owner@example.org", redirectTo: "/reset-password" });
    const [code] = (await resetEmails(t)).slice(-1);
    const reset = await resetWith(t, device, code, "new-horse-43");
    expect(reset).toEqual({ tokens: null });
    const again = await attempt(t, device, { flow: "signIn", email: "owner@example.org", password: "new-horse-43" });
    expect(again.tokens?.token).toEqual(expect.any(String));
  }, 120_000);

  test("delays: the usual allowance, and for new addresses of an account under attack, from the first failure", () => {
    expect([1, FREE_FAILURES - 1, FREE_FAILURES, FREE_FAILURES + 1, 100].map((n) => delayAfter(n))).toEqual([
      0,
      0,
      5_000,
      10_000,
      15 * 60_000,
    ]);
    expect([1, 2, 3, 10].map((n) => delayAfter(n, true))).toEqual([60_000, 120_000, 240_000, 15 * 60_000]);
  });

  test("an attacker spending the reset emails does not keep the owner from resetting", async () => {
    const t = setupTest();
    await owner(t);
    const request = (address: string) =>
      attempt(t, address, { flow: "reset", email: "owner@example.org", redirectTo: "/reset-password" });
    const answers = [];
    for (let i = 0; i < RESET_EMAILS_PER_ACCOUNT_PER_HOUR; i++) answers.push(await request(ATTACKER));
    const codes = await resetEmails(t);
    expect(codes).toHaveLength(RESET_EMAILS_PER_ACCOUNT_PER_HOUR);
    // The budget is spent. The owner's request from a new device is answered as usual (no
    // refusal), and so are the attacker's next ones, but no email goes out...
    const device = "192.0.2.20";
    answers.push(await request(device));
    for (let i = 0; i < 3; i++) answers.push(await request(ATTACKER));
    for (const a of answers) expect(a).toEqual(answers[0]);
    expect(await resetEmails(t)).toEqual(codes);
    // ...and the last code sent still works: it went out less than one refill period ago and
    // lives longer than that.
    expect(RESET_CODE_MAX_AGE_MS).toBeGreaterThan(3_600_000 / RESET_EMAILS_PER_ACCOUNT_PER_HOUR);
    expect(await failure(resetWith(t, device, codes[0], "new-horse-43"))).toContain(CODE_REFUSED);
    const done = await resetWith(t, device, codes[codes.length - 1], "new-horse-43");
    // The reset signs nobody in and ends every session; the new password signs in.
    expect(done.tokens).toBeNull();
    expect(await t.run(async (ctx) => ctx.db.query("authSessions").collect())).toEqual([]);
    const signedIn = await attempt(t, device, { flow: "signIn", email: "owner@example.org", password: "new-horse-43" });
    expect(signedIn.tokens?.token).toEqual(expect.any(String));
  }, 120_000);

  test("a wrong or used reset code gets a clear refusal", async () => {
    const t = setupTest();
    await owner(t);
    const wrong = await failure(resetWith(t, OWNER, "WrongCodeWrongCodeWrong1", "new-horse-43"));
    expect(wrong).toContain(CODE_REFUSED);
    expect(wrong).not.toMatch(/Server Error|Could not verify code/);
    await attempt(t, OWNER, { flow: "reset", email: "owner@example.org", redirectTo: "/reset-password" });
    const [code] = await resetEmails(t);
    await resetWith(t, OWNER, code, "new-horse-43");
    const used = await failure(resetWith(t, OWNER, code, "newer-horse-44"));
    expect(used).toContain(CODE_REFUSED);
    expect(used).not.toMatch(/Server Error|Could not verify code/);
    // An unknown email gets the same refusal.
    expect(
      await failure(
        attempt(t, OWNER, {
          flow: "reset-verification",
          email: "nobody@example.org",
          code,
          newPassword: "new-horse-43",
        }),
      ),
    ).toContain(CODE_REFUSED);
  }, 120_000);

  test("an unknown email costs the same password hashing as a wrong password", async (testCtx) => {
    const t = setupTest();
    // local-backend runs its own bundle of convex/: a spy in this process cannot count its calls.
    if ("setEnv" in t) testCtx.skip();
    await owner(t);
    const hash = vi.spyOn(Scrypt.prototype, "hash");
    const verify = vi.spyOn(Scrypt.prototype, "verify");
    const work = async (email: string) => {
      // Fresh modules, as a new isolate has: no state of an earlier attempt helps.
      vi.resetModules();
      hash.mockClear();
      verify.mockClear();
      expect(await failure(attempt(t, ATTACKER, { flow: "signIn", email, password: "x-123456" }))).toContain(
        INVALID_CREDENTIALS,
      );
      return { hash: hash.mock.calls.length, verify: verify.mock.calls.length };
    };
    try {
      const wrongPassword = await work("owner@example.org");
      expect(wrongPassword).toEqual({ hash: 0, verify: 1 });
      expect(await work("nobody@example.org")).toEqual(wrongPassword);
    } finally {
      hash.mockRestore();
      verify.mockRestore();
    }
  });

  test("sign-up refuses the weak passwords that change-password refuses", async () => {
    const t = setupTest();
    await enableSignIn(t);
    for (const password of ["aaaaaaaa", "password", "12345678"]) {
      expect(
        await failure(
          attempt(t, OWNER, { flow: "signUp", email: "weak@example.org", password, firstName: "W", lastName: "Eak" }),
        ),
      ).toMatch(/too weak/);
    }
    expect(await t.run(async (ctx) => ctx.db.query("users").collect())).toEqual([]);
  });

  test("the sign-up budget of an address is the deployment's setting when it is a sane whole number", async () => {
    expect(signUpsPerAddressPerHour(undefined)).toBe(SIGN_UPS_PER_ADDRESS_PER_HOUR);
    expect(signUpsPerAddressPerHour("1000")).toBe(1000);
    for (const bad of ["", "0", "-3", "2.5", "abc", "1e9", "10001"])
      expect(signUpsPerAddressPerHour(bad)).toBe(SIGN_UPS_PER_ADDRESS_PER_HOUR);
    const t = setupTest();
    // only a deployment evaluates its modules again with a new environment (convex-test keeps them)
    if (!("setEnv" in t)) return;
    await enableSignIn(t);
    await setEnv(t, { SIGN_UPS_PER_ADDRESS_PER_HOUR: "2" });
    const signUp = (n: number) =>
      attempt(t, OWNER, {
        flow: "signUp",
        email: `new${n}@example.org`,
        password: "correct-horse-42",
        firstName: "N",
        lastName: `Ew${n}`,
      });
    await signUp(1);
    await signUp(2);
    expect(await failure(signUp(3))).toMatch(/Too many/);
    expect(await failure(signUp(4))).toMatch(/Too many/);
    expect((await t.run(async (ctx) => ctx.db.query("users").collect())).length).toBe(2);
  });
});
