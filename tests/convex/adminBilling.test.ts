import { describe, expect, test } from "vitest";
import { api } from "@convex/_generated/api";
import { BILLING_PERIOD_MS } from "@convex/model/orgs";
import { roleFixture, setupTest } from "./setup";

const info = {
  legalName: "Friends of Alice LLC",
  dbaName: "Alice for Council",
  ein: "12-3456789",
  website: "https://alice.example.org",
  description: "Campaign",
  address: { street: "1 Main St", city: "Portland", state: "OR", zipCode: "97201", country: "United States" as const },
  contact: { email: "hq@alice.example.org", phone: "5035550100", fax: "" },
};
/** The edits that fill the empty organisation information with `info`. */
function fill(values: typeof info) {
  const empty = {
    street: "",
    city: "",
    state: "",
    zipCode: "",
    country: "United States",
    email: "",
    phone: "",
    fax: "",
  } as Record<string, string>;
  const flat: [string, string][] = [
    ...(["legalName", "dbaName", "ein", "website", "description"] as const).map(
      (k) => [k, values[k]] as [string, string],
    ),
    ...Object.entries(values.address).map(([k, val]) => [`address.${k}`, val] as [string, string]),
    ...Object.entries(values.contact).map(([k, val]) => [`contact.${k}`, val] as [string, string]),
  ];
  return {
    edits: flat
      .map(([field, value]) => ({ field, base: empty[field.split(".").pop()!] ?? "", value }))
      .filter((e) => e.base !== e.value),
  };
}
const card = {
  name: "Alice Admin",
  brand: "visa",
  last4: "4242",
  expMonth: "04",
  expYear: String(new Date().getUTCFullYear() + 2),
};

describe("account: organization information", () => {
  test("admins read and save it; the display name follows the DBA", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    expect(await f.account_admin.as.query(api.account.get, {})).toMatchObject({
      legalName: "",
      address: { country: "United States" },
    });
    await f.account_admin.as.mutation(api.account.update, fill(info));
    const got = await f.creator.as.query(api.account.get, {});
    expect(got).toMatchObject({ ...info, name: "Alice for Council" });
    expect((await f.viewer.as.query(api.viewer.me, {})).org?.name).toBe("Alice for Council");
    expect((await f.outsider.as.query(api.account.get, {})).legalName).toBe("");
    // two admins: different fields merge, the same field is refused naming the teammate
    await f.account_admin.as.mutation(api.account.update, {
      edits: [{ field: "ein", base: "12-3456789", value: "98-7654321" }],
    });
    await f.creator.as.mutation(api.account.update, {
      edits: [{ field: "contact.fax", base: "", value: "5035550199" }],
    });
    expect(await f.creator.as.query(api.account.get, {})).toMatchObject({
      ein: "98-7654321",
      contact: { fax: "5035550199", phone: "5035550100" },
    });
    await expect(
      f.creator.as.mutation(api.account.update, { edits: [{ field: "ein", base: "12-3456789", value: "11-1111111" }] }),
    ).rejects.toThrow(/The organization information was changed by .+ while you were editing: EIN/);
    expect((await f.creator.as.query(api.account.editState, {})).fields.ein.userId).toBe(f.account_admin.userId);
  });

  test("saving without organization.manage is refused with the spec's message; reading too", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    for (const who of [f.campaign_manager, f.volunteer, f.viewer]) {
      await expect(who.as.mutation(api.account.update, fill(info))).rejects.toThrow(
        /You don't have permission to modify organization settings/,
      );
      await expect(who.as.query(api.account.get, {})).rejects.toThrow(/permission/);
    }
    await expect(t.mutation(api.account.update, fill(info))).rejects.toThrow(/log in/);
    await expect(t.query(api.account.get, {})).rejects.toThrow(/log in/);
    await expect(
      f.creator.as.mutation(api.account.update, {
        edits: [{ field: "address.country", base: "United States", value: "France" }],
      }),
    ).rejects.toThrow();
  });
});

describe("payments: the recorded billing profile", () => {
  test("adds brand/last4/expiry only, lists and removes", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    const id = await f.account_admin.as.mutation(api.payments.add, card);
    const list = await f.creator.as.query(api.payments.list, {});
    expect(list).toEqual([
      expect.objectContaining({
        id,
        name: "Alice Admin",
        brand: "visa",
        last4: "4242",
        expMonth: "04",
        isSubscriptionMethod: false,
      }),
    ]);
    const stored = await t.run(async (ctx) => ctx.db.get("paymentMethods", id));
    expect(Object.keys(stored!).sort()).toEqual([
      "_creationTime",
      "_id",
      "brand",
      "createdAt",
      "expMonth",
      "expYear",
      "last4",
      "name",
      "orgId",
    ]);
    await f.creator.as.mutation(api.subscription.changePlan, {
      tier: "professional",
      billingCycle: "monthly",
      paymentMethodId: id,
    });
    await f.creator.as.mutation(api.payments.remove, { id });
    expect(await f.creator.as.query(api.payments.list, {})).toEqual([]);
    expect((await f.creator.as.query(api.subscription.overview, {})).paymentMethod).toBeNull();
  });

  test("validates the fields; refuses other roles, other organisations and signed-out callers", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    await expect(f.creator.as.mutation(api.payments.add, { ...card, last4: "42" })).rejects.toThrow(/last four/);
    await expect(f.creator.as.mutation(api.payments.add, { ...card, expMonth: "13" })).rejects.toThrow(/01 to 12/);
    await expect(f.creator.as.mutation(api.payments.add, { ...card, expYear: "2001" })).rejects.toThrow(/Expiry year/);
    await expect(
      f.creator.as.mutation(api.payments.add, { ...card, expYear: String(new Date().getUTCFullYear() + 10) }),
    ).rejects.toThrow(/Expiry year/);
    await expect(f.creator.as.mutation(api.payments.add, { ...card, name: " " })).rejects.toThrow(/cardholder/);
    const id = await f.creator.as.mutation(api.payments.add, card);
    for (const who of [f.campaign_manager, f.volunteer, f.viewer]) {
      await expect(who.as.query(api.payments.list, {})).rejects.toThrow(/permission/);
      await expect(who.as.mutation(api.payments.add, card)).rejects.toThrow(/permission/);
      await expect(who.as.mutation(api.payments.remove, { id })).rejects.toThrow(/permission/);
    }
    await expect(f.outsider.as.mutation(api.payments.remove, { id })).rejects.toThrow(/could not be found/);
    expect(await f.outsider.as.query(api.payments.list, {})).toEqual([]);
    await expect(t.query(api.payments.list, {})).rejects.toThrow(/log in/);
    expect(await f.creator.as.query(api.payments.list, {})).toHaveLength(1);
  });
});

