/**
 * The consent ledger (issue 39; tables/consent.ts). The one writer of consentEvents and of the
 * current state the send paths read, in the same mutation: smsOptOuts (a number opted out) and
 * emailSuppressions (an address no longer emailed). Every opt-out or opt-in, whoever makes it (a
 * text reply, an unsubscribe link or header, a bounce or complaint, the SMS provider, staff, a
 * canvasser's "do not contact"), goes through recordOptOut / recordOptIn.
 *
 * - An event is appended when it changes the state (a repeated STOP, a replayed unsubscribe, a
 *   second bounce record nothing new; a replayed webhook never gets here: its request id is taken).
 * - An opt-out stops every message to the contact that has not left, in the same transaction: its
 *   queued texts are cancelled, its queued emails suppressed (in sends that exclude the reason),
 *   its queued one-off emails (voter emails, tests) failed. Up to QUEUED_PAGE per channel: more
 *   queued messages to one person than that cannot happen in practice (one per send), and the
 *   email sender checks suppressions again at each claim, the SMS fan-out at each enqueue.
 * - With the organisation's "Apply an opt-out to every channel" on, an opt-out the person asked for
 *   (a text reply, an unsubscribe, a complaint, the provider's report, staff) also opts out the
 *   other channel of every voter with that phone or email: an event of its own (source
 *   other_channel, sourceId the first event), never carried further. A bounce is the mailbox's
 *   state, not the person's wish, and a canvasser's "do not contact" already covers both.
 */
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import type { ConsentChannel, ConsentKind, ConsentProvenance, ConsentSource } from "../tables/consent";
import { ALWAYS_SUPPRESSED, type SuppressionReason } from "../tables/emailBlast";
import { audit } from "./audit";
import { markDoorsOfContact } from "./doors";
import { displayName } from "./presence";
import { log, moveCounts, optOutOf } from "./smsShared";
import type { Viewer } from "./viewer";

type Db = QueryCtx["db"];

export type ConsentInput = {
  orgId: Id<"organizations">;
  channel: ConsentChannel;
  /** E.164 phone (sms), lower-cased address (email) */
  contact: string;
  voterId?: Id<"voters">;
  provenance: ConsentProvenance;
  /** the email campaign an unsubscribe, bounce or complaint came from (kept on the suppression) */
  campaignId?: Id<"emailCampaigns">;
};

/** Queued messages an opt-out stops per channel in its own transaction. */
export const QUEUED_PAGE = 500;
/** Voters with one phone or email whose other channel an opt-out carries to. */
const CROSS_VOTERS = 50;

/** Opt-outs the person asked for: the ones "Apply an opt-out to every channel" carries over. */
const CROSSES: ReadonlySet<ConsentSource> = new Set([
  "keyword",
  "unsubscribe_link",
  "unsubscribe_header",
  "staff",
  "provider",
  "complaint",
]);

/**
 * Suppressions that mean the person withdrew consent (an email opt-in lifts them): an unsubscribe,
 * a canvasser's do not contact, a complaint. A bounce is the mailbox's state, not consent, and stays.
 */
export const EMAIL_OPT_OUT_REASONS: ReadonlySet<string> = new Set(["unsubscribed", "do_not_contact", "complained"]);

function emailReason(source: ConsentSource): SuppressionReason {
  if (source === "bounce") return "bounced";
  if (source === "complaint") return "complained";
  if (source === "canvass") return "do_not_contact";
  return "unsubscribed";
}

function smsSource(source: ConsentSource): Doc<"smsOptOuts">["source"] {
  if (source === "keyword") return "inbound";
  if (source === "provider" || source === "canvass" || source === "other_channel") return source;
  return "manual";
}

/** A phone for the ledger: E.164 as stored; an email: lower-cased. */
export function contactKey(channel: ConsentChannel, contact: string): string {
  return channel === "email" ? contact.trim().toLowerCase() : contact;
}

