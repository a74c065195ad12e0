/**
 * Email blasts on Resend (spec/2 §2.2, §4, §5, §7; DESIGN.md §4 queues). A send of a campaign
 * fans out into one message per recipient address (the idempotency unit), written by a
 * cursor-driven chain of mutations and drained in batches of up to 100 through Resend's batch
 * endpoint, each batch under an idempotency key so a backend kill never sends twice. Resend's
 * webhooks (svix-signed) fill the statistics: per-message flags make them order-safe, counters
 * are sharded and kept incrementally. Unsubscribes, bounces and complaints suppress an address
 * for the organisation at once, also for sends in flight.
 */
import { defineTable } from "convex/server";
import { v, type Infer } from "convex/values";
import { vSendStatus } from "./sendStatus";
import { queuedMessageFields, sendLeaseFields } from "./sendQueue";

/** A message's life: queued → sending (claimed, in a batch) → sent | failed; or cancelled / suppressed before it left. */
export const EMAIL_MESSAGE_STATUSES = [
  "queued",
  "sending",
  "sent",
  "demo",
  "failed",
  "cancelled",
  "suppressed",
] as const;
export type EmailMessageStatus = (typeof EMAIL_MESSAGE_STATUSES)[number];
export const vEmailMessageStatus = v.union(...EMAIL_MESSAGE_STATUSES.map((s) => v.literal(s)));

export const SEND_TYPES = ["now", "schedule", "event", "filter"] as const;
export type SendType = (typeof SEND_TYPES)[number];
export const EVENT_TRIGGERS = ["voter_created", "group_joined", "form_submitted", "survey_submitted"] as const;
export type EventTrigger = (typeof EVENT_TRIGGERS)[number];

/** do_not_contact: a canvasser marked the voter (do not contact, deceased): kept out of every send, like an unsubscribe. */
export const SUPPRESSION_REASONS = ["unsubscribed", "bounced", "complained", "do_not_contact"] as const;
/** Reasons that keep an address out of every send, whatever the send excludes. */
export const ALWAYS_SUPPRESSED: ReadonlySet<string> = new Set(["unsubscribed", "do_not_contact"]);
export type SuppressionReason = (typeof SUPPRESSION_REASONS)[number];
export const vSuppressionReason = v.union(...SUPPRESSION_REASONS.map((s) => v.literal(s)));

/** The recipients and send type a campaign is set up with (edited with the record rules, no lost updates). */
export const vBlastSetup = v.object({
  listIds: v.array(v.string()),
  groupIds: v.array(v.string()),
  segmentIds: v.array(v.string()),
  manual: v.array(v.string()),
  excludeBounced: v.boolean(),
  excludeComplained: v.boolean(),
  sendType: v.union(...SEND_TYPES.map((s) => v.literal(s))),
  scheduledAt: v.union(v.number(), v.null()),
  eventTrigger: v.union(...EVENT_TRIGGERS.map((s) => v.literal(s))),
  eventTargetId: v.union(v.string(), v.null()),
  /** JSON text of EmailRule[] (lib/email/rules.ts) */
  eventRules: v.string(),
  filterRules: v.string(),
});

/** A send's counters: messages per bucket and recipients skipped while resolving. */
export const vEmailSendCounts = v.object({
  queued: v.number(),
  sent: v.number(),
  failed: v.number(),
  /** unsubscribed, bounced or complained addresses skipped (when resolving, or found suppressed in flight) */
  suppressed: v.number(),
  cancelled: v.number(),
  duplicates: v.number(),
  noEmail: v.number(),
});

/** Statistic counters of a campaign (unique recipients per event; clicks per URL are separate). */
export const STAT_FIELDS = [
  "sent",
  "failed",
  "delivered",
  "opened",
  "clicked",
  "bounced",
  "complained",
  "unsubscribed",
] as const;
export type StatField = (typeof STAT_FIELDS)[number];
export const STAT_SHARDS = 8;

/** The provider's events we apply (emailWebhooks.ts reads them from Resend's payload). */
export const PROVIDER_EVENTS = [
  "email.delivered",
  "email.opened",
  "email.clicked",
  "email.bounced",
  "email.complained",
] as const;
/** One provider event: its id (svix-id, the dedupe key), kind, the provider's email id, when, and the clicked link. */
export const vProviderEvent = v.object({
  eventId: v.string(),
  type: v.union(...PROVIDER_EVENTS.map((t) => v.literal(t))),
  emailId: v.string(),
  at: v.number(),
  url: v.optional(v.string()),
});
export type ProviderEvent = Infer<typeof vProviderEvent>;

