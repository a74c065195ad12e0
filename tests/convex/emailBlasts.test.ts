/**
 * Email blasts on both backends (issue 15): who may read and change a campaign's setup, send it,
 * follow and control its send and read its statistics; the setup's no-lost-update edits and
 * checks; the spec's send refusals in order (spec/2 §5 "Sending"); a demo blast from fan-out
 * (no address, duplicates, suppressed) through claims and recorded batches to statistics and the
 * voter's history; pause / resume / cancel; schedules and automations (district rules too);
 * Resend's events applied once and in any order; unsubscribes and their rate limit. The provider
 * side (Resend, svix, a backend kill) is in tests/lib/email/blast*.test.ts.
 *
 * Scheduled functions run in the background on both backends: a send the test drives by hand is
 * created paused in one transaction (no sender run can start), fanned out step by step, then set
 * sending without a lease so that claims are the test's own.
 */
import { ConvexError } from "convex/values";
import { describe, expect, test } from "vitest";
import { api, internal } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { newBlock, type BlockValue, type BlockType, type EmailBlock } from "@convex/lib/email/blocks";
import { districtFilter } from "@convex/lib/districts";
import { DEMO_MAILBOX_PER_SEND, NO_RECIPIENTS_RESOLVED } from "@convex/lib/email/blast";
import type { AppErrorData } from "@convex/lib/errors";
import { createSend, enqueueStep, senderOf } from "@convex/model/emailBlast";
import { roleFixture, setupTest, type Member, type TestConvex } from "./setup";

const ROLES = ["super_admin", "account_admin", "campaign_manager", "volunteer", "viewer"] as const;
const CAN_VIEW = new Set<string>(["super_admin", "campaign_manager", "viewer"]);
const CAN_MANAGE = new Set<string>(["super_admin", "campaign_manager"]);

function block(type: BlockType, id: string, content: Record<string, BlockValue> = {}): EmailBlock {
  const b = newBlock(type, id, new Date(2026, 0, 1));
  Object.assign(b.content, content);
  return b;
}
const FOOTER = { companyName: "Jane for Council", address: "42 Elm Street, Portland, OR 97201" };
const SENDABLE: EmailBlock[] = [
  block("heading", "hd", { text: "Hello {{voter.first_name}}" }),
  block("footer", "ft", FOOTER),
];
const SETTINGS = {
  name: "October blast",
  subject: "News for {{voter.first_name}}",
  fromName: "Jane for Council",
  fromEmail: "jane@campaign.example.org",
  replyTo: "",
  previewText: "",
};
const EVENT_RULES = JSON.stringify([
  { id: "r1", field: "city", operator: "equals", value: "Portland", timeDelay: 0, timeUnit: "minutes" },
]);
const HOUR = 3_600_000;

type As = Member["as"];

async function fixture() {
  const t = setupTest();
  const f = await roleFixture(t);
  const cm = f.campaign_manager.as;
  const mk = (first: string, email?: string, city?: string) =>
    cm.mutation(api.voters.create, {
      fields: { first_name: first, last_name: "Voter", ...(email ? { email } : {}), ...(city ? { city } : {}) },
    });
  const voters = {
    ada: await mk("Ada", "Ada@Example.org", "Portland"),
    bob: await mk("Bob", "bob@example.org"),
    twin: await mk("Twin", "ada@example.org"),
    none: await mk("None"),
    gone: await mk("Gone", "gone@example.org"),
  };
  const group = await cm.mutation(api.groups.create, { name: "Canvassers" });
  await cm.mutation(api.groups.addMembers, { groupId: group, voterIds: Object.values(voters) });
  const id = await createCampaign(cm);
  return { t, f, cm, voters, group, id };
}
type Fixture = Awaited<ReturnType<typeof fixture>>;

async function createCampaign(as: As, blocks: EmailBlock[] = SENDABLE, name = SETTINGS.name) {
  return await as.mutation(api.emailCampaigns.create, { ...SETTINGS, name, blocks: JSON.stringify(blocks) });
}

/** Sets setup fields, each edit based on the value read just before (rules on their stored JSON). */
async function setSetup(as: As, id: Id<"emailCampaigns">, values: Record<string, unknown>) {
  const current = (await as.query(api.emailBlasts.setup, { id }))! as unknown as Record<string, unknown>;
  const base = (f: string) => (f === "eventRules" || f === "filterRules" ? current[`${f}Json`] : current[f]);
  const edits = Object.entries(values).map(([field, value]) => ({
    field,
    base: base(field) as never,
    value: value as never,
  }));
  await as.mutation(api.emailBlasts.updateSetup, { id, edits });
}

async function refusal(p: Promise<unknown>) {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(ConvexError);
    return (e as ConvexError<AppErrorData>).data;
  }
  throw new Error("expected a refusal");
}

/** Lets the background work (enqueue steps, the demo sender, cancellations) finish. */
async function settle(t: TestConvex) {
  await t.finishAllScheduledFunctions(() => {}, 1000);
}

async function campaignDoc(t: TestConvex, id: Id<"emailCampaigns">) {
  return (await t.run((ctx) => ctx.db.get("emailCampaigns", id)))!;
}

async function sendDoc(t: TestConvex, sendId: Id<"emailSends">) {
  return (await t.run((ctx) => ctx.db.get("emailSends", sendId)))!;
}

async function messagesOf(t: TestConvex, sendId: Id<"emailSends">) {
  return await t.run((ctx) =>
    ctx.db
      .query("emailMessages")
      .withIndex("by_send_ready", (q) => q.eq("sendId", sendId))
      .collect(),
  );
}

async function drainEnqueue(t: TestConvex, sendId: Id<"emailSends">) {
  for (let i = 0; i < 50; i++) {
    const send = await sendDoc(t, sendId);
    if (send.prep.done) return send;
    await t.mutation(internal.emailBlasts.enqueueStep, { sendId });
  }
  throw new Error("enqueue did not finish");
}

/**
 * A blast of the campaign (as saved) that the test drives by hand: created paused in the same
 * transaction by the campaign manager, fanned out, then "sending" with no lease and no sender run.
 */
async function preparedSend(ctx: Fixture, campaignId: Id<"emailCampaigns">) {
  const { userId, orgId } = ctx.f.campaign_manager;
  const sendId = await ctx.t.run(async (c) => {
    const campaign = (await c.db.get("emailCampaigns", campaignId))!;
    const user = (await c.db.get("users", userId))!;
    const org = (await c.db.get("organizations", orgId))!;
    const id = await createSend(c, campaign, senderOf({ userId, user, org }), "blast");
    await c.db.patch("emailSends", id, { status: "paused" });
    return id;
  });
  await drainEnqueue(ctx.t, sendId);
  await ctx.t.run((c) => c.db.patch("emailSends", sendId, { status: "sending" }));
  return sendId;
}

type Claimed = { batch: { key: string; messages: { id: Id<"emailMessages">; email: string; token: string }[] } };

async function claim(t: TestConvex, sendId: Id<"emailSends">) {
  const gen = (await sendDoc(t, sendId)).drainGen ?? 0;
  return (await t.mutation(internal.emailBlasts.claim, { sendId, gen })) as Claimed | { stop: true } | { wait: number };
}

/** Claims the next batch and records it as the provider's success (demo, or with provider ids). */
async function sendNextBatch(
  t: TestConvex,
  sendId: Id<"emailSends">,
  providerId: (email: string) => string | null = () => null,
  demo = true,
) {
  const claimed = await claim(t, sendId);
  if (!("batch" in claimed)) throw new Error(`nothing to claim: ${JSON.stringify(claimed)}`);
  const results = claimed.batch.messages.map((m) => ({
    id: m.id,
    providerId: providerId(m.email) ?? `demo_${m.id}`,
    error: null,
  }));
  await t.mutation(internal.emailBlasts.recordBatch, {
    sendId,
    key: claimed.batch.key,
    outcome: { kind: "sent", demo, results },
  });
  return claimed.batch;
}

const sendTo = (cm: As, id: Id<"emailCampaigns">) => cm.mutation(api.emailBlasts.send, { id });

// ----- permissions -----