async function votersWith(db: Db, orgId: Id<"organizations">, channel: ConsentChannel, contact: string, n: number) {
  return channel === "sms"
    ? await db
        .query("voters")
        .withIndex("by_org_phone", (q) => q.eq("orgId", orgId).eq("phoneKey", contact))
        .take(n)
    : await db
        .query("voters")
        .withIndex("by_org_email", (q) => q.eq("orgId", orgId).eq("emailLower", contact))
        .take(n);
}

async function append(ctx: MutationCtx, input: ConsentInput, kind: ConsentKind): Promise<Id<"consentEvents">> {
  // the person, when the contact belongs to a voter and the caller did not say which
  const voterId = input.voterId ?? (await votersWith(ctx.db, input.orgId, input.channel, input.contact, 1))[0]?._id;
  const p = input.provenance;
  const provenance: ConsentProvenance = { source: p.source };
  if (p.sourceId !== undefined) provenance.sourceId = p.sourceId.slice(0, 200);
  if (p.keyword !== undefined) provenance.keyword = p.keyword.slice(0, 60);
  if (p.actorId !== undefined) provenance.actorId = p.actorId;
  if (p.actorName !== undefined) provenance.actorName = p.actorName.slice(0, 200);
  if (p.disclosureVersion !== undefined) provenance.disclosureVersion = p.disclosureVersion.slice(0, 200);
  if (p.address !== undefined) provenance.address = p.address.slice(0, 100);
  return await ctx.db.insert("consentEvents", {
    orgId: input.orgId,
    channel: input.channel,
    contact: input.contact,
    ...(voterId ? { voterId } : {}),
    kind,
    provenance,
    at: Date.now(),
  });
}

/** The organisation's consent options. */
export async function consentSettings(db: Db, orgId: Id<"organizations">) {
  const row = await db
    .query("consentSettings")
    .withIndex("by_org", (q) => q.eq("orgId", orgId))
    .unique();
  return { optOutAllChannels: row?.optOutAllChannels ?? false };
}

/** Saves the organisation's consent options; the previous ones. */
export async function saveConsentSettings(
  ctx: MutationCtx,
  orgId: Id<"organizations">,
  settings: { optOutAllChannels: boolean },
) {
  const row = await ctx.db
    .query("consentSettings")
    .withIndex("by_org", (q) => q.eq("orgId", orgId))
    .unique();
  if (row) await ctx.db.patch("consentSettings", row._id, { ...settings, updatedAt: Date.now() });
  else await ctx.db.insert("consentSettings", { orgId, ...settings, updatedAt: Date.now() });
  return { optOutAllChannels: row?.optOutAllChannels ?? false };
}

// ——— SMS ———

async function smsOptOut(ctx: MutationCtx, input: ConsentInput): Promise<boolean> {
  const { orgId, contact: phone } = input;
  const changed = !(await optOutOf(ctx.db, orgId, phone));
  if (changed) {
    await ctx.db.insert("smsOptOuts", { orgId, phone, at: Date.now(), source: smsSource(input.provenance.source) });
    // the turf filters' "opted out" reads packed doors
    await markDoorsOfContact(ctx, orgId, { phone });
    await log(
      ctx,
      orgId,
      "warning",
      `${phone} opted out of text messages`,
      undefined,
      "A number opted out of text messages",
    );
  }
  // its queued messages are cancelled in this transaction, so the next send tick never picks them
  const queued = await ctx.db
    .query("smsMessages")
    .withIndex("by_phone_status", (q) => q.eq("phone", phone).eq("status", "queued").eq("orgId", orgId))
    .take(QUEUED_PAGE);
  const now = Date.now();
  for (const m of queued) {
    await ctx.db.patch("smsMessages", m._id, { status: "cancelled", error: "Opted out", updatedAt: now });
    const send = await ctx.db.get("smsSends", m.sendId);
    if (send)
      await ctx.db.patch("smsSends", send._id, {
        counts: { ...moveCounts(send.counts, "queued", "cancelled"), optedOut: send.counts.optedOut + 1 },
      });
  }
  return changed;
}

