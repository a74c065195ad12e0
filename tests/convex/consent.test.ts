/**
 * The consent ledger on both backends (issue 39): every opt-out and opt-in is an event with its
 * provenance and changes the current state in the same mutation; an opt-out arriving while sends
 * are queued stops every not-yet-sent message to that person (SMS blast, quick send, email blast,
 * email automation, one-off emails); each send path checks the state where it enqueues; one
 * confirmation text at most; the organisation's "apply an opt-out to every channel"; staff
 * changes are named and audited; the public functions' permissions.
 *
 * Sends are driven by hand: created paused in one transaction (no sender run starts on either
 * backend), fanned out step by step, then set sending without a lease.
 */
import { ConvexError } from "convex/values";
import { describe, expect, test } from "vitest";
import { api, internal } from "@convex/_generated/api";
import type { Doc, Id } from "@convex/_generated/dataModel";
import type { AppErrorData } from "@convex/lib/errors";
import { newBlock, type BlockValue, type BlockType, type EmailBlock } from "@convex/lib/email/blocks";
import { createSend, senderOf } from "@convex/model/emailBlast";
import { suppressVoter } from "@convex/model/canvass";
import { startSend } from "@convex/model/sms";
import type { Viewer } from "@convex/model/viewer";
import { roleFixture, setupTest, type TestConvex } from "./setup";

const ROLES = ["super_admin", "account_admin", "campaign_manager", "volunteer", "viewer"] as const;

function block(type: BlockType, id: string, content: Record<string, BlockValue> = {}): EmailBlock {
  const b = newBlock(type, id, new Date(2026, 0, 1));
  Object.assign(b.content, content);
  return b;
}
const BLOCKS = JSON.stringify([
  block("heading", "hd", { text: "Hello {{voter.first_name}}" }),
  block("footer", "ft", { companyName: "Jane for Council", address: "42 Elm Street, Portland, OR 97201" }),
]);

async function fixture() {
  const t = setupTest();
  const f = await roleFixture(t);
  const cm = f.campaign_manager.as;
  const orgId = f.orgId;
  const mk = (first: string, phone: string, email: string) =>
    cm.mutation(api.voters.create, { fields: { first_name: first, last_name: "Voter", phone, email } });
  const voters = {
    ada: await mk("Ada", "(503) 555-0101", "Ada@Example.org"),
    bob: await mk("Bob", "503.555.0102", "bob@example.org"),
  };
  const group = await cm.mutation(api.groups.create, { name: "Everyone" });
  await cm.mutation(api.groups.addMembers, { groupId: group, voterIds: [voters.ada, voters.bob] });
  const orgName = await t.run(async (c) => (await c.db.get("organizations", orgId))!.name);
  const body = `${orgName}: vote Tuesday! Reply STOP to opt out`;
  return { t, f, cm, orgId, orgName, voters, group, body };
}
type Fixture = Awaited<ReturnType<typeof fixture>>;
const ADA = "+15035550101";
const BOB = "+15035550102";

function viewerOf(ctx: Fixture, user: Doc<"users">, org: Doc<"organizations">): Viewer {
  const { userId, orgId } = ctx.f.campaign_manager;
  return { userId, orgId, user, org, can: () => true } as unknown as Viewer;
}

/** An SMS send (campaign blast or quick send) started paused, fanned out, then "sending" with no sender run. */
async function smsSend(ctx: Fixture, args: { campaignId?: Id<"campaigns">; voterIds?: Id<"voters">[]; body?: string }) {
  const { userId, orgId } = ctx.f.campaign_manager;
  const sendId = await ctx.t.run(async (c) => {
    const viewer = viewerOf(ctx, (await c.db.get("users", userId))!, (await c.db.get("organizations", orgId))!);
    const id = await startSend(c, viewer, { ...args, acknowledgeNoOptOutText: true });
    await c.db.patch("smsSends", id, { status: "paused" });
    return id;
  });
  for (let i = 0; i < 20; i++) {
    const send = await ctx.t.run((c) => c.db.get("smsSends", sendId));
    if (send!.prep.done) break;
    await ctx.t.mutation(internal.sms.enqueueStep, { sendId });
  }
  await ctx.t.run((c) => c.db.patch("smsSends", sendId, { status: "sending" }));
  return sendId;
}