describe("permissions", () => {
  test.each(ROLES)("reading (campaigns.view): %s", async (role) => {
    const ctx = await fixture();
    const { f, id, group, voters } = ctx;
    await setSetup(ctx.cm, id, { groupIds: [group] });
    const sendId = await preparedSend(ctx, id);
    await sendNextBatch(ctx.t, sendId);
    const as = f[role].as;
    const sel = { listIds: [], groupIds: [group], segmentIds: [], manual: ["x@example.org"] };
    if (CAN_VIEW.has(role)) {
      expect(await as.query(api.emailBlasts.setup, { id })).toMatchObject({ groupIds: [group], status: "draft" });
      expect((await as.query(api.emailBlasts.setupEditState, { id })).fields.groupIds).toMatchObject({
        userId: f.campaign_manager.userId,
      });
      expect(await as.query(api.emailBlasts.estimate, sel)).toEqual({
        total: 6,
        lists: 0,
        groups: 5,
        segments: 0,
        manual: 1,
      });
      expect(await as.query(api.emailBlasts.progress, { id })).toMatchObject({
        sendId,
        status: "sending",
        counts: { sent: 3 },
      });
      expect(await as.query(api.emailBlasts.statistics, { id })).toMatchObject({ sent: 3 });
      expect(await as.query(api.emailBlasts.voterHistory, { voterId: voters.bob })).toMatchObject([
        { status: "demo", campaignId: id },
      ]);
    } else {
      for (const call of [
        () => as.query(api.emailBlasts.setup, { id }),
        () => as.query(api.emailBlasts.setupEditState, { id }),
        () => as.query(api.emailBlasts.estimate, sel),
        () => as.query(api.emailBlasts.progress, { id }),
        () => as.query(api.emailBlasts.statistics, { id }),
        () => as.query(api.emailBlasts.voterHistory, { voterId: voters.bob }),
      ]) {
        expect(await refusal(call())).toMatchObject({
          code: "FORBIDDEN",
          message: "You do not have permission to perform this action.",
        });
      }
    }
  });

  test.each(ROLES)("changing and sending (campaigns.manage): %s", async (role) => {
    const ctx = await fixture();
    const { t, f, id, group } = ctx;
    const as = f[role].as;
    const running = await preparedSend(ctx, await setupAndCreate(ctx, { groupIds: [group] }));
    if (CAN_MANAGE.has(role)) {
      await setSetup(as, id, { groupIds: [group], sendType: "schedule", scheduledAt: Date.now() + HOUR });
      expect(await sendTo(as, id)).toEqual({ status: "scheduled", sendId: null });
      await as.mutation(api.emailBlasts.cancelSchedule, { id });
      await setSetup(as, id, { sendType: "event", eventRules: EVENT_RULES });
      expect(await sendTo(as, id)).toMatchObject({ status: "automated" });
      await as.mutation(api.emailBlasts.stopAutomation, { id });
      expect((await campaignDoc(t, id)).status).toBe("draft");
      await as.mutation(api.emailBlasts.control, { sendId: running, action: "pause" });
      expect((await sendDoc(t, running)).status).toBe("paused");
    } else {
      for (const call of [
        () =>
          as.mutation(api.emailBlasts.updateSetup, { id, edits: [{ field: "groupIds", base: [], value: [group] }] }),
        () => as.mutation(api.emailBlasts.send, { id }),
        () => as.mutation(api.emailBlasts.cancelSchedule, { id }),
        () => as.mutation(api.emailBlasts.stopAutomation, { id }),
        () => as.mutation(api.emailBlasts.control, { sendId: running, action: "cancel" }),
      ]) {
        expect(await refusal(call())).toMatchObject({ code: "FORBIDDEN" });
      }
      expect((await campaignDoc(t, id)).blast).toBeUndefined();
      expect((await sendDoc(t, running)).status).toBe("sending");
    }
  });

  test("another organisation's member never sees or changes the campaign, its send or its voters' history", async () => {
    const ctx = await fixture();
    const { t, f, id, group, voters } = ctx;
    await setSetup(ctx.cm, id, { groupIds: [group] });
    const sendId = await preparedSend(ctx, id);
    await sendNextBatch(t, sendId);
    const out = f.outsider.as;
    expect(await out.query(api.emailBlasts.setup, { id })).toBeNull();
    expect(await out.query(api.emailBlasts.setupEditState, { id })).toEqual({ fields: {}, deleted: null });
    expect(
      await out.query(api.emailBlasts.estimate, { listIds: [], groupIds: [group], segmentIds: [], manual: [] }),
    ).toMatchObject({ total: 0, groups: 0 });
    expect(await out.query(api.emailBlasts.progress, { id })).toBeNull();
    expect(await out.query(api.emailBlasts.statistics, { id })).toBeNull();
    expect(await out.query(api.emailBlasts.voterHistory, { voterId: voters.bob })).toEqual([]);
    expect(
      await refusal(
        out.mutation(api.emailBlasts.updateSetup, {
          id,
          edits: [{ field: "manual", base: [], value: ["spy@example.org"] }],
        }),
      ),
    ).toMatchObject({ code: "NOT_FOUND" });
    // the spec's first check: to another organisation the campaign does not exist
    expect(await refusal(out.mutation(api.emailBlasts.send, { id }))).toMatchObject({
      title: "No campaign selected",
      message: "Please select a campaign first",
    });
    expect(await refusal(out.mutation(api.emailBlasts.cancelSchedule, { id }))).toMatchObject({ code: "NOT_FOUND" });
    expect(await refusal(out.mutation(api.emailBlasts.stopAutomation, { id }))).toMatchObject({ code: "NOT_FOUND" });
    expect(await refusal(out.mutation(api.emailBlasts.control, { sendId, action: "cancel" }))).toMatchObject({
      code: "NOT_FOUND",
    });
    expect(await campaignDoc(t, id)).toMatchObject({ status: "draft", blast: { groupIds: [group], manual: [] } });
    expect((await sendDoc(t, sendId)).status).toBe("sending");
  });

  test("signed-out callers are refused; the unsubscribe page's info needs only the link's token", async () => {
    const ctx = await fixture();
    const { t, id, group, voters } = ctx;
    await setSetup(ctx.cm, id, { groupIds: [group] });
    const sendId = await preparedSend(ctx, id);
    const sel = { listIds: [], groupIds: [], segmentIds: [], manual: [] };
    for (const call of [
      () => t.query(api.emailBlasts.setup, { id }),
      () => t.query(api.emailBlasts.setupEditState, { id }),
      () => t.query(api.emailBlasts.estimate, sel),
      () => t.query(api.emailBlasts.progress, { id }),
      () => t.query(api.emailBlasts.statistics, { id }),
      () => t.query(api.emailBlasts.voterHistory, { voterId: voters.ada }),
      () => t.mutation(api.emailBlasts.updateSetup, { id, edits: [] }),
      () => t.mutation(api.emailBlasts.send, { id }),
      () => t.mutation(api.emailBlasts.cancelSchedule, { id }),
      () => t.mutation(api.emailBlasts.stopAutomation, { id }),
      () => t.mutation(api.emailBlasts.control, { sendId, action: "pause" }),
    ]) {
      expect(await refusal(call())).toMatchObject({ code: "UNAUTHORIZED", message: "Please log in to continue." });
    }
    const [m] = (await messagesOf(t, sendId)).filter((x) => x.email === "bob@example.org");
    const orgName = (await t.run((c) => c.db.get("organizations", ctx.f.orgId)))!.name;
    expect(await t.query(api.emailUnsubscribe.info, { token: m.unsubToken })).toEqual({
      orgName,
      email: "b\u2022\u2022\u2022@example.org",
      unsubscribed: false,
    });
    expect(await t.query(api.emailUnsubscribe.info, { token: "not-a-token" })).toBeNull();
    expect(await t.query(api.emailUnsubscribe.info, { token: "" })).toBeNull();
    expect(await t.query(api.emailUnsubscribe.info, { token: m.unsubToken + "x".repeat(200) })).toBeNull();
  });
});

/** Creates another campaign with this setup (the fixture's stays untouched). */
async function setupAndCreate(
  ctx: Fixture,
  values: Record<string, unknown>,
  blocks: EmailBlock[] = SENDABLE,
  name = "Other",
) {
  const id = await createCampaign(ctx.cm, blocks, name);
  await setSetup(ctx.cm, id, values);
  return id;
}

// ----- setup -----