async function smsOptIn(ctx: MutationCtx, input: ConsentInput): Promise<boolean> {
  const { orgId, contact: phone } = input;
  const rows = await ctx.db
    .query("smsOptOuts")
    .withIndex("by_org_phone", (q) => q.eq("orgId", orgId).eq("phone", phone))
    .collect();
  for (const r of rows) await ctx.db.delete("smsOptOuts", r._id);
  if (rows.length === 0) return false;
  await markDoorsOfContact(ctx, orgId, { phone });
  await log(
    ctx,
    orgId,
    "info",
    `${phone} opted back in to text messages`,
    undefined,
    "A number opted back in to text messages",
  );
  return true;
}

// ——— email ———

/** Whether a send leaves out an address suppressed for this reason (as model/emailEvents.ts isSuppressed reads it). */
function sendExcludes(send: Doc<"emailSends">, reason: SuppressionReason): boolean {
  return (
    ALWAYS_SUPPRESSED.has(reason) ||
    (reason === "bounced" && send.exclude.bounced) ||
    (reason === "complained" && send.exclude.complained)
  );
}

async function emailOptOut(ctx: MutationCtx, input: ConsentInput): Promise<boolean> {
  const { orgId, contact: email } = input;
  const reason = emailReason(input.provenance.source);
  const rows = await ctx.db
    .query("emailSuppressions")
    .withIndex("by_org_email", (q) => q.eq("orgId", orgId).eq("email", email))
    .take(10);
  const changed = !rows.some((r) => r.reason === reason);
  if (changed) {
    await ctx.db.insert("emailSuppressions", {
      orgId,
      email,
      reason,
      at: Date.now(),
      ...(input.campaignId ? { campaignId: input.campaignId } : {}),
    });
    // the turf filters' "opted out" reads packed doors
    if (ALWAYS_SUPPRESSED.has(reason)) await markDoorsOfContact(ctx, orgId, { email });
  }
  // its queued blast and automation messages never leave (in the sends that exclude this reason)
  const queued = await ctx.db
    .query("emailMessages")
    .withIndex("by_org_email_status", (q) => q.eq("orgId", orgId).eq("email", email).eq("status", "queued"))
    .take(QUEUED_PAGE);
  const now = Date.now();
  const sends = new Map<Id<"emailSends">, { send: Doc<"emailSends"> | null; n: number }>();
  for (const m of queued) {
    let entry = sends.get(m.sendId);
    if (!entry) {
      entry = { send: await ctx.db.get("emailSends", m.sendId), n: 0 };
      sends.set(m.sendId, entry);
    }
    if (!entry.send || !sendExcludes(entry.send, reason)) continue;
    await ctx.db.patch("emailMessages", m._id, { status: "suppressed", updatedAt: now });
    entry.n += 1;
  }
  for (const { send, n } of sends.values()) {
    if (!send || n === 0) continue;
    await ctx.db.patch("emailSends", send._id, {
      counts: { ...send.counts, queued: Math.max(0, send.counts.queued - n), suppressed: send.counts.suppressed + n },
    });
  }
  // and its one-off emails of this organisation still in the outbox (the voter page's email, a test)
  if (ALWAYS_SUPPRESSED.has(reason)) {
    const outbox = await ctx.db
      .query("emailOutbox")
      .withIndex("by_to", (q) => q.eq("to", email))
      .order("desc")
      .take(QUEUED_PAGE);
    for (const o of outbox)
      if (o.orgId === orgId && o.status === "queued" && (o.kind === "voter_email" || o.kind === "test_email"))
        await ctx.db.patch("emailOutbox", o._id, { status: "failed", error: "Opted out" });
  }
  return changed;
}

async function emailOptIn(ctx: MutationCtx, input: ConsentInput): Promise<boolean> {
  const { orgId, contact: email } = input;
  const rows = await ctx.db
    .query("emailSuppressions")
    .withIndex("by_org_email", (q) => q.eq("orgId", orgId).eq("email", email))
    .take(10);
  const lifted = rows.filter((r) => EMAIL_OPT_OUT_REASONS.has(r.reason));
  for (const r of lifted) await ctx.db.delete("emailSuppressions", r._id);
  if (lifted.some((r) => ALWAYS_SUPPRESSED.has(r.reason))) await markDoorsOfContact(ctx, orgId, { email });
  return lifted.length > 0;
}

// ——— recording ———

