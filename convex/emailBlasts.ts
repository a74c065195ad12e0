/**
 * The email blast dashboard's server (spec/2 §2.2, §4, §5): a campaign's setup (Send To and
 * Automated tabs, edited with the record rules), recipient estimates, Send (now, scheduled,
 * event or filter automation, after the spec's checks in order), the live progress of a send with
 * pause / resume / cancel, statistics from counters, and a voter's email history. The queue
 * itself is model/emailBlast.ts (recipients) and model/emailSender.ts with
 * integrations/resendBlast.ts (sending), on the shared send queue (model/sendQueue.ts). Viewing
 * needs campaigns.view; changing campaigns.manage; a voter's email history voters.view as well.
 */
import { v } from "convex/values";
import type { Doc, Id } from "./_generated/dataModel";
import type { MutationCtx } from "./_generated/server";
import { appError, internalMutation, orgMutation, orgQuery } from "./functions";
import { parseManualRecipients, MAX_MANUAL_RECIPIENTS } from "./lib/email/blast";
import { parseRules, RulesError, serializeRules } from "./lib/email/rules";
import { loadEditState, markEdited, mergeEdits, withEdits, type FieldEdit } from "./model/collab";
import {
  checkSend,
  controlSend,
  createSend,
  enqueueStep as enqueueRecipients,
  estimate as estimateAudience,
  latestSend,
  MAX_AUDIENCE_IDS,
  renderForSend,
  rulesOf,
  senderOf,
  setupOf,
  type BlastSetup,
} from "./model/emailBlast";
import { enqueueAutomated as enqueueVoter } from "./model/emailAutomation";
import { readStats, topLinks, WEBHOOK_EVENT_TTL_MS } from "./model/emailEvents";
import { requireVoterAccess } from "./model/personalData";
import { claim as claimBatch, recordBatch as recordAnswer } from "./model/emailSender";
import { isLive } from "./model/sendQueue";
import { audit, type AuditActor } from "./model/audit";
import { displayName } from "./model/presence";
import { vEditState, vFieldEdit } from "./tables/collab";
import {
  emailBlastTables,
  EVENT_TRIGGERS,
  SEND_TYPES,
  STAT_FIELDS,
  vBlastSetup,
  vEmailMessageStatus,
  vEmailSendCounts,
} from "./tables/emailBlast";
import { vEmailRule } from "./tables/emailAudience";
import { emailTables } from "./tables/email";
import { vSendStatus } from "./tables/sendStatus";
import { internal } from "./_generated/api";

/** A campaign's recipients and send type, as the Send To and Automated tabs show them. */
export const setup = orgQuery("campaigns.view")({
  args: { id: v.id("emailCampaigns") },
  returns: v.union(
    vBlastSetup.omit("eventRules", "filterRules").extend({
      /** the stored rules read (an unreadable list as none), and their stored JSON text: the base of an edit */
      eventRules: v.array(vEmailRule),
      filterRules: v.array(vEmailRule),
      eventRulesJson: v.string(),
      filterRulesJson: v.string(),
      status: emailTables.emailCampaigns.validator.fields.status,
      sentAt: v.union(v.number(), v.null()),
    }),
    v.null(),
  ),
  handler: async (ctx, { id }) => {
    const c = await ctx.db.get("emailCampaigns", id);
    if (!c) return null;
    const s = setupOf(c);
    return {
      ...s,
      eventRules: rulesOf(s.eventRules, { event: true }),
      filterRules: rulesOf(s.filterRules),
      eventRulesJson: s.eventRules,
      filterRulesJson: s.filterRules,
      status: c.status,
      sentAt: c.sentAt ?? null,
    };
  },
});

const LABELS: Record<keyof BlastSetup, string> = {
  listIds: "lists",
  groupIds: "groups",
  segmentIds: "segments",
  manual: "manual recipients",
  excludeBounced: "bounced exclusion",
  excludeComplained: "complained exclusion",
  sendType: "send type",
  scheduledAt: "scheduled time",
  eventTrigger: "event trigger",
  eventTargetId: "event target",
  eventRules: "event rules",
  filterRules: "filter rules",
};

