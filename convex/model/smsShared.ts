/**
 * What every part of the SMS queue shares (model/sms.ts sends, smsSender.ts the sender,
 * smsReplies.ts provider callbacks and replies): provider mode, settings, time zones, the activity
 * log, opt-out lookups, the send's counters, usage, finishing a send, and the rows the SMS center
 * shows.
 */
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { appError } from "../lib/errors";
import { nextSendingTime } from "../lib/sms/quietHours";
import { SMS_ERROR_MESSAGES } from "../lib/sms/rules";
import { STATE_TIME_ZONES, ZIP3_TIME_ZONES } from "../lib/timeZones";
import { DEFAULT_SMS_SETTINGS, SENDER_PROFILES, type SmsSettings, type SmsStatus } from "../tables/sms";
import { complete } from "./sendQueue";
import { TEXTS } from "../lib/texts";

export type Db = QueryCtx["db"];
export type Counts = Doc<"smsSends">["counts"];

/** how long a claim holds the send; a sender that died is noticed after it */
export function leaseMs(): number {
  const fromEnv = Number(process.env.SMS_LEASE_MS);
  return Number.isFinite(fromEnv) && fromEnv > 0 ? fromEnv : 60_000;
}

/** Twilio credentials as the spec's validity rule sees them (spec/2 §7): otherwise demo mode. */
export function providerConfig(): { demo: boolean; sender: string | null } {
  const sid = process.env.TWILIO_ACCOUNT_SID ?? "";
  const token = process.env.TWILIO_AUTH_TOKEN ?? "";
  const sender = process.env.TWILIO_PHONE_NUMBER || process.env.TWILIO_MESSAGING_SERVICE_SID || null;
  const valid = sid.startsWith("AC") && sid.length === 34 && token.length >= 32 && sender !== null;
  return { demo: !valid, sender: valid ? sender : null };
}

/** The organisation's settings; `segmentsPerSecond` resolved (the override or the profile's), `paceOverride` as saved. */
export async function loadSettings(
  db: Db,
  orgId: Id<"organizations">,
): Promise<SmsSettings & { segmentsPerSecond: number; paceOverride: number | null }> {
  const row = await db
    .query("smsSettings")
    .withIndex("by_org", (q) => q.eq("orgId", orgId))
    .unique();
  const s = row?.settings ?? DEFAULT_SMS_SETTINGS;
  return {
    ...s,
    segmentsPerSecond: s.segmentsPerSecond ?? SENDER_PROFILES[s.profile].segmentsPerSecond,
    paceOverride: s.segmentsPerSecond ?? null,
  };
}

export function checkSettings(s: SmsSettings) {
  const hour = (h: number) => Number.isInteger(h) && h >= 0 && h <= 24;
  if (!hour(s.quietStart) || !hour(s.quietEnd) || s.quietStart >= s.quietEnd) {
    throw appError("VALIDATION_ERROR", TEXTS.sms.sendingHours, "Invalid sending hours");
  }
  if (s.segmentsPerSecond !== undefined && !(s.segmentsPerSecond > 0 && s.segmentsPerSecond <= 1000)) {
    throw appError("VALIDATION_ERROR", TEXTS.sms.pace, "Invalid pace");
  }
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: s.defaultTimeZone });
  } catch {
    throw appError("VALIDATION_ERROR", `"${s.defaultTimeZone}" is not a time zone.`, "Invalid time zone");
  }
}

/** The recipient's time zone: from the voter's ZIP, else state, else the organisation's default. */
export function recipientTimeZone(voter: Pick<Doc<"voters">, "zip" | "state"> | null, fallback: string): string {
  const zip3 = voter?.zip?.trim().slice(0, 3);
  const state = voter?.state?.trim().toUpperCase();
  return (zip3 && ZIP3_TIME_ZONES[zip3]) || (state && STATE_TIME_ZONES[state]) || fallback;
}

/**
 * Adds an activity log entry. An entry naming a recipient (name, number, their reply) carries
 * `withheld`, the same entry without them, which is what readers without voters.view get.
 */
export async function log(
  ctx: Pick<MutationCtx, "db">,
  orgId: Id<"organizations">,
  type: Doc<"smsLog">["type"],
  message: string,
  sendId?: Id<"smsSends">,
  withheld?: string,
) {
  await ctx.db.insert("smsLog", {
    orgId,
    at: Date.now(),
    type,
    message,
    sendId,
    ...(withheld === undefined ? {} : { withheld }),
  });
}