async function smsMessages(t: TestConvex, sendId: Id<"smsSends">) {
  return await t.run((c) =>
    c.db
      .query("smsMessages")
      .withIndex("by_send_position", (q) => q.eq("sendId", sendId))
      .collect(),
  );
}

/** An email campaign to the group, and a send of it (blast or automation) paused, fanned out, then "sending" with no sender run. */
async function emailSend(ctx: Fixture, kind: "blast" | "automation") {
  const id = await ctx.cm.mutation(api.emailCampaigns.create, {
    name: `News ${kind}`,
    subject: "News for {{voter.first_name}}",
    fromName: "Jane for Council",
    fromEmail: "jane@campaign.example.org",
    replyTo: "",
    previewText: "",
    blocks: BLOCKS,
  });
  const setup = (await ctx.cm.query(api.emailBlasts.setup, { id }))!;
  await ctx.cm.mutation(api.emailBlasts.updateSetup, {
    id,
    edits: [{ field: "groupIds", base: setup.groupIds, value: [ctx.group] as never }],
  });
  const { userId, orgId } = ctx.f.campaign_manager;
  const sendId = await ctx.t.run(async (c) => {
    const campaign = (await c.db.get("emailCampaigns", id))!;
    const user = (await c.db.get("users", userId))!;
    const org = (await c.db.get("organizations", orgId))!;
    const s = await createSend(c, campaign, senderOf({ userId, user, org }), kind);
    await c.db.patch("emailSends", s, { status: "paused" });
    return s;
  });
  if (kind === "blast")
    for (let i = 0; i < 20; i++) {
      const send = await ctx.t.run((c) => c.db.get("emailSends", sendId));
      if (send!.prep.done) break;
      await ctx.t.mutation(internal.emailBlasts.enqueueStep, { sendId });
    }
  else
    for (const voterId of [ctx.voters.ada, ctx.voters.bob])
      await ctx.t.mutation(internal.emailBlasts.enqueueAutomated, { sendId, voterId });
  await ctx.t.run((c) => c.db.patch("emailSends", sendId, { status: "sending" }));
  return { campaignId: id, sendId };
}

/** A send's messages in queue order. */
async function emailMessages(t: TestConvex, sendId: Id<"emailSends">) {
  const rows = await t.run((c) =>
    c.db
      .query("emailMessages")
      .withIndex("by_send_ready", (q) => q.eq("sendId", sendId))
      .collect(),
  );
  return rows.sort((a, b) => a.position - b.position);
}

async function ledger(t: TestConvex, orgId: Id<"organizations">) {
  return (await t.run((c) => c.db.query("consentEvents").collect())).filter((e) => e.orgId === orgId);
}