/** Rules as stored: validated and normalised JSON (also applied to an edit's base, so equal rules compare equal). */
function normaliseRules(json: unknown, event: boolean): string {
  if (typeof json !== "string") throw appError("VALIDATION_ERROR", "Rules must be a list.");
  try {
    return serializeRules(parseRules(JSON.parse(json), { event }));
  } catch (e) {
    if (e instanceof RulesError) throw appError("VALIDATION_ERROR", e.message, "Invalid rule");
    throw appError("VALIDATION_ERROR", "The rules could not be read.", "Invalid rule");
  }
}

function normaliseEdit(e: FieldEdit): FieldEdit {
  if (e.field !== "eventRules" && e.field !== "filterRules") return e;
  const event = e.field === "eventRules";
  const base =
    typeof e.base === "string"
      ? (() => {
          try {
            return normaliseRules(e.base, event);
          } catch {
            return e.base;
          }
        })()
      : e.base;
  return { field: e.field, base, value: normaliseRules(e.value, event) };
}

/**
 * Checks a setup after edits: ids of this organisation, addresses, enums, bounds. A list, group
 * or segment deleted since it was selected drops out; a newly selected one must exist.
 */
async function checkSetup(
  ctx: { db: Parameters<typeof estimateAudience>[0] },
  orgId: Id<"organizations">,
  s: BlastSetup,
  before: BlastSetup,
): Promise<BlastSetup> {
  const ids = async (
    table: "emailLists" | "voterGroups" | "emailSegments",
    list: unknown,
    stored: string[],
    noun: string,
  ) => {
    if (!Array.isArray(list) || list.length > MAX_AUDIENCE_IDS)
      throw appError("VALIDATION_ERROR", `Select at most ${MAX_AUDIENCE_IDS} ${noun}.`);
    const out: string[] = [];
    for (const raw of list) {
      const id = typeof raw === "string" ? ctx.db.normalizeId(table, raw) : null;
      const doc = id ? await ctx.db.get(table, id) : null;
      if (!doc || (doc as { orgId: Id<"organizations"> }).orgId !== orgId) {
        if (typeof raw === "string" && stored.includes(raw)) continue;
        throw appError("NOT_FOUND", `One of the selected ${noun} no longer exists.`);
      }
      if (!out.includes(doc._id)) out.push(doc._id);
    }
    return out;
  };
  if (!Array.isArray(s.manual) || s.manual.some((m) => typeof m !== "string")) throw appError("VALIDATION_ERROR");
  const { valid, invalid } = parseManualRecipients(s.manual);
  if (invalid.length)
    throw appError("VALIDATION_ERROR", `Please check: ${invalid.slice(0, 10).join(", ")}`, "Invalid email address");
  if (valid.length > MAX_MANUAL_RECIPIENTS)
    throw appError("VALIDATION_ERROR", `Add at most ${MAX_MANUAL_RECIPIENTS} addresses by hand; use a list for more.`);
  if (!SEND_TYPES.includes(s.sendType)) throw appError("VALIDATION_ERROR", "Unknown send type.");
  if (!EVENT_TRIGGERS.includes(s.eventTrigger)) throw appError("VALIDATION_ERROR", "Unknown event.");
  if (s.scheduledAt !== null && (typeof s.scheduledAt !== "number" || !Number.isFinite(s.scheduledAt)))
    throw appError("VALIDATION_ERROR", "Invalid scheduled time.");
  if (s.eventTargetId !== null && (typeof s.eventTargetId !== "string" || s.eventTargetId.length > 64))
    throw appError("VALIDATION_ERROR", "Invalid event target.");
  for (const k of ["excludeBounced", "excludeComplained"] as const)
    if (typeof s[k] !== "boolean") throw appError("VALIDATION_ERROR");
  return {
    ...s,
    listIds: await ids("emailLists", s.listIds, before.listIds, "lists"),
    groupIds: await ids("voterGroups", s.groupIds, before.groupIds, "groups"),
    segmentIds: await ids("emailSegments", s.segmentIds, before.segmentIds, "segments"),
    manual: valid,
  };
}

