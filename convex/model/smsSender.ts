/**
 * The sender's side of the SMS queue. A message is "sending" only between the sender's claim and
 * the record of the provider's answer. Each sender run carries a generation (a newer run fences
 * off an older one) and holds a lease; a check scheduled at the lease's end finds messages still
 * "sending" after a crash and has them reconciled with the provider (sent → recorded, never sent
 * → queued again), so a backend kill neither loses nor duplicates a message. Runs, leases, the
 * lease check, pause / resume / cancel: the shared queue (model/sendQueue.ts), to which `smsQueue`
 * is this channel's side.
 */
import type { Id } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import { internal } from "../_generated/api";
import { nextSendingTime } from "../lib/sms/quietHours";
import type { SmsStatus } from "../tables/sms";
import { adjustCounter } from "./counters";
import { claimRun, startRun, type SendQueueProvider } from "./sendQueue";
import { recordOptOut } from "./consent";
import { addUsage, finishSend, leaseMs, loadSettings, log, moveCounts } from "./smsShared";

/** Messages the cancel chain cancels per transaction. */
const CANCEL_PAGE = 1_000;

/** Messages a dead run left "sending" (up to 200 at a time): only the provider can tell whether they left. */
async function leftSending(ctx: MutationCtx, sendId: Id<"smsSends">) {
  const stuck = await ctx.db
    .query("smsMessages")
    .withIndex("by_send_ready", (q) => q.eq("sendId", sendId).eq("status", "sending"))
    .take(200);
  return stuck.map((m) => m._id);
}

/**
 * SMS's side of the send queue: runs are integrations/twilio.ts drain; what a dead run left
 * "sending" is reconciled with the provider's message list first (twilio.ts reconcile: sent →
 * recorded, never sent → queued again), since Twilio takes no idempotency key.
 */
export const smsQueue: SendQueueProvider<"smsSends", Id<"smsMessages">> = {
  messages: "smsMessages",
  leaseMs,
  drain: (ctx, sendId, gen, at) => ctx.scheduler.runAt(at, internal.integrations.twilio.drain, { sendId, gen }),
  enqueue: (ctx, sendId) => ctx.scheduler.runAfter(0, internal.sms.enqueueStep, { sendId }),
  cancelPage: CANCEL_PAGE,
  saveCounts: (ctx, send, counts) => ctx.db.patch("smsSends", send._id, { counts }),
  settle: {
    find: (ctx, send) => leftSending(ctx, send._id),
    start: (ctx, sendId, gen, messageIds) =>
      ctx.scheduler.runAfter(0, internal.integrations.twilio.reconcile, { sendId, gen, messageIds }),
  },
};

export type ClaimedMessage = {
  id: Id<"smsMessages">;
  phone: string;
  body: string;
  segments: number;
  timeZone: string;
  state: string | null;
  position: number;
  statusCallbackToken: string;
};

/**
 * The sender's next batch: up to `max` queued messages whose time has come, in queue order,
 * marked "sending" under a renewed lease. `wait`: nothing ready before then. `stop`: the send is
 * over, paused or cancelled.
 */
