/**
 * Item 7: least privilege for data. Exporting the voter file needs voters.export (campaign
 * managers and admins, through voters.manage), never voters.view alone; card details need
 * billing.manage; the organisation-wide voter form order needs voters.manage.
 */
import { describe, expect, test } from "vitest";
import { api, internal } from "../../../convex/_generated/api";
import { roleFixture, setupTest } from "./setup";

const page = { paginationOpts: { numItems: 1000, cursor: null } };

describe("7. least privilege", () => {
  test("only voters.export exports the file; the list pages are capped", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    const voters = Array.from({ length: 250 }, (_, i) => ({ first_name: `V${i}`, last_name: "Oter" }));
    await t.mutation(internal.seed.insertVoters, { orgId: f.orgId, voters });
    for (const who of [f.volunteer, f.viewer, f.account_admin]) {
      await expect(who.as.query(api.voters.exportPage, page)).rejects.toThrow(/permission/);
    }
    await expect(t.query(api.voters.exportPage, page)).rejects.toThrow(/log in/);
    expect((await f.outsider.as.query(api.voters.exportPage, page)).page).toEqual([]);
    for (const who of [f.campaign_manager, f.creator, f.super_admin]) {
      expect((await who.as.query(api.voters.exportPage, page)).page).toHaveLength(250);
    }
    expect((await f.viewer.as.query(api.voters.list, page)).page.length).toBeLessThanOrEqual(200);
    const me = await f.campaign_manager.as.query(api.viewer.me, {});
    expect(me.org && me.permissions).toContain("voters.export");
  });

  test("card details only with billing.manage", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    const pm = await f.account_admin.as.mutation(api.payments.add, { name: "Ann Admin", brand: "visa", last4: "4242", expMonth: "12", expYear: "2030" });
    await f.account_admin.as.mutation(api.subscription.changePlan, { tier: "professional", billingCycle: "monthly", paymentMethodId: pm });
    for (const who of [f.viewer, f.volunteer, f.campaign_manager]) {
      const o = await who.as.query(api.subscription.overview, {});
      expect(o.paymentMethod).toBeNull();
      expect(JSON.stringify(o)).not.toContain("4242");
    }
    expect((await f.account_admin.as.query(api.subscription.overview, {})).paymentMethod).toMatchObject({ brand: "visa", last4: "4242" });
  });

  test("reordering the organisation's voter form needs voters.manage", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    await expect(f.volunteer.as.mutation(api.voters.moveFormSection, { section: "notes", over: "personal" })).rejects.toThrow(/permission/);
    expect(await f.viewer.as.query(api.voters.formLayout, {})).toBeNull();
    await f.campaign_manager.as.mutation(api.voters.moveFormSection, { section: "notes", over: "personal" });
    expect((await f.viewer.as.query(api.voters.formLayout, {}))?.slice(0, 2)).toEqual(["notes", "personal"]);
  });
});
