import { describe, expect, test } from "vitest";
import { api } from "@convex/_generated/api";
import { createMember, roleFixture, setupTest } from "./setup";

describe("viewer.me and roles", () => {
  test("signed-out callers are refused", async () => {
    const t = setupTest();
    await expect(t.query(api.viewer.me, {})).rejects.toThrow(/log in/);
  });

  test("the creator of an organisation holds account admin and campaign manager", async () => {
    const t = setupTest();
    const m = await createMember(t, ["account_admin", "campaign_manager"]);
    const me = await m.as.query(api.viewer.me, {});
    expect(me.org?.id).toBe(m.orgId);
    expect(me.org && me.activeRole).toBe("account_admin");
    expect(me.org && me.permissions).toEqual(expect.arrayContaining(["voters.manage", "account.manage"]));
    expect(me.org && me.modes).toEqual(["campaign", "petition", "relationship"]);
  });

  test("switching the active role narrows to roles at or below it", async () => {
    const t = setupTest();
    const m = await createMember(t, ["account_admin", "campaign_manager"]);
    await m.as.mutation(api.viewer.setActiveRole, { roleId: "campaign_manager" });
    const me = await m.as.query(api.viewer.me, {});
    expect(me.org && me.permissions).not.toContain("account.manage");
    expect(me.org && me.modes).toEqual(["campaign"]);
    await expect(m.as.mutation(api.viewer.setActiveRole, { roleId: "super_admin" })).rejects.toThrow(/role you hold/);
  });

  test("impersonation narrows and never widens, once at a time, never super admin", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    await f.viewer.as.mutation(api.viewer.startImpersonation, { roleId: "campaign_manager" });
    const me = await f.viewer.as.query(api.viewer.me, {});
    expect(me.org && me.permissions).not.toContain("voters.manage");
    await expect(f.viewer.as.mutation(api.viewer.startImpersonation, { roleId: "viewer" })).rejects.toThrow(
      /Already impersonating/,
    );
    await f.viewer.as.mutation(api.viewer.stopImpersonation, {});
    await expect(f.creator.as.mutation(api.viewer.startImpersonation, { roleId: "super_admin" })).rejects.toThrow(
      /cannot be impersonated/,
    );
    await f.creator.as.mutation(api.viewer.startImpersonation, { roleId: "viewer" });
    const narrowed = await f.creator.as.query(api.viewer.me, {});
    expect(narrowed.org && narrowed.permissions.sort()).toEqual([
      "campaigns.view",
      "forms.view",
      "reports.view",
      "voters.view",
    ]);
  });
});
