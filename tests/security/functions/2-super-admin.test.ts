/**
 * Item 2 (escalation), super admin by sign-up: an address listed in SUPER_ADMIN_EMAILS gives
 * super administrator access only once its holder verified it with a code emailed to it. Whoever
 * registers a listed address first gets nothing from the list.
 */
import { describe, expect, test } from "vitest";
import { api } from "@convex/_generated/api";
import { CODE_REFUSED } from "@convex/lib/errors";
import { MAX_ATTEMPTS, VERIFICATION_MESSAGES } from "@convex/model/emailVerification";
import { enableSignIn, setEnv, ticketFor } from "./harness";
import { createMember, setupTest, type TestConvex } from "./setup";

const BOSS = "boss@example.org";
const ADDRESS = "198.51.100.9";

const failure = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
  throw new Error("expected the call to fail");
};

async function listed(t: TestConvex) {
  await enableSignIn(t);
  await setEnv(t, { SUPER_ADMIN_EMAILS: ` Ops@Example.org , ${BOSS}` });
}

/** Signs up through Convex Auth (as anyone may, with any address) and returns that session's client. */
async function signUp(t: TestConvex, email: string) {
  const ticket = await ticketFor(t, ADDRESS);
  await t.action(api.auth.signIn, {
    provider: "password",
    params: { flow: "signUp", email, password: "correct-horse-42", firstName: "Bea", lastName: "Boss", ticket },
  });
  const { userId, sessionId } = await t.run(async (ctx) => {
    const user = (await ctx.db
      .query("users")
      .withIndex("email", (q) => q.eq("email", email))
      .unique())!;
    const session = (await ctx.db
      .query("authSessions")
      .withIndex("userId", (q) => q.eq("userId", user._id))
      .first())!;
    return { userId: user._id, sessionId: session._id };
  });
  return { userId, as: t.withIdentity({ subject: `${userId}|${sessionId}`, issuer: "https://convex.test" }) };
}

type Client = Awaited<ReturnType<typeof signUp>>["as"];

async function isSuperAdmin(as: Client) {
  const me = await as.query(api.viewer.me, {});
  return "roles" in me && (me.roles.some((r) => r.id === "super_admin") || me.activeRole === "super_admin");
}

/** The code of the latest verification email to `to`. */
async function emailedCode(t: TestConvex, to: string) {
  const rows = await t.run(async (ctx) => ctx.db.query("emailOutbox").collect());
  const last = rows
    .filter((m) => m.to === to && m.kind === "email_verification")
    .sort((a, b) => a._creationTime - b._creationTime)
    .pop();
  return /\b([2-9A-Z]{5}-[2-9A-Z]{5})\b/.exec(last!.text)![1];
}

