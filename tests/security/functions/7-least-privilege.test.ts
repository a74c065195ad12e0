/**
 * Item 7: least privilege for data. Exporting the voter file needs voters.export (campaign
 * managers and admins, through voters.manage), never voters.view alone; card details need
 * billing.manage; the organisation-wide voter form order needs voters.manage; a voter's name,
 * email, phone, address and id need voters.view whatever the function's own permission
 * (model/personalData.ts), while counts do not.
 */
import { describe, expect, test } from "vitest";
import { api, internal } from "@convex/_generated/api";
import { startSend } from "@convex/model/sms";
import { recordOptOut } from "@convex/model/consent";
import type { Viewer } from "@convex/model/viewer";
import { createMember, roleFixture, setupTest } from "./setup";

const page = { paginationOpts: { numItems: 1000, cursor: null } };

describe("7. least privilege", () => {
  test("only voters.export exports the file; the list pages are capped", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    const voters = Array.from({ length: 250 }, (_, i) => ({ first_name: `V${i}`, last_name: "Oter" }));
    await t.mutation(internal.seed.insertVoters, { orgId: f.orgId, voters });
    // the pages are served against a run the caller started (exports are audited, issue 39)
    const managersRun = await f.campaign_manager.as.mutation(api.voters.startExport, { format: "csv" });
    for (const who of [f.volunteer, f.viewer, f.account_admin]) {
      await expect(who.as.mutation(api.voters.startExport, { format: "csv" })).rejects.toThrow(/permission/);
      await expect(who.as.query(api.voters.exportPage, { ...page, exportId: managersRun })).rejects.toThrow(
        /permission/,
      );
    }
    await expect(t.mutation(api.voters.startExport, { format: "csv" })).rejects.toThrow(/log in/);
    await expect(t.query(api.voters.exportPage, { ...page, exportId: managersRun })).rejects.toThrow(/log in/);
    const outsidersRun = await f.outsider.as.mutation(api.voters.startExport, { format: "csv" });
    expect((await f.outsider.as.query(api.voters.exportPage, { ...page, exportId: outsidersRun })).page).toEqual([]);
    await expect(f.outsider.as.query(api.voters.exportPage, { ...page, exportId: managersRun })).rejects.toThrow(
      /not started by you/,
    );
    for (const who of [f.campaign_manager, f.creator, f.super_admin]) {
      const exportId = await who.as.mutation(api.voters.startExport, { format: "csv" });
      expect((await who.as.query(api.voters.exportPage, { ...page, exportId })).page).toHaveLength(250);
    }
    expect((await f.viewer.as.query(api.voters.list, page)).page.length).toBeLessThanOrEqual(200);
    const me = await f.campaign_manager.as.query(api.viewer.me, {});
    expect(me.org && me.permissions).toContain("voters.export");
  });

  test("card details only with billing.manage", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    const pm = await f.account_admin.as.mutation(api.payments.add, {
      name: "Ann Admin",
      brand: "visa",
      last4: "4242",
      expMonth: "12",
      expYear: "2030",
    });
    await f.account_admin.as.mutation(api.subscription.changePlan, {
      tier: "professional",
      billingCycle: "monthly",
      paymentMethodId: pm,
    });
    for (const who of [f.viewer, f.volunteer, f.campaign_manager]) {
      const o = await who.as.query(api.subscription.overview, {});
      expect(o.paymentMethod).toBeNull();
      expect(JSON.stringify(o)).not.toContain("4242");
    }
    expect((await f.account_admin.as.query(api.subscription.overview, {})).paymentMethod).toMatchObject({
      brand: "visa",
      last4: "4242",
    });
  });

  test("reordering the organisation's voter form needs voters.manage", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    await expect(
      f.volunteer.as.mutation(api.voters.moveFormSection, { section: "notes", over: "personal" }),
    ).rejects.toThrow(/permission/);
    expect(await f.viewer.as.query(api.voters.formLayout, {})).toBeNull();
    await f.campaign_manager.as.mutation(api.voters.moveFormSection, { section: "notes", over: "personal" });
    expect((await f.viewer.as.query(api.voters.formLayout, {}))?.slice(0, 2)).toEqual(["notes", "personal"]);
  });

  test("without voters.view no function shows a voter's identity: list contacts, signs, email and text history, the SMS log, form matches", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    const cm = f.campaign_manager.as;
    const role = (name: string, permissions: string[]) =>
      f.creator.as.mutation(api.adminRoles.create, {
        name,
        description: name,
        permissions,
        modes: ["campaign" as const],
        color: "teal",
      });
    // roles the role form offers, none of which brings voters.view
    const campaigner = await createMember(t, [(await role("Campaigns", ["campaigns.manage"])).id], { orgId: f.orgId });
    const formsOnly = await createMember(t, [(await role("Forms", ["forms.manage"])).id], { orgId: f.orgId });
    const me = await campaigner.as.query(api.viewer.me, {});
    expect(me.org && me.permissions).not.toContain("voters.view");

    const ada = await cm.mutation(api.voters.create, {
      fields: {
        first_name: "Ada",
        last_name: "Secretname",
        email: "ada@private.example",
        phone: "(503) 555-0101",
        street: "1 Hidden Lane",
      },
    });
    const leaks = (x: unknown) => {
      const s = JSON.stringify(x);
      return ["Secretname", "ada@private.example", "5550101", "Hidden Lane", ada].filter((needle) =>
        s.includes(needle),
      );
    };
    await expect(campaigner.as.query(api.voters.list, page)).rejects.toThrow(/permission/);

    // the All Contacts list and a manual list: counts yes, names and emails no
    await cm.mutation(api.emailLists.ensureDefaults, {});
    const manual = await cm.mutation(api.emailLists.create, { name: "Donors", description: null });
    await cm.mutation(api.emailLists.addVoters, { listId: manual, voterIds: [ada] });
    const lists = await campaigner.as.query(api.emailLists.list, {});
    const all = lists.find((l) => l.subscriptionType === "all_voters")!;
    expect(lists.find((l) => l.id === manual)?.contactCount).toBe(1);
    for (const listId of [all.id, manual]) {
      await expect(campaigner.as.query(api.emailLists.contacts, { listId, ...page })).rejects.toThrow(
        /permission to view voters/,
      );
      expect((await f.viewer.as.query(api.emailLists.contacts, { listId, ...page })).page).toEqual([
        { voterId: ada, name: "Ada Secretname", email: "ada@private.example" },
      ]);
    }

    // a sign keeps its own address; its voter is withheld
    const campaignId = await cm.mutation(api.signs.createCampaign, { name: "Yard signs" });
    const now = Date.now();
    const signId = await cm.mutation(api.signs.create, {
      campaignId,
      address: "12 Sign Street",
      latitude: 45.5,
      longitude: -122.6,
      datePlaced: now - 3 * 86_400_000,
      dateRemoval: now - 86_400_000,
      notes: "",
      voterId: ada,
      responsibleUserId: null,
      assignedById: null,
    });
    const sign = await campaigner.as.query(api.signs.get, { id: signId });
    expect(sign).toMatchObject({ address: "12 Sign Street", voterId: null, voterName: null });
    const signReads = [
      sign,
      await campaigner.as.query(api.signs.list, { status: "All", ...page }),
      await campaigner.as.query(api.signs.forVoter, { voterId: ada }),
      await campaigner.as.query(api.signs.pickups, {}),
    ];
    expect(signReads[2]).toHaveLength(1);
    for (const r of signReads) expect(leaks(r)).toEqual([]);
    expect(await f.viewer.as.query(api.signs.get, { id: signId })).toMatchObject({
      voterId: ada,
      voterName: "Ada Secretname",
    });

    // a voter's email history (personalised subjects)
    await expect(campaigner.as.query(api.emailBlasts.voterHistory, { voterId: ada })).rejects.toThrow(/permission/);
    expect(await f.viewer.as.query(api.emailBlasts.voterHistory, { voterId: ada })).toEqual([]);

    // texts: statuses and bodies, not who received them; the activity log without numbers
    const sendId = await t.run(async (c) => {
      const { userId, orgId } = f.campaign_manager;
      const viewer = {
        userId,
        orgId,
        user: (await c.db.get("users", userId))!,
        org: (await c.db.get("organizations", orgId))!,
        can: () => true,
      } as unknown as Viewer;
      const id = await startSend(c, viewer, {
        voterIds: [ada],
        body: "Vote Tuesday! Reply STOP to opt out",
        acknowledgeNoOptOutText: true,
      });
      await c.db.patch("smsSends", id, { status: "paused" });
      return id;
    });
    for (let i = 0; i < 5; i++) await t.mutation(internal.sms.enqueueStep, { sendId });
    await t.run((c) =>
      recordOptOut(c, { orgId: f.orgId, channel: "sms", contact: "+15035550101", provenance: { source: "keyword" } }),
    );
    const recent = await campaigner.as.query(api.sms.recent, {});
    expect(recent).toHaveLength(1);
    expect(recent[0]).toMatchObject({
      recipientName: null,
      phone: null,
      voterId: null,
      status: "cancelled",
      body: "Vote Tuesday! Reply STOP to opt out",
    });
    const history = await campaigner.as.query(api.sms.history, page);
    const bySend = await campaigner.as.query(api.sms.history, { ...page, sendId });
    const log = await campaigner.as.query(api.sms.log, { since: 0 });
    expect(log.some((e) => /opted out/.test(e.message))).toBe(true);
    for (const r of [recent, history, bySend, log]) expect(leaks(r)).toEqual([]);
    expect((await f.viewer.as.query(api.sms.recent, {}))[0]).toMatchObject({
      recipientName: "Ada Secretname",
      phone: "+15035550101",
      voterId: ada,
    });
    expect(JSON.stringify(await f.viewer.as.query(api.sms.log, { since: 0 }))).toContain("+15035550101");

    // a form submission's matched voter
    const { id: formId } = await formsOnly.as.mutation(api.forms.create, {
      name: "Sign up",
      description: null,
      fields: [],
    });
    await t.run((c) =>
      c.db.insert("formSubmissions", {
        orgId: f.orgId,
        formId,
        data: {},
        submitterIp: null,
        submitterEmail: null,
        emailLower: "",
        voterId: ada,
        source: "app",
      }),
    );
    const filters = { formId: null, from: null, to: null, email: "" };
    const subs = await formsOnly.as.query(api.formSubmissions.list, { ...filters, limit: 10 });
    expect(subs.rows).toHaveLength(1);
    expect(subs.rows[0].voterId).toBeNull();
    const exportId = await formsOnly.as.mutation(api.formSubmissions.startExport, filters);
    expect(
      leaks(await formsOnly.as.query(api.formSubmissions.exportPage, { ...filters, exportId, before: null })),
    ).toEqual([]);
    expect((await f.viewer.as.query(api.formSubmissions.list, { ...filters, limit: 10 })).rows[0].voterId).toBe(ada);

    // the dashboard counts voters for everyone, lists them for voters.view only
    const dash = await campaigner.as.query(api.dashboard.stats, {});
    expect(dash.counts.voters).toBe(1);
    expect(dash.recentVoters).toBeNull();
  });
});