describe("setup", () => {
  test("defaults: no recipients, bounced and complained excluded, send now", async () => {
    const { cm, id } = await fixture();
    expect(await cm.query(api.emailBlasts.setup, { id })).toEqual({
      listIds: [],
      groupIds: [],
      segmentIds: [],
      manual: [],
      excludeBounced: true,
      excludeComplained: true,
      sendType: "now",
      scheduledAt: null,
      eventTrigger: "voter_created",
      eventTargetId: null,
      eventRules: [],
      filterRules: [],
      eventRulesJson: "[]",
      filterRulesJson: "[]",
      status: "draft",
      sentAt: null,
    });
  });

  test("two teammates' edits of different fields merge; the same field changed since is refused naming the teammate", async () => {
    const { t, f, cm, id, group } = await fixture();
    const sa = f.super_admin.as;
    // both start from the defaults
    await cm.mutation(api.emailBlasts.updateSetup, { id, edits: [{ field: "groupIds", base: [], value: [group] }] });
    await sa.mutation(api.emailBlasts.updateSetup, {
      id,
      edits: [{ field: "excludeBounced", base: true, value: false }],
    });
    expect(await cm.query(api.emailBlasts.setup, { id })).toMatchObject({
      groupIds: [group],
      excludeBounced: false,
      excludeComplained: true,
    });
    const cmName = (await t.run((c) => c.db.get("users", f.campaign_manager.userId)))!.name!;
    const state = await sa.query(api.emailBlasts.setupEditState, { id });
    expect(state.fields.groupIds).toMatchObject({ name: cmName });
    expect(state.fields.excludeBounced).toMatchObject({ userId: f.super_admin.userId });

    const err = await refusal(
      sa.mutation(api.emailBlasts.updateSetup, {
        id,
        edits: [
          { field: "groupIds", base: [], value: [] },
          { field: "sendType", base: "now", value: "schedule" },
        ],
      }),
    );
    expect(err).toMatchObject({
      code: "CONFLICT",
      title: "Edit conflict",
      conflicts: [{ field: "groupIds", theirs: [group], by: cmName }],
    });
    expect(err.message).toBe(`The campaign "${SETTINGS.name}" was changed by ${cmName} while you were editing: groups`);
    // nothing of the refused save was applied
    expect(await cm.query(api.emailBlasts.setup, { id })).toMatchObject({ groupIds: [group], sendType: "now" });
    // an edit to the value already stored is no conflict
    await sa.mutation(api.emailBlasts.updateSetup, { id, edits: [{ field: "groupIds", base: [], value: [group] }] });
    // unknown fields are refused
    expect(
      await refusal(
        cm.mutation(api.emailBlasts.updateSetup, { id, edits: [{ field: "status", base: "draft", value: "sent" }] }),
      ),
    ).toMatchObject({ code: "VALIDATION_ERROR" });
    expect((await campaignDoc(t, id)).status).toBe("draft");
  });

  test("ids of another organisation (or of nothing) are refused", async () => {
    const { f, cm, id } = await fixture();
    const theirs = await f.outsider.as.mutation(api.groups.create, { name: "Theirs" });
    expect(
      await refusal(
        cm.mutation(api.emailBlasts.updateSetup, { id, edits: [{ field: "groupIds", base: [], value: [theirs] }] }),
      ),
    ).toMatchObject({
      code: "NOT_FOUND",
      message: "One of the selected groups no longer exists.",
    });
    expect(
      await refusal(
        cm.mutation(api.emailBlasts.updateSetup, { id, edits: [{ field: "listIds", base: [], value: ["nonsense"] }] }),
      ),
    ).toMatchObject({ code: "NOT_FOUND" });
    expect(
      await refusal(
        cm.mutation(api.emailBlasts.updateSetup, { id, edits: [{ field: "segmentIds", base: [], value: [theirs] }] }),
      ),
    ).toMatchObject({ code: "NOT_FOUND" });
    expect((await cm.query(api.emailBlasts.setup, { id }))!.groupIds).toEqual([]);
  });

  test("manual recipients: an invalid address is refused; entries without @ are ignored and duplicates skipped", async () => {
    const { cm, id } = await fixture();
    const err = await refusal(
      cm.mutation(api.emailBlasts.updateSetup, {
        id,
        edits: [{ field: "manual", base: [], value: ["ok@example.org", "bad@", "worse@nowhere"] }],
      }),
    );
    expect(err).toMatchObject({ code: "VALIDATION_ERROR", title: "Invalid email address" });
    expect(err.message).toBe("Please check: bad@, worse@nowhere");
    await cm.mutation(api.emailBlasts.updateSetup, {
      id,
      edits: [
        {
          field: "manual",
          base: [],
          value: ["A@Example.org, just-a-name", "b@example.org; a@example.org", "  ", "c@example.org b@example.org"],
        },
      ],
    });
    expect((await cm.query(api.emailBlasts.setup, { id }))!.manual).toEqual([
      "a@example.org",
      "b@example.org",
      "c@example.org",
    ]);
    expect(
      await cm.query(api.emailBlasts.estimate, {
        listIds: [],
        groupIds: [],
        segmentIds: [],
        manual: ["a@example.org", "A@example.org", "nope"],
      }),
    ).toMatchObject({ total: 1, manual: 1 });
  });

  test("other values are checked: send type, event, scheduled time", async () => {
    const { cm, id } = await fixture();
    expect(
      await refusal(
        cm.mutation(api.emailBlasts.updateSetup, {
          id,
          edits: [{ field: "sendType", base: "now", value: "sometimes" }],
        }),
      ),
    ).toMatchObject({ message: "Unknown send type." });
    expect(
      await refusal(
        cm.mutation(api.emailBlasts.updateSetup, {
          id,
          edits: [{ field: "eventTrigger", base: "voter_created", value: "birthday" }],
        }),
      ),
    ).toMatchObject({ message: "Unknown event." });
    expect(
      await refusal(
        cm.mutation(api.emailBlasts.updateSetup, {
          id,
          edits: [{ field: "scheduledAt", base: null, value: "tomorrow" }],
        }),
      ),
    ).toMatchObject({ message: "Invalid scheduled time." });
    expect(
      await refusal(
        cm.mutation(api.emailBlasts.updateSetup, { id, edits: [{ field: "excludeBounced", base: true, value: "no" }] }),
      ),
    ).toMatchObject({ code: "VALIDATION_ERROR" });
    expect(await cm.query(api.emailBlasts.setup, { id })).toMatchObject({
      sendType: "now",
      eventTrigger: "voter_created",
      scheduledAt: null,
      excludeBounced: true,
    });
  });

  test("rules are validated and stored normalised; an edit based on the stored rules re-formatted still applies", async () => {
    const { cm, id } = await fixture();
    const bad = JSON.stringify([{ id: "r1", field: "city", operator: "resembles", value: "x" }]);
    expect(
      await refusal(
        cm.mutation(api.emailBlasts.updateSetup, { id, edits: [{ field: "filterRules", base: "[]", value: bad }] }),
      ),
    ).toMatchObject({
      code: "VALIDATION_ERROR",
      title: "Invalid rule",
      message: "Condition 1 uses an unknown operator.",
    });
    expect(
      await refusal(
        cm.mutation(api.emailBlasts.updateSetup, { id, edits: [{ field: "filterRules", base: "[]", value: "[{" }] }),
      ),
    ).toMatchObject({ title: "Invalid rule", message: "The rules could not be read." });
    expect(
      await refusal(
        cm.mutation(api.emailBlasts.updateSetup, {
          id,
          edits: [{ field: "eventRules", base: "[]", value: ["not", "json"] }],
        }),
      ),
    ).toMatchObject({ code: "VALIDATION_ERROR" });

    const given = [
      {
        operator: "equals",
        value: "Portland",
        field: "city",
        id: "r1",
        colour: "blue",
        timeDelay: 2,
        timeUnit: "hours",
      },
    ];
    await cm.mutation(api.emailBlasts.updateSetup, {
      id,
      edits: [{ field: "eventRules", base: "[]", value: JSON.stringify(given, null, 2) }],
    });
    const stored = (await cm.query(api.emailBlasts.setup, { id }))!;
    expect(stored.eventRulesJson).toBe(
      '[{"id":"r1","field":"city","operator":"equals","value":"Portland","timeDelay":2,"timeUnit":"hours"}]',
    );
    // a client that kept the rules in its own formatting: the base compares equal to what is stored
    const reformatted = JSON.stringify(JSON.parse(stored.eventRulesJson), null, 4);
    const next = JSON.stringify([{ id: "r1", field: "city", operator: "equals", value: "Salem" }]);
    await cm.mutation(api.emailBlasts.updateSetup, {
      id,
      edits: [{ field: "eventRules", base: reformatted, value: next }],
    });
    expect((await cm.query(api.emailBlasts.setup, { id }))!.eventRules).toEqual([
      { id: "r1", field: "city", operator: "equals", value: "Salem" },
    ]);
    // filter rules drop the delay keys
    await cm.mutation(api.emailBlasts.updateSetup, {
      id,
      edits: [{ field: "filterRules", base: "[]", value: JSON.stringify(given) }],
    });
    expect((await cm.query(api.emailBlasts.setup, { id }))!.filterRulesJson).toBe(
      '[{"id":"r1","field":"city","operator":"equals","value":"Portland"}]',
    );
  });

  test("a deleted group still selected does not block later edits of the setup", async () => {
    const { cm, id, group } = await fixture();
    const other = await cm.mutation(api.groups.create, { name: "Other" });
    await setSetup(cm, id, { groupIds: [group, other] });
    await cm.mutation(api.groups.remove, { id: other });
    // the Send To tab no longer lists the deleted group, so its toggles keep sending its id
    await cm.mutation(api.emailBlasts.updateSetup, {
      id,
      edits: [{ field: "excludeBounced", base: true, value: false }],
    });
    expect((await cm.query(api.emailBlasts.setup, { id }))!.excludeBounced).toBe(false);
  });
});

// ----- send: the spec's checks -----

