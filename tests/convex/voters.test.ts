import { describe, expect, test } from "vitest";
import { api, internal } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { roleFixture, setupTest, type TestConvex } from "./setup";

const ROLES = ["super_admin", "account_admin", "campaign_manager", "volunteer", "viewer"] as const;
const CAN_VIEW = new Set(["super_admin", "campaign_manager", "volunteer", "viewer"]);
const CAN_UPDATE = new Set(["super_admin", "campaign_manager", "volunteer"]);
const CAN_MANAGE = new Set(["super_admin", "campaign_manager"]);

async function fixture() {
  const t = setupTest();
  const f = await roleFixture(t);
  const voterId = await f.campaign_manager.as.mutation(api.voters.create, {
    fields: {
      first_name: "Ada",
      last_name: "Lovelace",
      email: "ada@example.org",
      party_affiliation: "Democrat",
      status: "Active",
    },
  });
  return { t, f, voterId };
}

async function counter(t: TestConvex, orgId: Id<"organizations">, name: string) {
  return await t.run(async (ctx) => {
    const row = await ctx.db
      .query("orgCounters")
      .withIndex("by_org_name", (q) => q.eq("orgId", orgId).eq("name", name))
      .unique();
    return row?.value ?? 0;
  });
}

const page = { paginationOpts: { numItems: 10, cursor: null } };

/** The edits renaming the fixture's Ada Lovelace. */
function rename(first: string, last: string) {
  return [
    { field: "first_name", base: "Ada", value: first },
    { field: "last_name", base: "Lovelace", value: last === "" ? null : last },
  ];
}

describe("voters.list / get / suggestions / quickSearch / groupsOf / formLayout (voters.view)", () => {
  test.each(ROLES)("%s", async (role) => {
    const { f, voterId } = await fixture();
    const as = f[role].as;
    const calls = [
      () => as.query(api.voters.list, page),
      () => as.query(api.voters.get, { id: voterId }),
      () => as.query(api.voters.suggestions, {}),
      () => as.query(api.voters.quickSearch, { term: "ada" }),
      () => as.query(api.voters.groupsOf, { voterId }),
      () => as.query(api.voters.formLayout, {}),
    ];
    for (const call of calls) {
      if (CAN_VIEW.has(role)) await expect(call()).resolves.toBeDefined();
      else await expect(call()).rejects.toThrow(/permission/);
    }
    if (CAN_VIEW.has(role)) {
      expect((await as.query(api.voters.list, page)).page.map((v) => v.first_name)).toEqual(["Ada"]);
      expect((await as.query(api.voters.get, { id: voterId }))?.last_name).toBe("Lovelace");
    }
  });

  test("signed out and other organisation see nothing", async () => {
    const { t, f, voterId } = await fixture();
    await expect(t.query(api.voters.list, page)).rejects.toThrow(/log in/);
    await expect(t.query(api.voters.get, { id: voterId })).rejects.toThrow(/log in/);
    expect((await f.outsider.as.query(api.voters.list, page)).page).toEqual([]);
    expect(await f.outsider.as.query(api.voters.get, { id: voterId })).toBeNull();
    expect(await f.outsider.as.query(api.voters.quickSearch, { term: "ada" })).toEqual([]);
    expect(await f.outsider.as.query(api.voters.suggestions, {})).toEqual([]);
    expect(await f.outsider.as.query(api.voters.groupsOf, { voterId })).toEqual([]);
  });

  test("malformed ids are not found; bad args are refused", async () => {
    const { f } = await fixture();
    expect(await f.viewer.as.query(api.voters.get, { id: "nope" })).toBeNull();
    await expect(
      f.viewer.as.query(api.voters.list, { paginationOpts: { numItems: "x", cursor: null } } as never),
    ).rejects.toThrow();
  });

  test("list filters by party and status, newest first, and searches names/email partially", async () => {
    const { f } = await fixture();
    const as = f.campaign_manager.as;
    await as.mutation(api.voters.create, {
      fields: { first_name: "Grace", last_name: "Hopper", party_affiliation: "Republican", status: "Active" },
    });
    await as.mutation(api.voters.create, {
      fields: {
        first_name: "Alan",
        last_name: "Turing",
        email: "alan@bletchley.uk",
        party_affiliation: "Democrat",
        status: "Inactive",
      },
    });
    const all = await as.query(api.voters.list, page);
    expect(all.page.map((v) => v.first_name)).toEqual(["Alan", "Grace", "Ada"]);
    expect((await as.query(api.voters.list, { ...page, party: "Democrat" })).page.map((v) => v.first_name)).toEqual([
      "Alan",
      "Ada",
    ]);
    expect((await as.query(api.voters.list, { ...page, status: "Active" })).page.map((v) => v.first_name)).toEqual([
      "Grace",
      "Ada",
    ]);
    expect(
      (await as.query(api.voters.list, { ...page, party: "Democrat", status: "Inactive" })).page.map(
        (v) => v.first_name,
      ),
    ).toEqual(["Alan"]);
    expect((await as.query(api.voters.list, { ...page, search: "HOPP" })).page.map((v) => v.first_name)).toEqual([
      "Grace",
    ]);
    // no match (not "bletchley": Convex tokenizes on punctuation, so the email's domain matches there, not on convex-test)
    expect((await as.query(api.voters.list, { ...page, search: "babbage" })).page.map((v) => v.first_name)).toEqual([]);
    expect((await as.query(api.voters.list, { ...page, search: "alan" })).page.map((v) => v.first_name)).toEqual([
      "Alan",
    ]);
    expect((await as.query(api.voters.list, { ...page, search: "a", party: "Republican" })).page).toEqual([]);
    expect(await as.query(api.voters.quickSearch, { term: "a" })).toEqual([]);
    const two = await as.query(api.voters.list, { paginationOpts: { numItems: 2, cursor: null } });
    expect(two.isDone).toBe(false);
    const rest = await as.query(api.voters.list, { paginationOpts: { numItems: 2, cursor: two.continueCursor } });
    expect(rest.page.map((v) => v.first_name)).toEqual(["Ada"]);
  });
});

