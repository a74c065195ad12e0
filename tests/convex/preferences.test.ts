/**
 * Personal settings (/settings) and the Polls & Surveys hub (/polls-surveys): who may read and
 * write, what the server refuses, and the notification emails obeying each member's opt-out.
 */
import { describe, expect, test } from "vitest";
import { api } from "@convex/_generated/api";
import { builtInRole, resolveRoles } from "@convex/lib/permissions";
import { newSurveyField, type SurveyPage } from "@convex/lib/surveys/rules";
import { acceptInvitationForNewUser } from "@convex/model/invitations";
import { createMember, roleFixture, setupTest, type TestConvex } from "./setup";

const ROLES = ["super_admin", "account_admin", "campaign_manager", "volunteer", "viewer"] as const;
const PAGES: SurveyPage[] = [
  {
    id: "page_1",
    title: "Page 1",
    condition: null,
    fields: [{ ...newSurveyField("text", "field_name"), label: "Name", required: true }],
  },
];
const SETTINGS = { allowMultipleSubmissions: true, showProgressBar: false };

const outbox = (t: TestConvex, to: string) =>
  t.run(async (ctx) =>
    ctx.db
      .query("emailOutbox")
      .withIndex("by_to", (q) => q.eq("to", to))
      .collect(),
  );

describe("preferences (any signed-in user, only their own)", () => {
  test("signed out: refused", async () => {
    const t = setupTest();
    await expect(t.query(api.preferences.mine, {})).rejects.toThrow(/log in/);
    await expect(t.mutation(api.preferences.update, { timeZone: "Europe/Paris" })).rejects.toThrow(/log in/);
  });

  test("defaults, a change, and another user neither sees nor changes it", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    const a = f.campaign_manager.as;
    expect(await a.query(api.preferences.mine, {})).toEqual({
      timeZone: null,
      defaultMode: null,
      notifications: { surveyResponses: true, invitationAccepted: true },
    });
    await a.mutation(api.preferences.update, {
      timeZone: "America/Chicago",
      defaultMode: "campaign",
      notifications: { surveyResponses: false },
    });
    expect(await a.query(api.preferences.mine, {})).toEqual({
      timeZone: "America/Chicago",
      defaultMode: "campaign",
      notifications: { surveyResponses: false, invitationAccepted: true },
    });
    // a teammate and an outsider: their own (default) settings; their writes touch only their rows
    for (const other of [f.volunteer, f.outsider]) {
      expect(await other.as.query(api.preferences.mine, {})).toMatchObject({
        timeZone: null,
        notifications: { surveyResponses: true },
      });
      await other.as.mutation(api.preferences.update, { timeZone: "Asia/Tokyo" });
    }
    expect(await a.query(api.preferences.mine, {})).toMatchObject({ timeZone: "America/Chicago" });
    const rows = await t.run(async (ctx) => ctx.db.query("userPreferences").collect());
    expect(rows.map((r) => [r.userId, r.timeZone]).sort()).toEqual(
      [
        [f.campaign_manager.userId, "America/Chicago"],
        [f.volunteer.userId, "Asia/Tokyo"],
        [f.outsider.userId, "Asia/Tokyo"],
      ].sort(),
    );
    // back to the browser's zone
    await a.mutation(api.preferences.update, { timeZone: null });
    expect((await a.query(api.preferences.mine, {})).timeZone).toBeNull();
  });

  test("an unknown time zone is refused; a known one is stored in its canonical spelling", async () => {
    const t = setupTest();
    const m = await createMember(t, ["viewer"]);
    for (const bad of ["Mars/Olympus_Mons", "", "Europe/Paris; drop", "x".repeat(100)]) {
      await expect(m.as.mutation(api.preferences.update, { timeZone: bad })).rejects.toThrow(/not a time zone/);
    }
    await m.as.mutation(api.preferences.update, { timeZone: "europe/paris" });
    expect((await m.as.query(api.preferences.mine, {})).timeZone).toBe("Europe/Paris");
  });

  test.each(ROLES)("%s: a default mode only among the modes the roles allow", async (role) => {
    const t = setupTest();
    const f = await roleFixture(t);
    const allowed = resolveRoles([role], undefined, undefined, builtInRole)!.modes;
    for (const mode of ["campaign", "petition", "relationship"] as const) {
      const call = f[role].as.mutation(api.preferences.update, { defaultMode: mode });
      if (allowed.includes(mode)) expect((await call).defaultMode).toBe(mode);
      else await expect(call).rejects.toThrow(/roles do not allow/);
    }
  });
});