describe("send: the spec's checks in order", () => {
  test("no recipients, then the schedule, event and filter rules", async () => {
    const { cm, id, group } = await fixture();
    const noRecipients = { title: "No recipients selected", message: "Please select recipients in the Send To tab" };
    expect(await refusal(sendTo(cm, id))).toMatchObject(noRecipients);
    // with no recipients and a schedule without a time, the recipients come first
    await setSetup(cm, id, { sendType: "schedule" });
    expect(await refusal(sendTo(cm, id))).toMatchObject(noRecipients);
    await setSetup(cm, id, { groupIds: [group] });
    expect(await refusal(sendTo(cm, id))).toMatchObject({
      title: "Schedule incomplete",
      message: "Please select both date and time for scheduled send",
    });
    await setSetup(cm, id, { scheduledAt: Date.now() - 60_000 });
    expect(await refusal(sendTo(cm, id))).toMatchObject({
      title: "Schedule incomplete",
      message: "The scheduled time has passed. Please pick a time in the future.",
    });

    await setSetup(cm, id, { sendType: "event" });
    const eventIncomplete = { title: "Event rules incomplete", message: "Please complete all event trigger rules" };
    expect(await refusal(sendTo(cm, id))).toMatchObject(eventIncomplete);
    await setSetup(cm, id, {
      eventRules: JSON.stringify([
        { id: "r1", field: "city", operator: "equals", value: "Portland" },
        { id: "r2", field: "", operator: "equals", value: "" },
      ]),
    });
    expect(await refusal(sendTo(cm, id))).toMatchObject(eventIncomplete);
    await setSetup(cm, id, {
      eventRules: JSON.stringify([{ id: "r1", field: "city", operator: "equals", value: "  " }]),
    });
    expect(await refusal(sendTo(cm, id))).toMatchObject(eventIncomplete);

    await setSetup(cm, id, { sendType: "filter" });
    const filterIncomplete = { title: "Filter rules incomplete", message: "Please complete all filter conditions" };
    expect(await refusal(sendTo(cm, id))).toMatchObject(filterIncomplete);
    await setSetup(cm, id, {
      filterRules: JSON.stringify([{ id: "f1", field: "party", operator: "equals", value: "" }]),
    });
    expect(await refusal(sendTo(cm, id))).toMatchObject(filterIncomplete);
    expect((await cm.query(api.emailBlasts.setup, { id }))!.status).toBe("draft");
  });

  test("the design must carry the footer's postal address and show the unsubscribe link", async () => {
    const { t, cm, group } = await fixture();
    const placeholder = await setupAndCreate(
      { t, cm } as Fixture,
      { groupIds: [group] },
      [block("heading", "h", { text: "Hi" }), block("footer", "f")],
      "Placeholder",
    );
    const e1 = await refusal(sendTo(cm, placeholder));
    expect(e1).toMatchObject({
      title: "Footer required",
      message: "Enter your organisation's postal address in the footer. Bulk email must carry it.",
    });
    const hidden = await setupAndCreate(
      { t, cm } as Fixture,
      { groupIds: [group] },
      [block("footer", "f", { ...FOOTER, showUnsubscribe: false })],
      "Hidden",
    );
    expect(await refusal(sendTo(cm, hidden))).toMatchObject({
      title: "Footer required",
      message: expect.stringContaining("unsubscribe link"),
    });
    const none = await setupAndCreate(
      { t, cm } as Fixture,
      { groupIds: [group] },
      [block("heading", "h", { text: "Hi" })],
      "No footer",
    );
    expect(await refusal(sendTo(cm, none))).toMatchObject({ title: "Footer required" });
    // a scheduled send is checked when it is scheduled, not when its time comes
    await setSetup(cm, placeholder, { sendType: "schedule", scheduledAt: Date.now() + HOUR });
    expect(await refusal(sendTo(cm, placeholder))).toMatchObject({ title: "Footer required" });
    for (const id of [placeholder, hidden, none]) expect((await campaignDoc(t, id)).status).toBe("draft");
    expect(await t.run((c) => c.db.query("emailSends").collect())).toEqual([]);
  });

  test("a link whose address is a sender value with nothing in it is refused, naming the link; a test send too; the preview gets the real values", async () => {
    const ctx = await fixture();
    const { t, f, cm, group } = ctx;
    const design = [
      block("button", "bt", { text: "RSVP Now", url: "{{user.website}}" }),
      block("button", "b2", { text: "Read more", url: "https://example.org/{{user.website}}" }),
      block("footer", "ft", { ...FOOTER, showPrivacy: true, privacyText: "Privacy", privacyUrl: "{{user.email}}" }),
    ];
    const id = await setupAndCreate(ctx, { groupIds: [group] }, design, "Empty link");
    const e = await refusal(sendTo(cm, id));
    expect(e).toMatchObject({
      title: "Link is empty",
      message: expect.stringContaining("The link is empty for: RSVP Now, Privacy."),
    });
    // scheduling is checked when it is scheduled
    await setSetup(cm, id, { sendType: "schedule", scheduledAt: Date.now() + HOUR });
    expect(await refusal(sendTo(cm, id))).toMatchObject({ title: "Link is empty" });
    expect((await campaignDoc(t, id)).status).toBe("draft");
    expect(await t.run((c) => c.db.query("emailSends").collect())).toEqual([]);
    // the test send does not show example.org where recipients would get href=""
    const { name: _n, ...settings } = SETTINGS;
    const test_ = () =>
      cm.action(api.emailTest.sendTest, {
        recipients: "me@example.org",
        ...settings,
        blocks: JSON.stringify(design.slice(0, 1).concat(design.slice(2))),
      });
    expect(await refusal(test_())).toMatchObject({
      title: "Link is empty",
      message: expect.stringContaining("RSVP Now"),
    });
    expect(await cm.query(api.emailTest.previewSender, {})).toMatchObject({ website: "" });
    // once the organisation has a website the button links to it (and the test shows it)
    await t.run((c) => c.db.patch("organizations", f.orgId, { website: "https://jane.example.org" }));
    await setSetup(cm, id, { sendType: "now" });
    const fixedFooter = [design[0], block("footer", "ft", FOOTER)];
    await t.run((c) => c.db.patch("emailCampaigns", id, { blocks: JSON.stringify(fixedFooter) }));
    expect(await sendTo(cm, id)).toMatchObject({ status: "sent" });
    await settle(t);
    const sent = await t.run((c) => c.db.query("emailOutbox").collect());
    const r = await cm.action(api.emailTest.sendTest, {
      recipients: "me@example.org",
      ...settings,
      blocks: JSON.stringify(fixedFooter),
    });
    expect(r).toMatchObject({ sent: 1 });
    const test = (await t.run((c) => c.db.query("emailOutbox").collect())).filter(
      (m) => !sent.some((s) => s._id === m._id),
    );
    expect(test[0].html).toContain('href="https://jane.example.org"');
    expect(test[0].html).not.toContain('https://example.org"');
    expect(await cm.query(api.emailTest.previewSender, {})).toMatchObject({
      website: "https://jane.example.org",
      campaign_name: expect.any(String),
    });
  });

  test.each(ROLES)("the preview's sender values need campaigns.view: %s", async (role) => {
    const { f } = await fixture();
    if (CAN_VIEW.has(role)) expect(await f[role].as.query(api.emailTest.previewSender, {})).toHaveProperty("website");
    else expect(await refusal(f[role].as.query(api.emailTest.previewSender, {}))).toMatchObject({ code: "FORBIDDEN" });
  });

  test("a sent campaign is not sent again; a live send is not doubled", async () => {
    const ctx = await fixture();
    const { t, cm, id, group } = ctx;
    await setSetup(cm, id, { groupIds: [group] });
    await sendTo(cm, id);
    await settle(t);
    expect(await refusal(sendTo(cm, id))).toMatchObject({
      title: "Already sent",
      message: "This campaign was already sent. Duplicate it to send it again.",
    });
    const other = await setupAndCreate(ctx, { groupIds: [group] });
    await preparedSend(ctx, other);
    expect(await refusal(sendTo(cm, other))).toMatchObject({ title: "Already sending" });
  });

  test("recipients that resolve to no address: the send fails with the spec's message", async () => {
    const ctx = await fixture();
    const { t, cm, voters } = ctx;
    const empty = await cm.mutation(api.groups.create, { name: "No email" });
    await cm.mutation(api.groups.addMembers, { groupId: empty, voterIds: [voters.none] });
    const id = await setupAndCreate(ctx, { groupIds: [empty] });
    expect(await sendTo(cm, id)).toMatchObject({ status: "sent" });
    await settle(t);
    expect(await cm.query(api.emailBlasts.progress, { id })).toMatchObject({
      status: "failed",
      error: NO_RECIPIENTS_RESOLVED,
      counts: { noEmail: 1, queued: 0 },
    });
    expect((await campaignDoc(t, id)).status).toBe("failed");
  });
});

// ----- a demo blast -----

