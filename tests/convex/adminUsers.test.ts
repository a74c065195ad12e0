import { describe, expect, test } from "vitest";
import { api } from "@convex/_generated/api";
import { createMember, roleFixture, setupTest } from "./setup";

describe("adminUsers", () => {
  test("lists only this organisation's members with roles, created and last sign-in", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    await t.run(async (ctx) => ctx.db.patch("users", f.viewer.userId, { lastSignInAt: 1_700_000_000_000 }));
    const users = await f.account_admin.as.query(api.adminUsers.list, {});
    expect(users).toHaveLength(6);
    expect(users.map((u) => u.id)).not.toContain(f.outsider.userId);
    const viewer = users.find((u) => u.id === f.viewer.userId)!;
    expect(viewer).toMatchObject({
      roles: ["viewer"],
      status: "active",
      lastSignInAt: 1_700_000_000_000,
      isSelf: false,
    });
    expect(viewer.name).toMatch(/^First\d+ Last\d+$/);
    expect(viewer.createdAt).toBeGreaterThan(0);
    expect(users.find((u) => u.id === f.account_admin.userId)?.isSelf).toBe(true);
  });

  test("creating a user sends a set-your-password invitation with the chosen roles (no temporary password)", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    const res = await f.creator.as.mutation(api.adminUsers.create, {
      email: "Fresh@Example.org",
      name: "Fresh Person Jr",
      roleIds: ["volunteer", "viewer"],
    });
    const inv = await t.run(async (ctx) => ctx.db.get("invitations", res.invitationId));
    expect(inv).toMatchObject({
      kind: "create",
      email: "fresh@example.org",
      firstName: "Fresh",
      lastName: "Person Jr",
      roles: ["volunteer", "viewer"],
      status: "pending",
    });
    const mail = (await t.run(async (ctx) => ctx.db.query("emailOutbox").collect()))[0];
    expect(mail.text).toMatch(/set your password/);
    expect(mail.text).not.toMatch(/temporary password/i);
    const users = await f.creator.as.query(api.adminUsers.list, {});
    expect(users.find((u) => u.email === "fresh@example.org")).toMatchObject({
      status: "invited",
      roles: ["volunteer", "viewer"],
    });
    await expect(
      f.creator.as.mutation(api.adminUsers.create, { email: "x@example.org", name: "X", roleIds: [] }),
    ).rejects.toThrow(/at least one role/);
    await expect(
      f.creator.as.mutation(api.adminUsers.create, { email: "x@example.org", name: "X", roleIds: ["super_admin"] }),
    ).rejects.toThrow(/only grant roles below your own level/);
    await expect(
      f.creator.as.mutation(api.adminUsers.create, { email: "bad", name: "X", roleIds: ["viewer"] }),
    ).rejects.toThrow(/valid email/);
  });

  test("editing name and roles; a super admin may grant super admin, an account admin may not", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    await f.creator.as.mutation(api.adminUsers.update, {
      userId: f.viewer.userId,
      name: "Vera Viewer",
      roleIds: ["volunteer"],
    });
    const after = await t.run(async (ctx) => ({
      user: await ctx.db.get("users", f.viewer.userId),
      m: await ctx.db
        .query("memberships")
        .withIndex("by_org_user", (q) => q.eq("orgId", f.orgId).eq("userId", f.viewer.userId))
        .unique(),
    }));
    expect(after.user).toMatchObject({ name: "Vera Viewer", firstName: "Vera", lastName: "Viewer" });
    expect(after.m?.roles).toEqual(["volunteer"]);
    const me = await f.viewer.as.query(api.viewer.me, {});
    expect(me.org && me.permissions).toContain("voters.update");
    await expect(
      f.account_admin.as.mutation(api.adminUsers.update, {
        userId: f.viewer.userId,
        name: "V",
        roleIds: ["super_admin"],
      }),
    ).rejects.toThrow(/only grant roles below your own level/);
    await expect(
      f.account_admin.as.mutation(api.adminUsers.update, { userId: f.viewer.userId, name: "V", roleIds: ["nope"] }),
    ).rejects.toThrow(/Unknown role/);
    await expect(
      f.account_admin.as.mutation(api.adminUsers.update, { userId: f.viewer.userId, name: " ", roleIds: ["viewer"] }),
    ).rejects.toThrow(/name/);
    await f.super_admin.as.mutation(api.adminUsers.update, {
      userId: f.viewer.userId,
      name: "V",
      roleIds: ["super_admin"],
    });
    // An account admin cannot change someone ranked above them.
    await expect(
      f.account_admin.as.mutation(api.adminUsers.update, {
        userId: f.super_admin.userId,
        name: "S",
        roleIds: ["viewer"],
      }),
    ).rejects.toThrow(/above your own/);
    await expect(f.account_admin.as.mutation(api.adminUsers.remove, { userId: f.super_admin.userId })).rejects.toThrow(
      /above your own/,
    );
  });

  test("the last account admin cannot be demoted or removed; admins cannot lock themselves out or remove themselves", async () => {
    const t = setupTest();
    const admin = await createMember(t, ["account_admin"]);
    const sa = await createMember(t, ["super_admin"], { orgId: admin.orgId });
    const other = await createMember(t, ["viewer"], { orgId: admin.orgId });
    await expect(
      sa.as.mutation(api.adminUsers.update, { userId: admin.userId, name: "A", roleIds: ["viewer"] }),
    ).rejects.toThrow(/last Account Administrator/);
    await expect(sa.as.mutation(api.adminUsers.remove, { userId: admin.userId })).rejects.toThrow(
      /last Account Administrator/,
    );
    await expect(admin.as.mutation(api.adminUsers.remove, { userId: admin.userId })).rejects.toThrow(
      /cannot remove yourself/,
    );
    // An account admin may make a second one (a peer); nobody adds roles to themselves, and dropping
    // one's own user management is refused as a lock-out.
    await admin.as.mutation(api.adminUsers.update, { userId: other.userId, name: "Other", roleIds: ["account_admin"] });
    await expect(
      admin.as.mutation(api.adminUsers.update, { userId: admin.userId, name: "A", roleIds: ["campaign_manager"] }),
    ).rejects.toThrow(/cannot give yourself roles/);
    const both = await createMember(t, ["account_admin", "campaign_manager"], { orgId: admin.orgId });
    await expect(
      both.as.mutation(api.adminUsers.update, { userId: both.userId, name: "B", roleIds: ["campaign_manager"] }),
    ).rejects.toThrow(/own access to user management/);
    await sa.as.mutation(api.adminUsers.remove, { userId: both.userId });
    // A super admin can demote one of two admins.
    await sa.as.mutation(api.adminUsers.update, { userId: admin.userId, name: "A", roleIds: ["viewer"] });
    await expect(sa.as.mutation(api.adminUsers.remove, { userId: other.userId })).rejects.toThrow(
      /last Account Administrator/,
    );
    const stored = await t.run(async (ctx) =>
      ctx.db
        .query("memberships")
        .withIndex("by_org_user", (q) => q.eq("orgId", admin.orgId))
        .collect(),
    );
    expect(stored.filter((m) => m.roles.includes("account_admin")).map((m) => m.userId)).toEqual([other.userId]);
  });

  test("removing a member deletes the membership: they lose access to the organisation", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    await f.creator.as.mutation(api.adminUsers.remove, { userId: f.volunteer.userId });
    const m = await t.run(async (ctx) =>
      ctx.db
        .query("memberships")
        .withIndex("by_org_user", (q) => q.eq("orgId", f.orgId).eq("userId", f.volunteer.userId))
        .unique(),
    );
    expect(m).toBeNull();
    expect((await f.volunteer.as.query(api.viewer.me, {})).org).toBeNull();
    expect((await f.creator.as.query(api.adminUsers.list, {})).map((u) => u.id)).not.toContain(f.volunteer.userId);
    await expect(f.creator.as.mutation(api.adminUsers.remove, { userId: f.volunteer.userId })).rejects.toThrow(
      /not a member/,
    );
  });

  test("other roles, other organisations and signed-out callers are refused", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    for (const who of [f.campaign_manager, f.volunteer, f.viewer]) {
      await expect(who.as.query(api.adminUsers.list, {})).rejects.toThrow(/permission/);
      await expect(
        who.as.mutation(api.adminUsers.create, { email: "a@b.org", name: "A", roleIds: ["viewer"] }),
      ).rejects.toThrow(/permission/);
      await expect(
        who.as.mutation(api.adminUsers.update, { userId: f.viewer.userId, name: "A", roleIds: ["viewer"] }),
      ).rejects.toThrow(/permission/);
      await expect(who.as.mutation(api.adminUsers.remove, { userId: f.viewer.userId })).rejects.toThrow(/permission/);
    }
    await expect(
      f.outsider.as.mutation(api.adminUsers.update, { userId: f.viewer.userId, name: "Hacked", roleIds: ["viewer"] }),
    ).rejects.toThrow(/not a member/);
    await expect(f.outsider.as.mutation(api.adminUsers.remove, { userId: f.viewer.userId })).rejects.toThrow(
      /not a member/,
    );
    expect((await t.run(async (ctx) => ctx.db.get("users", f.viewer.userId)))?.name).not.toBe("Hacked");
    await expect(t.query(api.adminUsers.list, {})).rejects.toThrow(/log in/);
    await expect(t.mutation(api.adminUsers.remove, { userId: f.viewer.userId })).rejects.toThrow(/log in/);
    await expect(f.creator.as.mutation(api.adminUsers.remove, { userId: "not-an-id" })).rejects.toThrow(/not a member/);
  });
});
