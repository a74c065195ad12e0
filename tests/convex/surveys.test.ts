import { describe, expect, test } from "vitest";
import { api } from "@convex/_generated/api";
import { newSurveyField, type SurveyField, type SurveyPage } from "@convex/lib/surveys/rules";
import { roleFixture, setupTest } from "./setup";

const ROLES = ["super_admin", "account_admin", "campaign_manager", "volunteer", "viewer"] as const;
const CAN = new Set(["super_admin", "campaign_manager"]);

const q = (id: string, type: SurveyField["type"], label: string, extra: Partial<SurveyField> = {}): SurveyField => ({
  ...newSurveyField(type, id),
  label,
  ...extra,
});
const PAGES: SurveyPage[] = [
  {
    id: "page_1",
    title: "About you",
    condition: null,
    fields: [
      q("field_rate", "rating", "How do we do?", { required: true, maxRating: 5 }),
      q("field_vol", "radio", "Will you volunteer?", { required: true, options: ["Yes", "No"] }),
    ],
  },
  {
    id: "page_2",
    title: "Volunteering",
    condition: { fieldId: "field_vol", op: "equals", value: "Yes" },
    fields: [
      q("field_days", "checkbox", "Which days?", { required: true, options: ["Sat", "Sun"] }),
      q("field_hours", "slider", "Hours a week", { min: 0, max: 20, step: 2 }),
    ],
  },
];

async function fixture() {
  const t = setupTest();
  const f = await roleFixture(t);
  const cm = f.campaign_manager.as;
  const id = await cm.mutation(api.surveys.create, {
    name: " Volunteer survey ",
    description: null,
    recipient: "lead@campaign.org",
  });
  await cm.mutation(api.surveys.save, {
    id,
    name: "Volunteer survey",
    description: "2026",
    recipient: "lead@campaign.org",
    pages: PAGES,
    settings: { allowMultipleSubmissions: false, showProgressBar: true },
  });
  return { t, f, id };
}

describe("surveys (surveys.view / surveys.manage)", () => {
  test.each(ROLES)("%s", async (role) => {
    const { f, id } = await fixture();
    const as = f[role].as;
    if (CAN.has(role)) {
      expect(await as.query(api.surveys.list, {})).toMatchObject([
        { name: "Volunteer survey", recipient: "lead@campaign.org", version: 2 },
      ]);
      const other = await as.mutation(api.surveys.create, { name: "Second", description: null, recipient: null });
      await as.mutation(api.surveys.updateSettings, {
        settings: {
          emailNotifications: false,
          defaultRecipient: "desk@campaign.org",
          autoSave: false,
          allowAnonymous: true,
        },
      });
      expect(await as.query(api.surveys.settings, {})).toEqual({
        emailNotifications: false,
        defaultRecipient: "desk@campaign.org",
        autoSave: false,
        allowAnonymous: true,
      });
      await as.mutation(api.surveys.remove, { id: other });
      expect(
        await as.mutation(api.surveySubmissions.submitPreview, {
          surveyId: id,
          responses: { field_rate: 4, field_vol: "No" },
          email: null,
        }),
      ).toMatchObject({ ok: true });
      expect((await as.query(api.surveySubmissions.list, { surveyId: id, limit: 10 })).rows).toHaveLength(1);
    } else {
      await expect(as.query(api.surveys.list, {})).rejects.toThrow(/permission/);
      await expect(as.mutation(api.surveys.create, { name: "X", description: null, recipient: null })).rejects.toThrow(
        /permission/,
      );
      await expect(
        as.mutation(api.surveys.save, {
          id,
          name: "X",
          description: null,
          recipient: null,
          pages: PAGES,
          settings: { allowMultipleSubmissions: true, showProgressBar: true },
        }),
      ).rejects.toThrow(/permission/);
      await expect(as.mutation(api.surveys.remove, { id })).rejects.toThrow(/permission/);
      await expect(
        as.mutation(api.surveys.updateSettings, {
          settings: { emailNotifications: false, defaultRecipient: null, autoSave: false, allowAnonymous: true },
        }),
      ).rejects.toThrow(/permission/);
      await expect(as.query(api.surveySubmissions.list, { surveyId: id, limit: 10 })).rejects.toThrow(/permission/);
    }
  });
  test("other organisation and signed out", async () => {
    const { t, f, id } = await fixture();
    expect(await f.outsider.as.query(api.surveys.list, {})).toEqual([]);
    await expect(f.outsider.as.mutation(api.surveys.remove, { id })).rejects.toThrow(/could not be found/);
    await expect(f.outsider.as.query(api.surveySubmissions.list, { surveyId: id, limit: 10 })).rejects.toThrow(
      /could not be found/,
    );
    await expect(t.query(api.surveys.list, {})).rejects.toThrow(/log in/);
    expect(await t.query(api.surveys.publicSurvey, { id })).toMatchObject({
      name: "Volunteer survey",
      allowAnonymous: false,
    });
    expect(await t.query(api.surveys.publicSurvey, { id: "nope" })).toBeNull();
  });
  test("the builder's rules: name, at least one page, rating 2–10, slider step ≥ 1, conditions on earlier questions", async () => {
    const { f, id } = await fixture();
    const cm = f.campaign_manager.as;
    const save = (pages: SurveyPage[], name = "S") =>
      cm.mutation(api.surveys.save, {
        id,
        name,
        description: null,
        recipient: null,
        pages,
        settings: { allowMultipleSubmissions: false, showProgressBar: true },
      });
    await expect(cm.mutation(api.surveys.create, { name: "  ", description: null, recipient: null })).rejects.toThrow(
      /Survey name required/,
    );
    await expect(save([])).rejects.toThrow(/Cannot delete page: Survey must have at least one page./);
    await expect(save([{ ...PAGES[0], fields: [q("field_r", "rating", "R", { maxRating: 11 })] }])).rejects.toThrow(
      /2 to 10/,
    );
    await expect(save([{ ...PAGES[0], fields: [q("field_s", "slider", "S", { step: 0 })] }])).rejects.toThrow(
      /at least 1/,
    );
    await expect(save([{ ...PAGES[1] }, PAGES[0]])).rejects.toThrow(/earlier page/);
    await expect(
      cm.mutation(api.surveys.create, { name: "X", description: null, recipient: "not an email" }),
    ).rejects.toThrow(/valid email/);
  });
  test("the Starter plan allows 10 surveys", async () => {
    const { f } = await fixture();
    for (let i = 0; i < 9; i++)
      await f.campaign_manager.as.mutation(api.surveys.create, { name: `S${i}`, description: null, recipient: null });
    await expect(
      f.campaign_manager.as.mutation(api.surveys.create, { name: "Eleventh", description: null, recipient: null }),
    ).rejects.toThrow(/Starter plan allows 10 surveys/);
  });
});

