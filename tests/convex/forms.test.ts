import * as Y from "yjs";
import { describe, expect, test } from "vitest";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { readDraft } from "@convex/lib/forms/draft";
import type { FormField } from "@convex/lib/forms/rules";
import { joinChunks } from "@convex/model/yjs";
import { createMember, roleFixture, setupTest, type TestConvex } from "./setup";

const ROLES = ["super_admin", "account_admin", "campaign_manager", "volunteer", "viewer"] as const;
const CAN_VIEW = new Set(["super_admin", "campaign_manager", "volunteer", "viewer"]);
const CAN_MANAGE = new Set(["super_admin", "campaign_manager"]);

const field = (id: string, type: FormField["type"], label: string, extra: Partial<FormField> = {}): FormField => ({
  id,
  type,
  label,
  required: false,
  placeholder: null,
  options: [],
  ...extra,
});
const FIELDS: FormField[] = [
  field("field_name", "text", "Full name", { required: true }),
  field("field_email", "email", "Email", { required: true }),
  field("field_phone", "tel", "Phone"),
  field("separator_1", "separator", ""),
  field("field_topic", "select", "Topic", { options: ["Yard sign", "Volunteer"] }),
  field("field_ok", "checkbox", "Keep me informed"),
  field("field_age", "number", "Age"),
];

async function fixture() {
  const t = setupTest();
  const f = await roleFixture(t);
  const { id } = await f.campaign_manager.as.mutation(api.forms.create, {
    name: " Volunteer signup ",
    description: "Join us",
    fields: FIELDS,
  });
  return { t, f, formId: id };
}

async function draftOf(t: TestConvex, formId: Id<"forms">) {
  return await t.run(async (ctx) => {
    const orgId = (await ctx.db.get("forms", formId))!.orgId;
    const docRow = await ctx.db
      .query("yDocs")
      .withIndex("by_org_doc", (q) => q.eq("orgId", orgId).eq("docId", `form:${formId}`))
      .unique();
    const updates = await ctx.db
      .query("yUpdates")
      .withIndex("by_doc_seq", (q) => q.eq("docRef", docRow!._id))
      .collect();
    const doc = new Y.Doc();
    for (const u of updates) Y.applyUpdate(doc, joinChunks([u.data]));
    return readDraft(doc);
  });
}

describe("forms.list (forms.view)", () => {
  test.each(ROLES)("%s", async (role) => {
    const { f } = await fixture();
    if (CAN_VIEW.has(role)) {
      const r = await f[role].as.query(api.forms.list, {});
      expect(r.forms).toMatchObject([
        { name: "Volunteer signup", description: "Join us", status: "active", submissionCount: 0 },
      ]);
      expect(r).toMatchObject({ activeLimit: 3, planName: "Starter" });
    } else await expect(f[role].as.query(api.forms.list, {})).rejects.toThrow(/permission/);
  });
  test("other organisation and signed out", async () => {
    const { t, f } = await fixture();
    expect((await f.outsider.as.query(api.forms.list, {})).forms).toEqual([]);
    await expect(t.query(api.forms.list, {})).rejects.toThrow(/log in/);
  });
});