async function auditActions(t: TestConvex, orgId: Id<"organizations">) {
  return await t.run(async (c) => {
    const sealed = (await c.db.query("auditLog").collect()).filter((e) => e.orgId === orgId);
    const pending = (await c.db.query("auditPending").collect()).filter((e) => e.orgId === orgId);
    return [...sealed, ...pending].map((e) => ({ action: e.action, actorId: e.actorId, summary: e.summary }));
  });
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

describe("an opt-out stops what is queued, in its own transaction", () => {
  test("a STOP while an SMS blast and a quick send are queued cancels every unsent text to that number, and only those", async () => {
    const ctx = await fixture();
    const { t, cm } = ctx;
    const campaignId = await cm.mutation(api.smsCampaigns.create, {
      name: "GOTV",
      description: null,
      body: ctx.body,
      voterGroups: [ctx.group],
      individualVoters: [],
    });
    const blast = await smsSend(ctx, { campaignId });
    const quick = await smsSend(ctx, { body: ctx.body, voterIds: [ctx.voters.ada] });
    expect((await smsMessages(t, blast)).map((m) => [m.phone, m.status])).toEqual([
      [ADA, "queued"],
      [BOB, "queued"],
    ]);
    const res = await t.mutation(internal.sms.inbound, { messageSid: "SMstop1", from: ADA, body: "STOP" });
    // the provider's own keyword: Twilio confirms it, so no second confirmation from us
    expect(res).toEqual({ keyword: "STOP", reply: null, replay: false });
    expect((await smsMessages(t, blast)).map((m) => [m.phone, m.status])).toEqual([
      [ADA, "cancelled"],
      [BOB, "queued"],
    ]);
    expect((await smsMessages(t, quick)).map((m) => m.status)).toEqual(["cancelled"]);
    expect((await cm.query(api.sms.progress, { sendId: blast }))!.counts).toMatchObject({
      queued: 1,
      cancelled: 1,
      optedOut: 1,
    });
    const events = await ledger(t, ctx.orgId);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      channel: "sms",
      contact: ADA,
      voterId: ctx.voters.ada,
      kind: "opt_out",
      provenance: { source: "keyword", keyword: "STOP", sourceId: "SMstop1", address: ADA },
    });
    // the state the send paths read
    expect(await t.run((c) => c.db.query("smsOptOuts").collect())).toMatchObject([{ phone: ADA, source: "inbound" }]);
  });

  test("an unsubscribe while an email blast is queued suppresses every unsent email to that address; link and header are told apart", async () => {
    const ctx = await fixture();
    const { t } = ctx;
    const { sendId } = await emailSend(ctx, "blast");
    const other = await emailSend(ctx, "blast");
    const before = await emailMessages(t, sendId);
    expect(before.map((m) => [m.email, m.status])).toEqual([
      ["ada@example.org", "queued"],
      ["bob@example.org", "queued"],
    ]);
    // a mail client's one-click (no Origin): the header
    const token = before[0].unsubToken;
    expect(
      await t.mutation(internal.emailUnsubscribe.unsubscribe, {
        token,
        client: "198.51.100.7",
        via: "unsubscribe_header",
      }),
    ).toBe("ok");
    for (const s of [sendId, other.sendId])
      expect((await emailMessages(t, s)).map((m) => [m.email, m.status])).toEqual([
        ["ada@example.org", "suppressed"],
        ["bob@example.org", "queued"],
      ]);
    expect((await t.run((c) => c.db.get("emailSends", sendId)))!.counts).toMatchObject({ queued: 1, suppressed: 1 });
    expect(await ledger(t, ctx.orgId)).toMatchObject([
      {
        channel: "email",
        contact: "ada@example.org",
        voterId: ctx.voters.ada,
        kind: "opt_out",
        provenance: { source: "unsubscribe_header", sourceId: before[0]._id, address: "198.51.100.7" },
      },
    ]);
    // the page's button (a browser): the link; again for an address already out: nothing new
    const bobToken = before[1].unsubToken;
    await t.mutation(internal.emailUnsubscribe.unsubscribe, { token: bobToken, client: "203.0.113.5" });
    await t.mutation(internal.emailUnsubscribe.unsubscribe, { token: bobToken, client: "203.0.113.5" });
    const events = await ledger(t, ctx.orgId);
    expect(events).toHaveLength(2);
    expect(events[1].provenance).toMatchObject({ source: "unsubscribe_link", address: "203.0.113.5" });
  });

  test("a STOP removes the person from a running SMS blast and, applied to every channel, from an email automation", async () => {
    const ctx = await fixture();
    const { t, cm } = ctx;
    await cm.mutation(api.consent.saveSettings, { optOutAllChannels: true });
    const sms = await smsSend(ctx, { body: ctx.body, voterIds: [ctx.voters.ada, ctx.voters.bob] });
    const auto = await emailSend(ctx, "automation");
    const blast = await emailSend(ctx, "blast");
    expect((await emailMessages(t, auto.sendId)).map((m) => m.status)).toEqual(["queued", "queued"]);
    const res = await t.mutation(internal.sms.inbound, { messageSid: "SMx1", from: ADA, body: "Stop texting me" });
    expect(res.reply).toBe(
      `You have been unsubscribed from ${ctx.orgName} texts. No more messages will be sent. Reply START to resubscribe.`,
    );
    expect((await smsMessages(t, sms)).map((m) => m.status)).toEqual(["cancelled", "queued"]);
    for (const s of [auto.sendId, blast.sendId])
      expect((await emailMessages(t, s)).map((m) => [m.email, m.status])).toEqual([
        ["ada@example.org", "suppressed"],
        ["bob@example.org", "queued"],
      ]);
    const events = await ledger(t, ctx.orgId);
    expect(events.map((e) => [e.channel, e.kind, e.provenance.source])).toEqual([
      ["sms", "opt_out", "keyword"],
      ["email", "opt_out", "other_channel"],
    ]);
    // the carried event points at the one it came from
    expect(events[1].provenance).toMatchObject({ sourceId: events[0]._id, keyword: "STOP TEXTING ME" });
    // a voter joining the automation later is not queued
    await t.mutation(internal.emailBlasts.enqueueAutomated, { sendId: auto.sendId, voterId: ctx.voters.ada });
    expect(await emailMessages(t, auto.sendId)).toHaveLength(2);
  });

  test("a staff opt-out of an email suppresses its queued one-off emails (the voter page's email) too", async () => {
    const ctx = await fixture();
    const { t, cm } = ctx;
    const { outboxId } = await cm.mutation(api.voterEmails.send, {
      voterId: ctx.voters.ada,
      subject: "Hi",
      message: "Hello",
    });
    // the outbox row as still queued (deliver has not run, or runs after)
    await t.run((c) => c.db.patch("emailOutbox", outboxId, { status: "queued" }));
    await cm.mutation(api.consent.setOptOut, { voterId: ctx.voters.ada, channel: "email", optedOut: true });
    expect(await t.run((c) => c.db.get("emailOutbox", outboxId))).toMatchObject({
      status: "failed",
      error: "Opted out",
    });
  });
});