describe("2. super admin needs a verified address", () => {
  test("signing up with a listed address that nobody verified gives no super admin access", async () => {
    const t = setupTest();
    await listed(t);
    const boss = await signUp(t, BOSS);
    expect(await isSuperAdmin(boss.as)).toBe(false);
    expect(await boss.as.query(api.emailVerification.status, {})).toMatchObject({
      email: BOSS,
      verified: false,
      superAdminPending: true,
      code: null,
    });
    // A super admin role stored before verification was required (an earlier sign-up) does not resolve either.
    const legacy = await createMember(t, ["super_admin", "account_admin"], { email: "ops@example.org" });
    const me = await legacy.as.query(api.viewer.me, {});
    expect("roles" in me && me.roles.map((r) => r.id)).toEqual(["account_admin"]);
  }, 60_000);

  test("the code emailed to the address activates it; a wrong code is refused", async () => {
    const t = setupTest();
    await listed(t);
    const boss = await signUp(t, BOSS);
    await boss.as.mutation(api.emailVerification.sendCode, {});
    const code = await emailedCode(t, BOSS);
    expect(
      await failure(
        boss.as.action(api.emailVerification.verify, { code: "ABCDE-FGHJK" === code ? "ABCDE-FGHJM" : "ABCDE-FGHJK" }),
      ),
    ).toContain(CODE_REFUSED);
    expect(await isSuperAdmin(boss.as)).toBe(false);
    // Typed in lower case without the dash, it still reads.
    await boss.as.action(api.emailVerification.verify, { code: code.replace("-", "").toLowerCase() });
    expect(await isSuperAdmin(boss.as)).toBe(true);
    const user = await t.run(async (ctx) => ctx.db.get(boss.userId));
    expect(user?.emailVerificationTime).toEqual(expect.any(Number));
    expect(await boss.as.query(api.emailVerification.status, {})).toMatchObject({
      verified: true,
      superAdminPending: false,
    });
    // Used once: it does not work again, and nothing more needs verifying.
    expect(await failure(boss.as.action(api.emailVerification.verify, { code }))).toContain(CODE_REFUSED);
    expect(await failure(boss.as.mutation(api.emailVerification.sendCode, {}))).toContain(
      VERIFICATION_MESSAGES.notNeeded,
    );
  }, 60_000);

  test(`after ${MAX_ATTEMPTS} wrong codes the code stops working`, async () => {
    const t = setupTest();
    await listed(t);
    const boss = await signUp(t, BOSS);
    await boss.as.mutation(api.emailVerification.sendCode, {});
    const code = await emailedCode(t, BOSS);
    const wrong = code.startsWith("2") ? `3${code.slice(1)}` : `2${code.slice(1)}`;
    for (let i = 1; i < MAX_ATTEMPTS; i++)
      expect(await failure(boss.as.action(api.emailVerification.verify, { code: wrong }))).toContain(CODE_REFUSED);
    expect(await failure(boss.as.action(api.emailVerification.verify, { code: wrong }))).toContain(
      VERIFICATION_MESSAGES.locked,
    );
    expect(await failure(boss.as.action(api.emailVerification.verify, { code }))).toContain(CODE_REFUSED);
    expect(await isSuperAdmin(boss.as)).toBe(false);
    // A new code works.
    await boss.as.mutation(api.emailVerification.sendCode, {});
    await boss.as.action(api.emailVerification.verify, { code: await emailedCode(t, BOSS) });
    expect(await isSuperAdmin(boss.as)).toBe(true);
  }, 60_000);

  test("only an address whose super admin access waits on it gets codes", async () => {
    const t = setupTest();
    await listed(t);
    const member = await createMember(t, ["account_admin"], { email: "someone@example.org" });
    expect(await failure(member.as.mutation(api.emailVerification.sendCode, {}))).toContain(
      VERIFICATION_MESSAGES.notNeeded,
    );
    expect(await member.as.query(api.emailVerification.status, {})).toMatchObject({
      verified: false,
      superAdminPending: false,
    });
  });

  test("a completed password reset verifies the address too (the code came to that inbox)", async () => {
    const t = setupTest();
    await listed(t);
    const boss = await signUp(t, BOSS);
    expect(await isSuperAdmin(boss.as)).toBe(false);
    const ticket = () => ticketFor(t, ADDRESS);
    await t.action(api.auth.signIn, {
      provider: "password",
      params: { flow: "reset", email: BOSS, redirectTo: "/reset-password", ticket: await ticket() },
    });
    const text = await t.run(
      async (ctx) => (await ctx.db.query("emailOutbox").collect()).find((m) => m.kind === "password_reset")!.text,
    );
    const code = /[?&]code=([A-Za-z0-9]+)/.exec(text)![1];
    await t.action(api.auth.signIn, {
      provider: "password",
      params: { flow: "reset-verification", email: BOSS, code, newPassword: "new-horse-43", ticket: await ticket() },
    });
    // The reset ended every session; signing in with the new password opens the only one.
    expect(
      await t.run(async (ctx) =>
        ctx.db
          .query("authSessions")
          .withIndex("userId", (q) => q.eq("userId", boss.userId))
          .collect(),
      ),
    ).toEqual([]);
    await t.action(api.auth.signIn, {
      provider: "password",
      params: { flow: "signIn", email: BOSS, password: "new-horse-43", ticket: await ticket() },
    });
    const session = await t.run(
      async (ctx) =>
        (await ctx.db
          .query("authSessions")
          .withIndex("userId", (q) => q.eq("userId", boss.userId))
          .unique())!._id,
    );
    expect(
      await isSuperAdmin(t.withIdentity({ subject: `${boss.userId}|${session}`, issuer: "https://convex.test" })),
    ).toBe(true);
  }, 60_000);
});
