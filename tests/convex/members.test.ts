import { describe, expect, test } from "vitest";
import { api } from "@convex/_generated/api";
import { acceptInvitationForNewUser, INVITATION_TTL_MS } from "@convex/model/invitations";
import { sha256Hex } from "@convex/model/strings";
import { createMember, roleFixture, setupTest, type Member, type TestConvex } from "./setup";

/** The link of the newest email to `email`: only the addressee (and the operator) ever sees it. */
async function mailedLink(t: TestConvex, email: string) {
  const mails = await t.run(async (ctx) =>
    ctx.db
      .query("emailOutbox")
      .withIndex("by_to", (q) => q.eq("to", email))
      .collect(),
  );
  const link = mails.at(-1)?.text.match(/https?:\/\/\S+|\/accept-invitation\S+/)?.[0] ?? "";
  const url = new URL(link, "http://x");
  return { link, id: url.searchParams.get("id")!, token: url.searchParams.get("token")! };
}

async function invite(t: TestConvex, as: Member["as"], email = "newbie@example.org", role = "volunteer") {
  const res = await as.mutation(api.members.invite, { firstName: "New", lastName: "Bie", email, role });
  return { ...res, ...(await mailedLink(t, res.email)) };
}

describe("members: invitations", () => {
  test("an admin invites: only the token's hash is stored, an email with the link is queued, the list shows it pending", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    const res = await invite(t, f.creator.as, " NewBie@Example.org ");
    expect(res.email).toBe("newbie@example.org");
    expect(res).not.toHaveProperty("demoLink");
    expect(Object.keys(res).sort()).toEqual(["email", "id", "invitationId", "link", "token"]);
    expect(res.link).toMatch(/\/accept-invitation\?id=.+&token=[A-Za-z0-9]{32}$/);
    const stored = await t.run(async (ctx) => ctx.db.get("invitations", res.invitationId));
    expect(stored?.tokenHash).toBe(await sha256Hex(res.token));
    expect(JSON.stringify(stored)).not.toContain(res.token);
    expect(stored?.status).toBe("pending");
    expect(stored!.expiresAt - Date.now()).toBeGreaterThan(INVITATION_TTL_MS - 60_000);
    const mails = await t.run(async (ctx) => ctx.db.query("emailOutbox").collect());
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ to: "newbie@example.org", kind: "invitation", orgId: f.orgId });
    expect(mails[0].text).toContain(`/accept-invitation?id=${res.id}&token=${res.token}`);
    const list = await f.account_admin.as.query(api.members.list, {});
    const row = list.find((m) => m.email === "newbie@example.org");
    expect(row).toMatchObject({
      kind: "invitation",
      status: "pending",
      role: "volunteer",
      roleName: "Volunteer",
      roleColor: "green",
    });
    expect(list.filter((m) => m.kind === "member" && m.status === "active")).toHaveLength(6);
  });

  test("required fields, valid email and an invitable role are checked", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    await expect(
      f.creator.as.mutation(api.members.invite, { firstName: " ", lastName: "B", email: "a@b.org", role: "viewer" }),
    ).rejects.toThrow(/Please fill in all required fields/);
    await expect(
      f.creator.as.mutation(api.members.invite, {
        firstName: "A",
        lastName: "B",
        email: "not-an-email",
        role: "viewer",
      }),
    ).rejects.toThrow(/valid email/);
    await expect(
      f.creator.as.mutation(api.members.invite, {
        firstName: "A",
        lastName: "B",
        email: "a@b.org",
        role: "super_admin",
      }),
    ).rejects.toThrow(/Choose Campaign Manager/);
    await expect(
      f.creator.as.mutation(api.members.invite, {
        firstName: "A",
        lastName: "B",
        email: "a@b.org",
        role: "custom_role_1",
      }),
    ).rejects.toThrow(/Unknown role/);
    const existing = await t.run(async (ctx) => ctx.db.get("users", f.viewer.userId));
    await expect(
      f.creator.as.mutation(api.members.invite, {
        firstName: "A",
        lastName: "B",
        email: existing!.email!,
        role: "viewer",
      }),
    ).rejects.toThrow(/already a member/);
  });

  test("members without users.manage, outsiders and signed-out callers are refused", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    const { invitationId } = await invite(t, f.creator.as);
    for (const who of [f.campaign_manager, f.volunteer, f.viewer]) {
      await expect(who.as.query(api.members.list, {})).rejects.toThrow(/permission/);
      await expect(
        who.as.mutation(api.members.invite, { firstName: "A", lastName: "B", email: "x@y.org", role: "viewer" }),
      ).rejects.toThrow(/permission/);
      await expect(who.as.mutation(api.members.resend, { invitationId })).rejects.toThrow(/permission/);
      await expect(who.as.mutation(api.members.revoke, { invitationId })).rejects.toThrow(/permission/);
    }
    await expect(t.query(api.members.list, {})).rejects.toThrow(/log in/);
    await expect(
      t.mutation(api.members.invite, { firstName: "A", lastName: "B", email: "x@y.org", role: "viewer" }),
    ).rejects.toThrow(/log in/);
    // The outsider's admin sees only their own organisation and cannot touch ours.
    const theirs = await f.outsider.as.query(api.members.list, {});
    expect(theirs.map((m) => m.email)).not.toContain("newbie@example.org");
    await expect(f.outsider.as.mutation(api.members.revoke, { invitationId })).rejects.toThrow(/could not be found/);
    await expect(f.outsider.as.mutation(api.members.resend, { invitationId })).rejects.toThrow(/could not be found/);
  });

  test("the public lookup answers only for a valid, unexpired, unused token", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    const inv = await invite(t, f.creator.as, "newbie@example.org", "campaign_manager");
    const info = await t.query(api.members.getInvitation, { id: inv.id, token: inv.token });
    expect(info).toMatchObject({
      firstName: "New",
      lastName: "Bie",
      email: "newbie@example.org",
      organizationName: expect.stringMatching(/^Org /),
      role: "Campaign Manager",
      accountExists: false,
    });
    expect(info?.invitedBy).toMatch(/^First\d+ Last\d+$/);
    expect(await t.query(api.members.getInvitation, { id: inv.id, token: inv.token.slice(1) + "x" })).toBeNull();
    expect(await t.query(api.members.getInvitation, { id: "garbage", token: inv.token })).toBeNull();
    await t.run(async (ctx) => ctx.db.patch("invitations", inv.invitationId, { expiresAt: Date.now() - 1 }));
    expect(await t.query(api.members.getInvitation, { id: inv.id, token: inv.token })).toBeNull();
  });

  test("a new account accepts once: joins with the invited role, the member turns active, the token is spent", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    const inv = await invite(t, f.creator.as, "newbie@example.org", "volunteer");
    const userId = await t.run(async (ctx) => {
      const id = await ctx.db.insert("users", { email: "newbie@example.org", firstName: "New", lastName: "Bie" });
      await acceptInvitationForNewUser(ctx, id, "newbie@example.org", inv.id, inv.token);
      return id;
    });
    const m = await t.run(async (ctx) =>
      ctx.db
        .query("memberships")
        .withIndex("by_org_user", (q) => q.eq("orgId", f.orgId).eq("userId", userId))
        .unique(),
    );
    expect(m).toMatchObject({ roles: ["volunteer"], status: "active", invitedBy: f.creator.userId });
    const list = await f.creator.as.query(api.members.list, {});
    expect(list.filter((r) => r.email === "newbie@example.org").map((r) => [r.kind, r.status])).toEqual([
      ["member", "active"],
    ]);
    expect(await t.query(api.members.getInvitation, { id: inv.id, token: inv.token })).toBeNull();
    await expect(
      t.run(async (ctx) => {
        const other = await ctx.db.insert("users", { email: "newbie@example.org" });
        await acceptInvitationForNewUser(ctx, other, "newbie@example.org", inv.id, inv.token);
      }),
    ).rejects.toThrow(/invalid or has expired/);
  });

  test("sign-up through an invitation with another email or an expired token is refused", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    const inv = await invite(t, f.creator.as);
    await expect(
      t.run(async (ctx) => {
        const id = await ctx.db.insert("users", { email: "someone-else@example.org" });
        await acceptInvitationForNewUser(ctx, id, "someone-else@example.org", inv.id, inv.token);
      }),
    ).rejects.toThrow(/invalid or has expired/);
    await t.run(async (ctx) => ctx.db.patch("invitations", inv.invitationId, { expiresAt: Date.now() - 1 }));
    await expect(
      t.run(async (ctx) => {
        const id = await ctx.db.insert("users", { email: "newbie@example.org" });
        await acceptInvitationForNewUser(ctx, id, "newbie@example.org", inv.id, inv.token);
      }),
    ).rejects.toThrow(/invalid or has expired/);
  });

  test("an existing account signed in with the invited email accepts once; another account cannot", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    const elsewhere = await createMember(t, ["account_admin"], { email: "known@example.org" });
    const inv = await invite(t, f.creator.as, "known@example.org", "viewer");
    expect((await t.query(api.members.getInvitation, { id: inv.id, token: inv.token }))?.accountExists).toBe(true);
    await expect(
      f.volunteer.as.mutation(api.members.acceptInvitation, { id: inv.id, token: inv.token }),
    ).rejects.toThrow(/sent to known@example.org/);
    await expect(t.mutation(api.members.acceptInvitation, { id: inv.id, token: inv.token })).rejects.toThrow(/log in/);
    const res = await elsewhere.as.mutation(api.members.acceptInvitation, { id: inv.id, token: inv.token });
    expect(res.orgId).toBe(f.orgId);
    const me = await elsewhere.as.query(api.viewer.me, {});
    expect(me.org?.id).toBe(f.orgId);
    expect(me.org && me.activeRole).toBe("viewer");
    await expect(elsewhere.as.mutation(api.members.acceptInvitation, { id: inv.id, token: inv.token })).rejects.toThrow(
      /invalid or has expired/,
    );
  });

  test("resending replaces the token; revoking kills the link; inviting the same address again revokes the older link", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    const first = await invite(t, f.creator.as);
    const again = await f.creator.as.mutation(api.members.resend, { invitationId: first.invitationId });
    const second = await mailedLink(t, again.email);
    expect(second.id).toBe(first.id);
    expect(await t.query(api.members.getInvitation, { id: first.id, token: first.token })).toBeNull();
    expect(await t.query(api.members.getInvitation, { id: second.id, token: second.token })).not.toBeNull();
    const third = await invite(t, f.creator.as);
    expect(await t.query(api.members.getInvitation, { id: second.id, token: second.token })).toBeNull();
    await f.account_admin.as.mutation(api.members.revoke, { invitationId: third.invitationId });
    expect(await t.query(api.members.getInvitation, { id: third.id, token: third.token })).toBeNull();
    await expect(f.creator.as.mutation(api.members.resend, { invitationId: third.invitationId })).rejects.toThrow(
      /Only pending/,
    );
    const mails = await t.run(async (ctx) => ctx.db.query("emailOutbox").collect());
    expect(mails).toHaveLength(3);
  });
});
