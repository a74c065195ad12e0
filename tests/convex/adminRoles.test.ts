import { describe, expect, test } from "vitest";
import { api } from "@convex/_generated/api";
import { createMember, roleFixture, setupTest } from "./setup";

const role = {
  name: "Reporter",
  description: "Reads reports",
  permissions: ["reports.view"],
  modes: ["campaign" as const],
  color: "teal",
};

describe("adminRoles", () => {
  test("lists the built-in roles and this organisation's custom roles with assignment counts", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    const { id } = await f.creator.as.mutation(api.adminRoles.create, role);
    expect(id).toMatch(/^custom_role_\d+$/);
    await f.outsider.as.mutation(api.adminRoles.create, { ...role, name: "Theirs" });
    const roles = await f.account_admin.as.query(api.adminRoles.list, {});
    expect(roles.map((r) => r.id)).toEqual([
      "super_admin",
      "account_admin",
      "campaign_manager",
      "volunteer",
      "viewer",
      id,
    ]);
    expect(roles.find((r) => r.id === "account_admin")).toMatchObject({ builtIn: true, assignedCount: 2 });
    expect(roles.find((r) => r.id === id)).toMatchObject({
      builtIn: false,
      level: 20,
      name: "Reporter",
      color: "teal",
      assignedCount: 0,
    });
    expect(await f.creator.as.query(api.adminRoles.get, { roleId: id })).toMatchObject({
      id,
      permissions: ["reports.view"],
    });
    await expect(f.outsider.as.query(api.adminRoles.get, { roleId: id })).rejects.toThrow(/could not be found/);
  });

  test("validates level 1-100, colour and permissions; built-in roles are read-only; level cannot exceed the creator's", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    await expect(f.creator.as.mutation(api.adminRoles.create, { ...role, level: 0 })).rejects.toThrow(/1 to 100/);
    await expect(f.creator.as.mutation(api.adminRoles.create, { ...role, level: 101 })).rejects.toThrow(/1 to 100/);
    await expect(f.creator.as.mutation(api.adminRoles.create, { ...role, color: "mauve" })).rejects.toThrow(/colour/);
    await expect(f.creator.as.mutation(api.adminRoles.create, { ...role, permissions: ["root"] })).rejects.toThrow(
      /Unknown permission/,
    );
    await expect(f.creator.as.mutation(api.adminRoles.create, { ...role, name: "  " })).rejects.toThrow(/role name/);
    await expect(f.creator.as.mutation(api.adminRoles.create, { ...role, level: 90 })).rejects.toThrow(
      /must be below your own \(80\)/,
    );
    await expect(f.creator.as.mutation(api.adminRoles.update, { roleId: "viewer", ...role })).rejects.toThrow(
      /Built-in roles/,
    );
    await expect(f.creator.as.mutation(api.adminRoles.remove, { roleId: "viewer" })).rejects.toThrow(/Built-in roles/);
    const { id } = await f.creator.as.mutation(api.adminRoles.create, role);
    await f.creator.as.mutation(api.adminRoles.update, {
      roleId: id,
      ...role,
      name: "Analyst",
      level: 35,
      modes: ["petition"],
    });
    const stored = await t.run(async (ctx) => ctx.db.query("customRoles").collect());
    expect(stored.find((r) => r.roleId === id)).toMatchObject({ name: "Analyst", level: 35, modes: ["petition"] });
  });

  test("deleting is blocked while the role is assigned", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    const { id } = await f.creator.as.mutation(api.adminRoles.create, role);
    await f.creator.as.mutation(api.adminUsers.update, { userId: f.viewer.userId, name: "V V", roleIds: [id] });
    await expect(f.creator.as.mutation(api.adminRoles.remove, { roleId: id })).rejects.toThrow(
      "This role is assigned to 1 user(s). Please reassign or remove these users first.",
    );
    await f.creator.as.mutation(api.adminUsers.update, { userId: f.viewer.userId, name: "V V", roleIds: ["viewer"] });
    await f.creator.as.mutation(api.adminRoles.remove, { roleId: id });
    expect(await t.run(async (ctx) => ctx.db.query("customRoles").collect())).toHaveLength(0);
  });

  test("a custom role's permissions are what the server enforces", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    const { id: readOnly } = await f.creator.as.mutation(api.adminRoles.create, {
      ...role,
      permissions: ["voters.view"],
    });
    const { id: manager } = await f.creator.as.mutation(api.adminRoles.create, {
      ...role,
      name: "People",
      permissions: ["users.manage"],
      level: 50,
    });
    const limited = await createMember(t, [readOnly], { orgId: f.orgId });
    const me = await limited.as.query(api.viewer.me, {});
    expect(me.org && me.permissions).toEqual(["voters.view"]);
    expect(me.org && me.modes).toEqual(["campaign"]);
    await expect(limited.as.query(api.adminUsers.list, {})).rejects.toThrow(/permission/);
    await expect(
      limited.as.mutation(api.members.invite, { firstName: "A", lastName: "B", email: "a@b.org", role: "viewer" }),
    ).rejects.toThrow(/permission/);
    await expect(limited.as.query(api.account.get, {})).rejects.toThrow(/permission/);
    const people = await createMember(t, [manager], { orgId: f.orgId });
    expect((await people.as.query(api.adminUsers.list, {})).length).toBeGreaterThan(0);
    // Narrowing the role on the server narrows the member at once.
    await f.creator.as.mutation(api.adminRoles.update, {
      roleId: manager,
      ...role,
      name: "People",
      permissions: ["reports.view"],
      level: 50,
    });
    await expect(people.as.query(api.adminUsers.list, {})).rejects.toThrow(/permission/);
  });

  test("other roles, other organisations and signed-out callers are refused", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    const { id } = await f.creator.as.mutation(api.adminRoles.create, role);
    for (const who of [f.campaign_manager, f.volunteer, f.viewer]) {
      await expect(who.as.query(api.adminRoles.list, {})).rejects.toThrow(/permission/);
      await expect(who.as.query(api.adminRoles.get, { roleId: id })).rejects.toThrow(/permission/);
      await expect(who.as.mutation(api.adminRoles.create, role)).rejects.toThrow(/permission/);
      await expect(who.as.mutation(api.adminRoles.update, { roleId: id, ...role })).rejects.toThrow(/permission/);
      await expect(who.as.mutation(api.adminRoles.remove, { roleId: id })).rejects.toThrow(/permission/);
    }
    await expect(
      f.outsider.as.mutation(api.adminRoles.update, { roleId: id, ...role, name: "Hijack" }),
    ).rejects.toThrow(/could not be found/);
    await expect(f.outsider.as.mutation(api.adminRoles.remove, { roleId: id })).rejects.toThrow(/could not be found/);
    await expect(t.query(api.adminRoles.list, {})).rejects.toThrow(/log in/);
    await expect(t.mutation(api.adminRoles.create, role)).rejects.toThrow(/log in/);
    // The outsider cannot assign our custom role to their members either.
    await expect(
      f.outsider.as.mutation(api.adminUsers.create, { email: "z@example.org", name: "Z", roleIds: [id] }),
    ).rejects.toThrow(/Unknown role/);
  });
});
