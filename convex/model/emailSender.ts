/**
 * The sender's side of the email queue. The sender claims a batch (up to 100 messages, in queue
 * order), names it with an idempotency key ("<sendId>-<seq>") stored on its messages, hands it to
 * Resend under that key and records the answer in one transaction. A sender that dies in between
 * leaves the batch "sending" with its key; the lease check gives the batch to a new run, which
 * sends the same messages under the same key: the provider answers with the emails it already
 * accepted instead of sending them again. So a backend kill neither loses nor duplicates mail.
 * Runs, leases, the lease check, pause / resume / cancel: the shared queue (model/sendQueue.ts),
 * to which `emailQueue` is this channel's side.
 */
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import { internal } from "../_generated/api";
import {
  blastUrls,
  DEMO_MAILBOX_PER_SEND,
  EMAIL_AUTO_PAUSE_ERRORS,
  EMAIL_BATCH_SIZE,
  personalise,
} from "../lib/email/blast";
import type { MergeVoter } from "../lib/email/merge";
import { adjustCounter } from "./counters";
import { addEmailUsage, bumpStats, isSuppressed } from "./emailEvents";
import { claimRun, complete, type SendQueueProvider } from "./sendQueue";

/** how long a claim holds the send; a sender that died is noticed after it */
export function emailLeaseMs(): number {
  const fromEnv = Number(process.env.EMAIL_LEASE_MS);
  return Number.isFinite(fromEnv) && fromEnv > 0 ? fromEnv : 60_000;
}

/** Messages the cancel chain cancels per transaction. */
const CANCEL_PAGE = 500;

/**
 * Email's side of the send queue: runs are integrations/resendBlast.ts drain; what a dead run
 * left "sending" needs no settling (the next claim sends that batch again under its key); an
 * automation's standing send with nothing waiting needs no run.
 */
export const emailQueue: SendQueueProvider<"emailSends"> = {
  messages: "emailMessages",
  leaseMs: emailLeaseMs,
  drain: (ctx, sendId, gen, at) => ctx.scheduler.runAt(at, internal.integrations.resendBlast.drain, { sendId, gen }),
  enqueue: (ctx, sendId) => ctx.scheduler.runAfter(0, internal.emailBlasts.enqueueStep, { sendId }),
  cancelPage: CANCEL_PAGE,
  saveCounts: (ctx, send, counts) => ctx.db.patch("emailSends", send._id, { counts }),
  idle: async (ctx, send) => {
    if (send.kind !== "automation" || send.leaseUntil !== undefined) return false;
    // an idle automation: wake only when messages wait
    const waiting = await ctx.db
      .query("emailMessages")
      .withIndex("by_send_ready", (q) => q.eq("sendId", send._id).eq("status", "queued"))
      .first();
    const stuck = await ctx.db
      .query("emailMessages")
      .withIndex("by_send_ready", (q) => q.eq("sendId", send._id).eq("status", "sending"))
      .first();
    return !waiting && !stuck;
  },
};

export type ClaimedEmail = {
  id: Id<"emailMessages">;
  email: string;
  token: string;
  voter: MergeVoter | null;
  subject?: string;
};
export type ClaimedBatch = { key: string; messages: ClaimedEmail[] };

/** A voter's fields the merge variables read. */
export function mergeVoterOf(v: Doc<"voters">): MergeVoter {
  return {
    first_name: v.first_name,
    last_name: v.last_name,
    email: v.email,
    phone: v.phone,
    address: v.address,
    street: v.street,
    city: v.city,
    state: v.state,
    zip: v.zip,
    precinct: v.precinct,
    party_affiliation: v.party_affiliation,
    status: v.status,
  };
}

async function claimedOf(ctx: MutationCtx, rows: Doc<"emailMessages">[]): Promise<ClaimedEmail[]> {
  const out: ClaimedEmail[] = [];
  for (const m of rows) {
    const v = m.voterId ? await ctx.db.get("voters", m.voterId) : null;
    out.push({
      id: m._id,
      email: m.email,
      token: m.unsubToken,
      voter: v ? mergeVoterOf(v) : null,
      ...(m.subject !== undefined ? { subject: m.subject } : {}),
    });
  }
  return out;
}