describe("forms.create / save / setStatus / setOptions / remove (forms.manage)", () => {
  test.each(ROLES)("%s", async (role) => {
    const { f, formId } = await fixture();
    const as = f[role].as;
    if (CAN_MANAGE.has(role)) {
      const created = await as.mutation(api.forms.create, { name: "Another", description: null, fields: [] });
      expect(created.status).toBe("active");
      expect(
        await as.mutation(api.forms.save, {
          id: formId,
          name: "Renamed",
          description: null,
          fields: FIELDS.slice(0, 2),
        }),
      ).toEqual({ version: 2 });
      await as.mutation(api.forms.setStatus, { id: formId, status: "inactive" });
      await as.mutation(api.forms.setOptions, { id: formId, matchVoters: true, createContacts: false });
      const row = (await as.query(api.forms.list, {})).forms.find((x) => x.id === formId)!;
      expect(row).toMatchObject({
        name: "Renamed",
        description: null,
        status: "inactive",
        matchVoters: true,
        version: 2,
      });
      expect(row.fields.map((x) => x.id)).toEqual(["field_name", "field_email"]);
      await as.mutation(api.forms.remove, { id: created.id });
    } else {
      await expect(as.mutation(api.forms.create, { name: "X", description: null, fields: [] })).rejects.toThrow(
        /permission/,
      );
      await expect(
        as.mutation(api.forms.save, { id: formId, name: "X", description: null, fields: [] }),
      ).rejects.toThrow(/permission/);
      await expect(as.mutation(api.forms.setStatus, { id: formId, status: "inactive" })).rejects.toThrow(/permission/);
      await expect(
        as.mutation(api.forms.setOptions, { id: formId, matchVoters: true, createContacts: false }),
      ).rejects.toThrow(/permission/);
      await expect(as.mutation(api.forms.remove, { id: formId })).rejects.toThrow(/permission/);
    }
  });
  test("another organisation cannot touch the form; signed out is refused", async () => {
    const { t, f, formId } = await fixture();
    await expect(
      f.outsider.as.mutation(api.forms.save, { id: formId, name: "Hacked", description: null, fields: [] }),
    ).rejects.toThrow(/could not be found|deleted/);
    await expect(f.outsider.as.mutation(api.forms.setStatus, { id: formId, status: "inactive" })).rejects.toThrow(
      /could not be found/,
    );
    await expect(f.outsider.as.mutation(api.forms.remove, { id: formId })).rejects.toThrow(/could not be found/);
    await expect(t.mutation(api.forms.create, { name: "X", description: null, fields: [] })).rejects.toThrow(/log in/);
    expect((await f.campaign_manager.as.query(api.forms.list, {})).forms[0].name).toBe("Volunteer signup");
  });
  test("bad definitions get the builder's messages", async () => {
    const { f, formId } = await fixture();
    const cm = f.campaign_manager.as;
    await expect(cm.mutation(api.forms.create, { name: "  ", description: null, fields: [] })).rejects.toThrow(
      /Form name required/,
    );
    await expect(
      cm.mutation(api.forms.save, {
        id: formId,
        name: "X",
        description: null,
        fields: [field("field_a", "select", "Pick")],
      }),
    ).rejects.toThrow(/needs at least one option/);
    await expect(
      cm.mutation(api.forms.save, { id: formId, name: "X", description: null, fields: [field("bad id", "text", "A")] }),
    ).rejects.toThrow(/invalid id/);
    await expect(
      cm.mutation(api.forms.save, {
        id: formId,
        name: "X",
        description: null,
        fields: [field("field_a", "text", "A"), field("field_a", "text", "B")],
      }),
    ).rejects.toThrow(/invalid id/);
  });
  test("the draft is seeded once, from the server, with the form's content", async () => {
    const { t, formId } = await fixture();
    const draft = await draftOf(t, formId);
    expect(draft.name).toBe("Volunteer signup");
    expect(draft.fields.map((x) => x.id)).toEqual(FIELDS.map((x) => x.id));
    expect(draft.fields[4].options).toEqual(["Yard sign", "Volunteer"]);
  });
  test("the Starter plan allows 3 active forms: a 4th is created inactive and cannot be activated", async () => {
    const { f } = await fixture();
    const cm = f.campaign_manager.as;
    await cm.mutation(api.forms.create, { name: "Two", description: null, fields: [] });
    await cm.mutation(api.forms.create, { name: "Three", description: null, fields: [] });
    const fourth = await cm.mutation(api.forms.create, { name: "Four", description: null, fields: [] });
    expect(fourth.status).toBe("inactive");
    await expect(cm.mutation(api.forms.setStatus, { id: fourth.id, status: "active" })).rejects.toThrow(
      /Your Starter plan allows 3 active forms/,
    );
  });
  test("deleting a form deletes its submissions", async () => {
    const { t, f, formId } = await fixture();
    for (let i = 0; i < 3; i++)
      await f.viewer.as.mutation(api.formSubmissions.submitInApp, {
        formId,
        data: { field_name: `P${i}`, field_email: `p${i}@x.org` },
      });
    await f.campaign_manager.as.mutation(api.forms.remove, { id: formId });
    await t.finishAllScheduledFunctions(() => {});
    expect(await t.run((ctx) => ctx.db.query("formSubmissions").collect())).toEqual([]);
  });
});

