/**
 * Item 2: no privilege escalation through users.manage. A member whose only role is a custom
 * level-20 role with users.manage probes every role, member and invitation function; each may
 * only grant, create, edit, assign or invite with roles below level 20 whose permissions the
 * member holds, never edit a role they hold or add to their own roles, and never touch a member
 * at or above their level. The list of probed functions is checked against every public
 * users.manage mutation, so a new one cannot go unprobed.
 */
import { describe, expect, test } from "vitest";
import { api } from "@convex/_generated/api";
import { PERMISSIONS } from "@convex/lib/permissions";
import { createMember, setupTest, type TestConvex } from "./setup";

const sources: Record<string, Record<string, unknown>> = import.meta.glob("../../../convex/*.ts", { eager: true });

const PROBED = new Set([
  "adminRoles:create",
  "adminRoles:update",
  "adminRoles:remove",
  "adminUsers:create",
  "adminUsers:update",
  "adminUsers:remove",
  "members:invite",
  "members:resend",
  "members:revoke",
]);

const role = (name: string, level: number, permissions: string[]) => ({
  name,
  description: "",
  permissions,
  modes: ["campaign" as const],
  color: "blue",
  level,
});

async function escalationFixture(t: TestConvex) {
  const owner = await createMember(t, ["account_admin", "campaign_manager"]);
  const orgId = owner.orgId;
  const { id: peopleOps } = await owner.as.mutation(api.adminRoles.create, role("People Ops", 20, ["users.manage"]));
  const { id: senior } = await owner.as.mutation(
    api.adminRoles.create,
    role("Senior", 50, ["campaigns.manage", "users.manage"]),
  );
  const { id: junior } = await owner.as.mutation(api.adminRoles.create, role("Junior", 10, ["users.manage"]));
  const attacker = await createMember(t, [peopleOps], { orgId });
  const peer = await createMember(t, [peopleOps], { orgId });
  const lower = await createMember(t, [junior], { orgId });
  const seniorMember = await createMember(t, [senior], { orgId });
  const adminInvite = await owner.as.mutation(api.members.invite, {
    firstName: "A",
    lastName: "Dmin",
    email: "admin2@example.org",
    role: "account_admin",
  });
  const rolesOf = async (userId: string) =>
    (
      await t.run(async (ctx) =>
        ctx.db
          .query("memberships")
          .withIndex("by_org_user", (q) => q.eq("orgId", orgId))
          .collect(),
      )
    ).find((m) => m.userId === userId)?.roles;
  return { owner, orgId, peopleOps, senior, junior, attacker, peer, lower, seniorMember, adminInvite, rolesOf };
}

