/**
 * SMS (spec/2 §2.1, §3, §4, §7; DESIGN.md §4 queues). A send ("text blast" of a campaign, or a
 * quick send) fans out into one message per recipient phone, written by a cursor-driven chain of
 * mutations and drained at the organisation's pace by a scheduled sender. Opt-outs, quiet hours,
 * delivery statuses and the activity log are stored per organisation and live for teammates.
 */
import { defineTable } from "convex/server";
import { v, type Infer } from "convex/values";
import { queuedMessageFields, sendLeaseFields } from "./sendQueue";
import { vSendStatus } from "./sendStatus";

/** Message statuses (spec/2 §4) plus `cancelled` (a send cancelled, or the recipient opted out before it left). */
export const SMS_STATUSES = [
  "queued",
  "sending",
  "sent",
  "delivered",
  "failed",
  "undelivered",
  "demo",
  "cancelled",
] as const;
export type SmsStatus = (typeof SMS_STATUSES)[number];
export const vSmsStatus = v.union(...SMS_STATUSES.map((s) => v.literal(s)));

/** Campaign statuses (spec/2 §4). */
export const SMS_CAMPAIGN_STATUSES = ["draft", "active", "completed", "cancelled"] as const;

/** Sender classes and their default pace in message segments per second (Twilio's documented throughput). */
export const SENDER_PROFILES = {
  long_code: { label: "Long code (1 segment/s)", segmentsPerSecond: 1 },
  ten_dlc: { label: "10DLC (registered, 4 segments/s)", segmentsPerSecond: 4 },
  toll_free: { label: "Toll-free (3 segments/s)", segmentsPerSecond: 3 },
  short_code: { label: "Short code (100 segments/s)", segmentsPerSecond: 100 },
} as const;
export type SenderProfile = keyof typeof SENDER_PROFILES;
export const vSenderProfile = v.union(...(Object.keys(SENDER_PROFILES) as SenderProfile[]).map((s) => v.literal(s)));

/** The organisation's SMS settings and their defaults. */
export const vSmsSettings = v.object({
  /** local hour (0–23) from which messages may go out, and the hour they stop */
  quietStart: v.number(),
  quietEnd: v.number(),
  /** IANA zone for recipients whose own zone is unknown */
  defaultTimeZone: v.string(),
  profile: vSenderProfile,
  /** pace override; the profile's when absent */
  segmentsPerSecond: v.optional(v.number()),
});
export type SmsSettings = Infer<typeof vSmsSettings>;
export const DEFAULT_SMS_SETTINGS: SmsSettings = {
  quietStart: 9,
  quietEnd: 21,
  defaultTimeZone: "America/New_York",
  profile: "long_code",
};

export const MAX_SMS_BODY = 1600;
/** Opt-out replies: lib/sms/optOut.ts (keywords, sentences, Spanish). START and HELP: the reply's first word. */
export const START_WORDS = ["START", "UNSTOP", "YES"] as const;
export const HELP_WORDS = ["HELP", "INFO"] as const;

/** A send's counters: messages per status bucket, recipients skipped, segments sent. */
export const vSendCounts = v.object({
  queued: v.number(),
  sent: v.number(),
  delivered: v.number(),
  failed: v.number(),
  undelivered: v.number(),
  cancelled: v.number(),
  optedOut: v.number(),
  noPhone: v.number(),
  invalid: v.number(),
  duplicates: v.number(),
  segmentsSent: v.number(),
});