describe("a demo blast", () => {
  test("send now: fan-out counts, campaign sent, every message demo, statistics, progress and the voter's history", async () => {
    const ctx = await fixture();
    const { t, cm, f, id, group, voters } = ctx;
    await t.run((c) =>
      c.db.insert("emailSuppressions", {
        orgId: f.orgId,
        email: "gone@example.org",
        reason: "unsubscribed",
        at: Date.now(),
      }),
    );
    await setSetup(cm, id, { groupIds: [group], manual: ["walkin@example.org", "BOB@example.org"] });
    const before = Date.now();
    const res = await sendTo(cm, id);
    expect(res.status).toBe("sent");
    const c = await campaignDoc(t, id);
    expect(c.status).toBe("sent");
    expect(c.sentAt).toBeGreaterThanOrEqual(before);
    expect((await cm.query(api.emailBlasts.setup, { id }))!.sentAt).toBe(c.sentAt);
    await settle(t);

    const p = await f.viewer.as.query(api.emailBlasts.progress, { id });
    expect(p).toMatchObject({
      sendId: res.sendId,
      status: "completed",
      demo: true,
      kind: "blast",
      recipients: 3,
      error: null,
    });
    // ada, bob, walkin: the twin and manual bob are duplicates, "none" has no address, gone@ unsubscribed
    expect(p!.counts).toEqual({
      queued: 0,
      sent: 3,
      failed: 0,
      suppressed: 1,
      cancelled: 0,
      duplicates: 2,
      noEmail: 1,
    });
    expect(p!.finishedAt).toBeGreaterThanOrEqual(p!.startedAt);
    const messages = await messagesOf(t, res.sendId!);
    expect(messages.map((m) => [m.email, m.status]).sort()).toEqual([
      ["ada@example.org", "demo"],
      ["bob@example.org", "demo"],
      ["walkin@example.org", "demo"],
    ]);
    expect(messages.find((m) => m.email === "ada@example.org")!.voterId).toBe(voters.ada);

    const stats = await f.viewer.as.query(api.emailBlasts.statistics, { id });
    expect(stats).toMatchObject({
      recipients: 3,
      sent: 3,
      failed: 0,
      delivered: 0,
      opened: 0,
      hasEvents: false,
      demo: true,
      topLinks: [],
      sentAt: c.sentAt,
    });
    const history = await f.viewer.as.query(api.emailBlasts.voterHistory, { voterId: voters.ada });
    expect(history).toEqual([
      expect.objectContaining({
        campaignId: id,
        campaignName: SETTINGS.name,
        subject: "News for Ada",
        status: "demo",
        opened: false,
        clicked: false,
        unsubscribed: false,
      }),
    ]);
    expect(history[0].sentAt).toEqual(expect.any(Number));
    expect(await cm.query(api.emailBlasts.voterHistory, { voterId: voters.none })).toEqual([]);
    // demo mail is not metered
    expect(await t.run((x) => x.db.query("emailUsage").collect())).toEqual([]);
  });

  test("the operator's demo mailbox lists the blast's emails as recipients get them, with a working unsubscribe link; at most DEMO_MAILBOX_PER_SEND a send", async () => {
    const ctx = await fixture();
    const { t, cm, id, group } = ctx;
    await setSetup(cm, id, { groupIds: [group] });
    await sendTo(cm, id);
    await settle(t);
    const inbox = await t.query(internal.emails.mailboxMessages, { to: "ada@example.org" });
    expect(inbox).toHaveLength(1);
    expect(inbox[0]).toMatchObject({
      kind: "email_blast",
      status: "demo",
      subject: "News for Ada",
      from: `"${SETTINGS.fromName}" <${SETTINGS.fromEmail}>`,
    });
    expect(inbox[0].html).toContain("Hello Ada");
    expect(inbox[0].html).not.toContain("{{");
    const token = decodeURIComponent(/\/unsubscribe\?t=([^"&]+)/.exec(inbox[0].html!)![1]);
    expect(await t.mutation(internal.emailUnsubscribe.unsubscribe, { token, client: "198.51.100.9" })).toBe("ok");
    expect(await t.run((c) => c.db.query("emailSuppressions").collect())).toMatchObject([
      { email: "ada@example.org", reason: "unsubscribed" },
    ]);
    // a big send: only the first DEMO_MAILBOX_PER_SEND copies are kept
    const manual = Array.from({ length: DEMO_MAILBOX_PER_SEND + 30 }, (_, i) => `bulk${i}@example.org`);
    const big = await setupAndCreate(ctx, { manual }, SENDABLE, "Big");
    const res = await sendTo(cm, big);
    await settle(t);
    expect(await cm.query(api.emailBlasts.progress, { id: big })).toMatchObject({
      status: "completed",
      counts: { sent: manual.length },
    });
    const copies = (await t.run((c) => c.db.query("emailOutbox").collect())).filter((m) => m.to.startsWith("bulk"));
    expect(copies).toHaveLength(DEMO_MAILBOX_PER_SEND);
    expect((await sendDoc(t, res.sendId!)).demoMailed).toBe(DEMO_MAILBOX_PER_SEND);
  });

  test("driven by hand: claims of at most 100 under a batch key, recorded once, then the send completes", async () => {
    const ctx = await fixture();
    const { t, cm } = ctx;
    const manual = Array.from({ length: 150 }, (_, i) => `m${i}@example.org`);
    const id = await setupAndCreate(ctx, { manual });
    const sendId = await preparedSend(ctx, id);
    expect((await sendDoc(t, sendId)).counts).toMatchObject({ queued: 150, sent: 0 });

    const first = await claim(t, sendId);
    if (!("batch" in first)) throw new Error("expected a batch");
    expect(first.batch.key).toBe(`${sendId}-0`);
    expect(first.batch.messages).toHaveLength(100);
    expect(first.batch.messages[0].email).toBe("m0@example.org");
    const claimed = (await messagesOf(t, sendId)).filter((m) => m.status === "sending");
    expect(claimed).toHaveLength(100);
    expect(new Set(claimed.map((m) => m.batchKey))).toEqual(new Set([first.batch.key]));

    const outcome = {
      kind: "sent" as const,
      demo: true,
      results: first.batch.messages.map((m) => ({ id: m.id, providerId: `demo_${m.id}`, error: null })),
    };
    await t.mutation(internal.emailBlasts.recordBatch, { sendId, key: first.batch.key, outcome });
    await t.mutation(internal.emailBlasts.recordBatch, { sendId, key: first.batch.key, outcome }); // a retried answer: no change
    expect((await cm.query(api.emailBlasts.progress, { id }))!.counts).toMatchObject({ queued: 50, sent: 100 });
    expect((await cm.query(api.emailBlasts.statistics, { id }))!.sent).toBe(100);
    expect((await messagesOf(t, sendId)).filter((m) => m.status === "demo")).toHaveLength(100);

    const second = await sendNextBatch(t, sendId);
    expect(second.key).toBe(`${sendId}-1`);
    expect(second.messages).toHaveLength(50);
    expect(await claim(t, sendId)).toEqual({ stop: true });
    expect(await cm.query(api.emailBlasts.progress, { id })).toMatchObject({
      status: "completed",
      counts: { queued: 0, sent: 150 },
      recipients: 150,
    });
    expect((await cm.query(api.emailBlasts.statistics, { id }))!.sent).toBe(150);
  });

  test("a rejected batch fails its messages with the message; a retry puts them back with a back-off", async () => {
    const ctx = await fixture();
    const { t, cm } = ctx;
    const id = await setupAndCreate(ctx, { manual: ["r1@example.org", "r2@example.org"] });
    const sendId = await preparedSend(ctx, id);
    const first = await claim(t, sendId);
    if (!("batch" in first)) throw new Error("expected a batch");
    await t.mutation(internal.emailBlasts.recordBatch, {
      sendId,
      key: first.batch.key,
      outcome: { kind: "retry", afterMs: 60_000, message: "slow down", countsAsError: false },
    });
    expect((await messagesOf(t, sendId)).map((m) => m.status)).toEqual(["queued", "queued"]);
    expect(await claim(t, sendId)).toMatchObject({ wait: expect.any(Number) });
    await t.run(async (c) => {
      for (const m of await c.db.query("emailMessages").collect())
        await c.db.patch("emailMessages", m._id, { readyAt: 0 });
    });
    const again = await claim(t, sendId);
    if (!("batch" in again)) throw new Error("expected a batch");
    expect(again.batch.key).toBe(`${sendId}-1`);
    await t.mutation(internal.emailBlasts.recordBatch, {
      sendId,
      key: again.batch.key,
      outcome: { kind: "rejected", message: "The email address format is invalid. Please use a valid email." },
    });
    expect(await cm.query(api.emailBlasts.progress, { id })).toMatchObject({
      counts: { queued: 0, sent: 0, failed: 2 },
    });
    expect((await messagesOf(t, sendId))[0]).toMatchObject({
      status: "failed",
      error: "The email address format is invalid. Please use a valid email.",
    });
    expect((await cm.query(api.emailBlasts.statistics, { id }))!.failed).toBe(2);
  });
});

describe("a segment refreshed while a send reads it", () => {
  test("the new generation is read from its start (a cursor belongs to its own query), each address once", async () => {
    const ctx = await fixture();
    const { t, f, cm, id } = ctx;
    await t.run(async (c) => {
      for (let i = 0; i < 600; i++) {
        const email = `seg${i}@example.org`;
        await c.db.insert("voters", {
          orgId: f.orgId,
          first_name: `Seg${i}`,
          last_name: "Voter",
          firstNameLower: `seg${i}`,
          lastNameLower: "voter",
          searchText: `seg${i} voter`,
          updatedAt: 0,
          email,
          emailLower: email,
        });
      }
    });
    const segment = await cm.mutation(api.emailSegments.create, { name: "Everyone", description: null, rules: "[]" });
    await settle(t);
    await setSetup(cm, id, { segmentIds: [segment] });
    const { userId, orgId } = f.campaign_manager;
    const sendId = await t.run(async (c) => {
      const campaign = (await c.db.get("emailCampaigns", id))!;
      const user = (await c.db.get("users", userId))!;
      const org = (await c.db.get("organizations", orgId))!;
      const sendId = await createSend(c, campaign, senderOf({ userId, user, org }), "blast");
      await c.db.patch("emailSends", sendId, { status: "paused" });
      // the first page of generation 1
      await enqueueStep(c, sendId);
      const gen = (await c.db.get("emailSegments", segment))!.gen;
      expect((await c.db.get("emailSends", sendId))!.prep).toMatchObject({
        source: 0,
        gen,
        cursor: expect.any(String),
        done: false,
      });
      // then a refresh finishes: generation 2 (with a newcomer) replaces generation 1
      const newcomer = "newcomer@example.org";
      const voterId = await c.db.insert("voters", {
        orgId,
        first_name: "New",
        last_name: "Comer",
        firstNameLower: "new",
        lastNameLower: "comer",
        searchText: "new comer",
        updatedAt: 0,
        email: newcomer,
        emailLower: newcomer,
      });
      const old = await c.db
        .query("emailSegmentMembers")
        .withIndex("by_segment_gen", (q) => q.eq("segmentId", segment).eq("gen", gen))
        .collect();
      for (const m of old) {
        await c.db.insert("emailSegmentMembers", { orgId, segmentId: segment, voterId: m.voterId, gen: gen + 1 });
        await c.db.delete("emailSegmentMembers", m._id);
      }
      await c.db.insert("emailSegmentMembers", { orgId, segmentId: segment, voterId, gen: gen + 1 });
      await c.db.patch("emailSegments", segment, { gen: gen + 1, cachedCount: old.length + 1 });
      // (one paginated query a transaction: the next step reads generation 2)
      return sendId;
    });
    const send = await drainEnqueue(t, sendId);
    await settle(t);
    const emails = (await messagesOf(t, sendId)).map((m) => m.email);
    expect(new Set(emails).size).toBe(emails.length);
    expect(emails).toEqual(
      expect.arrayContaining([
        "newcomer@example.org",
        "seg0@example.org",
        "seg599@example.org",
        "ada@example.org",
        "bob@example.org",
      ]),
    );
    // every voter with an address once: 600 + Ada (and her twin's same address), Bob, Gone, the newcomer
    expect(emails.length + send.counts.suppressed).toBe(604);
  });
});

describe("pause, resume, cancel", () => {
  test("pause stops claims; cancel cancels the queued messages; a cancelled send stays cancelled", async () => {
    const ctx = await fixture();
    const { t, cm } = ctx;
    const id = await setupAndCreate(ctx, { manual: ["p1@example.org", "p2@example.org", "p3@example.org"] });
    const sendId = await preparedSend(ctx, id);
    await sendNextBatch(t, sendId); // all three leave
    const more = await setupAndCreate(ctx, { manual: ["q1@example.org", "q2@example.org"] }, SENDABLE, "More");
    const moreId = await preparedSend(ctx, more);
    await cm.mutation(api.emailBlasts.control, { sendId: moreId, action: "pause" });
    expect((await cm.query(api.emailBlasts.progress, { id: more }))!.status).toBe("paused");
    expect(await claim(t, moreId)).toEqual({ stop: true });
    await cm.mutation(api.emailBlasts.control, { sendId: moreId, action: "cancel" });
    await t.mutation(internal.sendQueue.cancelQueued, { sendId: moreId });
    await settle(t);
    const p = await cm.query(api.emailBlasts.progress, { id: more });
    expect(p).toMatchObject({ status: "cancelled", counts: { queued: 0, cancelled: 2, sent: 0 }, recipients: 2 });
    expect(p!.finishedAt).toEqual(expect.any(Number));
    expect((await messagesOf(t, moreId)).map((m) => m.status)).toEqual(["cancelled", "cancelled"]);
    await cm.mutation(api.emailBlasts.control, { sendId: moreId, action: "resume" });
    expect((await sendDoc(t, moreId)).status).toBe("cancelled");
    expect(await claim(t, moreId)).toEqual({ stop: true });
    // a finished send is not cancelled after the fact
    expect(await claim(t, sendId)).toEqual({ stop: true });
    await cm.mutation(api.emailBlasts.control, { sendId, action: "cancel" });
    expect(await cm.query(api.emailBlasts.progress, { id })).toMatchObject({
      status: "completed",
      counts: { sent: 3, cancelled: 0 },
    });
  });

  test("resume after a pause (also one the provider caused) clears the error and sends the rest", async () => {
    const ctx = await fixture();
    const { t, cm } = ctx;
    const id = await setupAndCreate(ctx, { manual: ["s1@example.org", "s2@example.org"] });
    const sendId = await preparedSend(ctx, id);
    const first = await claim(t, sendId);
    if (!("batch" in first)) throw new Error("expected a batch");
    await t.mutation(internal.emailBlasts.recordBatch, {
      sendId,
      key: first.batch.key,
      outcome: { kind: "fatal", message: "The email service is currently unavailable. Please try again later." },
    });
    expect(await cm.query(api.emailBlasts.progress, { id })).toMatchObject({
      status: "paused",
      error: "The email service is currently unavailable. Please try again later.",
      counts: { queued: 2 },
    });
    await cm.mutation(api.emailBlasts.control, { sendId, action: "resume" });
    await settle(t);
    expect(await cm.query(api.emailBlasts.progress, { id })).toMatchObject({
      status: "completed",
      error: null,
      counts: { queued: 0, sent: 2 },
    });
    expect((await messagesOf(t, sendId)).map((m) => m.status)).toEqual(["demo", "demo"]);
  });
});

describe("schedules and automations", () => {
  test("schedule: status scheduled with a pending job; cancel returns to draft; the job at its time sends", async () => {
    const { t, f, cm, id, group } = await fixture();
    const at = Date.now() + HOUR;
    await setSetup(cm, id, { groupIds: [group], sendType: "schedule", scheduledAt: at });
    expect(await sendTo(cm, id)).toEqual({ status: "scheduled", sendId: null });
    const scheduled = await campaignDoc(t, id);
    expect(scheduled).toMatchObject({ status: "scheduled", scheduledAt: at });
    const job = await t.run((c) => c.db.system.get("_scheduled_functions", scheduled.scheduleJob!));
    expect(job).toMatchObject({
      name: expect.stringContaining("fireScheduled"),
      scheduledTime: at,
      state: { kind: "pending" },
    });
    expect(await cm.query(api.emailBlasts.progress, { id })).toBeNull();

    await cm.mutation(api.emailBlasts.cancelSchedule, { id });
    const cancelled = await campaignDoc(t, id);
    expect(cancelled).toMatchObject({ status: "draft" });
    expect(cancelled.scheduledAt).toBeUndefined();
    expect(cancelled.scheduleJob).toBeUndefined();
    expect((await t.run((c) => c.db.system.get("_scheduled_functions", scheduled.scheduleJob!)))!.state.kind).toBe(
      "canceled",
    );
    // a job that fires after its schedule was cancelled does nothing
    await t.mutation(internal.emailBlasts.fireScheduled, { campaignId: id, userId: f.campaign_manager.userId });
    expect((await campaignDoc(t, id)).status).toBe("draft");
    await cm.mutation(api.emailBlasts.cancelSchedule, { id }); // nothing scheduled: no-op

    // rescheduled, then its moment comes (the job is run by hand)
    await sendTo(cm, id);
    await t.mutation(internal.emailBlasts.fireScheduled, { campaignId: id, userId: f.campaign_manager.userId });
    expect((await campaignDoc(t, id)).status).toBe("sent");
    await settle(t);
    expect(await cm.query(api.emailBlasts.progress, { id })).toMatchObject({
      kind: "blast",
      status: "completed",
      counts: { sent: 3 },
    });
  });

  test("a scheduled send whose design broke since fails at its time", async () => {
    const { t, f, cm, id, group } = await fixture();
    await setSetup(cm, id, { groupIds: [group], sendType: "schedule", scheduledAt: Date.now() + HOUR });
    await sendTo(cm, id);
    await t.run((c) => c.db.patch("emailCampaigns", id, { blocks: JSON.stringify([block("footer", "f")]) }));
    await t.mutation(internal.emailBlasts.fireScheduled, { campaignId: id, userId: f.campaign_manager.userId });
    expect((await campaignDoc(t, id)).status).toBe("failed");
    expect(await t.run((c) => c.db.query("emailSends").collect())).toEqual([]);
  });

  test("event automation: status automated with a standing send; other sends are refused; stop returns to draft", async () => {
    const { t, cm, id, voters } = await fixture();
    await setSetup(cm, id, { sendType: "event", eventTrigger: "voter_created", eventRules: EVENT_RULES });
    const res = await sendTo(cm, id);
    expect(res).toMatchObject({ status: "automated", sendId: expect.any(String) });
    expect(await campaignDoc(t, id)).toMatchObject({ status: "automated", automationSendId: res.sendId });
    expect(await cm.query(api.emailBlasts.progress, { id })).toMatchObject({
      kind: "automation",
      status: "sending",
      recipients: 0,
    });
    expect(await refusal(sendTo(cm, id))).toMatchObject({ code: "VALIDATION_ERROR" });
    // a voter joins the standing send once, however often enqueued
    await t.mutation(internal.emailBlasts.enqueueAutomated, { sendId: res.sendId!, voterId: voters.bob });
    await t.mutation(internal.emailBlasts.enqueueAutomated, { sendId: res.sendId!, voterId: voters.bob });
    await settle(t);
    const p = await cm.query(api.emailBlasts.progress, { id });
    expect(p).toMatchObject({ status: "sending", counts: { sent: 1, duplicates: 1, queued: 0 } });

    await cm.mutation(api.emailBlasts.stopAutomation, { id });
    const c = await campaignDoc(t, id);
    expect(c.status).toBe("draft");
    expect(c.automationSendId).toBeUndefined();
    expect((await cm.query(api.emailBlasts.progress, { id }))!.status).toBe("cancelled");
    // a stopped automation takes no one
    await t.mutation(internal.emailBlasts.enqueueAutomated, { sendId: res.sendId!, voterId: voters.ada });
    expect((await messagesOf(t, res.sendId!)).map((m) => m.email)).toEqual(["bob@example.org"]);
    await cm.mutation(api.emailBlasts.stopAutomation, { id }); // not automated: no-op
  });
});

describe("filter automation", () => {
  test("a scan enqueues the voters matching now; the standing send stays open", async () => {
    const { t, cm, id } = await fixture();
    await setSetup(cm, id, {
      sendType: "filter",
      filterRules: JSON.stringify([{ id: "f1", field: "city", operator: "equals", value: " portland " }]),
    });
    const res = await sendTo(cm, id);
    expect(res.status).toBe("automated");
    await settle(t);
    expect(await cm.query(api.emailBlasts.progress, { id })).toMatchObject({
      kind: "automation",
      status: "sending",
      counts: { sent: 1, queued: 0 },
    });
    expect((await messagesOf(t, res.sendId!)).map((m) => [m.email, m.status])).toEqual([["ada@example.org", "demo"]]);
    expect((await campaignDoc(t, id)).status).toBe("automated");
  });
});

describe("district rules (issue 37): every evaluation reads the voters' districts", () => {
  const inA = { id: "d1", field: "district", operator: "equals", value: districtFilter("precinct", "A") };

  /** The fixture with voters coded to precincts A and B (assigned), and a way to add more. */
  async function districtFixture() {
    const ctx = await fixture();
    const mk = (first: string, precinct: string, city?: string) =>
      ctx.cm.mutation(api.voters.create, {
        fields: { first_name: first, last_name: "Voter", email: `${first.toLowerCase()}@example.org`, precinct, city },
      });
    const voters = { ann: await mk("Ann", "A"), abe: await mk("Abe", "A"), ben: await mk("Ben", "B") };
    await settle(ctx.t);
    return { ...ctx, mk, inDistrict: voters };
  }
  const emails = async (t: TestConvex, sendId: Id<"emailSends">) =>
    (await messagesOf(t, sendId)).map((m) => m.email).sort();

  test("a filter automation's scan reaches exactly the district's voters; then those who come into it", async () => {
    const { t, cm, id, mk, inDistrict } = await districtFixture();
    await setSetup(cm, id, { sendType: "filter", filterRules: JSON.stringify([inA]) });
    const { sendId } = await sendTo(cm, id);
    await settle(t);
    expect(await emails(t, sendId!)).toEqual(["abe@example.org", "ann@example.org"]);
    // a voter created in A comes to match once assigned; one created in B never does
    await mk("Cat", "A");
    await mk("Dan", "B");
    await settle(t);
    expect(await emails(t, sendId!)).toEqual(["abe@example.org", "ann@example.org", "cat@example.org"]);
    // a voter recoded from B to A too
    await cm.mutation(api.voters.update, {
      id: inDistrict.ben,
      edits: [{ field: "precinct", base: "B", value: "A" }],
    });
    await settle(t);
    expect(await emails(t, sendId!)).toEqual([
      "abe@example.org",
      "ann@example.org",
      "ben@example.org",
      "cat@example.org",
    ]);
  });

  test("an event automation's district rule, with another rule: only a voter created in the district and matching both", async () => {
    const { t, cm, id, mk } = await districtFixture();
    const rules = [
      { id: "r1", field: "city", operator: "equals", value: "Portland", timeDelay: 0, timeUnit: "minutes" },
      { ...inA, timeDelay: 0, timeUnit: "minutes" },
    ];
    await setSetup(cm, id, { sendType: "event", eventTrigger: "voter_created", eventRules: JSON.stringify(rules) });
    const { sendId } = await sendTo(cm, id);
    await mk("Eve", "A", "Portland");
    await mk("Fay", "A", "Salem");
    await mk("Gus", "B", "Portland");
    await settle(t);
    expect(await emails(t, sendId!)).toEqual(["eve@example.org"]);
  });
});

describe("automations: the spec's words and the rules' delay", () => {
  test("sending an active automation again is refused as 'Automation active'", async () => {
    const { cm, id } = await fixture();
    await setSetup(cm, id, { sendType: "event", eventRules: EVENT_RULES });
    await sendTo(cm, id);
    // the standing send is live, but what the user must do is stop the automation (pausing it does not help)
    expect(await refusal(sendTo(cm, id))).toMatchObject({
      title: "Automation active",
      message: "This campaign's automation is active. Stop it before sending another way.",
    });
  });

  const DELAYED = JSON.stringify([
    { id: "r1", field: "city", operator: "equals", value: "Portland", timeDelay: 2, timeUnit: "hours" },
  ]);

  test("setup() returns event rules with their delay", async () => {
    const { cm, id } = await fixture();
    await setSetup(cm, id, { sendType: "event", eventRules: DELAYED });
    const s = (await cm.query(api.emailBlasts.setup, { id }))!;
    expect(s.eventRulesJson).toBe(DELAYED);
    expect(s.eventRules).toEqual(JSON.parse(DELAYED));
  });

  test("a voter matching a delayed event rule is enqueued only after the delay", async () => {
    const { t, cm, id } = await fixture();
    await setSetup(cm, id, { sendType: "event", eventTrigger: "voter_created", eventRules: DELAYED });
    await sendTo(cm, id);
    const before = Date.now();
    await cm.mutation(api.voters.create, {
      fields: { first_name: "Late", last_name: "Voter", email: "late@example.org", city: "Portland" },
    });
    const jobs = (await t.run((c) => c.db.system.query("_scheduled_functions").collect())).filter((j) =>
      j.name.includes("enqueueAutomated"),
    );
    expect(jobs).toHaveLength(1);
    expect(jobs[0].scheduledTime).toBeGreaterThanOrEqual(before + 2 * HOUR - 5_000);
  });
});

// ----- provider events -----

/** A prepared send whose messages all left with provider ids "re_<local part>". */
async function deliveredSend(ctx: Fixture, manual: string[]) {
  const id = await setupAndCreate(ctx, { manual }, SENDABLE, "Events");
  const sendId = await preparedSend(ctx, id);
  await sendNextBatch(ctx.t, sendId, (email) => `re_${email.split("@")[0]}`, false);
  return { id, sendId };
}

describe("provider events (webhooks)", () => {
  let seq = 0;
  const apply = (
    t: TestConvex,
    type: "email.delivered" | "email.opened" | "email.clicked" | "email.bounced" | "email.complained",
    emailId: string,
    extra: { eventId?: string; url?: string } = {},
  ) =>
    t.mutation(internal.emailWebhooks.apply, {
      client: "203.0.113.9",
      event: {
        eventId: extra.eventId ?? `evt_${++seq}`,
        type,
        emailId,
        at: Date.now(),
        ...(extra.url ? { url: extra.url } : {}),
      },
    });

  test("deduplicated by event id, counted once per recipient in any order; clicks by link; bounces suppress", async () => {
    const ctx = await fixture();
    const { t, cm, f, voters } = ctx;
    const { id } = await deliveredSend(ctx, ["ada@example.org", "bob@example.org", "cy@example.org"]);
    expect(await cm.query(api.emailBlasts.statistics, { id })).toMatchObject({ sent: 3, hasEvents: false });

    expect(await apply(t, "email.opened", "re_ada", { eventId: "evt_open_ada" })).toBe("applied");
    expect(await apply(t, "email.opened", "re_ada", { eventId: "evt_open_ada" })).toBe("duplicate");
    expect(await apply(t, "email.delivered", "re_ada")).toBe("applied");
    expect(await apply(t, "email.opened", "re_ada")).toBe("applied"); // another open: still one recipient
    expect(await apply(t, "email.delivered", "re_bob")).toBe("applied");
    expect(await apply(t, "email.delivered", "re_nobody")).toBe("unknown");
    expect(await cm.query(api.emailBlasts.statistics, { id })).toMatchObject({
      delivered: 2,
      opened: 1,
      clicked: 0,
      hasEvents: true,
    });

    await apply(t, "email.clicked", "re_ada", { url: "https://example.org/rsvp" });
    await apply(t, "email.clicked", "re_bob", { url: "https://example.org/donate" });
    await apply(t, "email.clicked", "re_bob", { url: "https://example.org/rsvp" });
    await apply(t, "email.clicked", "re_bob", { url: "https://example.org/rsvp", eventId: `evt_${seq}` }); // a retry
    await apply(t, "email.clicked", "re_ada", { url: "https://example.org/rsvp" });
    await apply(t, "email.clicked", "re_cy", { url: "https://example.org/about" });
    await apply(t, "email.clicked", "re_cy", { url: "https://example.org/donate" });
    const stats = (await f.viewer.as.query(api.emailBlasts.statistics, { id }))!;
    expect(stats.clicked).toBe(3);
    expect(stats.topLinks).toEqual([
      { url: "https://example.org/rsvp", clicks: 3 },
      { url: "https://example.org/donate", clicks: 2 },
      { url: "https://example.org/about", clicks: 1 },
    ]);
    expect(await cm.query(api.emailBlasts.voterHistory, { voterId: voters.ada })).toMatchObject([
      { status: "delivered", opened: true, clicked: true },
    ]);

    expect(await apply(t, "email.bounced", "re_cy")).toBe("applied");
    expect(await apply(t, "email.complained", "re_bob")).toBe("applied");
    expect(await cm.query(api.emailBlasts.statistics, { id })).toMatchObject({
      sent: 3,
      delivered: 2,
      opened: 1,
      clicked: 3,
      bounced: 1,
      complained: 1,
    });
    expect(await cm.query(api.emailBlasts.voterHistory, { voterId: voters.bob })).toMatchObject([
      { status: "complained" },
    ]);
    const suppressions = await t.run((c) => c.db.query("emailSuppressions").collect());
    expect(suppressions.map((s) => [s.email, s.reason, s.orgId === f.orgId]).sort()).toEqual([
      ["bob@example.org", "complained", true],
      ["cy@example.org", "bounced", true],
    ]);
    // each new suppression is one audit log entry (issue 39), in the organisation of the message
    const audited = await t.run(async (c) =>
      [...(await c.db.query("auditPending").collect()), ...(await c.db.query("auditLog").collect())].filter(
        (e) => e.action === "webhook.email",
      ),
    );
    expect(audited.map((e) => [e.target.id, e.orgId === f.orgId, e.actorId]).sort()).toEqual([
      ["bob@example.org", true, null],
      ["cy@example.org", true, null],
    ]);
    // a later send skips both (bounced and complained are excluded by default)
    const later = await setupAndCreate(
      ctx,
      { manual: ["ada@example.org", "bob@example.org", "cy@example.org"] },
      SENDABLE,
      "Later",
    );
    const laterSend = await preparedSend(ctx, later);
    expect((await sendDoc(t, laterSend)).counts).toMatchObject({ queued: 1, suppressed: 2 });
    // ... and with the bounced exclusion off, the bounced address is sent to
    const third = await setupAndCreate(
      ctx,
      { manual: ["bob@example.org", "cy@example.org"], excludeBounced: false },
      SENDABLE,
      "Third",
    );
    expect((await sendDoc(t, await preparedSend(ctx, third))).counts).toMatchObject({ queued: 1, suppressed: 1 });
  });
});

// ----- unsubscribes -----

describe("unsubscribes", () => {
  test("the link's token suppresses the address for the organisation, once; the page shows it", async () => {
    const ctx = await fixture();
    const { t, cm, f, voters } = ctx;
    const { id, sendId } = await deliveredSend(ctx, ["ada@example.org", "bob@example.org"]);
    const m = (await messagesOf(t, sendId)).find((x) => x.email === "ada@example.org")!;
    expect(
      await t.mutation(internal.emailUnsubscribe.unsubscribe, { token: m.unsubToken, client: "198.51.100.1" }),
    ).toBe("ok");
    expect(await t.query(api.emailUnsubscribe.info, { token: m.unsubToken })).toMatchObject({
      email: "a\u2022\u2022\u2022@example.org",
      unsubscribed: true,
    });
    expect(
      await t.mutation(internal.emailUnsubscribe.unsubscribe, { token: m.unsubToken, client: "198.51.100.1" }),
    ).toBe("ok");
    expect(await t.mutation(internal.emailUnsubscribe.unsubscribe, { token: "unknown", client: "198.51.100.1" })).toBe(
      "unknown",
    );
    expect(await cm.query(api.emailBlasts.statistics, { id })).toMatchObject({ unsubscribed: 1 });
    expect(await cm.query(api.emailBlasts.voterHistory, { voterId: voters.ada })).toMatchObject([
      { unsubscribed: true },
    ]);
    expect(await t.run((c) => c.db.query("emailSuppressions").collect())).toMatchObject([
      { orgId: f.orgId, email: "ada@example.org", reason: "unsubscribed", campaignId: id },
    ]);
    // unsubscribed is always excluded, whatever the send's exclusions
    const later = await setupAndCreate(
      ctx,
      { manual: ["ada@example.org", "bob@example.org"], excludeBounced: false, excludeComplained: false },
      SENDABLE,
      "Later",
    );
    expect((await sendDoc(t, await preparedSend(ctx, later))).counts).toMatchObject({ queued: 1, suppressed: 1 });
    // another organisation still emails the address
    const theirs = await createCampaign(f.outsider.as, SENDABLE, "Theirs");
    await setSetup(f.outsider.as, theirs, { manual: ["ada@example.org"] });
    const res = await f.outsider.as.mutation(api.emailBlasts.send, { id: theirs });
    await settle(t);
    expect(await f.outsider.as.query(api.emailBlasts.progress, { id: theirs })).toMatchObject({
      sendId: res.sendId,
      counts: { sent: 1, suppressed: 0 },
    });
  });

  test("rate limit: a burst of unsubscribes from one client is cut off after the bucket (120); other clients go on", async () => {
    const ctx = await fixture();
    const { t } = ctx;
    const { sendId } = await deliveredSend(ctx, ["ada@example.org"]);
    const [m] = await messagesOf(t, sendId);
    // the bucket holds 120 and refills 10 a second: a burst runs dry a little after 120 calls
    let n = 0;
    while (
      n < 400 &&
      (await t.mutation(internal.emailUnsubscribe.unsubscribe, { token: `missing${n}`, client: "192.0.2.7" })) !==
        "limited"
    )
      n++;
    expect(n).toBeGreaterThanOrEqual(120);
    expect(n).toBeLessThan(400);
    expect(await t.query(api.emailUnsubscribe.info, { token: m.unsubToken })).toMatchObject({ unsubscribed: false });
    expect(await t.mutation(internal.emailUnsubscribe.unsubscribe, { token: m.unsubToken, client: "192.0.2.8" })).toBe(
      "ok",
    );
  });
});

describe("webhook event ids", () => {
  test("are forgotten after a week (the daily purge)", async () => {
    const t = setupTest();
    await t.run(async (c) => {
      await c.db.insert("emailWebhookEvents", { eventId: "evt_old", at: Date.now() - 8 * 86_400_000 });
      await c.db.insert("emailWebhookEvents", { eventId: "evt_recent", at: Date.now() - 86_400_000 });
    });
    await t.mutation(internal.emailBlasts.purgeWebhookEvents, {});
    expect((await t.run((c) => c.db.query("emailWebhookEvents").collect())).map((e) => e.eventId)).toEqual([
      "evt_recent",
    ]);
  });
});