/** The messages of a batch still "sending" (a dead run's), in the order they were sent. */
async function stuckBatch(ctx: MutationCtx, send: Doc<"emailSends">): Promise<ClaimedBatch | null> {
  const first = await ctx.db
    .query("emailMessages")
    .withIndex("by_send_ready", (q) => q.eq("sendId", send._id).eq("status", "sending"))
    .first();
  if (!first?.batchKey) return null;
  const rows = await ctx.db
    .query("emailMessages")
    .withIndex("by_send_batch", (q) => q.eq("sendId", send._id).eq("batchKey", first.batchKey))
    .take(EMAIL_BATCH_SIZE);
  return {
    key: first.batchKey,
    messages: await claimedOf(
      ctx,
      rows.filter((m) => m.status === "sending"),
    ),
  };
}

function template(send: Doc<"emailSends">) {
  return {
    subject: send.subject,
    from: send.from,
    replyTo: send.replyTo,
    html: send.html,
    text: send.text,
    senderValues: send.senderValues,
  };
}

/**
 * The sender's next batch. `stop`: the send is over, paused, cancelled or another run took
 * over. `wait`: nothing ready before then. A batch a dead run left "sending" comes first, under
 * its own key.
 */
export async function claim(ctx: MutationCtx, sendId: Id<"emailSends">, gen: number) {
  const send = await claimRun(ctx, emailQueue, sendId, gen);
  if (!send) return { stop: true as const };
  const now = Date.now();
  const base = { template: template(send), demo: send.demo, campaignId: send.campaignId, sendId };
  const stuck = await stuckBatch(ctx, send);
  // a batch of this run is never "sending" when it claims again: any is a dead run's
  if (stuck && stuck.messages.length > 0) return { ...base, batch: stuck };

  const rows = await ctx.db
    .query("emailMessages")
    .withIndex("by_send_ready", (q) => q.eq("sendId", sendId).eq("status", "queued").lte("readyAt", now))
    .take(EMAIL_BATCH_SIZE);
  // suppressed since they were queued (an unsubscribe, a bounce elsewhere): they never leave
  const ready: Doc<"emailMessages">[] = [];
  let suppressed = 0;
  for (const m of rows) {
    if (await isSuppressed(ctx.db, send, m.email)) {
      await ctx.db.patch("emailMessages", m._id, { status: "suppressed", updatedAt: now });
      suppressed += 1;
    } else ready.push(m);
  }
  if (suppressed > 0) {
    const counts = {
      ...send.counts,
      queued: Math.max(0, send.counts.queued - suppressed),
      suppressed: send.counts.suppressed + suppressed,
    };
    await ctx.db.patch("emailSends", sendId, { counts });
  }
  if (ready.length === 0) {
    if (rows.length > 0) return { ...base, wait: now };
    const held = await ctx.db
      .query("emailMessages")
      .withIndex("by_send_ready", (q) => q.eq("sendId", sendId).eq("status", "queued"))
      .first();
    if (held) return { ...base, wait: held.readyAt };
    if (!send.prep.done) return { ...base, wait: now + 250 };
    if (send.kind === "automation") {
      // an automation stays open: the next recipient starts a sender again
      await ctx.db.patch("emailSends", sendId, { leaseUntil: undefined });
      return { stop: true as const };
    }
    await complete(ctx, send);
    return { stop: true as const };
  }
  const key = `${sendId}-${send.batchSeq}`;
  for (const m of ready)
    await ctx.db.patch("emailMessages", m._id, {
      status: "sending",
      batchKey: key,
      claimedAt: now,
      attempts: m.attempts + 1,
      updatedAt: now,
    });
  await ctx.db.patch("emailSends", sendId, { batchSeq: send.batchSeq + 1 });
  return { ...base, batch: { key, messages: await claimedOf(ctx, ready) } };
}

export type BatchOutcome =
  | {
      kind: "sent";
      results: { id: Id<"emailMessages">; providerId: string | null; error: string | null }[];
      demo: boolean;
    }
  | { kind: "retry"; afterMs: number; message: string; countsAsError: boolean }
  | { kind: "fatal"; message: string }
  | { kind: "rejected"; message: string };