describe("voters.create (voters.manage)", () => {
  test.each(ROLES)("%s", async (role) => {
    const { t, f } = await fixture();
    const call = f[role].as.mutation(api.voters.create, { fields: { first_name: "New", last_name: "Person" } });
    if (CAN_MANAGE.has(role)) {
      await call;
      expect(await counter(t, f.orgId, "voters")).toBe(2);
    } else await expect(call).rejects.toThrow(/permission/);
  });

  test("signed out refused; validation mirrors the form", async () => {
    const { t, f } = await fixture();
    await expect(t.mutation(api.voters.create, { fields: { first_name: "A", last_name: "B" } })).rejects.toThrow(
      /log in/,
    );
    const as = f.campaign_manager.as;
    await expect(as.mutation(api.voters.create, { fields: { first_name: " ", last_name: "" } })).rejects.toThrow(
      /Please fill in: First Name, Last Name/,
    );
    await expect(
      as.mutation(api.voters.create, { fields: { first_name: "A", last_name: "B", email: "not-an-email" } }),
    ).rejects.toThrow(/email address format is invalid/);
    await expect(
      as.mutation(api.voters.create, { fields: { first_name: "A", last_name: "B", state_voter_history: 5 } }),
    ).rejects.toThrow(/0 to 4/);
    await expect(
      as.mutation(api.voters.create, { fields: { first_name: "A", last_name: "B", state_voter_history: 1.5 } }),
    ).rejects.toThrow(/0 to 4/);
    const key = await as.mutation(api.customFields.create, {
      label: "Shirt Size",
      type: "dropdown",
      required: true,
      options: ["S", "M"],
    });
    await expect(as.mutation(api.voters.create, { fields: { first_name: "A", last_name: "B" } })).rejects.toThrow(
      /Please fill in: Shirt Size/,
    );
    const id = await as.mutation(api.voters.create, {
      fields: { first_name: " A ", last_name: "B", email: "", custom_fields: { [key]: "M" }, state_voter_history: 4 },
    });
    const v = await as.query(api.voters.get, { id });
    expect(v).toMatchObject({ first_name: "A", custom_fields: { [key]: "M" }, state_voter_history: 4 });
    expect(v?.email).toBeUndefined();
    // the outsider's org has no such required field
    await f.outsider.as.mutation(api.voters.create, { fields: { first_name: "A", last_name: "B" } });
  });
});

