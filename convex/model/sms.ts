/**
 * SMS sending (DESIGN.md §4): a send fans out into one message per recipient phone through a
 * chain of enqueue steps (ENQUEUE_BATCH recipients a transaction), and a sender drains the queue
 * in position order at the organisation's pace. Every state change of a message moves the send's
 * counters, so progress and tiles are read, never counted.
 *
 * Exactly once: a message is "sending" only between the sender's claim and the record of the
 * provider's answer. The claim takes a lease; a check scheduled at the lease's end finds messages
 * still "sending" after a crash and has them reconciled with the provider (sent → recorded, never
 * sent → queued again), so a backend kill neither loses nor duplicates a message.
 */
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { internal } from "../_generated/api";
import { appError } from "../lib/errors";
import { hasOptOutText, INVALID_PHONE_FORMAT, normalizePhone, segmentInfo, SMS_ERROR_MESSAGES } from "../lib/sms";
import { STATE_TIME_ZONES, ZIP3_TIME_ZONES } from "../lib/timeZones";
import { DEFAULT_SMS_SETTINGS, MAX_SMS_BODY, SENDER_PROFILES, type SmsSettings, type SmsStatus } from "../tables/sms";
import { adjustCounter } from "./counters";
import { displayName } from "./presence";
import type { Viewer } from "./viewer";

export const ENQUEUE_BATCH = 1000;
/** up to this many opt-outs an enqueue step reads them all at once instead of one lookup a phone */
export const OPT_OUT_SET_MAX = 5_000;
/** messages a sender claims at a time */
export const CLAIM_BATCH = 50;
/** how long a claim holds the send; a sender that died is noticed after it */
export function leaseMs(): number {
  const fromEnv = Number(process.env.SMS_LEASE_MS);
  return Number.isFinite(fromEnv) && fromEnv > 0 ? fromEnv : 60_000;
}
export const MAX_QUICK_VOTERS = 5_000;
export const MAX_EXTRA_PHONES = 20;

type Db = QueryCtx["db"];
type Counts = Doc<"smsSends">["counts"];

/** Twilio credentials as the spec's validity rule sees them (spec/2 §7): otherwise demo mode. */
export function providerConfig(): { demo: boolean; sender: string | null } {
  const sid = process.env.TWILIO_ACCOUNT_SID ?? "";
  const token = process.env.TWILIO_AUTH_TOKEN ?? "";
  const sender = process.env.TWILIO_PHONE_NUMBER || process.env.TWILIO_MESSAGING_SERVICE_SID || null;
  const valid = sid.startsWith("AC") && sid.length === 34 && token.length >= 32 && sender !== null;
  return { demo: !valid, sender: valid ? sender : null };
}

/** The organisation's settings; `segmentsPerSecond` resolved (the override or the profile's), `paceOverride` as saved. */
export async function loadSettings(db: Db, orgId: Id<"organizations">): Promise<SmsSettings & { segmentsPerSecond: number; paceOverride: number | null }> {
  const row = await db
    .query("smsSettings")
    .withIndex("by_org", (q) => q.eq("orgId", orgId))
    .unique();
  const s = row?.settings ?? DEFAULT_SMS_SETTINGS;
  return { ...s, segmentsPerSecond: s.segmentsPerSecond ?? SENDER_PROFILES[s.profile].segmentsPerSecond, paceOverride: s.segmentsPerSecond ?? null };
}