/** Records the provider's answer for a batch (only its messages still "sending"): once, whatever retries. */
export async function recordBatch(ctx: MutationCtx, sendId: Id<"emailSends">, key: string, outcome: BatchOutcome) {
  const send = await ctx.db.get("emailSends", sendId);
  if (!send) return;
  const rows = (
    await ctx.db
      .query("emailMessages")
      .withIndex("by_send_batch", (q) => q.eq("sendId", sendId).eq("batchKey", key))
      .take(EMAIL_BATCH_SIZE)
  ).filter((m) => m.status === "sending");
  if (rows.length === 0) return;
  const now = Date.now();
  const counts = { ...send.counts };
  const patch: Partial<Doc<"emailSends">> = { updatedAt: now };
  if (outcome.kind === "sent" || outcome.kind === "rejected") {
    const byId = new Map(outcome.kind === "sent" ? outcome.results.map((r) => [r.id, r]) : []);
    let sent = 0;
    let failed = 0;
    for (const m of rows) {
      const r = byId.get(m._id);
      const error = outcome.kind === "rejected" ? outcome.message : (r?.error ?? null);
      if (error === null) {
        await ctx.db.patch("emailMessages", m._id, {
          status: outcome.kind === "sent" && outcome.demo ? "demo" : "sent",
          providerId: r?.providerId ?? undefined,
          sentAt: now,
          claimedAt: undefined,
          updatedAt: now,
        });
        sent += 1;
      } else {
        await ctx.db.patch("emailMessages", m._id, { status: "failed", error, claimedAt: undefined, updatedAt: now });
        failed += 1;
      }
    }
    if (outcome.kind === "sent" && outcome.demo)
      patch.demoMailed = await mailDemoCopies(
        ctx,
        send,
        rows.filter((m) => !byId.get(m._id)?.error),
      );
    counts.queued = Math.max(0, counts.queued - rows.length);
    counts.sent += sent;
    counts.failed += failed;
    patch.consecutiveErrors = 0;
    await bumpStats(ctx, send.orgId, send.campaignId, { sent, failed });
    if (sent > 0) {
      await adjustCounter(ctx, send.orgId, "emailsSent", sent);
      if (!send.demo) await addEmailUsage(ctx, send.orgId, sent);
    }
  } else {
    const readyAt = outcome.kind === "retry" ? now + outcome.afterMs : now;
    for (const m of rows)
      await ctx.db.patch("emailMessages", m._id, {
        status: "queued",
        batchKey: undefined,
        readyAt,
        claimedAt: undefined,
        updatedAt: now,
      });
    const errors =
      outcome.kind === "fatal"
        ? EMAIL_AUTO_PAUSE_ERRORS
        : send.consecutiveErrors + (outcome.kind === "retry" && outcome.countsAsError ? 1 : 0);
    patch.consecutiveErrors = errors;
    if (errors >= EMAIL_AUTO_PAUSE_ERRORS) {
      Object.assign(patch, {
        status: "paused",
        leaseUntil: undefined,
        error:
          outcome.kind === "fatal"
            ? outcome.message
            : `Sending paused after ${EMAIL_AUTO_PAUSE_ERRORS} provider errors in a row: ${outcome.message}`,
      });
    }
  }
  await ctx.db.patch("emailSends", sendId, { ...patch, counts });
}

/**
 * Demo mode: nothing leaves, so the first DEMO_MAILBOX_PER_SEND emails of a send go to the
 * operator's demo mailbox (the email outbox, status "demo", never delivered) exactly as a
 * recipient would get them: personalised, with their own working unsubscribe link. Returns the
 * send's new total.
 */
async function mailDemoCopies(
  ctx: MutationCtx,
  send: Doc<"emailSends">,
  rows: Doc<"emailMessages">[],
): Promise<number> {
  let mailed = send.demoMailed ?? 0;
  const urls = blastUrls(send.from, process.env);
  for (const c of await claimedOf(ctx, rows.slice(0, Math.max(0, DEMO_MAILBOX_PER_SEND - mailed)))) {
    const email = personalise(template(send), c, urls, []);
    await ctx.db.insert("emailOutbox", {
      orgId: send.orgId,
      to: c.email,
      from: email.from,
      ...(email.replyTo ? { replyTo: email.replyTo } : {}),
      subject: email.subject,
      text: email.text,
      html: email.html,
      kind: "email_blast",
      status: "demo",
      providerId: `demo_${c.id}`,
      createdAt: Date.now(),
    });
    mailed += 1;
  }
  return mailed;
}