/** A phone number in E.164 form, as entries written before `withheld` existed name recipients. */
const LOGGED_PHONE = /\+\d{8,15}/;

/** A log entry as a reader sees it: without recipients' names, numbers and replies unless `seeVoters`. */
export function logMessage(entry: Doc<"smsLog">, seeVoters: boolean): string {
  if (seeVoters) return entry.message;
  if (entry.withheld !== undefined) return entry.withheld;
  return LOGGED_PHONE.test(entry.message)
    ? "An entry about a recipient (seeing it needs permission to view voters)"
    : entry.message;
}

export async function optOutOf(db: Db, orgId: Id<"organizations">, phone: string) {
  return await db
    .query("smsOptOuts")
    .withIndex("by_org_phone", (q) => q.eq("orgId", orgId).eq("phone", phone))
    .first();
}

/** Which bucket of the send's counters a status counts in ("sending" is still in the queue). */
function bucket(status: SmsStatus): keyof Counts | null {
  switch (status) {
    case "queued":
    case "sending":
      return "queued";
    case "sent":
    case "demo":
      return "sent";
    case "delivered":
      return "delivered";
    case "failed":
      return "failed";
    case "undelivered":
      return "undelivered";
    case "cancelled":
      return "cancelled";
  }
}

/** Status order: a later callback never moves a message back (queued < sending < sent < final). */
export const STATUS_RANK: Record<SmsStatus, number> = {
  queued: 0,
  sending: 1,
  sent: 2,
  demo: 2,
  delivered: 3,
  undelivered: 3,
  failed: 3,
  cancelled: 3,
};

export function moveCounts(counts: Counts, from: SmsStatus | null, to: SmsStatus): Counts {
  const next = { ...counts };
  const a = from ? bucket(from) : null;
  const b = bucket(to);
  if (a !== b) {
    if (a) next[a] = Math.max(0, next[a] - 1);
    if (b) next[b] += 1;
  }
  return next;
}

/** Twilio error codes as the spec's messages (spec/2 §8). */
export function providerErrorMessage(code: string | number): string {
  switch (String(code)) {
    case "21211":
    case "21614":
    case "21217":
    case "21401":
      return SMS_ERROR_MESSAGES.invalid_phone;
    case "21606":
    case "30044":
    case "20005":
      return SMS_ERROR_MESSAGES.insufficient_funds;
    case "30001":
    case "30002":
    case "20003":
    case "21608":
      return SMS_ERROR_MESSAGES.suspended;
    case "429":
    case "20429":
    case "14107":
      return SMS_ERROR_MESSAGES.rate_limit;
    case "21610":
      return "The recipient has unsubscribed (replied STOP).";
    default:
      return SMS_ERROR_MESSAGES.default;
  }
}

/** The UTC month ("2026-11") and day ("2026-11-23") usage is counted in. */
export function usagePeriods(at: number): { month: string; day: string } {
  const iso = new Date(at).toISOString();
  return { month: iso.slice(0, 7), day: iso.slice(0, 10) };
}

async function addToPeriod(
  ctx: MutationCtx,
  orgId: Id<"organizations">,
  period: string,
  add: { segments: number; messages: number },
) {
  const row = await ctx.db
    .query("smsUsage")
    .withIndex("by_org_period", (q) => q.eq("orgId", orgId).eq("period", period))
    .unique();
  if (row)
    await ctx.db.patch("smsUsage", row._id, {
      segments: row.segments + add.segments,
      messages: row.messages + add.messages,
    });
  else await ctx.db.insert("smsUsage", { orgId, period, ...add });
}

/** Counts sent messages (demo ones too) and provider segments into this month's and today's usage. */
export async function addUsage(ctx: MutationCtx, orgId: Id<"organizations">, messages: number, segments: number) {
  const { month, day } = usagePeriods(Date.now());
  await addToPeriod(ctx, orgId, month, { segments, messages });
  await addToPeriod(ctx, orgId, day, { segments, messages });
}

async function usageOf(db: Db, orgId: Id<"organizations">, period: string) {
  return await db
    .query("smsUsage")
    .withIndex("by_org_period", (q) => q.eq("orgId", orgId).eq("period", period))
    .unique();
}