export async function claim(ctx: MutationCtx, sendId: Id<"smsSends">, max: number, gen: number) {
  const send = await claimRun(ctx, smsQueue, sendId, gen);
  // paused, cancelled, over, or another sender run took over
  if (!send) return { stop: true as const };
  const now = Date.now();
  const rows = await ctx.db
    .query("smsMessages")
    .withIndex("by_send_ready", (q) => q.eq("sendId", sendId).eq("status", "queued").lte("readyAt", now))
    .take(max);
  const settings = await loadSettings(ctx.db, send.orgId);
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
      // left "sending" by a sender that died: settle them with the provider first (a new run)
      await startRun(ctx, smsQueue, sendId, send, now, await leftSending(ctx, sendId));
      return { stop: true as const };
    }
    await finishSend(ctx, sendId);
    return { stop: true as const };
  }
  const claimed: ClaimedMessage[] = [];
  for (const m of rows) {
    await ctx.db.patch("smsMessages", m._id, {
      status: "sending",
      claimedAt: now,
      attempts: m.attempts + 1,
      updatedAt: now,
    });
    claimed.push({
      id: m._id,
      phone: m.phone,
      body: m.body,
      segments: m.segments,
      timeZone: m.timeZone,
      state: m.state ?? null,
      position: m.position,
      statusCallbackToken: m._id,
    });
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
  const send = await ctx.db.get("smsSends", sendId);
  if (!send) return;
  let counts = { ...send.counts };
  const now = Date.now();
  let sentSegments = 0;
  let sentMessages = 0;
  let fatal: string | null = null;
  for (const r of results) {
    const m = await ctx.db.get("smsMessages", r.id);
    if (!m || m.status !== "sending") continue;
    if (r.outcome === "sent") {
      await ctx.db.patch("smsMessages", m._id, {
        status: r.status,
        providerSid: r.sid,
        sentAt: now,
        claimedAt: undefined,
        updatedAt: now,
      });
      counts = moveCounts(counts, "sending", r.status);
      counts.segmentsSent += m.segments;
      if (r.status !== "demo") sentSegments += m.segments;
      sentMessages += 1;
    } else if (r.outcome === "failed") {
      await ctx.db.patch("smsMessages", m._id, {
        status: "failed",
        errorCode: r.code,
        error: r.error,
        claimedAt: undefined,
        updatedAt: now,
      });
      counts = moveCounts(counts, "sending", "failed");
      await log(
        ctx,
        send.orgId,
        "error",
        `${m.recipientName} (${m.phone}): ${r.error}`,
        sendId,
        `A recipient: ${r.error}`,
      );
      // the provider refused: the number unsubscribed at the carrier (21610)
      if (r.optOut)
        await recordOptOut(ctx, {
          orgId: send.orgId,
          channel: "sms",
          contact: m.phone,
          ...(m.voterId ? { voterId: m.voterId } : {}),
          provenance: { source: "provider", sourceId: m._id, keyword: r.code, address: m.phone },
        });
    } else if (r.outcome === "requeue") {
      await ctx.db.patch("smsMessages", m._id, {
        status: "queued",
        readyAt: r.readyAt,
        claimedAt: undefined,
        updatedAt: now,
      });
    } else {
      await ctx.db.patch("smsMessages", m._id, {
        status: "queued",
        claimedAt: undefined,
        errorCode: r.code,
        error: r.error,
        updatedAt: now,
      });
      fatal = r.error;
    }
  }
  await ctx.db.patch("smsSends", sendId, { counts, updatedAt: now });
  if (sentMessages > 0) {
    await adjustCounter(ctx, send.orgId, "messagesSent", sentMessages);
    await addUsage(ctx, send.orgId, sentMessages, sentSegments);
  }
  if (fatal) {
    await ctx.db.patch("smsSends", sendId, { status: "paused", error: fatal, leaseUntil: undefined });
    await log(ctx, send.orgId, "error", `Sending paused: ${fatal}`, sendId);
  }
}

/** Messages re-timed in one transaction (a send's pages follow one another). */
const RESCHEDULE_PAGE = 500;
/** A wait this short is a provider's back-off (twilio.ts), not quiet hours: kept. */
const BACKOFF_KEPT_MS = 10_000;

/** After the sending hours changed: every running send of the organisation re-times its held messages. */
export async function rescheduleHeldSends(ctx: MutationCtx, orgId: Id<"organizations">) {
  const recent = await ctx.db
    .query("smsSends")
    .withIndex("by_org", (q) => q.eq("orgId", orgId))
    .order("desc")
    .take(20);
  for (const s of recent) {
    if (s.status === "preparing" || s.status === "sending" || s.status === "paused")
      await ctx.scheduler.runAfter(0, internal.sms.rescheduleHeld, { sendId: s._id, after: -1 });
  }
}

/**
 * One page (by position, which never changes) of a send's queued messages: each not yet due gets
 * the time the current sending hours allow (now when they are open). A provider back-off is kept
 * unless the window now opens later. At the end a running send's sender starts afresh, so a
 * message due earlier than before does not wait for the old time.
 */
export async function rescheduleHeldPage(ctx: MutationCtx, sendId: Id<"smsSends">, after: number) {
  const send = await ctx.db.get("smsSends", sendId);
  if (!send || send.status === "completed" || send.status === "cancelled" || send.status === "failed") return;
  const settings = await loadSettings(ctx.db, send.orgId);
  const now = Date.now();
  const page = await ctx.db
    .query("smsMessages")
    .withIndex("by_send_position", (q) => q.eq("sendId", sendId).gt("position", after))
    .take(RESCHEDULE_PAGE);
  for (const m of page) {
    if (m.status !== "queued" || m.readyAt <= now) continue;
    const open = nextSendingTime(now, m, settings.quietStart, settings.quietEnd);
    // closed now: the next opening; open: now, unless it is a provider's short back-off
    const readyAt = open > now ? open : m.readyAt - now <= BACKOFF_KEPT_MS ? m.readyAt : now;
    if (readyAt !== m.readyAt) await ctx.db.patch("smsMessages", m._id, { readyAt, updatedAt: now });
  }
  if (page.length === RESCHEDULE_PAGE) {
    await ctx.scheduler.runAfter(0, internal.sms.rescheduleHeld, { sendId, after: page[page.length - 1].position });
    return;
  }
  if (send.status !== "sending") return;
  // a sender waiting for the old time is fenced off by a new generation that starts now
  await startRun(ctx, smsQueue, sendId, send, now);
}