/**
 * Records an opt-out: the current state, the queued messages stopped, the ledger event, and the
 * other channel when the organisation applies opt-outs everywhere. Whether the state changed.
 */
export async function recordOptOut(ctx: MutationCtx, input: ConsentInput): Promise<boolean> {
  const changed = input.channel === "sms" ? await smsOptOut(ctx, input) : await emailOptOut(ctx, input);
  if (!changed) return false;
  const eventId = await append(ctx, input, "opt_out");
  if (CROSSES.has(input.provenance.source) && (await consentSettings(ctx.db, input.orgId)).optOutAllChannels) {
    const other: ConsentChannel = input.channel === "sms" ? "email" : "sms";
    const voters = await votersWith(ctx.db, input.orgId, input.channel, input.contact, CROSS_VOTERS);
    const done = new Set<string>();
    for (const voter of voters) {
      const contact = other === "sms" ? voter.phoneKey : voter.emailLower;
      if (!contact || done.has(contact)) continue;
      done.add(contact);
      await recordOptOut(ctx, {
        orgId: input.orgId,
        channel: other,
        contact,
        voterId: voter._id,
        provenance: {
          ...input.provenance,
          source: "other_channel",
          sourceId: eventId,
        },
      });
    }
  }
  return true;
}

/** Records an opt-in: the state lifted and the ledger event. Whether the state changed. */
export async function recordOptIn(ctx: MutationCtx, input: ConsentInput): Promise<boolean> {
  const changed = input.channel === "sms" ? await smsOptIn(ctx, input) : await emailOptIn(ctx, input);
  if (changed) await append(ctx, input, "opt_in");
  return changed;
}

/**
 * A staff member opts a voter's phone or email out (or back in) by hand: the ledger event names
 * them, and the audit log has one entry when the state changed. Whether it changed.
 */
export async function staffSetConsent(
  ctx: MutationCtx,
  viewer: Viewer,
  voter: Doc<"voters">,
  channel: ConsentChannel,
  contact: string,
  optedOut: boolean,
): Promise<boolean> {
  const name = `${voter.first_name} ${voter.last_name}`.trim() || contact;
  const input: ConsentInput = {
    orgId: viewer.orgId,
    channel,
    contact,
    voterId: voter._id,
    provenance: {
      source: "staff",
      actorId: viewer.userId,
      actorName: displayName(viewer.user),
    },
  };
  const changed = optedOut ? await recordOptOut(ctx, input) : await recordOptIn(ctx, input);
  if (changed) {
    const what = channel === "sms" ? "text messages" : "email";
    await audit(ctx, viewer, {
      action: "consent.update",
      target: { table: "voters", id: voter._id, label: name },
      summary: optedOut
        ? `Opted ${name} (${contact}) out of ${what}.`
        : `Opted ${name} (${contact}) back in to ${what}.`,
      changes: [{ field: `${channel}.optedOut`, from: optedOut ? "false" : "true", to: optedOut ? "true" : "false" }],
    });
  }
  return changed;
}

// ——— reading ———

/** A contact's ledger, newest first. */
export async function ledgerOf(
  db: Db,
  orgId: Id<"organizations">,
  channel: ConsentChannel,
  contact: string,
  n: number,
): Promise<Doc<"consentEvents">[]> {
  return await db
    .query("consentEvents")
    .withIndex("by_org_contact", (q) => q.eq("orgId", orgId).eq("channel", channel).eq("contact", contact))
    .order("desc")
    .take(n);
}

/** Whether an address opted out of the organisation's email (the suppression saying so), for one-off sends. */
export async function emailOptOutOf(db: Db, orgId: Id<"organizations">, email: string) {
  const rows = await suppressionsOf(db, orgId, email);
  return rows.find((r) => EMAIL_OPT_OUT_REASONS.has(r.reason)) ?? null;
}

/** An address's suppressions (reason and since when). */
export async function suppressionsOf(db: Db, orgId: Id<"organizations">, email: string) {
  return await db
    .query("emailSuppressions")
    .withIndex("by_org_email", (q) => q.eq("orgId", orgId).eq("email", email))
    .take(10);
}
