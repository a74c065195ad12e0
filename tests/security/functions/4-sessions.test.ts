/**
 * Item 4: sessions end when they should. Signing out makes the session's still-unexpired access
 * token useless at once; changing the password signs out the user's other sessions.
 * (Replaying a sync-protocol request from another identity: tests/security/backend.)
 */
import { Scrypt } from "lucia";
import { describe, expect, test } from "vitest";
import { api } from "@convex/_generated/api";
import { createMember, setupTest } from "./setup";

describe("4. sessions", () => {
  test("after sign-out the session's token no longer identifies anyone", async () => {
    const t = setupTest();
    const m = await createMember(t, ["account_admin", "campaign_manager"]);
    expect((await m.as.query(api.viewer.me, {})).userId).toBe(m.userId);
    await m.as.action(api.auth.signOut, {});
    await expect(m.as.query(api.viewer.me, {})).rejects.toThrow(/log in/);
    await expect(m.as.query(api.voters.list, { paginationOpts: { numItems: 10, cursor: null } })).rejects.toThrow(
      /log in/,
    );
  });

  test("changing the password signs out the other sessions and keeps this one", async () => {
    const t = setupTest();
    const m = await createMember(t, ["volunteer"], { email: "pw@example.org" });
    const secret = await new Scrypt().hash("oldpass1");
    await t.run((ctx) =>
      ctx.db.insert("authAccounts", {
        userId: m.userId,
        provider: "password",
        providerAccountId: "pw@example.org",
        secret,
      }),
    );
    const otherSession = await t.run((ctx) =>
      ctx.db.insert("authSessions", { userId: m.userId, expirationTime: Date.now() + 3_600_000 }),
    );
    const elsewhere = t.withIdentity({ subject: `${m.userId}|${otherSession}`, issuer: "https://convex.test" });
    expect((await elsewhere.query(api.viewer.me, {})).userId).toBe(m.userId);

    await m.as.action(api.users.changePassword, { currentPassword: "oldpass1", newPassword: "newpass2" });

    await expect(elsewhere.query(api.viewer.me, {})).rejects.toThrow(/log in/);
    expect((await m.as.query(api.viewer.me, {})).userId).toBe(m.userId);
    const sessions = await t.run((ctx) => ctx.db.query("authSessions").collect());
    expect(sessions.map((s) => s._id)).not.toContain(otherSession);
  });
});