/** Saves changed setup fields, each with its base: teammates' changes to other fields merge, the same field is refused naming them. */
export const updateSetup = orgMutation("campaigns.manage")({
  args: { id: v.id("emailCampaigns"), edits: v.array(vFieldEdit) },
  returns: v.null(),
  handler: async (ctx, { id, edits }) => {
    const c = await ctx.db.get("emailCampaigns", id);
    if (!c) throw appError("NOT_FOUND", "This campaign no longer exists. It may have been deleted by a teammate.");
    const current = setupOf(c);
    const apply = await mergeEdits(ctx, ctx.viewer, id, current, edits.map(normaliseEdit), {
      title: `The campaign "${c.name}"`,
      editable: (f) => Object.hasOwn(LABELS, f),
      label: (f) => LABELS[f as keyof BlastSetup] ?? f,
    });
    if (apply.length === 0) return null;
    const next = await checkSetup(ctx, ctx.viewer.orgId, withEdits(current, apply), current);
    await ctx.db.patch("emailCampaigns", id, { blast: next });
    await markEdited(
      ctx,
      ctx.viewer,
      id,
      apply.map((e) => e.field),
    );
    return null;
  },
});

export const setupEditState = orgQuery("campaigns.view")({
  args: { id: v.string() },
  returns: vEditState,
  handler: async (ctx, { id }) => {
    const campaignId = ctx.db.normalizeId("emailCampaigns", id);
    return campaignId ? await loadEditState(ctx, campaignId) : { fields: {}, deleted: null };
  },
});

/** Recipients of a selection, from stored counts (duplicates and exclusions are removed at send time). */
export const estimate = orgQuery("campaigns.view")({
  args: {
    listIds: v.array(v.string()),
    groupIds: v.array(v.string()),
    segmentIds: v.array(v.string()),
    manual: v.array(v.string()),
  },
  returns: v.object({
    total: v.number(),
    lists: v.number(),
    groups: v.number(),
    segments: v.number(),
    manual: v.number(),
  }),
  handler: async (ctx, sel) =>
    await estimateAudience(ctx.db, ctx.viewer.orgId, { ...sel, manual: sel.manual.slice(0, MAX_MANUAL_RECIPIENTS) }),
});

/**
 * Sends the campaign as last saved, by its send type: now (status sent), at the scheduled time
 * (scheduled; a durable job), or as an event or filter automation (automated).
 */
export const send = orgMutation("campaigns.manage")({
  args: { id: v.id("emailCampaigns"), timeZone: v.optional(v.string()) },
  returns: v.object({
    status: v.union(v.literal("sent"), v.literal("scheduled"), v.literal("automated")),
    sendId: v.union(v.id("emailSends"), v.null()),
  }),
  handler: async (ctx, { id }) => {
    const campaign = await ctx.db.get("emailCampaigns", id);
    const now = Date.now();
    const s = await checkSend(ctx.db, campaign, now);
    const c = campaign as Doc<"emailCampaigns">;
    if (c.scheduleJob) await ctx.scheduler.cancel(c.scheduleJob);
    if (s.sendType === "schedule") {
      // the design is checked now, so a scheduled send does not fail at its time for a missing footer
      await renderForSend(c, senderOf(ctx.viewer).values);
      const scheduleJob = await ctx.scheduler.runAt(s.scheduledAt!, internal.emailBlasts.fireScheduled, {
        campaignId: id,
        userId: ctx.viewer.userId,
      });
      await ctx.db.patch("emailCampaigns", id, { status: "scheduled", scheduledAt: s.scheduledAt!, scheduleJob });
      await audit(ctx, ctx.viewer, {
        action: "email.send",
        target: { table: "emailCampaigns", id, label: c.name },
        summary: `Scheduled the email campaign ${c.name} for ${new Date(s.scheduledAt!).toISOString()}.`,
      });
      return { status: "scheduled" as const, sendId: null };
    }
    const kind = s.sendType === "now" ? "blast" : "automation";
    const sendId = await createSend(ctx, c, senderOf(ctx.viewer), kind);
    await auditEmailSend(ctx, ctx.viewer, c, sendId);
    if (kind === "blast")
      await ctx.db.patch("emailCampaigns", id, {
        status: "sent",
        sentAt: now,
        scheduleJob: undefined,
        scheduledAt: undefined,
      });
    else
      await ctx.db.patch("emailCampaigns", id, {
        status: "automated",
        automationSendId: sendId,
        scheduleJob: undefined,
        scheduledAt: undefined,
      });
    return { status: kind === "blast" ? ("sent" as const) : ("automated" as const), sendId };
  },
});

