/**
 * Item 3: the organisation's database denies by default. Documents without the caller's orgId
 * do not exist for org-scoped code, Convex Auth's tables (password hashes, sessions, reset codes)
 * are never visible through it, and nothing can be written there without the caller's orgId.
 */
import { describe, expect, test } from "vitest";
import { orgDatabase } from "@convex/functions";
import { createMember, setupTest } from "./setup";

describe("3. tenancy: deny by default", () => {
  test("auth tables and organisation-less documents are invisible; writes without orgId are refused", async () => {
    const t = setupTest();
    const m = await createMember(t, ["account_admin", "campaign_manager"]);
    const ids = await t.run(async (ctx) => ({
      account: await ctx.db.insert("authAccounts", {
        userId: m.userId,
        provider: "password",
        providerAccountId: "victim@example.org",
        secret: "scrypt-hash",
      }),
      session: await ctx.db.insert("authSessions", { userId: m.userId, expirationTime: Date.now() + 1e6 }),
      orglessMail: await ctx.db.insert("emailOutbox", {
        to: "victim@example.org",
        from: "x",
        subject: "Reset",
        text: "code 1234",
        kind: "password_reset",
        status: "queued",
        createdAt: 1,
      }),
      ownMail: await ctx.db.insert("emailOutbox", {
        orgId: m.orgId,
        to: "v@example.org",
        from: "x",
        subject: "Hi",
        text: "hi",
        kind: "voter_email",
        status: "queued",
        createdAt: 1,
      }),
    }));
    const seen = await t.run(async (ctx) => {
      const db = orgDatabase(ctx.db, m.orgId);
      return {
        account: await db.get(ids.account),
        accounts: await db.query("authAccounts").collect(),
        sessions: await db.query("authSessions").collect(),
        orglessMail: await db.get(ids.orglessMail),
        mails: (await db.query("emailOutbox").collect()).map((e) => e._id),
        ownUser: await db.get(m.userId),
      };
    });
    expect(seen.account).toBeNull();
    expect(seen.accounts).toEqual([]);
    expect(seen.sessions).toEqual([]);
    expect(seen.orglessMail).toBeNull();
    expect(seen.mails).toEqual([ids.ownMail]);
    expect(seen.ownUser?._id).toBe(m.userId);
    await expect(
      t.run(async (ctx) =>
        orgDatabase(ctx.db, m.orgId).insert("emailOutbox", {
          to: "a@b.org",
          from: "x",
          subject: "s",
          text: "t",
          kind: "k",
          status: "queued",
          createdAt: 1,
        }),
      ),
    ).rejects.toThrow(/not allowed/);
    await expect(
      t.run(async (ctx) => orgDatabase(ctx.db, m.orgId).patch(ids.account, { secret: "owned" })),
    ).rejects.toThrow();
    expect((await t.run(async (ctx) => ctx.db.get(ids.account)))?.secret).toBe("scrypt-hash");
  });
});