describe("every send path checks the state where it enqueues", () => {
  test("SMS: a campaign blast and a quick send skip an opted-out number", async () => {
    const ctx = await fixture();
    const { t, cm } = ctx;
    await cm.mutation(api.consent.setOptOut, { voterId: ctx.voters.ada, channel: "sms", optedOut: true });
    const campaignId = await cm.mutation(api.smsCampaigns.create, {
      name: "GOTV",
      description: null,
      body: ctx.body,
      voterGroups: [ctx.group],
      individualVoters: [],
    });
    const blast = await smsSend(ctx, { campaignId });
    expect((await smsMessages(t, blast)).map((m) => m.phone)).toEqual([BOB]);
    const quick = await smsSend(ctx, { body: ctx.body, voterIds: [ctx.voters.ada] });
    expect(await smsMessages(t, quick)).toEqual([]);
    expect((await cm.query(api.sms.progress, { sendId: quick }))!.counts).toMatchObject({ queued: 0, optedOut: 1 });
  });

  test("email: a blast and an automation skip an opted-out address; a voter email and a test send to it are refused", async () => {
    const ctx = await fixture();
    const { t, cm, f } = ctx;
    await cm.mutation(api.consent.setOptOut, { voterId: ctx.voters.ada, channel: "email", optedOut: true });
    const blast = await emailSend(ctx, "blast");
    expect((await emailMessages(t, blast.sendId)).map((m) => m.email)).toEqual(["bob@example.org"]);
    const auto = await emailSend(ctx, "automation");
    expect((await emailMessages(t, auto.sendId)).map((m) => m.email)).toEqual(["bob@example.org"]);
    expect((await t.run((c) => c.db.get("emailSends", auto.sendId)))!.counts.suppressed).toBe(1);
    expect(
      await refusal(cm.mutation(api.voterEmails.send, { voterId: ctx.voters.ada, subject: "Hi", message: "Hello" })),
    ).toMatchObject({
      message: "This voter has opted out of email from this organization.",
      title: "Error Sending Email",
    });
    const test = {
      orgId: ctx.orgId,
      userId: f.campaign_manager.userId,
      from: "jane@campaign.example.org",
      subject: "[TEST] News",
      html: "<p>x</p>",
      text: "x",
    };
    expect(
      await refusal(t.mutation(internal.emailTest.queueTest, { ...test, to: ["me@example.org", "ADA@example.org"] })),
    ).toMatchObject({ title: "Failed to send test email", message: expect.stringContaining("ADA@example.org") });
    // the refusal queued nothing; to others it goes
    expect(await t.mutation(internal.emailTest.queueTest, { ...test, to: ["me@example.org"] })).toHaveLength(1);
    // another organisation's suppression does not concern this one
    await f.outsider.as.mutation(api.voters.create, {
      fields: { first_name: "Out", last_name: "Sider", email: "bob@example.org" },
    });
    expect(
      await cm.mutation(api.voterEmails.send, { voterId: ctx.voters.bob, subject: "Hi", message: "Hello" }),
    ).toMatchObject({ outboxId: expect.any(String) });
  });
});