/**
 * The audit log's one entry for a send (never one per recipient): the campaign and its audience as
 * chosen, the sources' sizes when it started (lists', groups' and segments' counts, manual addresses).
 */
async function auditEmailSend(ctx: MutationCtx, actor: AuditActor, c: Doc<"emailCampaigns">, sendId: Id<"emailSends">) {
  const send = (await ctx.db.get("emailSends", sendId))!;
  let audience = send.sources.manual.length;
  for (const raw of send.sources.listIds) {
    const id = ctx.db.normalizeId("emailLists", raw);
    audience += (id && (await ctx.db.get("emailLists", id))?.contactCount) || 0;
  }
  for (const raw of send.sources.groupIds) {
    const id = ctx.db.normalizeId("voterGroups", raw);
    audience += (id && (await ctx.db.get("voterGroups", id))?.memberCount) || 0;
  }
  for (const raw of send.sources.segmentIds) {
    const id = ctx.db.normalizeId("emailSegments", raw);
    audience += (id && (await ctx.db.get("emailSegments", id))?.cachedCount) || 0;
  }
  const what = send.kind === "blast" ? "Sent the email campaign" : "Started the email automation";
  const { listIds, groupIds, segmentIds, manual } = send.sources;
  await audit(ctx, actor, {
    action: "email.send",
    target: { table: "emailCampaigns", id: c._id, label: c.name },
    summary:
      `${what} ${c.name} to ${listIds.length} lists, ${groupIds.length} groups, ${segmentIds.length} segments and ` +
      `${manual.length} addresses (${audience} contacts by their last counts, All Contacts not counted)` +
      `${send.demo ? " in demo mode" : ""}.`,
  });
}

/** The scheduled moment: sends the campaign as saved then, unless the schedule was cancelled or moved. */
export const fireScheduled = internalMutation({
  args: { campaignId: v.id("emailCampaigns"), userId: v.id("users") },
  returns: v.null(),
  handler: async (ctx, { campaignId, userId }) => {
    const c = await ctx.db.get("emailCampaigns", campaignId);
    if (!c || c.status !== "scheduled") return null;
    const user = await ctx.db.get("users", userId);
    const org = await ctx.db.get("organizations", c.orgId);
    if (!user || !org) return null;
    try {
      const sendId = await createSend(ctx, c, senderOf({ userId, user, org }), "blast");
      await auditEmailSend(ctx, { orgId: c.orgId, userId, name: displayName(user) }, c, sendId);
      await ctx.db.patch("emailCampaigns", campaignId, { status: "sent", sentAt: Date.now(), scheduleJob: undefined });
    } catch (e) {
      // the design changed since and can no longer be sent: the campaign says so
      await ctx.db.patch("emailCampaigns", campaignId, { status: "failed", scheduleJob: undefined });
      console.error(`scheduled email campaign ${campaignId} could not be sent`, e);
    }
    return null;
  },
});

export const cancelSchedule = orgMutation("campaigns.manage")({
  args: { id: v.id("emailCampaigns") },
  returns: v.null(),
  handler: async (ctx, { id }) => {
    const c = await ctx.db.get("emailCampaigns", id);
    if (!c) throw appError("NOT_FOUND");
    if (c.status !== "scheduled") return null;
    if (c.scheduleJob) await ctx.scheduler.cancel(c.scheduleJob);
    await ctx.db.patch("emailCampaigns", id, { status: "draft", scheduleJob: undefined, scheduledAt: undefined });
    return null;
  },
});