describe("notification emails obey the member's choice", () => {
  test("survey responses to a member's own address: sent while on, not once turned off; a shared inbox always gets them", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    const cm = f.campaign_manager;
    const email = (await t.run(async (ctx) => ctx.db.get("users", cm.userId)))!.email!;
    const mine = await cm.as.mutation(api.surveys.create, { name: "Mine", description: null, recipient: email });
    const shared = await cm.as.mutation(api.surveys.create, {
      name: "Shared",
      description: null,
      recipient: "desk@campaign.org",
    });
    for (const id of [mine, shared])
      await cm.as.mutation(api.surveys.save, {
        id,
        name: "S",
        description: null,
        recipient: id === mine ? email : "desk@campaign.org",
        pages: PAGES,
        settings: SETTINGS,
      });
    const answer = (surveyId: typeof mine) =>
      cm.as.mutation(api.surveySubmissions.submitPreview, {
        surveyId,
        responses: { field_name: "Ada" },
        email: "ada@example.org",
      });
    await answer(mine);
    expect((await outbox(t, email)).filter((m) => m.kind === "survey_submission")).toHaveLength(1);
    await cm.as.mutation(api.preferences.update, { notifications: { surveyResponses: false } });
    await answer(mine);
    await answer(shared);
    expect((await outbox(t, email)).filter((m) => m.kind === "survey_submission")).toHaveLength(1);
    expect(await outbox(t, "desk@campaign.org")).toHaveLength(1);
    // the response itself is kept and counted either way
    expect((await cm.as.query(api.surveyHub.overview, {})).totalResponses).toBe(3);
  });

  test("'someone I invited joined': to the inviter, unless turned off", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    const inviterEmail = (await t.run(async (ctx) => ctx.db.get("users", f.creator.userId)))!.email!;
    const join = async (email: string) => {
      await f.creator.as.mutation(api.members.invite, { firstName: "New", lastName: "Bie", email, role: "volunteer" });
      const text = (await outbox(t, email)).at(-1)!.text;
      const url = new URL(text.match(/\/accept-invitation\S+/)![0], "http://x");
      await t.run(async (ctx) => {
        const id = await ctx.db.insert("users", { email, firstName: "New", lastName: "Bie" });
        await acceptInvitationForNewUser(ctx, id, email, url.searchParams.get("id")!, url.searchParams.get("token")!);
      });
    };
    await join("first@example.org");
    const mails = (await outbox(t, inviterEmail)).filter((m) => m.kind === "invitation_accepted");
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe(
      `New Bie joined ${(await t.run(async (ctx) => ctx.db.get("organizations", f.orgId)))!.name} on Precinct`,
    );
    expect(mails[0].text).toContain("/settings");
    await f.creator.as.mutation(api.preferences.update, { notifications: { invitationAccepted: false } });
    await join("second@example.org");
    expect((await outbox(t, inviterEmail)).filter((m) => m.kind === "invitation_accepted")).toHaveLength(1);
  });
});

describe("surveyHub.overview (surveys.view)", () => {
  test.each(ROLES)("%s", async (role) => {
    const t = setupTest();
    const f = await roleFixture(t);
    const cm = f.campaign_manager.as;
    const empty = await cm.mutation(api.surveys.create, { name: "Empty", description: null, recipient: null });
    const live = await cm.mutation(api.surveys.create, { name: "Live", description: "Door knock", recipient: null });
    await cm.mutation(api.surveys.save, {
      id: live,
      name: "Live",
      description: "Door knock",
      recipient: null,
      pages: PAGES,
      settings: SETTINGS,
    });
    const first = await cm.mutation(api.surveySubmissions.submitPreview, {
      surveyId: live,
      responses: { field_name: "A" },
      email: "a@example.org",
    });
    await cm.mutation(api.surveySubmissions.submitPreview, {
      surveyId: live,
      responses: { field_name: "B" },
      email: "b@example.org",
    });
    const can = resolveRoles([role], undefined, undefined, builtInRole)!.permissions.has("surveys.view");
    const as = f[role].as;
    if (!can) {
      await expect(as.query(api.surveyHub.overview, {})).rejects.toThrow(
        "You do not have permission to perform this action.",
      );
      return;
    }
    const hub = await as.query(api.surveyHub.overview, {});
    expect(hub.surveys.map((s) => [s.name, s.status, s.questions, s.responses])).toEqual([
      ["Live", "live", 1, 2],
      ["Empty", "draft", 0, 0],
    ]);
    expect(hub.surveys[0].lastResponseAt).toBeGreaterThan(0);
    expect(hub.surveys[1].lastResponseAt).toBeNull();
    expect(hub.totalResponses).toBe(2);
    // the count follows a delete exactly
    if (first.ok) await cm.mutation(api.surveySubmissions.remove, { id: first.id });
    expect((await as.query(api.surveyHub.overview, {})).surveys.find((s) => s.id === live)?.responses).toBe(1);
    expect((await as.query(api.surveyHub.overview, {})).surveys.find((s) => s.id === empty)?.responses).toBe(0);
    // another organisation sees none of them
    expect((await f.outsider.as.query(api.surveyHub.overview, {})).surveys).toEqual([]);
  });
});