describe("keywords and the one confirmation", () => {
  test("a natural-language or Spanish opt-out is confirmed once; repeats, replays and the provider's own keywords get none", async () => {
    const ctx = await fixture();
    const { t } = ctx;
    await smsSend(ctx, { body: ctx.body, voterIds: [ctx.voters.ada, ctx.voters.bob] });
    const confirmation = `You have been unsubscribed from ${ctx.orgName} texts. No more messages will be sent. Reply START to resubscribe.`;
    const inbound = (messageSid: string, from: string, body: string) =>
      t.mutation(internal.sms.inbound, { messageSid, from, body });
    expect(await inbound("SM1", ADA, "Please remove me from your list")).toEqual({
      keyword: "REMOVE ME FROM YOUR LIST",
      reply: confirmation,
      replay: false,
    });
    // the same webhook again (a replay, or Twilio's retry after a lost answer): nothing, no second text
    expect(await inbound("SM1", ADA, "Please remove me from your list")).toEqual({
      keyword: "",
      reply: null,
      replay: true,
    });
    // the same person again: already opted out, no second confirmation and no second event
    expect((await inbound("SM2", ADA, "stop texting me")).reply).toBeNull();
    expect((await inbound("SM3", ADA, "STOP")).reply).toBeNull();
    expect(await ledger(t, ctx.orgId)).toHaveLength(1);
    // Spanish
    expect(await inbound("SM4", BOB, "No más")).toEqual({ keyword: "NO MAS", reply: confirmation, replay: false });
    // START opts back in (an event with its keyword); an ambiguous reply is only a reply
    await inbound("SM5", BOB, "START");
    expect(await inbound("SM6", BOB, "Stop by the office?")).toEqual({
      keyword: "STOP",
      reply: null,
      replay: false,
    });
    expect(await t.run((c) => c.db.query("smsOptOuts").collect())).toMatchObject([{ phone: ADA }]);
    const events = await ledger(t, ctx.orgId);
    expect(events.map((e) => [e.contact, e.kind, e.provenance.keyword])).toEqual([
      [ADA, "opt_out", "REMOVE ME FROM YOUR LIST"],
      [BOB, "opt_out", "NO MAS"],
      [BOB, "opt_in", "START"],
    ]);
  });
});