describe("survey submissions", () => {
  test("a survey's own required email question is the respondent's email: no separate email needed, one response per address", async () => {
    const { f, id } = await fixture();
    const cm = f.campaign_manager.as;
    const pages: SurveyPage[] = [
      {
        id: "page_1",
        title: "",
        condition: null,
        fields: [
          q("field_name", "text", "Name", { required: true }),
          q("field_email", "email", "Email", { required: true }),
        ],
      },
    ];
    await cm.mutation(api.surveys.save, {
      id,
      name: "Sign-up",
      description: null,
      recipient: null,
      pages,
      settings: { allowMultipleSubmissions: false, showProgressBar: true },
    });
    const submit = (email: string) =>
      cm.mutation(api.surveySubmissions.submitPreview, {
        surveyId: id,
        responses: { field_name: "Ann", field_email: email },
        email: "",
      });
    expect(await submit("ann@x.org")).toMatchObject({ ok: true });
    expect((await cm.query(api.surveySubmissions.list, { surveyId: id, limit: 10 })).rows.map((r) => r.email)).toEqual([
      "ann@x.org",
    ]);
    expect(await submit("ANN@x.org")).toEqual({
      ok: false,
      errors: {},
      message: "You have already responded to this survey.",
    });
  });
  test("skip logic decides what may and must be answered; one response per email; notification email queued", async () => {
    const { t, f, id } = await fixture();
    const cm = f.campaign_manager.as;
    const submit = (responses: Record<string, unknown>, email: string | null = "ann@x.org") =>
      cm.mutation(api.surveySubmissions.submitPreview, { surveyId: id, responses: responses as never, email });
    // page 2 hidden for "No": answering it is refused; its required questions are not required
    expect(await submit({ field_rate: 5, field_vol: "No", field_days: ["Sat"] })).toEqual({
      ok: false,
      errors: { field_days: "This question was not shown for your answers." },
    });
    // page 2 shown for "Yes": its required checkbox list must not be empty; slider on its steps
    expect(await submit({ field_rate: 5, field_vol: "Yes", field_days: [], field_hours: 3 })).toEqual({
      ok: false,
      errors: { field_days: "This field is required", field_hours: "Please choose a value on the slider." },
    });
    expect(await submit({ field_rate: 6, field_vol: "Maybe" })).toEqual({
      ok: false,
      errors: { field_rate: "Please choose a rating.", field_vol: "Please choose one of the options." },
    });
    expect(await submit({ field_rate: 5, field_vol: "Yes", field_days: ["Sat", "Sun"], field_hours: 4 })).toMatchObject(
      { ok: true },
    );
    expect(await submit({ field_rate: 4, field_vol: "No" }, "ANN@x.org")).toEqual({
      ok: false,
      errors: {},
      message: "You have already responded to this survey.",
    });
    // anonymous only when the organisation allows it
    expect(await submit({ field_rate: 4, field_vol: "No" }, "")).toMatchObject({
      ok: false,
      errors: { respondentEmail: "Please enter your email address" },
    });
    const mails = await t.run((ctx) => ctx.db.query("emailOutbox").collect());
    expect(mails).toMatchObject([
      { to: "lead@campaign.org", kind: "survey_submission", subject: 'New response to "Volunteer survey"' },
    ]);
    expect(mails[0].text).toContain("Which days?: Sat, Sun");
    const list = await cm.query(api.surveySubmissions.list, { surveyId: id, limit: 10 });
    expect(list.rows).toMatchObject([
      {
        email: "ann@x.org",
        responses: { field_rate: 5, field_vol: "Yes", field_days: ["Sat", "Sun"], field_hours: 4 },
      },
    ]);
    expect(list.total).toBe(1);
  });
  test("notifications off send nothing; anonymous allowed; the default recipient is used when the survey has none; delete", async () => {
    const { t, f, id } = await fixture();
    const cm = f.campaign_manager.as;
    await cm.mutation(api.surveys.updateSettings, {
      settings: {
        emailNotifications: true,
        defaultRecipient: "desk@campaign.org",
        autoSave: true,
        allowAnonymous: true,
      },
    });
    const other = await cm.mutation(api.surveys.create, { name: "No recipient", description: null, recipient: null });
    await cm.mutation(api.surveys.save, {
      id: other,
      name: "No recipient",
      description: null,
      recipient: null,
      pages: PAGES,
      settings: { allowMultipleSubmissions: true, showProgressBar: false },
    });
    await cm.mutation(api.surveySubmissions.submitPreview, {
      surveyId: other,
      responses: { field_rate: 1, field_vol: "No" },
      email: "",
    });
    await cm.mutation(api.surveySubmissions.submitPreview, {
      surveyId: other,
      responses: { field_rate: 2, field_vol: "No" },
      email: "",
    });
    expect((await t.run((ctx) => ctx.db.query("emailOutbox").collect())).map((m) => m.to)).toEqual([
      "desk@campaign.org",
      "desk@campaign.org",
    ]);
    await cm.mutation(api.surveys.updateSettings, {
      settings: {
        emailNotifications: false,
        defaultRecipient: "desk@campaign.org",
        autoSave: true,
        allowAnonymous: true,
      },
    });
    await cm.mutation(api.surveySubmissions.submitPreview, {
      surveyId: id,
      responses: { field_rate: 3, field_vol: "No" },
      email: "",
    });
    expect(await t.run((ctx) => ctx.db.query("emailOutbox").collect())).toHaveLength(2);
    const rows = (await cm.query(api.surveySubmissions.list, { surveyId: other, limit: 10 })).rows;
    expect(rows.map((r) => r.email)).toEqual([null, null]);
    await expect(f.viewer.as.mutation(api.surveySubmissions.remove, { id: rows[0].id })).rejects.toThrow(/permission/);
    await cm.mutation(api.surveySubmissions.remove, { id: rows[0].id });
    expect((await cm.query(api.surveySubmissions.list, { surveyId: other, limit: 10 })).total).toBe(1);
    const sample = await cm.query(api.surveySubmissions.summarySample, { surveyId: other });
    expect(sample).toEqual({ responses: [{ field_rate: 1, field_vol: "No" }], sampled: false });
    const exportId = await cm.mutation(api.surveySubmissions.startExport, { surveyId: other });
    const page = await cm.query(api.surveySubmissions.exportPage, { exportId, surveyId: other, before: null });
    expect(page.rows).toHaveLength(1);
  });
  test("deleting a survey deletes its submissions", async () => {
    const { t, f, id } = await fixture();
    await f.campaign_manager.as.mutation(api.surveySubmissions.submitPreview, {
      surveyId: id,
      responses: { field_rate: 3, field_vol: "No" },
      email: "a@b.org",
    });
    await f.campaign_manager.as.mutation(api.surveys.remove, { id: id });
    await t.finishAllScheduledFunctions(() => {});
    expect(await t.run((ctx) => ctx.db.query("surveySubmissions").collect())).toEqual([]);
  });
});