describe("subscription", () => {
  test("usage comes from real counts against the plan's limits", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    await t.run(async (ctx) => {
      for (const [name, value] of [
        ["voters", 450],
        ["campaigns", 2],
        ["surveys", 5],
        ["storageBytes", 1024 ** 3 / 2],
      ] as const) {
        await ctx.db.insert("orgCounters", { orgId: f.orgId, name, value });
      }
      await ctx.db.insert("orgCounters", { orgId: f.outsider.orgId, name: "voters", value: 99 });
      // SMS usage counts this month's segments only
      const month = new Date().toISOString().slice(0, 7);
      await ctx.db.insert("smsUsage", { orgId: f.orgId, period: month, segments: 42, messages: 40 });
      await ctx.db.insert("smsUsage", { orgId: f.orgId, period: "2000-01", segments: 999, messages: 999 });
    });
    await f.campaign_manager.as.mutation(api.forms.create, { name: "Signup", description: null, fields: [] });
    const inactive = await f.campaign_manager.as.mutation(api.forms.create, {
      name: "Old",
      description: null,
      fields: [],
    });
    await f.campaign_manager.as.mutation(api.forms.setStatus, { id: inactive.id, status: "inactive" });
    const o = await f.volunteer.as.query(api.subscription.overview, {});
    expect(o).toMatchObject({
      tier: "starter",
      status: "active",
      billingCycle: "monthly",
      amount: 29,
      hasPaymentMethod: false,
      usage: { voters: 450, campaigns: 2, surveys: 5, storage: 0.5, users: 6, smsSegments: 42, activeForms: 1 },
      limits: { voters: 1000, campaigns: 5, surveys: 10, storage: 1, users: 3, smsSegments: 500, activeForms: 3 },
    });
    expect((await f.outsider.as.query(api.subscription.overview, {})).usage).toMatchObject({ voters: 99, users: 1 });
    await expect(t.query(api.subscription.overview, {})).rejects.toThrow(/log in/);
  });

  test("changing the plan needs a payment method, sets tier and +30 days, and records the price in the history", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    await expect(
      f.creator.as.mutation(api.subscription.changePlan, { tier: "professional", billingCycle: "monthly" }),
    ).rejects.toThrow("Please add a payment method in Account Settings before upgrading.");
    const pm = await f.creator.as.mutation(api.payments.add, card);
    const before = Date.now();
    await f.account_admin.as.mutation(api.subscription.changePlan, {
      tier: "professional",
      billingCycle: "yearly",
      paymentMethodId: pm,
    });
    const o = await f.viewer.as.query(api.subscription.overview, {});
    expect(o).toMatchObject({
      tier: "professional",
      billingCycle: "yearly",
      amount: 790,
      paymentMethod: null,
      hasPaymentMethod: true,
    });
    const billing = await f.account_admin.as.query(api.subscription.overview, {});
    expect(billing).toMatchObject({ paymentMethod: { last4: "4242" } });
    expect(o.nextBillingDate).toBeGreaterThanOrEqual(before + BILLING_PERIOD_MS);
    expect(o.limits.campaigns).toBe(-1);
    await f.creator.as.mutation(api.subscription.changePlan, { tier: "enterprise", billingCycle: "monthly" });
    const history = await f.creator.as.query(api.subscription.history, {});
    expect(history.map((h) => [h.description, h.amount, h.status])).toEqual([
      ["Enterprise Plan - Monthly", 199, "paid"],
      ["Professional Plan - Yearly", 790, "paid"],
    ]);
    await expect(
      f.creator.as.mutation(api.subscription.changePlan, { tier: "platinum", billingCycle: "monthly" }),
    ).rejects.toThrow(/Unknown plan/);
  });

  test("plan changes and billing history are refused to other roles and organisations", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    const pm = await f.creator.as.mutation(api.payments.add, card);
    for (const who of [f.campaign_manager, f.volunteer, f.viewer]) {
      await expect(
        who.as.mutation(api.subscription.changePlan, { tier: "enterprise", billingCycle: "monthly" }),
      ).rejects.toThrow(/permission/);
      await expect(who.as.query(api.subscription.history, {})).rejects.toThrow(/permission/);
    }
    await expect(
      f.outsider.as.mutation(api.subscription.changePlan, {
        tier: "enterprise",
        billingCycle: "monthly",
        paymentMethodId: pm,
      }),
    ).rejects.toThrow(/could not be found/);
    await expect(
      t.mutation(api.subscription.changePlan, { tier: "enterprise", billingCycle: "monthly" }),
    ).rejects.toThrow(/log in/);
    expect((await f.creator.as.query(api.subscription.overview, {})).tier).toBe("starter");
  });
});