describe("provenance of the other writers", () => {
  test("the provider's 21610, a bounce and a complaint each record their event", async () => {
    const ctx = await fixture();
    const { t } = ctx;
    const sms = await smsSend(ctx, { body: ctx.body, voterIds: [ctx.voters.ada] });
    const [m] = await smsMessages(t, sms);
    await t.run((c) =>
      c.db.patch("smsMessages", m._id, { status: "sent", providerSid: "SMprov1", claimedAt: undefined }),
    );
    await t.mutation(internal.sms.applyStatus, {
      messageId: m._id,
      sid: "SMprov1",
      status: "failed",
      errorCode: "21610",
    });
    const { sendId } = await emailSend(ctx, "blast");
    const msgs = await emailMessages(t, sendId);
    await t.run(async (c) => {
      for (const x of msgs) await c.db.patch("emailMessages", x._id, { status: "sent", providerId: `re_${x.email}` });
    });
    const event = (eventId: string, type: "email.bounced" | "email.complained", email: string) =>
      t.mutation(internal.emailWebhooks.apply, {
        client: "resend",
        event: { eventId, type, emailId: `re_${email}`, at: Date.now() },
      });
    await event("ev1", "email.bounced", "ada@example.org");
    await event("ev1", "email.bounced", "ada@example.org");
    await event("ev2", "email.complained", "bob@example.org");
    const events = await ledger(t, ctx.orgId);
    expect(events.map((e) => [e.channel, e.contact, e.provenance.source, e.provenance.sourceId ?? null])).toEqual(
      expect.arrayContaining([
        ["sms", ADA, "provider", "SMprov1"],
        ["email", "ada@example.org", "bounce", "ev1"],
        ["email", "bob@example.org", "complaint", "ev2"],
      ]),
    );
    // a bounce is recorded once, and is the mailbox's state, not an opt-out on the voter's page
    expect(events.filter((e) => e.provenance.source === "bounce")).toHaveLength(1);
    const ada = (await ctx.cm.query(api.consent.forVoter, { voterId: ctx.voters.ada }))!;
    expect(ada.email.optedOut).toBeNull();
    expect(ada.email.suppressions).toMatchObject([{ reason: "bounced" }]);
    expect(ada.sms.optedOut).not.toBeNull();
    // a complaint is a withdrawal: opted out
    expect((await ctx.cm.query(api.consent.forVoter, { voterId: ctx.voters.bob }))!.email.optedOut).not.toBeNull();
  });

  test("a canvasser's do not contact opts out both channels, naming the canvasser and the visit", async () => {
    const ctx = await fixture();
    const { t, f } = ctx;
    await t.run(async (c) => {
      const user = (await c.db.get("users", f.volunteer.userId))!;
      const org = (await c.db.get("organizations", ctx.orgId))!;
      const viewer = { userId: f.volunteer.userId, orgId: ctx.orgId, user, org } as unknown as Viewer;
      const voter = (await c.db.get("voters", ctx.voters.bob))!;
      await suppressVoter(c, viewer, voter, "kd7canvassevent" as Id<"canvassEvents">);
    });
    const events = await ledger(t, ctx.orgId);
    expect(events.map((e) => [e.channel, e.contact, e.kind])).toEqual([
      ["sms", BOB, "opt_out"],
      ["email", "bob@example.org", "opt_out"],
    ]);
    for (const e of events)
      expect(e.provenance).toMatchObject({
        source: "canvass",
        sourceId: "kd7canvassevent",
        actorId: f.volunteer.userId,
      });
    expect(await t.run((c) => c.db.query("emailSuppressions").collect())).toMatchObject([
      { email: "bob@example.org", reason: "do_not_contact" },
    ]);
  });
});