export const stopAutomation = orgMutation("campaigns.manage")({
  args: { id: v.id("emailCampaigns") },
  returns: v.null(),
  handler: async (ctx, { id }) => {
    const c = await ctx.db.get("emailCampaigns", id);
    if (!c) throw appError("NOT_FOUND");
    if (c.status !== "automated") return null;
    const s = c.automationSendId ? await ctx.db.get("emailSends", c.automationSendId) : null;
    if (s) await controlSend(ctx, s, "cancel");
    await ctx.db.patch("emailCampaigns", id, { status: "draft", automationSendId: undefined });
    return null;
  },
});

const vProgress = v.object({
  sendId: v.id("emailSends"),
  status: vSendStatus,
  demo: v.boolean(),
  kind: v.union(v.literal("blast"), v.literal("automation")),
  counts: vEmailSendCounts,
  recipients: v.number(),
  error: v.union(v.string(), v.null()),
  startedAt: v.number(),
  finishedAt: v.union(v.number(), v.null()),
  createdByName: v.string(),
});

/** The campaign's latest send as it goes (live). */
export const progress = orgQuery("campaigns.view")({
  args: { id: v.id("emailCampaigns") },
  returns: v.union(vProgress, v.null()),
  handler: async (ctx, { id }) => {
    const s = await latestSend(ctx.db, id);
    if (!s) return null;
    const c = s.counts;
    return {
      sendId: s._id,
      status: s.status,
      demo: s.demo,
      kind: s.kind,
      counts: c,
      recipients: c.queued + c.sent + c.failed + c.cancelled,
      error: s.error ?? null,
      startedAt: s.startedAt,
      finishedAt: s.finishedAt ?? null,
      createdByName: s.createdByName,
    };
  },
});

export const control = orgMutation("campaigns.manage")({
  args: { sendId: v.id("emailSends"), action: v.union(v.literal("pause"), v.literal("resume"), v.literal("cancel")) },
  returns: v.null(),
  handler: async (ctx, { sendId, action }) => {
    const s = await ctx.db.get("emailSends", sendId);
    if (!s) throw appError("NOT_FOUND");
    if (action === "resume" && s.kind === "automation" && !isLive(s.status)) return null;
    await controlSend(ctx, s, action);
    return null;
  },
});

/** The Statistics tab: counters kept by the sender and the webhooks (a few documents, whatever the campaign's size). */
export const statistics = orgQuery("campaigns.view")({
  args: { id: v.id("emailCampaigns") },
  returns: v.union(
    emailBlastTables.emailStatShards.validator.pick(...STAT_FIELDS).extend({
      recipients: v.number(),
      /** the provider has reported at least one event (else the tab shows estimates) */
      hasEvents: v.boolean(),
      demo: v.boolean(),
      topLinks: v.array(emailBlastTables.emailClickTargets.validator.pick("url", "clicks")),
      sentAt: v.union(v.number(), v.null()),
    }),
    v.null(),
  ),
  handler: async (ctx, { id }) => {
    const c = await ctx.db.get("emailCampaigns", id);
    if (!c) return null;
    const stats = await readStats(ctx.db, id);
    const sends = await ctx.db
      .query("emailSends")
      .withIndex("by_campaign", (q) => q.eq("campaignId", id))
      .take(20);
    const recipients = sends.reduce((n, s) => n + s.counts.queued + s.counts.sent + s.counts.failed, 0);
    const hasEvents = stats.delivered + stats.opened + stats.clicked + stats.bounced + stats.complained > 0;
    return {
      recipients,
      ...stats,
      hasEvents,
      demo: sends.some((s) => s.demo),
      topLinks: await topLinks(ctx.db, id),
      sentAt: c.sentAt ?? null,
    };
  },
});

/**
 * The emails sent to a voter (the voter page's contact history), newest first. Campaign data about
 * one voter, with personalised subjects: voters.view as well (model/personalData.ts).
 */
