/**
 * The consent ledger on the voter's page (issue 39): per channel the current state and the events
 * with their provenance (voters.view); opting a voter's phone or email out or back in by hand
 * (messaging.send, as the SMS center's setOptOut); the organisation's option to apply an opt-out
 * to every channel (campaigns.view reads, campaigns.manage changes). The ledger and the state are
 * written by model/consent.ts only.
 */
import { v } from "convex/values";
import { appError, orgMutation, orgQuery } from "./functions";
import { normalizePhone } from "./lib/sms/rules";
import { audit, fieldChanges } from "./model/audit";
import {
  consentSettings,
  emailOptOutOf,
  ledgerOf,
  saveConsentSettings,
  staffSetConsent,
  suppressionsOf,
} from "./model/consent";
import { optOutOf } from "./model/smsShared";
import { vConsentChannel, vConsentEventRow } from "./tables/consent";
import { vSuppressionReason } from "./tables/emailBlast";
import type { Doc } from "./_generated/dataModel";

/** Ledger events shown per channel (newest first). */
const EVENTS_SHOWN = 50;

function row(e: Doc<"consentEvents">) {
  return {
    id: e._id,
    channel: e.channel,
    contact: e.contact,
    kind: e.kind,
    source: e.provenance.source,
    sourceId: e.provenance.sourceId ?? null,
    keyword: e.provenance.keyword ?? null,
    actorName: e.provenance.actorName ?? null,
    disclosureVersion: e.provenance.disclosureVersion ?? null,
    address: e.provenance.address ?? null,
    at: e.at,
  };
}

const vChannelState = v.object({
  /** the voter's phone (E.164) or email (lower case); null: none on file */
  contact: v.union(v.string(), v.null()),
  /** opted out (since when); null: may be contacted */
  optedOut: v.union(v.object({ at: v.number() }), v.null()),
  events: v.array(vConsentEventRow),
});

/** A voter's consent per channel: the current state and the ledger's events, live. */
export const forVoter = orgQuery("voters.view")({
  args: { voterId: v.id("voters") },
  returns: v.union(
    v.null(),
    v.object({
      sms: vChannelState,
      email: v.object({
        ...vChannelState.fields,
        /** every suppression of the address (a bounce keeps it out of sends that exclude bounces, without being an opt-out) */
        suppressions: v.array(v.object({ reason: vSuppressionReason, at: v.number() })),
      }),
    }),
  ),
  handler: async (ctx, { voterId }) => {
    const voter = await ctx.db.get("voters", voterId);
    if (!voter) return null;
    const orgId = ctx.viewer.orgId;
    const phone = voter.phone ? normalizePhone(voter.phone) : null;
    const email = voter.email?.trim().toLowerCase() || null;
    const stop = phone ? await optOutOf(ctx.db, orgId, phone) : null;
    const unsub = email ? await emailOptOutOf(ctx.db, orgId, email) : null;
    return {
      sms: {
        contact: phone,
        optedOut: stop ? { at: stop.at } : null,
        events: phone ? (await ledgerOf(ctx.db, orgId, "sms", phone, EVENTS_SHOWN)).map(row) : [],
      },
      email: {
        contact: email,
        optedOut: unsub ? { at: unsub.at } : null,
        suppressions: email
          ? (await suppressionsOf(ctx.db, orgId, email)).map((s) => ({ reason: s.reason, at: s.at }))
          : [],
        events: email ? (await ledgerOf(ctx.db, orgId, "email", email, EVENTS_SHOWN)).map(row) : [],
      },
    };
  },
});

/** Opts a voter's phone or email out (or back in) by hand: a ledger event naming the staff member, an audit entry. */
export const setOptOut = orgMutation("messaging.send")({
  args: { voterId: v.id("voters"), channel: vConsentChannel, optedOut: v.boolean() },
  returns: v.boolean(),
  handler: async (ctx, { voterId, channel, optedOut }) => {
    const voter = await ctx.db.get("voters", voterId);
    if (!voter) throw appError("NOT_FOUND");
    const contact =
      channel === "sms"
        ? voter.phone
          ? normalizePhone(voter.phone)
          : null
        : voter.email?.trim().toLowerCase() || null;
    if (!contact)
      throw appError(
        "VALIDATION_ERROR",
        channel === "sms" ? "This voter has no valid phone number." : "This voter has no email address.",
      );
    return await staffSetConsent(ctx, ctx.viewer, voter, channel, contact, optedOut);
  },
});

/** The organisation's consent options. */
export const settings = orgQuery("campaigns.view")({
  args: {},
  returns: v.object({ optOutAllChannels: v.boolean() }),
  handler: async (ctx) => await consentSettings(ctx.db, ctx.viewer.orgId),
});

/** "Apply an opt-out to every channel": on, an SMS opt-out also opts out the person's email and an unsubscribe their phone. */
export const saveSettings = orgMutation("campaigns.manage")({
  args: { optOutAllChannels: v.boolean() },
  returns: v.null(),
  handler: async (ctx, args) => {
    const before = await saveConsentSettings(ctx, ctx.viewer.orgId, args);
    const changes = fieldChanges(before, args, ["optOutAllChannels"]);
    if (changes.length > 0)
      await audit(ctx, ctx.viewer, {
        action: "settings.update",
        target: { table: "consentSettings", id: ctx.viewer.orgId, label: "Consent settings" },
        summary: args.optOutAllChannels
          ? "Turned on applying an opt-out to every channel."
          : "Turned off applying an opt-out to every channel.",
        changes,
      });
    return null;
  },
});
