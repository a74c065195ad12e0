/**
 * The SMS center (spec/2 §2.1): sends, their live progress, message history, the activity log,
 * opt-outs and settings. campaigns.view reads, messaging.send sends (and pauses, resumes,
 * cancels), campaigns.manage changes the settings. Who a message went to (name, number, voter)
 * and log entries naming recipients are shown only with voters.view (model/personalData.ts); a
 * voter's own history needs voters.view. The queue itself: model/sms.ts (sends), smsSender.ts, smsReplies.ts, smsShared.ts, on the
 * shared send queue (model/sendQueue.ts); the provider: integrations/twilio.ts; webhooks: http.ts.
 */
import { paginationOptsValidator, paginationResultValidator } from "convex/server";
import { v } from "convex/values";
import { internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import type { MutationCtx } from "./_generated/server";
import { internalMutation, internalQuery, orgMutation, orgQuery } from "./functions";
import { appError } from "./lib/errors";
import { optOutConfirmation, optOutKeyword, providerConfirms } from "./lib/sms/optOut";
import { inboundKeyword, normalizePhone } from "./lib/sms/rules";
import { canSeeVoters } from "./model/personalData";
import { audit, fieldChanges } from "./model/audit";
import { recordOptIn, recordOptOut, staffSetConsent } from "./model/consent";
import * as sms from "./model/sms";
import * as replies from "./model/smsReplies";
import * as sender from "./model/smsSender";
import * as shared from "./model/smsShared";
import { HELP_WORDS, START_WORDS, vSendProgress, vSmsMessageRow, vSmsSettings, vSmsStatus } from "./tables/sms";

const vSendResult = v.union(
  v.object({ id: v.id("smsMessages"), outcome: v.literal("sent"), sid: v.string(), status: vSmsStatus }),
  v.object({
    id: v.id("smsMessages"),
    outcome: v.literal("failed"),
    code: v.string(),
    error: v.string(),
    optOut: v.optional(v.boolean()),
  }),
  v.object({ id: v.id("smsMessages"), outcome: v.literal("requeue"), readyAt: v.number() }),
  v.object({ id: v.id("smsMessages"), outcome: v.literal("fatal"), code: v.string(), error: v.string() }),
);

/** Provider mode, sender, settings and the sends still running. */
export const overview = orgQuery("campaigns.view")({
  args: {},
  returns: v.object({
    demo: v.boolean(),
    sender: v.union(v.string(), v.null()),
    orgName: v.string(),
    settings: v.object({
      ...vSmsSettings.fields,
      segmentsPerSecond: v.number(),
      paceOverride: v.union(v.number(), v.null()),
    }),
    activeSends: v.array(vSendProgress),
  }),
  handler: async (ctx) => {
    const { demo, sender } = shared.providerConfig();
    const recent = await ctx.db
      .query("smsSends")
      .withIndex("by_org", (q) => q.eq("orgId", ctx.viewer.orgId))
      .order("desc")
      .take(20);
    const active = recent.filter((s) => s.status === "preparing" || s.status === "sending" || s.status === "paused");
    const settings = await shared.loadSettings(ctx.db, ctx.viewer.orgId);
    const activeSends = await Promise.all(active.map((s) => shared.progressWithHold(ctx.db, s, settings)));
    return { demo, sender, orgName: ctx.viewer.org.name, settings, activeSends };
  },
});

const AUDIENCE_SCAN = 2_000;

/**
 * Who a send would reach: recipients after removing opted-out numbers, voters without a phone,
 * invalid numbers and duplicates. Exact up to 2,000 voters; beyond, the group sizes (the send's
 * own counters are exact as it prepares).
 */
export const audience = orgQuery("campaigns.view")({
  args: { groupIds: v.array(v.id("voterGroups")), voterIds: v.array(v.id("voters")), extraPhones: v.array(v.string()) },
  returns: v.object({
    exact: v.boolean(),
    recipients: v.number(),
    optedOut: v.number(),
    noPhone: v.number(),
    invalid: v.number(),
    duplicates: v.number(),
  }),
  handler: async (ctx, { groupIds, voterIds, extraPhones }) => {
    if (groupIds.length > 100 || voterIds.length > sms.MAX_QUICK_VOTERS || extraPhones.length > sms.MAX_EXTRA_PHONES)
      throw appError("VALIDATION_ERROR");
    const out = { exact: true, recipients: 0, optedOut: 0, noPhone: 0, invalid: 0, duplicates: 0 };
    const seen = new Set<string>();
    let scanned = 0;
    const count = async (raw: string | undefined) => {
      if (!raw || raw.trim() === "") return void out.noPhone++;
      const phone = normalizePhone(raw);
      if (!phone) return void out.invalid++;
      if (seen.has(phone)) return void out.duplicates++;
      seen.add(phone);
      if (await shared.optOutOf(ctx.db, ctx.viewer.orgId, phone)) return void out.optedOut++;
      out.recipients++;
    };
    for (const groupId of groupIds) {
      const group = await ctx.db.get("voterGroups", groupId);
      if (!group) continue;
      if (scanned + group.memberCount > AUDIENCE_SCAN) {
        out.exact = false;
        out.recipients += group.memberCount;
        continue;
      }
      const members = await ctx.db
        .query("voterGroupMembers")
        .withIndex("by_group", (q) => q.eq("groupId", groupId))
        .take(AUDIENCE_SCAN);
      for (const m of members) {
        const voter = await ctx.db.get("voters", m.voterId);
        if (voter) await count(voter.phone);
      }
      scanned += members.length;
    }
    for (const id of voterIds.slice(0, Math.max(0, AUDIENCE_SCAN - scanned))) {
      const voter = await ctx.db.get("voters", id);
      if (voter) await count(voter.phone);
    }
    if (voterIds.length > AUDIENCE_SCAN - scanned) {
      out.exact = false;
      out.recipients += voterIds.length - Math.max(0, AUDIENCE_SCAN - scanned);
    }
    for (const p of extraPhones) await count(p);
    return out;
  },
});

/** Starts a campaign's send or a quick send (spec/2 §5 refusals; opt-out language preflight). */
export const start = orgMutation("messaging.send")({
  args: {
    campaignId: v.optional(v.id("campaigns")),
    voterIds: v.optional(v.array(v.id("voters"))),
    extraPhones: v.optional(v.array(v.string())),
    body: v.optional(v.string()),
    acknowledgeNoOptOutText: v.optional(v.boolean()),
  },
  returns: v.id("smsSends"),
  handler: async (ctx, args) => {
    const sendId = await sms.startSend(ctx, ctx.viewer, args);
    // one entry per send: its audience as chosen (group sizes, voters, numbers), not one per recipient
    const send = (await ctx.db.get("smsSends", sendId))!;
    const groups = await Promise.all(send.groupIds.map((id) => ctx.db.get("voterGroups", id)));
    const inGroups = groups.reduce((n, g) => n + (g?.memberCount ?? 0), 0);
    const audience = inGroups + send.voterIds.length + send.extraPhones.length;
    const campaign = send.campaignId ? await ctx.db.get("campaigns", send.campaignId) : null;
    const label = campaign?.name ?? "Quick send";
    await audit(ctx, ctx.viewer, {
      action: "sms.send",
      target: campaign ? { table: "campaigns", id: campaign._id, label } : { table: "smsSends", id: sendId, label },
      summary:
        `Started the SMS send ${label} to up to ${audience} recipients (${send.groupIds.length} groups, ` +
        `${send.voterIds.length} voters, ${send.extraPhones.length} other numbers)${send.demo ? " in demo mode" : ""}.`,
    });
    return sendId;
  },
});

export const pause = orgMutation("messaging.send")({
  args: { sendId: v.id("smsSends") },
  returns: v.null(),
  handler: async (ctx, { sendId }) => {
    await sms.controlSend(ctx, ctx.viewer, sendId, "pause");
    return null;
  },
});

export const resume = orgMutation("messaging.send")({
  args: { sendId: v.id("smsSends") },
  returns: v.null(),
  handler: async (ctx, { sendId }) => {
    await sms.controlSend(ctx, ctx.viewer, sendId, "resume");
    return null;
  },
});

export const cancel = orgMutation("messaging.send")({
  args: { sendId: v.id("smsSends") },
  returns: v.null(),
  handler: async (ctx, { sendId }) => {
    await sms.controlSend(ctx, ctx.viewer, sendId, "cancel");
    return null;
  },
});

export const progress = orgQuery("campaigns.view")({
  args: { sendId: v.id("smsSends") },
  returns: v.union(vSendProgress, v.null()),
  handler: async (ctx, { sendId }) => {
    const send = await ctx.db.get("smsSends", sendId);
    return send ? await shared.progressWithHold(ctx.db, send, await shared.loadSettings(ctx.db, send.orgId)) : null;
  },
});

/** The latest three messages (Recent Messages). */
export const recent = orgQuery("campaigns.view")({
  args: {},
  returns: v.array(vSmsMessageRow),
  handler: async (ctx) => {
    const rows = await ctx.db
      .query("smsMessages")
      .withIndex("by_org_queued", (q) => q.eq("orgId", ctx.viewer.orgId))
      .order("desc")
      .take(3);
    const see = canSeeVoters(ctx.viewer);
    return rows.map((m) => shared.messageRow(m, see));
  },
});

/** Message History: every message, newest first, or one send's in queue order. */
export const history = orgQuery("campaigns.view")({
  args: { paginationOpts: paginationOptsValidator, sendId: v.optional(v.id("smsSends")) },
  returns: paginationResultValidator(vSmsMessageRow),
  handler: async (ctx, { paginationOpts, sendId }) => {
    const opts = { ...paginationOpts, numItems: Math.max(1, Math.min(200, paginationOpts.numItems)) };
    const page = sendId
      ? await ctx.db
          .query("smsMessages")
          .withIndex("by_send_position", (q) => q.eq("sendId", sendId))
          .paginate(opts)
      : await ctx.db
          .query("smsMessages")
          .withIndex("by_org_queued", (q) => q.eq("orgId", ctx.viewer.orgId))
          .order("desc")
          .paginate(opts);
    const see = canSeeVoters(ctx.viewer);
    return { ...page, page: page.page.map((m) => shared.messageRow(m, see)) };
  },
});

/** The activity log after `since` (Clear Log moves `since`; the stored log stays), newest first. */
export const log = orgQuery("campaigns.view")({
  args: { since: v.number() },
  returns: v.array(
    v.object({
      id: v.id("smsLog"),
      at: v.number(),
      type: v.union(v.literal("info"), v.literal("success"), v.literal("warning"), v.literal("error")),
      message: v.string(),
    }),
  ),
  handler: async (ctx, { since }) => {
    const rows = await ctx.db
      .query("smsLog")
      .withIndex("by_org_at", (q) => q.eq("orgId", ctx.viewer.orgId).gt("at", since))
      .order("desc")
      .take(100);
    const see = canSeeVoters(ctx.viewer);
    return rows.map((r) => ({ id: r._id, at: r.at, type: r.type, message: shared.logMessage(r, see) }));
  },
});

/** How much of an inbound text is kept (a long one arrives as up to ten segments). */
const INBOUND_KEPT_CHARS = 1_600;

/** A voter's text messages (contact history), their replies, and whether their number opted out. */
export const voterHistory = orgQuery("voters.view")({
  args: { voterId: v.id("voters") },
  returns: v.object({
    optedOut: v.union(v.object({ at: v.number(), source: v.string() }), v.null()),
    messages: v.array(vSmsMessageRow),
    replies: v.array(v.object({ id: v.id("smsInbound"), at: v.number(), body: v.string() })),
  }),
  handler: async (ctx, { voterId }) => {
    const voter = await ctx.db.get("voters", voterId);
    if (!voter) return { optedOut: null, messages: [], replies: [] };
    const phone = voter.phone ? normalizePhone(voter.phone) : null;
    const opt = phone ? await shared.optOutOf(ctx.db, ctx.viewer.orgId, phone) : null;
    const rows = await ctx.db
      .query("smsMessages")
      .withIndex("by_voter", (q) => q.eq("voterId", voterId))
      .order("desc")
      .take(50);
    const inbound = phone
      ? await ctx.db
          .query("smsInbound")
          .withIndex("by_org_phone_at", (q) => q.eq("orgId", ctx.viewer.orgId).eq("phone", phone))
          .order("desc")
          .take(50)
      : [];
    return {
      optedOut: opt ? { at: opt.at, source: opt.source } : null,
      messages: rows.map((m) => shared.messageRow(m, true)),
      replies: inbound.map((r) => ({ id: r._id, at: r.at, body: r.body })),
    };
  },
});

/** How many voters one optedOutAmong call may ask about (Quick Send's list as loaded). */
export const OPT_OUT_ASK_MAX = 1_000;

/** Which of these voters' numbers opted out of SMS (Quick Send marks them and does not let them be ticked). */
export const optedOutAmong = orgQuery("voters.view")({
  args: { voterIds: v.array(v.id("voters")) },
  returns: v.array(v.id("voters")),
  handler: async (ctx, { voterIds }) => {
    if (voterIds.length > OPT_OUT_ASK_MAX)
      throw appError("VALIDATION_ERROR", `Ask about at most ${OPT_OUT_ASK_MAX} voters at a time.`);
    const out: Id<"voters">[] = [];
    for (const id of new Set(voterIds)) {
      const voter = await ctx.db.get("voters", id);
      const phone = voter?.phone ? normalizePhone(voter.phone) : null;
      if (phone && (await shared.optOutOf(ctx.db, ctx.viewer.orgId, phone))) out.push(id);
    }
    return out;
  },
});

/** Opts a voter's number out (or back in) by hand: the consent ledger names who, the audit log has it. */
export const setOptOut = orgMutation("messaging.send")({
  args: { voterId: v.id("voters"), optedOut: v.boolean() },
  returns: v.null(),
  handler: async (ctx, { voterId, optedOut }) => {
    const voter = await ctx.db.get("voters", voterId);
    if (!voter) throw appError("NOT_FOUND");
    const phone = voter.phone ? normalizePhone(voter.phone) : null;
    if (!phone) throw appError("VALIDATION_ERROR", "This voter has no valid phone number.");
    await staffSetConsent(ctx, ctx.viewer, voter, "sms", phone, optedOut);
    return null;
  },
});

export const saveSettings = orgMutation("campaigns.manage")({
  args: { settings: vSmsSettings },
  returns: v.null(),
  handler: async (ctx, { settings }) => {
    shared.checkSettings(settings);
    const row = await ctx.db
      .query("smsSettings")
      .withIndex("by_org", (q) => q.eq("orgId", ctx.viewer.orgId))
      .unique();
    if (row) await ctx.db.patch("smsSettings", row._id, { settings, updatedAt: Date.now() });
    else await ctx.db.insert("smsSettings", { orgId: ctx.viewer.orgId, settings, updatedAt: Date.now() });
    await audit(ctx, ctx.viewer, {
      action: "settings.update",
      target: { table: "smsSettings", id: row?._id ?? ctx.viewer.orgId, label: "SMS settings" },
      summary: "Changed the SMS settings.",
      changes: fieldChanges(row?.settings ?? null, settings, Object.keys(settings) as (keyof typeof settings)[]),
    });
    // messages held by the old sending hours are due by the new ones
    if (!row || row.settings.quietStart !== settings.quietStart || row.settings.quietEnd !== settings.quietEnd)
      await sender.rescheduleHeldSends(ctx, ctx.viewer.orgId);
    return null;
  },
});

/** One page of a send's messages re-timed to the sending hours as they are now; then the next page, then the sender wakes. */
export const rescheduleHeld = internalMutation({
  args: { sendId: v.id("smsSends"), after: v.number() },
  returns: v.null(),
  handler: async (ctx, { sendId, after }) => {
    await sender.rescheduleHeldPage(ctx, sendId, after);
    return null;
  },
});

// ——— the queue's SMS steps (internal; the shared ones are sendQueue.ts) ———

export const enqueueStep = internalMutation({
  args: { sendId: v.id("smsSends") },
  returns: v.null(),
  handler: async (ctx, { sendId }) => {
    await sms.enqueueStep(ctx, sendId);
    return null;
  },
});

export const claim = internalMutation({
  args: { sendId: v.id("smsSends"), max: v.number(), gen: v.number() },
  handler: async (ctx, { sendId, max, gen }) => await sender.claim(ctx, sendId, Math.min(max, 200), gen),
});

export const recordResults = internalMutation({
  args: { sendId: v.id("smsSends"), results: v.array(vSendResult) },
  returns: v.null(),
  handler: async (ctx, { sendId, results }) => {
    await sender.recordResults(ctx, sendId, results);
    return null;
  },
});

/** The messages a reconciliation looks up (still "sending", with when they were claimed). */
export const stuckMessages = internalQuery({
  args: { messageIds: v.array(v.id("smsMessages")) },
  handler: async (ctx, { messageIds }) => {
    const rows = await Promise.all(messageIds.map((id) => ctx.db.get("smsMessages", id)));
    return rows
      .filter((m) => m !== null && m.status === "sending")
      .map((m) => ({ id: m!._id, phone: m!.phone, body: m!.body, claimedAt: m!.claimedAt ?? m!.updatedAt }));
  },
});

/**
 * A delivery status callback (signature already verified by the http action). The same sid and
 * status again (a replay, or Twilio's retry) is ignored: false.
 */
export const applyStatus = internalMutation({
  args: {
    messageId: v.union(v.string(), v.null()),
    sid: v.string(),
    status: vSmsStatus,
    errorCode: v.union(v.string(), v.null()),
  },
  returns: v.boolean(),
  handler: async (ctx, { messageId, sid, status, errorCode }) => {
    if (!(await replies.firstTime(ctx, `status:${sid}:${status}`, replies.STATUS_REMEMBERED_MS))) return false;
    const id = messageId ? ctx.db.normalizeId("smsMessages", messageId) : null;
    return await replies.applyStatus(ctx, id, sid, status, errorCode);
  },
});

/** The audit log's entry for an opt-out or opt-in by keyword (Twilio's inbound webhook): one per organisation whose consent changed. */
async function auditKeyword(
  ctx: MutationCtx,
  orgId: Id<"organizations">,
  phone: string,
  keyword: string,
  messageSid: string,
  what: string,
) {
  await audit(
    ctx,
    { orgId, name: "Twilio webhook" },
    {
      action: "webhook.sms",
      target: { table: "smsOptOuts", id: phone, label: phone },
      summary: `${phone} ${what} text messages by replying ${keyword} (message ${messageSid}).`,
    },
  );
}

/**
 * An inbound text (signature verified): an opt-out (a STOP word, an opt-out sentence, Spanish;
 * lib/sms/optOut.ts) opts the number out of every organisation that texted it, START words opt
 * back in, HELP gets the names. An opt-out that changed a state is confirmed once, in the reply,
 * unless the provider confirms it itself (its own single-word keywords). A MessageSid already
 * taken (a replayed request) changes nothing and gets no reply.
 */
export const inbound = internalMutation({
  args: { messageSid: v.string(), from: v.string(), body: v.string() },
  returns: v.object({ keyword: v.string(), reply: v.union(v.string(), v.null()), replay: v.boolean() }),
  handler: async (ctx, { messageSid, from, body }) => {
    if (!(await replies.firstTime(ctx, `inbound:${messageSid}`, replies.INBOUND_REMEMBERED_MS)))
      return { keyword: "", reply: null, replay: true };
    const phone = normalizePhone(from);
    if (!phone) return { keyword: "", reply: null, replay: false };
    const keyword = inboundKeyword(body);
    const orgs = await replies.orgsThatTexted(ctx.db, phone);
    // every inbound text is kept for the organisations that texted the number: the voter's page lists it
    for (const orgId of orgs)
      await ctx.db.insert("smsInbound", { orgId, phone, body: body.slice(0, INBOUND_KEPT_CHARS), at: Date.now() });
    const optOut = optOutKeyword(body);
    if (optOut !== null) {
      const changed: Id<"organizations">[] = [];
      for (const orgId of orgs) {
        const provenance = { source: "keyword" as const, keyword: optOut, sourceId: messageSid, address: phone };
        if (await recordOptOut(ctx, { orgId, channel: "sms", contact: phone, provenance })) {
          changed.push(orgId);
          await auditKeyword(ctx, orgId, phone, optOut, messageSid, "opted out of");
        }
      }
      // one confirmation at most: only for a change (a repeated STOP or a replay gets none), never on top of the provider's
      if (changed.length === 0 || providerConfirms(body)) return { keyword: optOut, reply: null, replay: false };
      const names = (await Promise.all(changed.map((id) => ctx.db.get("organizations", id))))
        .filter((o) => o !== null)
        .map((o) => o.name);
      return { keyword: optOut, reply: optOutConfirmation(names), replay: false };
    }
    if ((START_WORDS as readonly string[]).includes(keyword)) {
      for (const orgId of orgs) {
        const provenance = { source: "keyword" as const, keyword, sourceId: messageSid, address: phone };
        if (await recordOptIn(ctx, { orgId, channel: "sms", contact: phone, provenance }))
          await auditKeyword(ctx, orgId, phone, keyword, messageSid, "opted back in to");
      }
      return { keyword, reply: null, replay: false };
    }
    if ((HELP_WORDS as readonly string[]).includes(keyword)) {
      const names = (await Promise.all(orgs.map((id) => ctx.db.get("organizations", id))))
        .filter((o) => o !== null)
        .map((o) => o.name);
      const who = names.length > 0 ? names.join(", ") : "Precinct";
      return {
        keyword,
        reply: `${who}: campaign text messages. Reply STOP to opt out, START to opt back in.`,
        replay: false,
      };
    }
    for (const orgId of orgs)
      await shared.log(
        ctx,
        orgId,
        "info",
        `Reply from ${phone}: ${body.slice(0, 160)}`,
        undefined,
        "A reply was received",
      );
    return { keyword, reply: null, replay: false };
  },
});

/** Forgets Twilio webhook requests past their keeping time, a batch per transaction (a daily cron). */
export const purgeWebhookRequests = internalMutation({
  args: {},
  returns: v.null(),
  handler: async (ctx) => {
    const rows = await ctx.db
      .query("twilioWebhookRequests")
      .withIndex("by_expires", (q) => q.lt("expiresAt", Date.now()))
      .take(1000);
    for (const r of rows) await ctx.db.delete("twilioWebhookRequests", r._id);
    if (rows.length === 1000) await ctx.scheduler.runAfter(0, internal.sms.purgeWebhookRequests, {});
    return null;
  },
});