export const voterHistory = orgQuery("campaigns.view")({
  args: { voterId: v.id("voters") },
  returns: v.array(
    v.object({
      id: v.id("emailMessages"),
      campaignId: v.id("emailCampaigns"),
      campaignName: v.string(),
      subject: v.string(),
      /** the message's status, or what the provider reported of it since (complained, bounced, delivered) */
      status: v.union(
        v.literal("complained"),
        v.literal("bounced"),
        v.literal("delivered"),
        ...vEmailMessageStatus.members,
      ),
      opened: v.boolean(),
      clicked: v.boolean(),
      unsubscribed: v.boolean(),
      sentAt: v.union(v.number(), v.null()),
      queuedAt: v.number(),
    }),
  ),
  handler: async (ctx, { voterId }) => {
    requireVoterAccess(ctx.viewer, "A voter's email history");
    const rows = await ctx.db
      .query("emailMessages")
      .withIndex("by_voter", (q) => q.eq("voterId", voterId))
      .order("desc")
      .take(50);
    const out = [];
    for (const m of rows) {
      const c = await ctx.db.get("emailCampaigns", m.campaignId);
      const status = m.complainedAt
        ? ("complained" as const)
        : m.bouncedAt
          ? ("bounced" as const)
          : m.deliveredAt
            ? ("delivered" as const)
            : m.status;
      out.push({
        id: m._id,
        campaignId: m.campaignId,
        campaignName: c?.name ?? "Deleted campaign",
        subject: m.subject ?? c?.subject ?? "",
        status,
        opened: m.openedAt !== undefined,
        clicked: m.clickedAt !== undefined,
        unsubscribed: m.unsubscribedAt !== undefined,
        sentAt: m.sentAt ?? null,
        queuedAt: m.queuedAt,
      });
    }
    return out;
  },
});

// ----- the queue's email steps (internal; the shared ones are sendQueue.ts) -----

export const enqueueStep = internalMutation({
  args: { sendId: v.id("emailSends") },
  returns: v.null(),
  handler: async (ctx, { sendId }) => {
    await enqueueRecipients(ctx, sendId);
    return null;
  },
});

export const enqueueAutomated = internalMutation({
  /** districtRules: an automation's district rules (JSON), judged once the voter is assigned */
  args: { sendId: v.id("emailSends"), voterId: v.id("voters"), districtRules: v.optional(v.string()) },
  returns: v.null(),
  handler: async (ctx, { sendId, voterId, districtRules }) => {
    await enqueueVoter(ctx, sendId, voterId, districtRules);
    return null;
  },
});

export const claim = internalMutation({
  args: { sendId: v.id("emailSends"), gen: v.number() },
  handler: async (ctx, { sendId, gen }) => await claimBatch(ctx, sendId, gen),
});

const vResult = v.object({
  id: v.id("emailMessages"),
  providerId: v.union(v.string(), v.null()),
  error: v.union(v.string(), v.null()),
});
const vOutcome = v.union(
  v.object({ kind: v.literal("sent"), results: v.array(vResult), demo: v.boolean() }),
  v.object({ kind: v.literal("retry"), afterMs: v.number(), message: v.string(), countsAsError: v.boolean() }),
  v.object({ kind: v.literal("fatal"), message: v.string() }),
  v.object({ kind: v.literal("rejected"), message: v.string() }),
);

export const recordBatch = internalMutation({
  args: { sendId: v.id("emailSends"), key: v.string(), outcome: vOutcome },
  returns: v.null(),
  handler: async (ctx, { sendId, key, outcome }) => {
    await recordAnswer(ctx, sendId, key, outcome);
    return null;
  },
});

/** Forgets webhook event ids older than a week, a batch per transaction (a daily cron). */
export const purgeWebhookEvents = internalMutation({
  args: {},
  returns: v.null(),
  handler: async (ctx) => {
    const rows = await ctx.db
      .query("emailWebhookEvents")
      .withIndex("by_at", (q) => q.lt("at", Date.now() - WEBHOOK_EVENT_TTL_MS))
      .take(1000);
    for (const r of rows) await ctx.db.delete("emailWebhookEvents", r._id);
    if (rows.length === 1000) await ctx.scheduler.runAfter(0, internal.emailBlasts.purgeWebhookEvents, {});
    return null;
  },
});