describe("2. escalation probes (custom level-20 role holding only users.manage)", () => {
  test("every public users.manage mutation is probed here", () => {
    const guarded: string[] = [];
    for (const [file, mod] of Object.entries(sources)) {
      const moduleName = file.replace(/^.*\/convex\//, "").replace(/\.ts$/, "");
      for (const [name, fn] of Object.entries(mod)) {
        const f = fn as { isPublic?: boolean; isMutation?: boolean; __access?: string } | null;
        if (
          f &&
          (typeof f === "object" || typeof f === "function") &&
          f.isPublic &&
          f.isMutation &&
          f.__access === "perm:users.manage"
        ) {
          guarded.push(`${moduleName}:${name}`);
        }
      }
    }
    expect(guarded.sort()).toEqual([...PROBED].sort());
  });

  test("cannot give themselves a role, nor invite or create anyone with a role at or above level 20", async () => {
    const t = setupTest();
    const x = await escalationFixture(t);
    const a = x.attacker.as;
    await expect(
      a.mutation(api.adminUsers.update, {
        userId: x.attacker.userId,
        name: "Me",
        roleIds: [x.peopleOps, "account_admin"],
      }),
    ).rejects.toThrow(/yourself/);
    await expect(
      a.mutation(api.members.invite, {
        firstName: "E",
        lastName: "Vil",
        email: "evil@example.org",
        role: "account_admin",
      }),
    ).rejects.toThrow(/only grant roles below/);
    await expect(
      a.mutation(api.members.invite, { firstName: "E", lastName: "Vil", email: "evil@example.org", role: "viewer" }),
    ).rejects.toThrow(/only grant roles below/);
    await expect(
      a.mutation(api.adminUsers.create, { email: "evil@example.org", name: "E V", roleIds: ["account_admin"] }),
    ).rejects.toThrow(/only grant roles below/);
    await expect(
      a.mutation(api.adminUsers.create, { email: "evil@example.org", name: "E V", roleIds: [x.senior] }),
    ).rejects.toThrow(/only grant roles below/);
    expect(await x.rolesOf(x.attacker.userId)).toEqual([x.peopleOps]);
    // Allowed: a role below their level made only of permissions they hold.
    await a.mutation(api.members.invite, {
      firstName: "J",
      lastName: "Unior",
      email: "junior@example.org",
      role: x.junior,
    });
  });

  test("cannot create or edit a role beyond their own permissions or level, nor edit the role they hold", async () => {
    const t = setupTest();
    const x = await escalationFixture(t);
    const a = x.attacker.as;
    await expect(a.mutation(api.adminRoles.create, role("God", 10, [...PERMISSIONS]))).rejects.toThrow(
      /permissions you hold/,
    );
    await expect(a.mutation(api.adminRoles.create, role("Voters", 10, ["voters.manage"]))).rejects.toThrow(
      /permissions you hold/,
    );
    await expect(a.mutation(api.adminRoles.create, role("Same", 20, ["users.manage"]))).rejects.toThrow(
      /below your own/,
    );
    await expect(
      a.mutation(api.adminRoles.update, { roleId: x.peopleOps, ...role("People Ops", 10, ["users.manage"]) }),
    ).rejects.toThrow(/role you hold/);
    await expect(
      a.mutation(api.adminRoles.update, { roleId: x.senior, ...role("Senior", 10, ["users.manage"]) }),
    ).rejects.toThrow(/below your own/);
    await expect(a.mutation(api.adminRoles.remove, { roleId: x.senior })).rejects.toThrow(/below your own/);
    await expect(
      a.mutation(api.adminRoles.update, {
        roleId: x.junior,
        ...role("Junior", 10, ["users.manage", "billing.manage"]),
      }),
    ).rejects.toThrow(/permissions you hold/);
    const stored = await t.run(async (ctx) => ctx.db.query("customRoles").collect());
    expect(stored.find((r) => r.roleId === x.senior)).toMatchObject({
      level: 50,
      permissions: ["campaigns.manage", "users.manage"],
    });
    expect(stored.find((r) => r.roleId === x.peopleOps)).toMatchObject({ level: 20, permissions: ["users.manage"] });
    // Allowed: a role within reach.
    await a.mutation(api.adminRoles.create, role("Intern", 5, ["users.manage"]));
    await a.mutation(api.adminRoles.update, { roleId: x.junior, ...role("Junior", 12, ["users.manage"]) });
  });

  test("cannot touch members at or above their level, nor invitations above it", async () => {
    const t = setupTest();
    const x = await escalationFixture(t);
    const a = x.attacker.as;
    await expect(a.mutation(api.adminUsers.remove, { userId: x.owner.userId })).rejects.toThrow(/at or above your own/);
    await expect(a.mutation(api.adminUsers.remove, { userId: x.seniorMember.userId })).rejects.toThrow(
      /at or above your own/,
    );
    await expect(a.mutation(api.adminUsers.remove, { userId: x.peer.userId })).rejects.toThrow(/at or above your own/);
    await expect(
      a.mutation(api.adminUsers.update, { userId: x.owner.userId, name: "Owner", roleIds: ["viewer"] }),
    ).rejects.toThrow(/at or above your own/);
    await expect(a.mutation(api.members.resend, { invitationId: x.adminInvite.invitationId })).rejects.toThrow(
      /only grant roles below/,
    );
    await expect(a.mutation(api.members.revoke, { invitationId: x.adminInvite.invitationId })).rejects.toThrow(
      /at or above your own/,
    );
    expect(await x.rolesOf(x.owner.userId)).toEqual(["account_admin", "campaign_manager"]);
    expect(await x.rolesOf(x.seniorMember.userId)).toEqual([x.senior]);
    // Allowed: a member below them.
    await a.mutation(api.adminUsers.remove, { userId: x.lower.userId });
    expect(await x.rolesOf(x.lower.userId)).toBeUndefined();
  });

  test("impersonating narrows what may be granted: an admin trying on People Ops grants nothing above it", async () => {
    const t = setupTest();
    const x = await escalationFixture(t);
    await x.owner.as.mutation(api.viewer.startImpersonation, { roleId: x.peopleOps });
    await expect(
      x.owner.as.mutation(api.members.invite, {
        firstName: "A",
        lastName: "B",
        email: "ab@example.org",
        role: "account_admin",
      }),
    ).rejects.toThrow(/only grant roles below/);
    await x.owner.as.mutation(api.viewer.stopImpersonation, {});
    await x.owner.as.mutation(api.members.invite, {
      firstName: "A",
      lastName: "B",
      email: "ab@example.org",
      role: "account_admin",
    });
  });
});