describe("apply an opt-out to every channel", () => {
  test("off (the default): an SMS opt-out leaves the email alone; on: an unsubscribe opts out the phone, a bounce does not", async () => {
    const ctx = await fixture();
    const { t, cm } = ctx;
    expect(await cm.query(api.consent.settings, {})).toEqual({ optOutAllChannels: false });
    await smsSend(ctx, { body: ctx.body, voterIds: [ctx.voters.ada] });
    await t.mutation(internal.sms.inbound, { messageSid: "SMa", from: ADA, body: "STOP" });
    expect((await ledger(t, ctx.orgId)).map((e) => e.channel)).toEqual(["sms"]);

    await cm.mutation(api.consent.saveSettings, { optOutAllChannels: true });
    expect(await cm.query(api.consent.settings, {})).toEqual({ optOutAllChannels: true });
    const { sendId } = await emailSend(ctx, "blast");
    const msgs = await emailMessages(t, sendId);
    const bob = msgs.find((m) => m.email === "bob@example.org")!;
    await t.mutation(internal.emailUnsubscribe.unsubscribe, { token: bob.unsubToken, client: "203.0.113.5" });
    const events = await ledger(t, ctx.orgId);
    expect(events.slice(1).map((e) => [e.channel, e.contact, e.provenance.source])).toEqual([
      ["email", "bob@example.org", "unsubscribe_link"],
      ["sms", BOB, "other_channel"],
    ]);
    expect(events[2].provenance.sourceId).toBe(events[1]._id);
    // the setting is audited
    expect((await auditActions(t, ctx.orgId)).filter((a) => a.action === "settings.update")).toHaveLength(1);
  });
});

describe("staff", () => {
  test("opting out and back in by hand names the staff member and writes one audit entry per change", async () => {
    const ctx = await fixture();
    const { t, cm, f } = ctx;
    const before = (await auditActions(t, ctx.orgId)).length;
    expect(
      await cm.mutation(api.consent.setOptOut, { voterId: ctx.voters.ada, channel: "email", optedOut: true }),
    ).toBe(true);
    // already out: nothing changes, nothing is recorded
    expect(
      await cm.mutation(api.consent.setOptOut, { voterId: ctx.voters.ada, channel: "email", optedOut: true }),
    ).toBe(false);
    await cm.mutation(api.sms.setOptOut, { voterId: ctx.voters.ada, optedOut: true });
    await cm.mutation(api.sms.setOptOut, { voterId: ctx.voters.ada, optedOut: false });
    const audits = (await auditActions(t, ctx.orgId)).slice(before);
    expect(audits.map((a) => a.action)).toEqual(["consent.update", "consent.update", "consent.update"]);
    expect(audits.every((a) => a.actorId === f.campaign_manager.userId)).toBe(true);
    expect(audits[0].summary).toContain("out of email");
    const events = await ledger(t, ctx.orgId);
    expect(events.map((e) => [e.channel, e.kind])).toEqual([
      ["email", "opt_out"],
      ["sms", "opt_out"],
      ["sms", "opt_in"],
    ]);
    for (const e of events) expect(e.provenance).toMatchObject({ source: "staff", actorId: f.campaign_manager.userId });
    // the voter's page: state and events, newest first
    const view = (await ctx.f.viewer.as.query(api.consent.forVoter, { voterId: ctx.voters.ada }))!;
    expect(view.sms).toMatchObject({ contact: ADA, optedOut: null });
    expect(view.sms.events.map((e) => e.kind)).toEqual(["opt_in", "opt_out"]);
    expect(view.email).toMatchObject({ contact: "ada@example.org", optedOut: { at: expect.any(Number) } });
    expect(view.email.events[0]).toMatchObject({ kind: "opt_out", source: "staff", actorName: expect.any(String) });
  });

  test("a voter without the contact is refused", async () => {
    const ctx = await fixture();
    const none = await ctx.cm.mutation(api.voters.create, { fields: { first_name: "No", last_name: "Contact" } });
    expect(
      await refusal(ctx.cm.mutation(api.consent.setOptOut, { voterId: none, channel: "email", optedOut: true })),
    ).toMatchObject({ code: "VALIDATION_ERROR" });
    expect((await ctx.cm.query(api.consent.forVoter, { voterId: none }))!.sms).toEqual({
      contact: null,
      optedOut: null,
      events: [],
    });
  });
});