describe("voters.update (voters.update)", () => {
  test.each(ROLES)("%s", async (role) => {
    const { f, voterId } = await fixture();
    const call = f[role].as.mutation(api.voters.update, { id: voterId, edits: rename("Augusta", "King") });
    if (CAN_UPDATE.has(role)) {
      await call;
      expect(await f.campaign_manager.as.query(api.voters.get, { id: voterId })).toMatchObject({
        first_name: "Augusta",
        last_name: "King",
      });
      expect((await f.campaign_manager.as.query(api.voters.list, { ...page, search: "augusta" })).page).toHaveLength(1);
    } else await expect(call).rejects.toThrow(/permission/);
  });

  test("other organisation, signed out, bad input", async () => {
    const { t, f, voterId } = await fixture();
    await expect(f.outsider.as.mutation(api.voters.update, { id: voterId, edits: rename("X", "Y") })).rejects.toThrow(
      /could not be found/,
    );
    await expect(t.mutation(api.voters.update, { id: voterId, edits: rename("X", "Y") })).rejects.toThrow(/log in/);
    await expect(f.volunteer.as.mutation(api.voters.update, { id: voterId, edits: rename("X", "") })).rejects.toThrow(
      /Last Name/,
    );
    await expect(
      f.volunteer.as.mutation(api.voters.update, { id: voterId, edits: [{ field: "orgId", base: null, value: "x" }] }),
    ).rejects.toThrow(/cannot be edited/);
    await expect(
      f.volunteer.as.mutation(api.voters.update, {
        id: voterId,
        edits: [{ field: "state_voter_history", base: null, value: "three" }],
      }),
    ).rejects.toThrow(/whole number/);
    await expect(
      f.volunteer.as.mutation(api.voters.update, { id: "bad" as never, edits: rename("X", "Y") }),
    ).rejects.toThrow();
    expect(await f.viewer.as.query(api.voters.get, { id: voterId })).toMatchObject({ first_name: "Ada" });
  });
});

describe("voters.remove (voters.manage)", () => {
  test.each(ROLES)("%s", async (role) => {
    const { t, f, voterId } = await fixture();
    const call = f[role].as.mutation(api.voters.remove, { id: voterId });
    if (CAN_MANAGE.has(role)) {
      await call;
      expect(await f.viewer.as.query(api.voters.get, { id: voterId })).toBeNull();
      expect(await counter(t, f.orgId, "voters")).toBe(0);
    } else await expect(call).rejects.toThrow(/permission/);
  });

  test("other organisation and signed out cannot delete; memberships go with the voter", async () => {
    const { t, f, voterId } = await fixture();
    await expect(f.outsider.as.mutation(api.voters.remove, { id: voterId })).rejects.toThrow(/could not be found/);
    await expect(t.mutation(api.voters.remove, { id: voterId })).rejects.toThrow(/log in/);
    const groupId = await f.campaign_manager.as.mutation(api.groups.create, { name: "G" });
    await f.campaign_manager.as.mutation(api.groups.addMember, { groupId, voterId });
    await f.campaign_manager.as.mutation(api.voters.remove, { id: voterId });
    const groups = await f.viewer.as.query(api.groups.list, {});
    expect(groups[0].memberCount).toBe(0);
  });
});