export function checkSettings(s: SmsSettings) {
  const hour = (h: number) => Number.isInteger(h) && h >= 0 && h <= 24;
  if (!hour(s.quietStart) || !hour(s.quietEnd) || s.quietStart >= s.quietEnd) {
    throw appError("VALIDATION_ERROR", "Sending hours must run from an earlier to a later hour of the day (0–24).", "Invalid sending hours");
  }
  if (s.segmentsPerSecond !== undefined && !(s.segmentsPerSecond > 0 && s.segmentsPerSecond <= 1000)) {
    throw appError("VALIDATION_ERROR", "The pace must be between 0 and 1,000 segments per second.", "Invalid pace");
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

export async function log(ctx: Pick<MutationCtx, "db">, orgId: Id<"organizations">, type: Doc<"smsLog">["type"], message: string, sendId?: Id<"smsSends">) {
  await ctx.db.insert("smsLog", { orgId, at: Date.now(), type, message, sendId });
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
export const STATUS_RANK: Record<SmsStatus, number> = { queued: 0, sending: 1, sent: 2, demo: 2, delivered: 3, undelivered: 3, failed: 3, cancelled: 3 };

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

const EMPTY_COUNTS: Counts = { queued: 0, sent: 0, delivered: 0, failed: 0, undelivered: 0, cancelled: 0, optedOut: 0, noPhone: 0, invalid: 0, duplicates: 0, segmentsSent: 0 };

export type StartInput = {
  campaignId?: Id<"campaigns">;
  voterIds?: Id<"voters">[];
  extraPhones?: string[];
  body?: string;
  acknowledgeNoOptOutText?: boolean;
};

/** Validates a send (spec/2 §5 texts), records it and starts the enqueue chain. */
export async function startSend(ctx: MutationCtx, viewer: Viewer, input: StartInput): Promise<Id<"smsSends">> {
  const campaign = input.campaignId ? await ctx.db.get(input.campaignId) : null;
  if (input.campaignId && (!campaign || campaign.campaign_type !== "sms")) throw appError("NOT_FOUND");
  if (campaign && campaign.status === "active") {
    const running = await ctx.db
      .query("smsSends")
      .withIndex("by_campaign", (q) => q.eq("campaignId", campaign._id))
      .order("desc")
      .first();
    if (running && (running.status === "sending" || running.status === "paused" || running.status === "preparing")) {
      throw appError("VALIDATION_ERROR", "This campaign is already being sent. Pause or cancel that send first.", "Already sending");
    }
  }
  const body = (campaign ? campaign.body ?? "" : input.body ?? "").trim();
  if (body === "") throw appError("VALIDATION_ERROR", "Please enter a message to send.", "Message is empty");
  if (body.length > MAX_SMS_BODY) throw appError("VALIDATION_ERROR", `A text message is limited to ${MAX_SMS_BODY.toLocaleString("en-US")} characters.`, "Message too long");

  const groupIds = campaign ? campaign.voter_groups ?? [] : [];
  const voterIds = campaign ? campaign.individual_voters ?? [] : [...new Set(input.voterIds ?? [])];
  if (voterIds.length > MAX_QUICK_VOTERS) throw appError("VALIDATION_ERROR", `A quick send reaches at most ${MAX_QUICK_VOTERS.toLocaleString("en-US")} voters; use a campaign with groups for more.`);
  const extraPhones: string[] = [];
  for (const raw of campaign ? [] : input.extraPhones ?? []) {
    if (raw.trim() === "") continue;
    const phone = normalizePhone(raw);
    if (!phone) throw appError("VALIDATION_ERROR", INVALID_PHONE_FORMAT, "Invalid phone number");
    extraPhones.push(phone);
  }
  if (extraPhones.length > MAX_EXTRA_PHONES) throw appError("VALIDATION_ERROR", `At most ${MAX_EXTRA_PHONES} additional phone numbers.`);
  if (groupIds.length === 0 && voterIds.length === 0 && extraPhones.length === 0) {
    throw appError("VALIDATION_ERROR", "Please select voters or enter an additional phone number to send messages.", "No recipients specified");
  }

  const orgName = viewer.org.name;
  if (!input.acknowledgeNoOptOutText && (!hasOptOutText(body) || !body.toLowerCase().includes(orgName.toLowerCase()))) {
    throw appError(
      "VALIDATION_ERROR",
      `The message should name ${orgName} and say how to opt out ("Reply STOP to opt out"). Add both, or confirm that this send is an exception.`,
      "Opt-out language missing",
    );
  }

  const settings = await loadSettings(ctx.db, viewer.orgId);
  const { demo } = providerConfig();
  const seg = segmentInfo(body);
  const now = Date.now();
  const sendId = await ctx.db.insert("smsSends", {
    orgId: viewer.orgId,
    campaignId: campaign?._id,
    kind: campaign ? "campaign" : "quick",
    body,
    segments: seg.segments,
    encoding: seg.encoding,
    status: "preparing",
    demo,
    createdBy: viewer.userId,
    createdByName: displayName(viewer.user),
    groupIds,
    voterIds,
    extraPhones,
    prep: { source: 0, cursor: null, done: false },
    nextPosition: 0,
    counts: EMPTY_COUNTS,
    segmentsPerSecond: settings.segmentsPerSecond,
    startedAt: now,
    updatedAt: now,
  });
  if (campaign) await ctx.db.patch(campaign._id, { status: "active", updatedAt: now });
  await log(ctx, viewer.orgId, "info", `${demo ? "[DEMO] " : ""}${displayName(viewer.user)} started ${campaign ? `"${campaign.name}"` : "a quick send"}`, sendId);
  await ctx.scheduler.runAfter(0, internal.sms.enqueueStep, { sendId });
  return sendId;
}

/**
 * One step of the fan-out: up to ENQUEUE_BATCH recipients of the current source (a group's
 * members, the individual voters, the extra phones) become queued messages, deduplicated per
 * phone, without opted-out numbers. Schedules the next step, and the sender once there is work.
 */
export async function enqueueStep(ctx: MutationCtx, sendId: Id<"smsSends">) {
  const send = await ctx.db.get(sendId);
  if (!send || send.prep.done || send.status === "cancelled" || send.status === "failed") return;
  const settings = await loadSettings(ctx.db, send.orgId);
  let counts = { ...send.counts };
  let position = send.nextPosition;
  const now = Date.now();
  let { source, cursor } = send.prep;

  // the organisation's opt-outs, read once when there are few (the usual case), else one lookup a phone
  const optOutRows = await ctx.db
    .query("smsOptOuts")
    .withIndex("by_org_phone", (q) => q.eq("orgId", send.orgId))
    .take(OPT_OUT_SET_MAX + 1);
  const optedOutSet = optOutRows.length <= OPT_OUT_SET_MAX ? new Set(optOutRows.map((r) => r.phone)) : null;
  const isOptedOut = async (phone: string) => (optedOutSet ? optedOutSet.has(phone) : (await optOutOf(ctx.db, send.orgId, phone)) !== null);
  // phones queued in this step (the index lookup below covers earlier steps)
  const seenHere = new Set<string>();

  const add = async (voter: Doc<"voters"> | null, rawPhone: string | undefined, name: string) => {
    if (!rawPhone || rawPhone.trim() === "") {
      counts.noPhone += 1;
      return;
    }
    const phone = normalizePhone(rawPhone);
    if (!phone) {
      counts.invalid += 1;
      return;
    }
    const dup =
      seenHere.has(phone) ||
      (await ctx.db
        .query("smsMessages")
        .withIndex("by_send_phone", (q) => q.eq("sendId", sendId).eq("phone", phone))
        .first()) !== null;
    if (dup) {
      counts.duplicates += 1;
      return;
    }
    if (await isOptedOut(phone)) {
      counts.optedOut += 1;
      return;
    }
    await ctx.db.insert("smsMessages", {
      orgId: send.orgId,
      sendId,
      campaignId: send.campaignId,
      voterId: voter?._id,
      recipientName: name,
      phone,
      body: send.body,
      segments: send.segments,
      status: "queued",
      position: position++,
      readyAt: now,
      timeZone: recipientTimeZone(voter, settings.defaultTimeZone),
      attempts: 0,
      queuedAt: now,
      updatedAt: now,
    });
    seenHere.add(phone);
    counts = moveCounts(counts, null, "queued");
  };

  const groups = send.groupIds;
  if (source < groups.length) {
    const page = await ctx.db
      .query("voterGroupMembers")
      .withIndex("by_group", (q) => q.eq("groupId", groups[source]))
      .paginate({ cursor, numItems: ENQUEUE_BATCH });
    for (const m of page.page) {
      const voter = await ctx.db.get(m.voterId);
      if (voter) await add(voter, voter.phone, `${voter.first_name} ${voter.last_name}`.trim());
    }
    if (page.isDone) {
      source += 1;
      cursor = null;
    } else cursor = page.continueCursor;
  } else if (source === groups.length) {
    const from = Number(cursor ?? 0);
    for (const id of send.voterIds.slice(from, from + ENQUEUE_BATCH)) {
      const voter = await ctx.db.get(id);
      if (voter && voter.orgId === send.orgId) await add(voter, voter.phone, `${voter.first_name} ${voter.last_name}`.trim());
    }
    if (from + ENQUEUE_BATCH >= send.voterIds.length) {
      source += 1;
      cursor = null;
    } else cursor = String(from + ENQUEUE_BATCH);
  } else {
    for (const phone of send.extraPhones) await add(null, phone, phone);
    source += 1;
    cursor = null;
  }
  const done = source > groups.length + 1;
  const status = send.status === "preparing" ? "sending" : send.status;
  await ctx.db.patch(sendId, { prep: { source, cursor, done }, nextPosition: position, counts, status, updatedAt: now });
  if (!done) await ctx.scheduler.runAfter(0, internal.sms.enqueueStep, { sendId });
  else {
    const skipped = counts.optedOut + counts.noPhone + counts.invalid;
    await log(ctx, send.orgId, "info", `${position.toLocaleString("en-US")} messages queued${skipped ? ` (${counts.optedOut} opted out, ${counts.noPhone} without a phone, ${counts.invalid} invalid numbers skipped)` : ""}`, sendId);
  }
  if (status === "sending") await ensureSender(ctx, sendId);
  if (done && position === 0) await finishSend(ctx, sendId);
}

/** Starts the sender unless one holds the send's lease. */
export async function ensureSender(ctx: MutationCtx, sendId: Id<"smsSends">) {
  const send = await ctx.db.get(sendId);
  if (!send || send.status !== "sending") return;
  const now = Date.now();
  if (send.leaseUntil !== undefined && send.leaseUntil > now) return;
  const leaseUntil = now + leaseMs();
  const gen = (send.drainGen ?? 0) + 1;
  await ctx.db.patch(sendId, { leaseUntil, drainGen: gen });
  await ctx.scheduler.runAfter(0, internal.integrations.twilio.drain, { sendId, gen });
  await armWatchdog(ctx, sendId, leaseUntil + 1_000);
}

/**
 * Schedules the lease check at `at` unless another one is pending (a check that runs re-arms
 * itself: its own job is not "another", whatever state it shows while running).
 */
async function armWatchdog(ctx: MutationCtx, sendId: Id<"smsSends">, at: number) {
  const send = await ctx.db.get(sendId);
  if (!send) return;
  if (send.watchdog) {
    const job = await ctx.db.system.get(send.watchdog);
    if (job && job.state.kind === "pending" && job.scheduledTime > Date.now()) return;
  }
  const watchdog = await ctx.scheduler.runAt(at, internal.sms.checkLease, { sendId });
  await ctx.db.patch(sendId, { watchdog });
}

export type ClaimedMessage = { id: Id<"smsMessages">; phone: string; body: string; segments: number; timeZone: string; position: number; statusCallbackToken: string };

/**
 * The sender's next batch: up to `max` queued messages whose time has come, in queue order,
 * marked "sending" under a renewed lease. `wait`: nothing ready before then. `stop`: the send is
 * over, paused or cancelled.
 */
export async function claim(ctx: MutationCtx, sendId: Id<"smsSends">, max: number, gen: number) {
  const send = await ctx.db.get(sendId);
  // paused, cancelled, over, or another sender run took over
  if (!send || send.status !== "sending" || (send.drainGen ?? 0) !== gen) return { stop: true as const };
  const now = Date.now();
  const rows = await ctx.db
    .query("smsMessages")
    .withIndex("by_send_ready", (q) => q.eq("sendId", sendId).eq("status", "queued").lte("readyAt", now))
    .take(max);
  const settings = await loadSettings(ctx.db, send.orgId);
  await ctx.db.patch(sendId, { leaseUntil: now + leaseMs() });
  if (rows.length === 0) {
    const held = await ctx.db
      .query("smsMessages")
      .withIndex("by_send_ready", (q) => q.eq("sendId", sendId).eq("status", "queued"))
      .first();
    if (held) return { wait: held.readyAt, settings, demo: send.demo };
    if (!send.prep.done) return { wait: now + 250, settings, demo: send.demo };
    const inFlight = await ctx.db
      .query("smsMessages")
      .withIndex("by_send_ready", (q) => q.eq("sendId", sendId).eq("status", "sending"))
      .first();
    // answers of this run still to record: look again shortly
    if (inFlight && (inFlight.claimedAt ?? 0) > now - leaseMs()) return { wait: now + 200, settings, demo: send.demo };
    if (inFlight) {
      // left "sending" by a sender that died: settle them with the provider first
      const stuck = await ctx.db
        .query("smsMessages")
        .withIndex("by_send_ready", (q) => q.eq("sendId", sendId).eq("status", "sending"))
        .take(200);
      const next = (send.drainGen ?? 0) + 1;
      await ctx.db.patch(sendId, { drainGen: next });
      await ctx.scheduler.runAfter(0, internal.integrations.twilio.reconcile, { sendId, gen: next, messageIds: stuck.map((m) => m._id) });
      return { stop: true as const };
    }
    await finishSend(ctx, sendId);
    return { stop: true as const };
  }
  const claimed: ClaimedMessage[] = [];
  for (const m of rows) {
    await ctx.db.patch(m._id, { status: "sending", claimedAt: now, attempts: m.attempts + 1, updatedAt: now });
    claimed.push({ id: m._id, phone: m.phone, body: m.body, segments: m.segments, timeZone: m.timeZone, position: m.position, statusCallbackToken: m._id });
  }
  return { messages: claimed, settings, demo: send.demo, pace: send.segmentsPerSecond };
}

export type SendResult =
  | { id: Id<"smsMessages">; outcome: "sent"; sid: string; status: SmsStatus }
  | { id: Id<"smsMessages">; outcome: "failed"; code: string; error: string; optOut?: boolean }
  | { id: Id<"smsMessages">; outcome: "requeue"; readyAt: number }
  | { id: Id<"smsMessages">; outcome: "fatal"; code: string; error: string };

/** Records what the provider answered for messages the sender claimed (only those still "sending"). */
export async function recordResults(ctx: MutationCtx, sendId: Id<"smsSends">, results: SendResult[]) {
  const send = await ctx.db.get(sendId);
  if (!send) return;
  let counts = { ...send.counts };
  const now = Date.now();
  let sentSegments = 0;
  let sentMessages = 0;
  let fatal: string | null = null;
  for (const r of results) {
    const m = await ctx.db.get(r.id);
    if (!m || m.status !== "sending") continue;
    if (r.outcome === "sent") {
      await ctx.db.patch(m._id, { status: r.status, providerSid: r.sid, sentAt: now, claimedAt: undefined, updatedAt: now });
      counts = moveCounts(counts, "sending", r.status);
      counts.segmentsSent += m.segments;
      if (r.status !== "demo") sentSegments += m.segments;
      sentMessages += 1;
    } else if (r.outcome === "failed") {
      await ctx.db.patch(m._id, { status: "failed", errorCode: r.code, error: r.error, claimedAt: undefined, updatedAt: now });
      counts = moveCounts(counts, "sending", "failed");
      await log(ctx, send.orgId, "error", `${m.recipientName} (${m.phone}): ${r.error}`, sendId);
      if (r.optOut) await optOut(ctx, send.orgId, m.phone, "provider");
    } else if (r.outcome === "requeue") {
      await ctx.db.patch(m._id, { status: "queued", readyAt: r.readyAt, claimedAt: undefined, updatedAt: now });
    } else {
      await ctx.db.patch(m._id, { status: "queued", claimedAt: undefined, errorCode: r.code, error: r.error, updatedAt: now });
      fatal = r.error;
    }
  }
  await ctx.db.patch(sendId, { counts, updatedAt: now });
  if (sentMessages > 0) await adjustCounter(ctx, send.orgId, "messagesSent", sentMessages);
  if (sentSegments > 0) {
    await adjustCounter(ctx, send.orgId, "smsSegments", sentSegments);
    await addMonthlyUsage(ctx, send.orgId, sentSegments);
  }
  if (fatal) {
    await ctx.db.patch(sendId, { status: "paused", error: fatal, leaseUntil: undefined });
    await log(ctx, send.orgId, "error", `Sending paused: ${fatal}`, sendId);
  }
}

export function usageMonth(at: number): string {
  return new Date(at).toISOString().slice(0, 7);
}

async function addMonthlyUsage(ctx: MutationCtx, orgId: Id<"organizations">, segments: number) {
  const month = usageMonth(Date.now());
  const row = await ctx.db
    .query("smsUsage")
    .withIndex("by_org_month", (q) => q.eq("orgId", orgId).eq("month", month))
    .unique();
  if (row) await ctx.db.patch(row._id, { segments: row.segments + segments });
  else await ctx.db.insert("smsUsage", { orgId, month, segments });
}

/** Segments sent this calendar month (UTC). */
export async function monthlySegments(db: Db, orgId: Id<"organizations">): Promise<number> {
  const row = await db
    .query("smsUsage")
    .withIndex("by_org_month", (q) => q.eq("orgId", orgId).eq("month", usageMonth(Date.now())))
    .unique();
  return row?.segments ?? 0;
}

/** The sender ends its run: the next one starts at `at` (pace, quiet hours, a provider back-off). */
export async function continueSender(ctx: MutationCtx, sendId: Id<"smsSends">, at: number, gen: number) {
  const send = await ctx.db.get(sendId);
  if (!send || send.status !== "sending" || (send.drainGen ?? 0) !== gen) return;
  const leaseUntil = Math.max(at, Date.now()) + leaseMs();
  await ctx.db.patch(sendId, { leaseUntil, drainGen: gen + 1 });
  await ctx.scheduler.runAt(at, internal.integrations.twilio.drain, { sendId, gen: gen + 1 });
  await armWatchdog(ctx, sendId, leaseUntil + 1_000);
}

/**
 * After a lease ran out: when messages are still "sending" (the sender died between the provider
 * call and recording it), have them reconciled with the provider; then start a new sender.
 */
export async function checkLease(ctx: MutationCtx, sendId: Id<"smsSends">) {
  const send = await ctx.db.get(sendId);
  if (!send) return;
  const now = Date.now();
  const stuck = await ctx.db
    .query("smsMessages")
    .withIndex("by_send_ready", (q) => q.eq("sendId", sendId).eq("status", "sending"))
    .take(200);
  if (send.status !== "sending" && stuck.length === 0) return;
  if (send.leaseUntil !== undefined && send.leaseUntil > now) {
    await armWatchdog(ctx, sendId, send.leaseUntil + 1_000);
    return;
  }
  // the sender is gone: settle what it left "sending", then start a new one
  const leaseUntil = now + leaseMs();
  const gen = (send.drainGen ?? 0) + 1;
  await ctx.db.patch(sendId, { leaseUntil, drainGen: gen });
  if (stuck.length > 0) {
    await ctx.scheduler.runAfter(0, internal.integrations.twilio.reconcile, { sendId, gen, messageIds: stuck.map((m) => m._id) });
  } else {
    await ctx.scheduler.runAfter(0, internal.integrations.twilio.drain, { sendId, gen });
  }
  await armWatchdog(ctx, sendId, leaseUntil + 1_000);
}

export async function finishSend(ctx: MutationCtx, sendId: Id<"smsSends">) {
  const send = await ctx.db.get(sendId);
  if (!send || send.status === "completed" || send.status === "cancelled") return;
  const now = Date.now();
  await ctx.db.patch(sendId, { status: "completed", finishedAt: now, leaseUntil: undefined, updatedAt: now });
  if (send.campaignId) {
    const campaign = await ctx.db.get(send.campaignId);
    if (campaign) await ctx.db.patch(campaign._id, { status: "completed", sentCount: (campaign.sentCount ?? 0) + send.counts.sent + send.counts.delivered, updatedAt: now });
  }
  const c = send.counts;
  const ok = c.sent + c.delivered;
  const failed = c.failed + c.undelivered;
  const type = failed === 0 ? "success" : ok === 0 ? "error" : "warning";
  await log(ctx, send.orgId, type, `${send.demo ? "[DEMO] " : ""}Send finished: ${ok} sent, ${failed} failed, ${c.optedOut} opted out skipped`, sendId);
}

/** Pause, resume or cancel a send; cancelling cancels every message not yet handed to the provider. */
export async function controlSend(ctx: MutationCtx, viewer: Viewer, sendId: Id<"smsSends">, action: "pause" | "resume" | "cancel") {
  const send = await ctx.db.get(sendId);
  if (!send) throw appError("NOT_FOUND");
  const now = Date.now();
  const name = displayName(viewer.user);
  if (action === "pause") {
    if (send.status !== "sending" && send.status !== "preparing") return;
    await ctx.db.patch(sendId, { status: "paused", leaseUntil: undefined, updatedAt: now });
    await log(ctx, send.orgId, "warning", `${name} paused the send`, sendId);
  } else if (action === "resume") {
    if (send.status !== "paused") return;
    await ctx.db.patch(sendId, { status: "sending", error: undefined, updatedAt: now });
    await log(ctx, send.orgId, "info", `${name} resumed the send`, sendId);
    if (!send.prep.done) await ctx.scheduler.runAfter(0, internal.sms.enqueueStep, { sendId });
    await ensureSender(ctx, sendId);
  } else {
    if (send.status === "completed" || send.status === "cancelled") return;
    await ctx.db.patch(sendId, { status: "cancelled", prep: { ...send.prep, done: true }, leaseUntil: undefined, finishedAt: now, updatedAt: now });
    if (send.campaignId) await ctx.db.patch(send.campaignId, { status: "cancelled", updatedAt: now });
    await log(ctx, send.orgId, "warning", `${name} cancelled the send`, sendId);
    await ctx.scheduler.runAfter(0, internal.sms.cancelQueued, { sendId });
  }
}

/** Cancels a cancelled send's queued messages, a batch per transaction. */
export async function cancelQueued(ctx: MutationCtx, sendId: Id<"smsSends">) {
  const send = await ctx.db.get(sendId);
  if (!send) return;
  const rows = await ctx.db
    .query("smsMessages")
    .withIndex("by_send_ready", (q) => q.eq("sendId", sendId).eq("status", "queued"))
    .take(ENQUEUE_BATCH);
  let counts = { ...send.counts };
  const now = Date.now();
  for (const m of rows) {
    await ctx.db.patch(m._id, { status: "cancelled", updatedAt: now });
    counts = moveCounts(counts, "queued", "cancelled");
  }
  await ctx.db.patch(sendId, { counts });
  if (rows.length === ENQUEUE_BATCH) await ctx.scheduler.runAfter(0, internal.sms.cancelQueued, { sendId });
}

/** A delivery status from the provider: applied only forward (never back to an earlier state). */
export async function applyStatus(ctx: MutationCtx, messageId: Id<"smsMessages"> | null, sid: string, status: SmsStatus, errorCode: string | null) {
  const m =
    (messageId ? await ctx.db.get(messageId) : null) ??
    (await ctx.db
      .query("smsMessages")
      .withIndex("by_sid", (q) => q.eq("providerSid", sid))
      .first());
  if (!m || (m.providerSid && m.providerSid !== sid)) return false;
  if (STATUS_RANK[status] <= STATUS_RANK[m.status]) return true;
  const send = await ctx.db.get(m.sendId);
  const now = Date.now();
  const patch: Partial<Doc<"smsMessages">> = { status, updatedAt: now, providerSid: sid };
  if (status === "delivered") patch.deliveredAt = now;
  if (status === "sent" && !m.sentAt) patch.sentAt = now;
  if (errorCode) {
    patch.errorCode = errorCode;
    patch.error = providerErrorMessage(errorCode);
  }
  await ctx.db.patch(m._id, patch);
  if (send) await ctx.db.patch(send._id, { counts: moveCounts(send.counts, m.status, status), updatedAt: now });
  if (status === "failed" || status === "undelivered") {
    await log(ctx, m.orgId, "error", `${m.recipientName} (${m.phone}): ${status}${errorCode ? ` (${providerErrorMessage(errorCode)})` : ""}`, m.sendId);
  }
  if (errorCode === "21610") await optOut(ctx, m.orgId, m.phone, "provider");
  return true;
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

/**
 * Opts a number out in an organisation: recorded once, and its queued messages are cancelled in
 * the same transaction, so the next send tick never picks them.
 */
export async function optOut(ctx: MutationCtx, orgId: Id<"organizations">, phone: string, source: Doc<"smsOptOuts">["source"]) {
  if (!(await optOutOf(ctx.db, orgId, phone))) {
    await ctx.db.insert("smsOptOuts", { orgId, phone, at: Date.now(), source });
    await log(ctx, orgId, "warning", `${phone} opted out of text messages`);
  }
  const queued = await ctx.db
    .query("smsMessages")
    .withIndex("by_phone_status", (q) => q.eq("phone", phone).eq("status", "queued").eq("orgId", orgId))
    .take(500);
  const now = Date.now();
  for (const m of queued) {
    await ctx.db.patch(m._id, { status: "cancelled", error: "Opted out", updatedAt: now });
    const send = await ctx.db.get(m.sendId);
    if (send) await ctx.db.patch(send._id, { counts: { ...moveCounts(send.counts, "queued", "cancelled"), optedOut: send.counts.optedOut + 1 } });
  }
}

export async function optIn(ctx: MutationCtx, orgId: Id<"organizations">, phone: string) {
  const rows = await ctx.db
    .query("smsOptOuts")
    .withIndex("by_org_phone", (q) => q.eq("orgId", orgId).eq("phone", phone))
    .collect();
  for (const r of rows) await ctx.db.delete(r._id);
  if (rows.length > 0) await log(ctx, orgId, "info", `${phone} opted back in to text messages`);
}

/** The organisations that texted a number (an inbound reply concerns them). */
export async function orgsThatTexted(db: Db, phone: string): Promise<Id<"organizations">[]> {
  const rows = await db
    .query("smsMessages")
    .withIndex("by_phone_status", (q) => q.eq("phone", phone))
    .take(500);
  return [...new Set(rows.map((r) => r.orgId))];
}

/** A send as the SMS center shows it. */
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
  };
}

export function messageRow(m: Doc<"smsMessages">) {
  return {
    id: m._id,
    sendId: m.sendId,
    voterId: m.voterId ?? null,
    recipientName: m.recipientName,
    phone: m.phone,
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