describe("one writer", () => {
  test("only model/consent.ts writes the ledger and the state it derives (opt-outs, suppressions)", () => {
    const sources = import.meta.glob<string>("../../convex/**/*.ts", { query: "?raw", import: "default", eager: true });
    const writers = Object.entries(sources)
      .filter(([file]) => !file.includes("/_generated/"))
      .filter(([, text]) =>
        /\.(insert|patch|replace|delete)\(\s*"(consentEvents|smsOptOuts|emailSuppressions)"/.test(text),
      )
      .map(([file]) => file.replace(/^.*\/convex\//, ""));
    expect(writers).toEqual(["model/consent.ts"]);
    // and nothing outside it changes or deletes a ledger event
    const consent = sources["../../convex/model/consent.ts"];
    expect(consent).not.toMatch(/\.(patch|replace|delete)\(\s*"consentEvents"/);
  });
});

describe("permissions", () => {
  const VIEW = new Set(["super_admin", "campaign_manager", "volunteer", "viewer"]); // voters.view
  const SEND = new Set(["super_admin", "campaign_manager"]); // messaging.send
  const CAMPAIGNS_VIEW = new Set(["super_admin", "campaign_manager", "viewer"]);
  const MANAGE = new Set(["super_admin", "campaign_manager"]);

  test.each(ROLES)("%s: allowed exactly with the permission", async (role) => {
    const ctx = await fixture();
    const as = ctx.f[role].as;
    const read = as.query(api.consent.forVoter, { voterId: ctx.voters.ada });
    if (VIEW.has(role)) expect(await read).toMatchObject({ sms: { contact: ADA } });
    else await expect(read).rejects.toThrow(/permission/);
    const set = as.mutation(api.consent.setOptOut, { voterId: ctx.voters.ada, channel: "sms", optedOut: true });
    if (SEND.has(role)) expect(await set).toBe(true);
    else await expect(set).rejects.toThrow(/permission/);
    const settings = as.query(api.consent.settings, {});
    if (CAMPAIGNS_VIEW.has(role)) expect(await settings).toEqual({ optOutAllChannels: false });
    else await expect(settings).rejects.toThrow(/permission/);
    const save = as.mutation(api.consent.saveSettings, { optOutAllChannels: true });
    if (MANAGE.has(role)) expect(await save).toBeNull();
    else await expect(save).rejects.toThrow(/permission/);
  });

  test("another organisation sees and changes nothing; signed-out callers are refused", async () => {
    const ctx = await fixture();
    const { t, f } = ctx;
    await ctx.cm.mutation(api.consent.setOptOut, { voterId: ctx.voters.ada, channel: "sms", optedOut: true });
    expect(await f.outsider.as.query(api.consent.forVoter, { voterId: ctx.voters.ada })).toBeNull();
    await expect(
      f.outsider.as.mutation(api.consent.setOptOut, { voterId: ctx.voters.ada, channel: "sms", optedOut: false }),
    ).rejects.toThrow(/could not be found/);
    await f.outsider.as.mutation(api.consent.saveSettings, { optOutAllChannels: true });
    expect(await ctx.cm.query(api.consent.settings, {})).toEqual({ optOutAllChannels: false });
    expect(await t.run((c) => c.db.query("smsOptOuts").collect())).toHaveLength(1);
    await expect(t.query(api.consent.forVoter, { voterId: ctx.voters.ada })).rejects.toThrow(/log in/);
    await expect(
      t.mutation(api.consent.setOptOut, { voterId: ctx.voters.ada, channel: "sms", optedOut: false }),
    ).rejects.toThrow(/log in/);
    await expect(t.query(api.consent.settings, {})).rejects.toThrow(/log in/);
    await expect(t.mutation(api.consent.saveSettings, { optOutAllChannels: true })).rejects.toThrow(/log in/);
  });
});