describe("voters.moveFormSection (voters.manage: the layout is organisation-wide)", () => {
  test.each(ROLES)("%s", async (role) => {
    const { f } = await fixture();
    const call = f[role].as.mutation(api.voters.moveFormSection, { section: "notes", over: "personal" });
    if (CAN_MANAGE.has(role)) {
      await call;
      expect((await f.viewer.as.query(api.voters.formLayout, {}))?.slice(0, 2)).toEqual(["notes", "personal"]);
      expect(await f.outsider.as.query(api.voters.formLayout, {})).toBeNull();
    } else await expect(call).rejects.toThrow(/permission/);
  });
  test("two teammates' moves from the same order both apply", async () => {
    const { f } = await fixture();
    await f.campaign_manager.as.mutation(api.voters.moveFormSection, { section: "notes", over: "personal" });
    await f.super_admin.as.mutation(api.voters.moveFormSection, { section: "custom", over: "address" });
    expect(await f.viewer.as.query(api.voters.formLayout, {})).toEqual([
      "notes",
      "personal",
      "custom",
      "address",
      "state_voter",
      "state_verified",
      "political",
    ]);
  });
  test("signed out and bad input", async () => {
    const { t, f } = await fixture();
    await expect(t.mutation(api.voters.moveFormSection, { section: "notes", over: "personal" })).rejects.toThrow(
      /log in/,
    );
    await expect(
      f.campaign_manager.as.mutation(api.voters.moveFormSection, { section: "x".repeat(101), over: "personal" }),
    ).rejects.toThrow(/Unknown form section/);
  });
});

describe("customFields (list: voters.view; create/remove: voters.manage)", () => {
  test.each(ROLES)("%s", async (role) => {
    const { f } = await fixture();
    const as = f[role].as;
    if (CAN_VIEW.has(role)) await expect(as.query(api.customFields.list, {})).resolves.toEqual([]);
    else await expect(as.query(api.customFields.list, {})).rejects.toThrow(/permission/);
    const create = as.mutation(api.customFields.create, { label: "Tee", type: "text", required: false });
    if (CAN_MANAGE.has(role)) {
      await create;
      const [def] = await f.viewer.as.query(api.customFields.list, {});
      expect(def).toMatchObject({ label: "Tee", type: "text", required: false });
      expect(def.key).toMatch(/^custom_\d+$/);
      await as.mutation(api.customFields.remove, { id: def._id });
      expect(await f.viewer.as.query(api.customFields.list, {})).toEqual([]);
    } else {
      await expect(create).rejects.toThrow(/permission/);
      const id = await f.campaign_manager.as.mutation(api.customFields.create, {
        label: "X",
        type: "text",
        required: false,
      });
      const [def] = await f.viewer.as.query(api.customFields.list, {});
      expect(id).toBe(def.key);
      await expect(as.mutation(api.customFields.remove, { id: def._id })).rejects.toThrow(/permission/);
    }
  });
  test("other organisation, signed out, bad input", async () => {
    const { t, f } = await fixture();
    await f.campaign_manager.as.mutation(api.customFields.create, {
      label: "Opts",
      type: "dropdown",
      required: false,
      options: ["a", " b "],
    });
    const [def] = await f.viewer.as.query(api.customFields.list, {});
    expect(def.options).toEqual(["a", "b"]);
    expect(await f.outsider.as.query(api.customFields.list, {})).toEqual([]);
    await expect(f.outsider.as.mutation(api.customFields.remove, { id: def._id })).rejects.toThrow(
      /could not be found/,
    );
    await expect(t.query(api.customFields.list, {})).rejects.toThrow(/log in/);
    await expect(
      f.campaign_manager.as.mutation(api.customFields.create, { label: " ", type: "text", required: false }),
    ).rejects.toThrow();
    await expect(
      f.campaign_manager.as.mutation(api.customFields.create, {
        label: "D",
        type: "dropdown",
        required: false,
        options: [],
      }),
    ).rejects.toThrow(/option/);
    await expect(
      f.campaign_manager.as.mutation(api.customFields.create, { label: "D", type: "weird" as never, required: false }),
    ).rejects.toThrow();
  });
});

