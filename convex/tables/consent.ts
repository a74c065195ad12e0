/**
 * The consent ledger (issue 39): per organisation, contact and channel, every opt-in and opt-out
 * with where it came from. Append-only; only model/consent.ts writes it, and in the same mutation
 * it keeps the current state the send paths read: smsOptOuts (a number opted out) and
 * emailSuppressions (an address no longer emailed).
 */
import { defineTable } from "convex/server";
import { v, type Infer } from "convex/values";

export const CONSENT_CHANNELS = ["sms", "email"] as const;
export type ConsentChannel = (typeof CONSENT_CHANNELS)[number];
export const vConsentChannel = v.union(...CONSENT_CHANNELS.map((c) => v.literal(c)));

export const vConsentKind = v.union(v.literal("opt_in"), v.literal("opt_out"));
export type ConsentKind = Infer<typeof vConsentKind>;

/**
 * Where a consent event came from. form / survey / import: a submission or import row carrying a
 * consent answer (none exists yet: no form, survey or import field asks for consent); keyword: a
 * text reply (STOP, START, "stop texting me", "PARA"); unsubscribe_link: the unsubscribe page;
 * unsubscribe_header: a mail client's one-click List-Unsubscribe; staff: by hand on the voter's
 * page; provider: the SMS provider reports the number unsubscribed (Twilio 21610); bounce /
 * complaint: Resend's webhooks; canvass: "do not contact" at the door; other_channel: the
 * organisation applies opt-outs to every channel and the person opted out on the other one.
 */
export const CONSENT_SOURCES = [
  "form",
  "survey",
  "import",
  "keyword",
  "unsubscribe_link",
  "unsubscribe_header",
  "staff",
  "provider",
  "bounce",
  "complaint",
  "canvass",
  "other_channel",
] as const;
export type ConsentSource = (typeof CONSENT_SOURCES)[number];
export const vConsentSource = v.union(...CONSENT_SOURCES.map((s) => v.literal(s)));

export const vConsentProvenance = v.object({
  source: vConsentSource,
  /** the form / survey / import id, the text's MessageSid, the email message or campaign id, the other channel's event id */
  sourceId: v.optional(v.string()),
  /** the reply as recognised ("STOP", "NO MAS", "STOP TEXTING ME") */
  keyword: v.optional(v.string()),
  /** the staff member (staff, canvass) */
  actorId: v.optional(v.id("users")),
  actorName: v.optional(v.string()),
  /** the version of the consent or disclosure text the person saw (e.g. a hash of a form's consent text) */
  disclosureVersion: v.optional(v.string()),
  /** where it came from: the client's IP address (a link), the phone number (a text) */
  address: v.optional(v.string()),
});
export type ConsentProvenance = Infer<typeof vConsentProvenance>;

export const consentTables = {
  /** One opt-in or opt-out; never changed or deleted (the four years a sender must prove consent). */
  consentEvents: defineTable({
    orgId: v.id("organizations"),
    channel: vConsentChannel,
    /** E.164 phone (sms) or lower-cased address (email) */
    contact: v.string(),
    voterId: v.optional(v.id("voters")),
    kind: vConsentKind,
    provenance: vConsentProvenance,
    at: v.number(),
  })
    .index("by_org_contact", ["orgId", "channel", "contact", "at"])
    .index("by_org_at", ["orgId", "at"]),

  /** The organisation's consent options (absent: the defaults, all off). */
  consentSettings: defineTable({
    orgId: v.id("organizations"),
    /** an opt-out on one channel opts the same person (voters with that phone or email) out of the other */
    optOutAllChannels: v.boolean(),
    updatedAt: v.number(),
  }).index("by_org", ["orgId"]),
};

/** A ledger event as the voter's page shows it. */
export const vConsentEventRow = v.object({
  id: v.id("consentEvents"),
  channel: vConsentChannel,
  contact: v.string(),
  kind: vConsentKind,
  source: vConsentSource,
  sourceId: v.union(v.string(), v.null()),
  keyword: v.union(v.string(), v.null()),
  actorName: v.union(v.string(), v.null()),
  disclosureVersion: v.union(v.string(), v.null()),
  address: v.union(v.string(), v.null()),
  at: v.number(),
});