describe("forms.publicForm (anyone)", () => {
  test("an active form's content; null when inactive, deleted or not an id", async () => {
    const { t, f, formId } = await fixture();
    expect(await t.query(api.forms.publicForm, { id: formId })).toMatchObject({
      name: "Volunteer signup",
      fields: FIELDS.map((x) => ({ id: x.id })),
    });
    await f.campaign_manager.as.mutation(api.forms.setStatus, { id: formId, status: "inactive" });
    expect(await t.query(api.forms.publicForm, { id: formId })).toBeNull();
    expect(await t.query(api.forms.publicForm, { id: "nonsense" })).toBeNull();
  });
});

describe("formSubmissions (forms.view)", () => {
  test.each(ROLES)("%s submits in the View dialog and lists", async (role) => {
    const { f, formId } = await fixture();
    const as = f[role].as;
    const data = { field_name: "Rosa", field_email: "Rosa@Example.org", field_ok: true, field_age: "42" };
    if (CAN_VIEW.has(role)) {
      expect(await as.mutation(api.formSubmissions.submitInApp, { formId, data })).toMatchObject({ ok: true });
      const r = await as.query(api.formSubmissions.list, { formId: null, from: null, to: null, email: "", limit: 50 });
      expect(r.rows).toMatchObject([
        {
          formName: "Volunteer signup",
          source: "app",
          data: { field_name: "Rosa", field_email: "Rosa@Example.org", field_ok: true, field_age: 42 },
        },
      ]);
    } else {
      await expect(as.mutation(api.formSubmissions.submitInApp, { formId, data })).rejects.toThrow(/permission/);
      await expect(
        as.query(api.formSubmissions.list, { formId: null, from: null, to: null, email: "", limit: 50 }),
      ).rejects.toThrow(/permission/);
    }
  });
  test("other organisation and signed out", async () => {
    const { t, f, formId } = await fixture();
    await f.viewer.as.mutation(api.formSubmissions.submitInApp, {
      formId,
      data: { field_name: "A", field_email: "a@x.org" },
    });
    expect(
      (
        await f.outsider.as.query(api.formSubmissions.list, {
          formId: null,
          from: null,
          to: null,
          email: "",
          limit: 50,
        })
      ).rows,
    ).toEqual([]);
    await expect(
      f.outsider.as.mutation(api.formSubmissions.submitInApp, {
        formId,
        data: { field_name: "A", field_email: "a@x.org" },
      }),
    ).rejects.toThrow(/not found/i);
    const all = { formId: null, from: null, to: null, email: "" };
    const exportId = await f.campaign_manager.as.mutation(api.formSubmissions.startExport, all);
    await expect(t.mutation(api.formSubmissions.startExport, all)).rejects.toThrow(/log in/);
    await expect(t.query(api.formSubmissions.exportPage, { ...all, exportId, before: null })).rejects.toThrow(/log in/);
  });
  test("values are checked like the page checks them; nothing is stored on an error", async () => {
    const { t, f, formId } = await fixture();
    const r = await f.viewer.as.mutation(api.formSubmissions.submitInApp, {
      formId,
      data: {
        field_name: " ",
        field_email: "not-an-email",
        field_topic: "Something else",
        field_age: "many",
        field_unknown: "x",
      },
    });
    expect(r).toEqual({
      ok: false,
      errors: {
        field_name: "Full name is required",
        field_email: "Please enter a valid email address",
        field_topic: "Please choose one of the options.",
        field_age: "Please enter a number",
        field_unknown: "This field is not part of the form.",
      },
    });
    expect(await t.run((ctx) => ctx.db.query("formSubmissions").collect())).toEqual([]);
  });
  test("filters: form, created range, submitter email contains; newest first; export pages", async () => {
    const { t, f, formId } = await fixture();
    const cm = f.campaign_manager.as;
    const other = (
      await cm.mutation(api.forms.create, {
        name: "Other",
        description: null,
        fields: [field("field_e", "email", "E", { required: true })],
      })
    ).id;
    const times: number[] = [];
    for (const [email, form] of [
      ["ann@alpha.org", formId],
      ["bob@beta.org", formId],
      ["cat@alpha.org", formId],
      ["dan@alpha.org", other],
    ] as const) {
      await t.run(async (ctx) => {
        const orgId = (await ctx.db.get("forms", form))!.orgId;
        const id = await ctx.db.insert("formSubmissions", {
          orgId,
          formId: form,
          data: { field_name: "x", field_email: email },
          submitterIp: null,
          submitterEmail: email,
          emailLower: email,
          source: "public",
        });
        times.push((await ctx.db.get("formSubmissions", id))!._creationTime);
      });
    }
    const q = (a: Partial<{ formId: Id<"forms"> | null; from: number | null; to: number | null; email: string }>) =>
      cm.query(api.formSubmissions.list, { formId: null, from: null, to: null, email: "", limit: 50, ...a });
    expect((await q({})).rows.map((r) => r.submitterEmail)).toHaveLength(4);
    expect((await q({ formId })).rows.map((r) => r.submitterEmail)).toEqual([
      "cat@alpha.org",
      "bob@beta.org",
      "ann@alpha.org",
    ]);
    expect((await q({ email: "ALPHA" })).rows.map((r) => r.formName)).toEqual([
      "Other",
      "Volunteer signup",
      "Volunteer signup",
    ]);
    expect((await q({ formId, from: times[1], to: times[2] })).rows.map((r) => r.submitterEmail)).toEqual([
      "bob@beta.org",
    ]);
    const exportId = await cm.mutation(api.formSubmissions.startExport, { formId, from: null, to: null, email: "" });
    const page = await cm.query(api.formSubmissions.exportPage, {
      exportId,
      formId,
      from: null,
      to: null,
      email: "",
      before: null,
    });
    expect(page.rows).toHaveLength(3);
    expect(page.nextBefore).toBeNull();
  });
  test("the View dialog records the signed-in staffer's email, the public page the first email field's", async () => {
    const { t, f, formId } = await fixture();
    await t.run(async (ctx) => ctx.db.patch("users", f.viewer.userId, { email: "viewer@campaign.org" }));
    await f.viewer.as.mutation(api.formSubmissions.submitInApp, {
      formId,
      data: { field_name: "A", field_email: "a@x.org" },
    });
    const rows = (
      await f.viewer.as.query(api.formSubmissions.list, { formId, from: null, to: null, email: "", limit: 5 })
    ).rows;
    expect(rows[0].submitterEmail).toBe("viewer@campaign.org");
  });
  test("a form that matches submissions to voters links them by email or phone", async () => {
    const { f, formId } = await fixture();
    const cm = f.campaign_manager.as;
    const byEmail = await cm.mutation(api.voters.create, {
      fields: { first_name: "Ann", last_name: "Lee", email: "ANN@alpha.org" },
    });
    const byPhone = await cm.mutation(api.voters.create, {
      fields: { first_name: "Bo", last_name: "Ray", phone: "(503) 555-0101" },
    });
    await cm.mutation(api.forms.setOptions, { id: formId, matchVoters: true, createContacts: false });
    await cm.mutation(api.formSubmissions.submitInApp, {
      formId,
      data: { field_name: "Ann", field_email: "ann@alpha.org" },
    });
    await cm.mutation(api.formSubmissions.submitInApp, {
      formId,
      data: { field_name: "Bo", field_email: "bo@nowhere.org", field_phone: "503.555.0101" },
    });
    await cm.mutation(api.formSubmissions.submitInApp, {
      formId,
      data: { field_name: "Zed", field_email: "zed@nowhere.org" },
    });
    expect(await cm.query(api.formSubmissions.forVoter, { voterId: byEmail })).toMatchObject([
      { formName: "Volunteer signup" },
    ]);
    expect(await cm.query(api.formSubmissions.forVoter, { voterId: byPhone })).toHaveLength(1);
    const rows = (await cm.query(api.formSubmissions.list, { formId, from: null, to: null, email: "", limit: 50 }))
      .rows;
    expect(rows.map((r) => r.voterId)).toEqual([null, byPhone, byEmail]);
    await expect(f.account_admin.as.query(api.formSubmissions.forVoter, { voterId: byEmail })).rejects.toThrow(
      /permission/,
    );
  });
  test("turning matching on gives voters stored without a phone key one (in steps), so they match", async () => {
    const { t, f, formId } = await fixture();
    const voterId = await t.run(async (ctx) =>
      ctx.db.insert("voters", {
        orgId: f.orgId,
        first_name: "Old",
        last_name: "Record",
        phone: "(503) 555-0177",
        searchText: "old record",
        firstNameLower: "old",
        lastNameLower: "record",
        updatedAt: Date.now(),
      }),
    );
    await f.campaign_manager.as.mutation(api.forms.setOptions, {
      id: formId,
      matchVoters: true,
      createContacts: false,
    });
    await t.finishAllScheduledFunctions(() => {});
    expect((await t.run((ctx) => ctx.db.get("voters", voterId)))?.phoneKey).toBe("+15035550177");
    await f.campaign_manager.as.mutation(api.formSubmissions.submitInApp, {
      formId,
      data: { field_name: "Old Record", field_email: "old@x.org", field_phone: "503-555-0177" },
    });
    expect(await f.campaign_manager.as.query(api.formSubmissions.forVoter, { voterId })).toHaveLength(1);
  });
  test("with 'add unmatched submitters as contacts', a submission naming a person who matches nobody becomes a contact", async () => {
    const { t, f, formId } = await fixture();
    const cm = f.campaign_manager.as;
    await cm.mutation(api.forms.setOptions, { id: formId, matchVoters: true, createContacts: true });
    await cm.mutation(api.formSubmissions.submitInApp, {
      formId,
      data: { field_name: "Mary Ann Evans", field_email: "mae@x.org", field_phone: "5035550199" },
    });
    const voters = await t.run((ctx) => ctx.db.query("voters").collect());
    expect(voters).toMatchObject([
      { first_name: "Mary Ann", last_name: "Evans", email: "mae@x.org", phone: "5035550199" },
    ]);
    const rows = (await cm.query(api.formSubmissions.list, { formId, from: null, to: null, email: "", limit: 5 })).rows;
    expect(rows[0].voterId).toBe(voters[0]._id);
    // a second submission from the same person matches the contact instead of making another
    await cm.mutation(api.formSubmissions.submitInApp, {
      formId,
      data: { field_name: "M. Evans", field_email: "MAE@x.org" },
    });
    expect(await t.run((ctx) => ctx.db.query("voters").collect())).toHaveLength(1);
    // a name that is one word names nobody: no contact
    await cm.mutation(api.formSubmissions.submitInApp, {
      formId,
      data: { field_name: "Cher", field_email: "cher@x.org" },
    });
    expect(await t.run((ctx) => ctx.db.query("voters").collect())).toHaveLength(1);
  });
  test("only a caller who may manage voters can have submissions create contacts", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    const { id: roleId } = await f.creator.as.mutation(api.adminRoles.create, {
      name: "Forms editor",
      description: "Builds forms",
      permissions: ["forms.manage"],
      modes: ["campaign"],
      color: "teal",
    });
    const editor = await createMember(t, [roleId], { orgId: f.orgId });
    const { id } = await editor.as.mutation(api.forms.create, { name: "X", description: null, fields: [] });
    await editor.as.mutation(api.forms.setOptions, { id, matchVoters: true, createContacts: false });
    await expect(
      editor.as.mutation(api.forms.setOptions, { id, matchVoters: true, createContacts: true }),
    ).rejects.toThrow(/manage voters/);
    await f.campaign_manager.as.mutation(api.forms.setOptions, { id, matchVoters: true, createContacts: true });
  });
});