describe("voterEmails (status: voters.view; send: messaging.send)", () => {
  const CAN_SEND = new Set(["super_admin", "campaign_manager"]);
  test.each(ROLES)("%s", async (role) => {
    const { t, f, voterId } = await fixture();
    const as = f[role].as;
    if (CAN_VIEW.has(role)) expect(await as.query(api.voterEmails.status, {})).toEqual({ demoMode: true });
    else await expect(as.query(api.voterEmails.status, {})).rejects.toThrow(/permission/);
    const call = as.mutation(api.voterEmails.send, { voterId, subject: "Hello", message: "Vote early" });
    if (CAN_SEND.has(role)) {
      const r = await call;
      const stored = await t.run(async (ctx) => ({
        out: await ctx.db.get("emailOutbox", r.outboxId),
        camp: await ctx.db.get("campaigns", r.campaignId),
      }));
      expect(stored.out).toMatchObject({ to: "ada@example.org", subject: "Hello", text: "Vote early", orgId: f.orgId });
      expect(stored.camp).toMatchObject({ campaign_type: "email", status: "completed", individual_voters: [voterId] });
      expect(await counter(t, f.orgId, "campaigns")).toBe(1);
    } else await expect(call).rejects.toThrow(/permission/);
  });
  test("validation, other organisation, signed out", async () => {
    const { t, f, voterId } = await fixture();
    const as = f.campaign_manager.as;
    await expect(as.mutation(api.voterEmails.send, { voterId, subject: " ", message: "x" })).rejects.toThrow(
      /email subject/,
    );
    await expect(as.mutation(api.voterEmails.send, { voterId, subject: "S", message: "" })).rejects.toThrow(/message/);
    const noEmail = await as.mutation(api.voters.create, { fields: { first_name: "No", last_name: "Mail" } });
    await expect(as.mutation(api.voterEmails.send, { voterId: noEmail, subject: "S", message: "M" })).rejects.toThrow(
      /Recipient email address is required/,
    );
    await expect(f.outsider.as.mutation(api.voterEmails.send, { voterId, subject: "S", message: "M" })).rejects.toThrow(
      /could not be found/,
    );
    await expect(t.mutation(api.voterEmails.send, { voterId, subject: "S", message: "M" })).rejects.toThrow(/log in/);
  });
  test("subject and message are personalized with the campaign variables; unknown ones are refused, never sent raw", async () => {
    const { t, f, voterId } = await fixture();
    const as = f.campaign_manager.as;
    const r = await as.mutation(api.voterEmails.send, {
      voterId,
      subject: "{{voter.first_name}}, vote early",
      message:
        "Dear {{ voter.first_name }} {{voter.last_name}} ({{voter.party_affiliation}}),\n{{user.campaign_name}} needs you.",
    });
    const out = await t.run(async (ctx) => await ctx.db.get("emailOutbox", r.outboxId));
    const org = await t.run(async (ctx) => await ctx.db.get("organizations", f.orgId));
    expect(out).toMatchObject({
      subject: "Ada, vote early",
      text: `Dear Ada Lovelace (Democrat),\n${org!.name} needs you.`,
    });
    await expect(
      as.mutation(api.voterEmails.send, { voterId, subject: "Hi {{voter.nickname}}", message: "M" }),
    ).rejects.toThrow(/Unknown personalization variable: \{\{voter.nickname\}\}/);
  });
});

describe("internal seeding", () => {
  test("seed.insertVoters inserts and counts", async () => {
    const { t, f } = await fixture();
    await t.mutation(internal.seed.insertVoters, {
      orgId: f.orgId,
      voters: [
        { first_name: "S", last_name: "One" },
        { first_name: "S", last_name: "Two" },
      ],
    });
    expect(await counter(t, f.orgId, "voters")).toBe(3);
    expect((await f.viewer.as.query(api.voters.list, { ...page, search: "two" })).page).toHaveLength(1);
  });
});

test("a phone saved from the voter form is stored as an import stores it: (NNN) NNN-NNNN", async () => {
  const { f } = await fixture();
  const as = f.campaign_manager.as;
  const id = await as.mutation(api.voters.create, {
    fields: { first_name: "Grace", last_name: "Hopper", phone: "1-555.010.0123" },
  });
  expect((await as.query(api.voters.get, { id }))?.phone).toBe("(555) 010-0123");
  await as.mutation(api.voters.update, {
    id,
    edits: [{ field: "phone", base: "(555) 010-0123", value: "5550100199 ext 12" }],
  });
  expect((await as.query(api.voters.get, { id }))?.phone).toBe("(555) 010-0199 x12");
  // what is not a US number keeps what was typed
  await as.mutation(api.voters.update, {
    id,
    edits: [{ field: "phone", base: "(555) 010-0199 x12", value: "+44 20 7946 0958" }],
  });
  expect((await as.query(api.voters.get, { id }))?.phone).toBe("+44 20 7946 0958");
});
