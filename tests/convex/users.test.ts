import { Scrypt } from "lucia";
import { describe, expect, test } from "vitest";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { sha256Hex } from "@convex/model/strings";
import { createMember, setupTest, type Member, type TestConvex } from "./setup";

async function addPasswordAccount(t: TestConvex, m: Member, email: string, password: string) {
  const secret = await new Scrypt().hash(password);
  return await t.run((ctx) =>
    ctx.db.insert("authAccounts", { userId: m.userId, provider: "password", providerAccountId: email, secret }),
  );
}

async function storedSecret(t: TestConvex, accountId: Id<"authAccounts">) {
  return (await t.run((ctx) => ctx.db.get("authAccounts", accountId)))!.secret!;
}

describe("users.updateProfile", () => {
  test("saves the profile and keeps the password account's email in step", async () => {
    const t = setupTest();
    const m = await createMember(t, ["campaign_manager"], { email: "old@example.org" });
    const accountId = await addPasswordAccount(t, m, "old@example.org", "secret1");
    await m.as.mutation(api.users.updateProfile, {
      firstName: " Ada ",
      lastName: "Lovelace",
      email: "Ada@Example.org",
      phone: "555-0100",
      organization: "",
    });
    const me = await m.as.query(api.viewer.me, {});
    expect(me).toMatchObject({
      firstName: "Ada",
      lastName: "Lovelace",
      email: "ada@example.org",
      phone: "555-0100",
      organization: "",
    });
    const account = await t.run((ctx) => ctx.db.get("authAccounts", accountId));
    expect(account?.providerAccountId).toBe("ada@example.org");
  });

  test("refuses missing fields, a bad email, another user's email and signed-out callers", async () => {
    const t = setupTest();
    const m = await createMember(t, ["viewer"], { email: "me@example.org" });
    await createMember(t, ["viewer"], { email: "taken@example.org" });
    const ok = { firstName: "A", lastName: "B", email: "me@example.org" };
    await expect(m.as.mutation(api.users.updateProfile, { ...ok, firstName: "  " })).rejects.toThrow(/required/);
    await expect(m.as.mutation(api.users.updateProfile, { ...ok, email: "" })).rejects.toThrow(/required/);
    await expect(m.as.mutation(api.users.updateProfile, { ...ok, email: "not-an-email" })).rejects.toThrow(
      /valid email/,
    );
    await expect(m.as.mutation(api.users.updateProfile, { ...ok, email: "taken@example.org" })).rejects.toThrow(
      /already exists/,
    );
    await expect(t.mutation(api.users.updateProfile, ok)).rejects.toThrow(/log in/);
    const me = await m.as.query(api.viewer.me, {});
    expect(me.email).toBe("me@example.org");
  });
});

describe("users.changePassword", () => {
  test("changes the password when the current one is right", async () => {
    const t = setupTest();
    const m = await createMember(t, ["volunteer"], { email: "pw@example.org" });
    const accountId = await addPasswordAccount(t, m, "pw@example.org", "oldpass1");
    const before = await storedSecret(t, accountId);
    await m.as.action(api.users.changePassword, { currentPassword: "oldpass1", newPassword: "newpass2" });
    const after = await storedSecret(t, accountId);
    expect(after).not.toBe(before);
    expect(await new Scrypt().verify(after, "newpass2")).toBe(true);
  });

  test("spec messages for same, short, weak and wrong current passwords; signed out refused", async () => {
    const t = setupTest();
    const m = await createMember(t, ["volunteer"], { email: "pw2@example.org" });
    const accountId = await addPasswordAccount(t, m, "pw2@example.org", "oldpass1");
    const before = await storedSecret(t, accountId);
    await expect(
      m.as.action(api.users.changePassword, { currentPassword: "oldpass1", newPassword: "oldpass1" }),
    ).rejects.toThrow("New password cannot be the same as your current password");
    await expect(
      m.as.action(api.users.changePassword, { currentPassword: "oldpass1", newPassword: "abc" }),
    ).rejects.toThrow("Password must be at least 6 characters long");
    await expect(
      m.as.action(api.users.changePassword, { currentPassword: "oldpass1", newPassword: "aaaaaaa" }),
    ).rejects.toThrow("Password is too weak");
    await expect(
      m.as.action(api.users.changePassword, { currentPassword: "wrongpass", newPassword: "newpass2" }),
    ).rejects.toThrow(/current password is incorrect/);
    await expect(
      t.action(api.users.changePassword, { currentPassword: "oldpass1", newPassword: "newpass2" }),
    ).rejects.toThrow(/log in/);
    expect(await storedSecret(t, accountId)).toBe(before);
  });
});

describe("users.checkResetLink", () => {
  async function withCode(
    t: TestConvex,
    email: string,
    code: string,
    opts: { provider?: string; expiresIn?: number } = {},
  ) {
    const m = await createMember(t, ["viewer"], { email });
    const accountId = await addPasswordAccount(t, m, email, "whatever1");
    await t.run(async (ctx) =>
      ctx.db.insert("authVerificationCodes", {
        accountId,
        provider: opts.provider ?? "password-reset",
        code: await sha256Hex(code),
        expirationTime: Date.now() + (opts.expiresIn ?? 3_600_000),
        emailVerified: email,
      }),
    );
  }

  test("a stored, unexpired code for this email is valid", async () => {
    const t = setupTest();
    await withCode(t, "reset@example.org", "AbCdEfGhIjKlMnOpQrStUvWx");
    expect(
      await t.query(api.users.checkResetLink, { email: "Reset@example.org", code: "AbCdEfGhIjKlMnOpQrStUvWx" }),
    ).toEqual({ valid: true, message: null });
  });

  test("missing, malformed, unknown, expired, foreign and wrong-provider codes are invalid", async () => {
    const t = setupTest();
    await withCode(t, "a@example.org", "CodeForAaaaaaaaaaaaaaaaa");
    await withCode(t, "b@example.org", "ExpiredCodeBbbbbbbbbbbbb", { expiresIn: -1000 });
    await withCode(t, "c@example.org", "OtherProviderCcccccccccc", { provider: "password" });
    const check = (email: string, code: string) => t.query(api.users.checkResetLink, { email, code });
    expect(await check("", "x")).toEqual({ valid: false, message: "Invalid or missing recovery token" });
    expect(await check("a@example.org", "bad code!")).toEqual({
      valid: false,
      message: "Invalid recovery link format",
    });
    expect(await check("a@example.org", "UnknownCodeXxxxxxxxxxxxx")).toEqual({
      valid: false,
      message: "Invalid or expired recovery link",
    });
    expect(await check("b@example.org", "ExpiredCodeBbbbbbbbbbbbb")).toEqual({
      valid: false,
      message: "Invalid or expired recovery link",
    });
    expect(await check("c@example.org", "OtherProviderCcccccccccc")).toEqual({
      valid: false,
      message: "Invalid or expired recovery link",
    });
    expect(await check("b@example.org", "CodeForAaaaaaaaaaaaaaaaa")).toEqual({
      valid: false,
      message: "Invalid or expired recovery link",
    });
  });
});