export const emailBlastTables = {
  /** One execution of a campaign: a blast (now or scheduled) or the standing send of an automation. */
  emailSends: defineTable({
    orgId: v.id("organizations"),
    campaignId: v.id("emailCampaigns"),
    kind: v.union(v.literal("blast"), v.literal("automation")),
    status: vSendStatus,
    demo: v.boolean(),
    /** the rendered campaign with its merge variables, personalised per recipient by the sender */
    subject: v.string(),
    from: v.string(),
    replyTo: v.optional(v.string()),
    html: v.string(),
    text: v.string(),
    /** user.* values of the personalisation, taken when the send started */
    senderValues: v.record(v.string(), v.string()),
    sources: v.object({
      listIds: v.array(v.string()),
      groupIds: v.array(v.string()),
      segmentIds: v.array(v.string()),
      manual: v.array(v.string()),
    }),
    exclude: v.object({ bounced: v.boolean(), complained: v.boolean() }),
    /** filter automation: its rules (JSON) for the initial scan */
    filterRules: v.optional(v.string()),
    /** enqueue cursor: which source, where in it */
    /** resolving recipients: the source being read, its cursor and, for a segment, the generation the cursor belongs to */
    prep: v.object({
      source: v.number(),
      cursor: v.union(v.string(), v.null()),
      done: v.boolean(),
      gen: v.optional(v.number()),
    }),
    nextPosition: v.number(),
    counts: vEmailSendCounts,
    /** provider errors in a row (reset by a success); at EMAIL_AUTO_PAUSE_ERRORS the send pauses */
    consecutiveErrors: v.number(),
    /** batches handed to the provider so far (the next batch's idempotency key) */
    batchSeq: v.number(),
    /** demo mode: copies of this send's emails put in the operator's demo mailbox so far (at most DEMO_MAILBOX_PER_SEND) */
    demoMailed: v.optional(v.number()),
    ...sendLeaseFields,
    error: v.optional(v.string()),
    createdBy: v.id("users"),
    createdByName: v.string(),
    startedAt: v.number(),
    finishedAt: v.optional(v.number()),
    updatedAt: v.number(),
  })
    .index("by_campaign", ["campaignId"])
    .index("by_status", ["status"]),

  /** One message per (send, address): never two for the same address in a send. */
  emailMessages: defineTable({
    orgId: v.id("organizations"),
    sendId: v.id("emailSends"),
    campaignId: v.id("emailCampaigns"),
    voterId: v.optional(v.id("voters")),
    /** lowercased */
    email: v.string(),
    name: v.string(),
    /** the subject as personalised for this recipient when queued (what the sender sends, what the voter's history shows) */
    subject: v.optional(v.string()),
    status: vEmailMessageStatus,
    /** position, readyAt (a provider's back-off holds it), attempts, claimedAt */
    ...queuedMessageFields,
    /** the batch it went out in ("<sendId>-<seq>", the provider's idempotency key) while and after sending */
    batchKey: v.optional(v.string()),
    providerId: v.optional(v.string()),
    error: v.optional(v.string()),
    /** the secret of this message's unsubscribe link */
    unsubToken: v.string(),
    /** first time of each provider event (flags: statistics count each recipient once, in any order) */
    deliveredAt: v.optional(v.number()),
    openedAt: v.optional(v.number()),
    clickedAt: v.optional(v.number()),
    bouncedAt: v.optional(v.number()),
    complainedAt: v.optional(v.number()),
    unsubscribedAt: v.optional(v.number()),
    queuedAt: v.number(),
    sentAt: v.optional(v.number()),
    updatedAt: v.number(),
  })
    .index("by_send_ready", ["sendId", "status", "readyAt", "position"])
    .index("by_send_email", ["sendId", "email"])
    .index("by_send_batch", ["sendId", "batchKey", "position"])
    .index("by_provider", ["providerId"])
    .index("by_token", ["unsubToken"])
    .index("by_voter", ["voterId", "queuedAt"])
    /** an address's messages by status: an opt-out suppresses its queued ones at once (model/consent.ts) */
    .index("by_org_email_status", ["orgId", "email", "status"]),

  /**
   * Addresses an organisation no longer emails: unsubscribed (always excluded), bounced, complained.
   * The current state of the consent ledger's email channel, written only by model/consent.ts.
   */
  emailSuppressions: defineTable({
    orgId: v.id("organizations"),
    email: v.string(),
    reason: vSuppressionReason,
    at: v.number(),
    campaignId: v.optional(v.id("emailCampaigns")),
  }).index("by_org_email", ["orgId", "email"]),

  /** Webhook deliveries already applied (svix-id), kept a week: a retried delivery is applied once (read by internal functions only). */
  emailWebhookEvents: defineTable({ eventId: v.string(), at: v.number() })
    .index("by_event", ["eventId"])
    .index("by_at", ["at"]),

  /** A campaign's statistics, split over STAT_SHARDS documents so webhooks seldom contend. */
  emailStatShards: defineTable({
    orgId: v.id("organizations"),
    campaignId: v.id("emailCampaigns"),
    shard: v.number(),
    sent: v.number(),
    failed: v.number(),
    delivered: v.number(),
    opened: v.number(),
    clicked: v.number(),
    bounced: v.number(),
    complained: v.number(),
    unsubscribed: v.number(),
  }).index("by_campaign_shard", ["campaignId", "shard"]),

  /** Clicks per link of a campaign (the heat map's top five). */
  emailClickTargets: defineTable({
    orgId: v.id("organizations"),
    campaignId: v.id("emailCampaigns"),
    url: v.string(),
    clicks: v.number(),
  })
    .index("by_campaign_url", ["campaignId", "url"])
    .index("by_campaign_clicks", ["campaignId", "clicks"]),

  /** Emails an organisation sent per UTC month ("2026-11"): the usage meter. */
  emailUsage: defineTable({ orgId: v.id("organizations"), period: v.string(), emails: v.number() }).index(
    "by_org_period",
    ["orgId", "period"],
  ),
};