export const smsTables = {
  /** One execution of a blast or quick send, with its live counters and the enqueue cursor. */
  smsSends: defineTable({
    orgId: v.id("organizations"),
    campaignId: v.optional(v.id("campaigns")),
    kind: v.union(v.literal("campaign"), v.literal("quick")),
    body: v.string(),
    segments: v.number(),
    encoding: v.union(v.literal("GSM-7"), v.literal("UCS-2")),
    status: vSendStatus,
    demo: v.boolean(),
    createdBy: v.id("users"),
    createdByName: v.string(),
    /** recipients: voter groups, individual voters, extra phone numbers */
    groupIds: v.array(v.id("voterGroups")),
    voterIds: v.array(v.id("voters")),
    extraPhones: v.array(v.string()),
    /** enqueue cursor: which source, where in it */
    prep: v.object({ source: v.number(), cursor: v.union(v.string(), v.null()), done: v.boolean() }),
    nextPosition: v.number(),
    counts: vSendCounts,
    segmentsPerSecond: v.number(),
    ...sendLeaseFields,
    /** the provider refused the credentials or the account: the send stopped with this */
    error: v.optional(v.string()),
    startedAt: v.number(),
    finishedAt: v.optional(v.number()),
    updatedAt: v.number(),
  })
    .index("by_org", ["orgId"])
    .index("by_campaign", ["campaignId"])
    .index("by_status", ["status"]),

  /** One message per (send, phone): the idempotency unit. */
  smsMessages: defineTable({
    orgId: v.id("organizations"),
    sendId: v.id("smsSends"),
    campaignId: v.optional(v.id("campaigns")),
    voterId: v.optional(v.id("voters")),
    recipientName: v.string(),
    /** E.164 */
    phone: v.string(),
    body: v.string(),
    segments: v.number(),
    status: vSmsStatus,
    /** position, readyAt (quiet hours hold it), attempts, claimedAt (a message "sending" longer than its lease is reconciled) */
    ...queuedMessageFields,
    /** the recipient's IANA time zone (quiet hours) */
    timeZone: v.string(),
    /** the recipient's state, two letters (quiet hours by state: lib/sms/quietHours.ts); absent: not known */
    state: v.optional(v.string()),
    providerSid: v.optional(v.string()),
    errorCode: v.optional(v.string()),
    error: v.optional(v.string()),
    queuedAt: v.number(),
    sentAt: v.optional(v.number()),
    deliveredAt: v.optional(v.number()),
    updatedAt: v.number(),
  })
    .index("by_send_ready", ["sendId", "status", "readyAt", "position"])
    .index("by_send_phone", ["sendId", "phone"])
    .index("by_send_position", ["sendId", "position"])
    .index("by_sid", ["providerSid"])
    .index("by_voter", ["voterId", "queuedAt"])
    .index("by_org_queued", ["orgId", "queuedAt"])
    /** a number's messages: STOP cancels its queued ones, a reply finds the organisations that texted it */
    .index("by_phone_status", ["phone", "status", "orgId"]),

  /**
   * Numbers that replied STOP (or that the provider reports unsubscribed): never texted again. The
   * current state of the consent ledger's SMS channel, written only by model/consent.ts;
   * other_channel: the organisation applies opt-outs to every channel and the person's email opted out.
   */
  smsOptOuts: defineTable({
    orgId: v.id("organizations"),
    phone: v.string(),
    at: v.number(),
    source: v.union(
      v.literal("inbound"),
      v.literal("provider"),
      v.literal("manual"),
      v.literal("canvass"),
      v.literal("other_channel"),
    ),
  }).index("by_org_phone", ["orgId", "phone"]),

  /** What a number texted to the organisation (a reply, a keyword): the voter's page shows it beside the texts they got. */
  smsInbound: defineTable({
    orgId: v.id("organizations"),
    phone: v.string(),
    body: v.string(),
    at: v.number(),
  }).index("by_org_phone_at", ["orgId", "phone", "at"]),

  /** The SMS center's activity log (Clear Log clears the view, never these). */
  smsLog: defineTable({
    orgId: v.id("organizations"),
    at: v.number(),
    type: v.union(v.literal("info"), v.literal("success"), v.literal("warning"), v.literal("error")),
    message: v.string(),
    /** the entry without the recipient's name, number or reply, for readers without voters.view */
    withheld: v.optional(v.string()),
    sendId: v.optional(v.id("smsSends")),
  }).index("by_org_at", ["orgId", "at"]),

  /**
   * What an organisation sent per UTC period: a month ("2026-11": segments through the provider,
   * the usage meter) and a day ("2026-11-23": messages, the Recent Messages tile). Kept by the
   * sender as it records answers, so the tiles never count messages.
   */
  smsUsage: defineTable({
    orgId: v.id("organizations"),
    period: v.string(),
    segments: v.number(),
    messages: v.number(),
  }).index("by_org_period", ["orgId", "period"]),

  smsSettings: defineTable({ orgId: v.id("organizations"), settings: vSmsSettings, updatedAt: v.number() }).index(
    "by_org",
    ["orgId"],
  ),

  /**
   * Twilio webhook requests already taken, so a captured signed request posted again changes
   * nothing: an inbound text by its MessageSid ("inbound:SM…"), a status callback by its sid and
   * status ("status:SM…:delivered"). No organisation's data: only the webhooks read it. A daily
   * cron forgets each after `expiresAt` (sms.purgeWebhookRequests).
   */
  twilioWebhookRequests: defineTable({ key: v.string(), expiresAt: v.number() })
    .index("by_key", ["key"])
    .index("by_expires", ["expiresAt"]),
};

/** A send's progress as the SMS center shows it. */
export const vSendProgress = v.object({
  id: v.id("smsSends"),
  campaignId: v.union(v.id("campaigns"), v.null()),
  kind: v.union(v.literal("campaign"), v.literal("quick")),
  status: vSendStatus,
  demo: v.boolean(),
  body: v.string(),
  segments: v.number(),
  encoding: v.union(v.literal("GSM-7"), v.literal("UCS-2")),
  preparing: v.boolean(),
  counts: vSendCounts,
  /** messages still to go out, and the time they need at the configured pace */
  remaining: v.number(),
  etaSeconds: v.number(),
  segmentsPerSecond: v.number(),
  error: v.union(v.string(), v.null()),
  startedAt: v.number(),
  finishedAt: v.union(v.number(), v.null()),
  createdByName: v.string(),
  /** quiet hours hold the send until then (the next recipient's sending hours open) */
  heldUntil: v.union(v.number(), v.null()),
});

/**
 * One message as history, recent messages and a voter's contact history show it. Who received it
 * (voter id, name, number) is null for readers without voters.view (model/personalData.ts).
 */
export const vSmsMessageRow = v.object({
  id: v.id("smsMessages"),
  sendId: v.id("smsSends"),
  voterId: v.union(v.id("voters"), v.null()),
  recipientName: v.union(v.string(), v.null()),
  phone: v.union(v.string(), v.null()),
  body: v.string(),
  segments: v.number(),
  status: vSmsStatus,
  error: v.union(v.string(), v.null()),
  errorCode: v.union(v.string(), v.null()),
  providerSid: v.union(v.string(), v.null()),
  queuedAt: v.number(),
  sentAt: v.union(v.number(), v.null()),
  deliveredAt: v.union(v.number(), v.null()),
  heldUntil: v.union(v.number(), v.null()),
});