/** Segments sent through the provider this calendar month (UTC). */
export async function monthlySegments(db: Db, orgId: Id<"organizations">): Promise<number> {
  return (await usageOf(db, orgId, usagePeriods(Date.now()).month))?.segments ?? 0;
}

/** Messages sent today (UTC), demo ones included. */
export async function messagesToday(db: Db, orgId: Id<"organizations">): Promise<number> {
  return (await usageOf(db, orgId, usagePeriods(Date.now()).day))?.messages ?? 0;
}

/** The send is over (model/sendQueue.ts complete): its campaign too, and the log says how it went. */
export async function finishSend(ctx: MutationCtx, sendId: Id<"smsSends">) {
  const send = await ctx.db.get("smsSends", sendId);
  if (!send || !(await complete(ctx, send))) return;
  const now = Date.now();
  if (send.campaignId) {
    const campaign = await ctx.db.get("campaigns", send.campaignId);
    if (campaign)
      await ctx.db.patch("campaigns", campaign._id, {
        status: "completed",
        sentCount: (campaign.sentCount ?? 0) + send.counts.sent + send.counts.delivered,
        updatedAt: now,
      });
  }
  const c = send.counts;
  const ok = c.sent + c.delivered;
  const failed = c.failed + c.undelivered;
  const type = failed === 0 ? "success" : ok === 0 ? "error" : "warning";
  await log(
    ctx,
    send.orgId,
    type,
    `${send.demo ? "[DEMO] " : ""}Send finished: ${ok} sent, ${failed} failed, ${c.optedOut} opted out skipped`,
    sendId,
  );
}

/**
 * When a running send waits for quiet hours to end: its next message is not due yet and its
 * recipient's sending hours are closed now. Null otherwise (due now, or a short provider back-off).
 */
export async function heldUntilOf(
  db: Db,
  send: Doc<"smsSends">,
  settings: Pick<SmsSettings, "quietStart" | "quietEnd">,
  now: number,
): Promise<number | null> {
  if (send.status !== "sending" && send.status !== "paused") return null;
  const next = await db
    .query("smsMessages")
    .withIndex("by_send_ready", (q) => q.eq("sendId", send._id).eq("status", "queued"))
    .first();
  if (!next || next.readyAt <= now) return null;
  return nextSendingTime(now, next, settings.quietStart, settings.quietEnd) > now ? next.readyAt : null;
}

/** A send as the SMS center shows it, with when quiet hours hold it. */
export async function progressWithHold(
  db: Db,
  send: Doc<"smsSends">,
  settings: Pick<SmsSettings, "quietStart" | "quietEnd">,
) {
  return { ...progressOf(send), heldUntil: await heldUntilOf(db, send, settings, Date.now()) };
}

/** A send as the SMS center shows it (without its quiet-hours hold: progressWithHold). */
export function progressOf(send: Doc<"smsSends">) {
  const c = send.counts;
  const remaining = c.queued;
  return {
    id: send._id,
    campaignId: send.campaignId ?? null,
    kind: send.kind,
    status: send.status,
    demo: send.demo,
    body: send.body,
    segments: send.segments,
    encoding: send.encoding,
    preparing: !send.prep.done,
    counts: c,
    remaining,
    etaSeconds: Math.ceil((remaining * send.segments) / send.segmentsPerSecond),
    segmentsPerSecond: send.segmentsPerSecond,
    error: send.error ?? null,
    startedAt: send.startedAt,
    finishedAt: send.finishedAt ?? null,
    createdByName: send.createdByName,
    /** see progressWithHold */
    heldUntil: null as number | null,
  };
}

/** A message as the SMS center shows it; who received it only when `seeVoters` (voters.view). */
export function messageRow(m: Doc<"smsMessages">, seeVoters: boolean) {
  return {
    id: m._id,
    sendId: m.sendId,
    voterId: seeVoters ? (m.voterId ?? null) : null,
    recipientName: seeVoters ? m.recipientName : null,
    phone: seeVoters ? m.phone : null,
    body: m.body,
    segments: m.segments,
    status: m.status,
    error: m.error ?? null,
    errorCode: m.errorCode ?? null,
    providerSid: m.providerSid ?? null,
    queuedAt: m.queuedAt,
    sentAt: m.sentAt ?? null,
    deliveredAt: m.deliveredAt ?? null,
    heldUntil: m.status === "queued" && m.readyAt > m.queuedAt ? m.readyAt : null,
  };
}
