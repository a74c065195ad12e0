/**
 * The durable send queue that SMS and email share (DESIGN.md §4): a send's sender runs, their
 * lease, the check that notices a dead one, and pause / resume / cancel. Each channel supplies its
 * provider's side as a SendQueueProvider (model/smsSender.ts `smsQueue`, model/emailSender.ts
 * `emailQueue`); the queue's own scheduled steps are the internal functions of sendQueue.ts.
 *
 * What the queue guarantees, whatever the channel:
 * - At most one sender run claims a send's messages. Starting a run (`startRun`) bumps the send's
 *   generation (`drainGen`), so an older run still alive is fenced off: its next claim gets null
 *   from `claimRun`, and its hand-over (`continueSender`) does nothing.
 * - A run holds a lease (`leaseUntil`), renewed by each of its claims. A lease check
 *   (`checkLease`, one pending at a time: `watchdog`) runs a second after the lease ends; when the
 *   lease ran out, the run is gone and a new one starts, or first the provider's `settle` job for
 *   what the dead run left "sending". So a backend kill stops a send only until the check runs.
 * - A run starts when work arrives (`ensureSender`; not while another holds the lease), when a
 *   run hands over (`continueSender`, at the pace, the end of quiet hours or a provider's
 *   back-off) and on resume.
 * - Pause stops claims (the run in progress stops at its next one); resume continues an
 *   unfinished fan-out and starts a run; cancel ends the send at once and cancels its queued
 *   messages in a chain of transactions (`cancelQueued`), moving the send's counters as it goes.
 *   What has been claimed still goes out and is recorded. A completed, cancelled or failed send
 *   never changes again.
 *
 * What a provider does itself (claim, deliver, record), keeping these rules:
 * - A claim starts with `claimRun` and marks what it takes "sending" (with `claimedAt`) in the
 *   same transaction; only "queued" messages whose `readyAt` has come are taken.
 * - A record applies the provider's answer only to messages still "sending" and moves each out
 *   of "sending" in the same transaction: to its outcome, or back to "queued" at a back-off
 *   (`readyAt`, `claimedAt` cleared). A repeated or late answer then changes nothing: each
 *   message is recorded exactly once.
 * - What a dead run left "sending" is settled without sending it twice: again under the same
 *   idempotency key (email: the next claim takes that batch first), or by asking the provider
 *   what it has (SMS: the `settle` hook's reconciliation).
 * - Consent is checked where messages leave the queue: an opt-out or unsubscribe cancels or
 *   suppresses a recipient's queued messages in its own transaction (model/consent.ts), and each
 *   email claim checks suppressions again, so it applies to sends in flight too.
 * - When nothing is left to send, the claim completes the send (`complete`).
 */
/* eslint-disable @convex-dev/explicit-table-ids -- the send table is a type parameter (TypeScript cannot
   check a table-named call on it); these calls run mostly in internal functions, on the unwrapped db */
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import { internal } from "../_generated/api";

export type SendTable = "smsSends" | "emailSends";
export type MessageTable = "smsMessages" | "emailMessages";
type SendStatus = Doc<SendTable>["status"];

/** A channel's side of the queue. `Left`: what a dead run left "sending" that needs settling. */
export type SendQueueProvider<S extends SendTable, Left = never> = {
  /** the channel's messages (the cancel chain reads their `by_send_ready` index) */
  messages: MessageTable;
  /** how long a claim holds the send: a run that died is noticed after it */
  leaseMs(): number;
  /** schedules a sender run of generation `gen` at `at` (the provider's drain action) */
  drain(ctx: MutationCtx, sendId: Id<S>, gen: number, at: number): Promise<unknown>;
  /** schedules the next step of the send's fan-out */
  enqueue(ctx: MutationCtx, sendId: Id<S>): Promise<unknown>;
  /** messages the cancel chain cancels per transaction */
  cancelPage: number;
  /**
   * writes the send's counters (the queue computes them; TypeScript cannot check a patch of a
   * table chosen by a type parameter, so the channel makes the write)
   */
  saveCounts(ctx: MutationCtx, send: Doc<S>, counts: Doc<S>["counts"]): Promise<unknown>;
  /**
   * What a dead run left "sending" that a new run cannot just take up (`find`, [] when nothing),
   * and the job that settles it under the new generation, then hands over with continueSender
   * (`start`). Without the hook a new run takes up what was left.
   */
  settle?: {
    find(ctx: MutationCtx, send: Doc<S>): Promise<Left[]>;
    start(ctx: MutationCtx, sendId: Id<S>, gen: number, left: Left[]): Promise<unknown>;
  };
  /** true when a send whose lease ran out needs no run (a standing send with nothing waiting) */
  idle?(ctx: MutationCtx, send: Doc<S>): Promise<boolean>;
};

/** Active statuses: a send that still owns its queue. */
export function isLive(status: SendStatus): boolean {
  return status === "preparing" || status === "sending" || status === "paused";
}

/** Starts a sender run unless one holds the send's lease. */
export async function ensureSender<S extends SendTable, L>(
  ctx: MutationCtx,
  p: SendQueueProvider<S, L>,
  sendId: Id<S>,
) {
  const send = await ctx.db.get(sendId);
  if (!send || send.status !== "sending") return;
  const now = Date.now();
  if (send.leaseUntil !== undefined && send.leaseUntil > now) return;
  await startRun(ctx, p, sendId, send, now);
}

/**
 * A new sender run of the send at `at` under the next generation (fencing off any other), with
 * its lease and lease check; `left` (the provider's settle hook found it): the settle job instead.
 */
export async function startRun<S extends SendTable, L>(
  ctx: MutationCtx,
  p: SendQueueProvider<S, L>,
  sendId: Id<S>,
  send: Doc<S>,
  at: number,
  left: L[] = [],
) {
  const leaseUntil = Math.max(at, Date.now()) + p.leaseMs();
  const gen = (send.drainGen ?? 0) + 1;
  const id: Id<SendTable> = sendId;
  await ctx.db.patch(id, { leaseUntil, drainGen: gen });
  if (left.length > 0 && p.settle) await p.settle.start(ctx, sendId, gen, left);
  else await p.drain(ctx, sendId, gen, at);
  await armWatchdog(ctx, sendId, leaseUntil + 1_000);
}

/**
 * Schedules the lease check at `at` unless another one is pending (a check that runs re-arms
 * itself: its own job is not "another", whatever state it shows while running).
 */
async function armWatchdog(ctx: MutationCtx, sendId: Id<SendTable>, at: number) {
  const send = await ctx.db.get(sendId);
  if (!send) return;
  if (send.watchdog) {
    const job = await ctx.db.system.get(send.watchdog);
    if (job && job.state.kind === "pending" && job.scheduledTime > Date.now()) return;
  }
  const watchdog = await ctx.scheduler.runAt(at, internal.sendQueue.checkLease, { sendId });
  await ctx.db.patch(sendId, { watchdog });
}

/**
 * The start of a claim: the send while run `gen` may still claim (the send is "sending" and no
 * newer run started), its lease renewed; null when the run is to stop (paused, cancelled, over,
 * or fenced off).
 */
export async function claimRun<S extends SendTable, L>(
  ctx: MutationCtx,
  p: SendQueueProvider<S, L>,
  sendId: Id<S>,
  gen: number,
): Promise<Doc<S> | null> {
  const send = await ctx.db.get(sendId);
  if (!send || send.status !== "sending" || (send.drainGen ?? 0) !== gen) return null;
  const id: Id<SendTable> = sendId;
  await ctx.db.patch(id, { leaseUntil: Date.now() + p.leaseMs() });
  return send;
}

/** Run `gen` ends: the next one starts at `at` (the pace, quiet hours, a provider's back-off). */
export async function continueSender<S extends SendTable, L>(
  ctx: MutationCtx,
  p: SendQueueProvider<S, L>,
  sendId: Id<S>,
  at: number,
  gen: number,
) {
  const send = await ctx.db.get(sendId);
  if (!send || send.status !== "sending" || (send.drainGen ?? 0) !== gen) return;
  await startRun(ctx, p, sendId, send, at);
}

/**
 * The lease check: while the lease holds, it checks again at its end. Once it ran out, the run is
 * gone: what it left "sending" is settled (the provider's hook) or taken up by a new run. A send
 * no longer "sending" needs a run only to settle what was left.
 */
export async function checkLease<S extends SendTable, L>(ctx: MutationCtx, p: SendQueueProvider<S, L>, sendId: Id<S>) {
  const send = await ctx.db.get(sendId);
  if (!send) return;
  const left = p.settle ? await p.settle.find(ctx, send) : [];
  if (send.status !== "sending" && left.length === 0) return;
  const now = Date.now();
  if (send.leaseUntil !== undefined && send.leaseUntil > now) {
    await armWatchdog(ctx, sendId, send.leaseUntil + 1_000);
    return;
  }
  if (p.idle && (await p.idle(ctx, send))) return;
  await startRun(ctx, p, sendId, send, now, left);
}

/** Pause: a preparing or running send stops handing out messages. Returns whether it paused. */
export async function pause(ctx: MutationCtx, send: Doc<SendTable>): Promise<boolean> {
  if (send.status !== "sending" && send.status !== "preparing") return false;
  await ctx.db.patch(send._id, { status: "paused", leaseUntil: undefined, updatedAt: Date.now() });
  return true;
}

/** Resume a paused send: its fan-out goes on where it stopped, and a sender run starts. Returns whether it resumed. */
export async function resume<S extends SendTable, L>(
  ctx: MutationCtx,
  p: SendQueueProvider<S, L>,
  sendId: Id<S>,
  send: Doc<S>,
): Promise<boolean> {
  if (send.status !== "paused") return false;
  const id: Id<SendTable> = sendId;
  await ctx.db.patch(id, { status: "sending", error: undefined, updatedAt: Date.now() });
  if (!send.prep.done) await p.enqueue(ctx, sendId);
  await ensureSender(ctx, p, sendId);
  return true;
}

/** Cancel a live send: it ends now and a chain cancels its queued messages. Returns whether it was cancelled. */
export async function cancel(ctx: MutationCtx, send: Doc<SendTable>): Promise<boolean> {
  if (!isLive(send.status)) return false;
  const now = Date.now();
  await ctx.db.patch(send._id, {
    status: "cancelled",
    prep: { ...send.prep, done: true },
    leaseUntil: undefined,
    finishedAt: now,
    updatedAt: now,
  });
  await ctx.scheduler.runAfter(0, internal.sendQueue.cancelQueued, { sendId: send._id });
  return true;
}

/** One transaction of the cancel chain: a page of the send's queued messages cancelled, then the next page. */
export async function cancelQueued<S extends SendTable, L>(
  ctx: MutationCtx,
  p: SendQueueProvider<S, L>,
  sendId: Id<S>,
) {
  const send = await ctx.db.get(sendId);
  if (!send) return;
  const id: Id<SendTable> = sendId;
  const rows = await ctx.db
    .query(p.messages)
    .withIndex("by_send_ready", (q) => q.eq("sendId", id).eq("status", "queued"))
    .take(p.cancelPage);
  const now = Date.now();
  for (const m of rows) await ctx.db.patch(m._id, { status: "cancelled", updatedAt: now });
  await p.saveCounts(ctx, send, {
    ...send.counts,
    queued: Math.max(0, send.counts.queued - rows.length),
    cancelled: send.counts.cancelled + rows.length,
  });
  if (rows.length === p.cancelPage) await ctx.scheduler.runAfter(0, internal.sendQueue.cancelQueued, { sendId: id });
}

/** The send is over (nothing left to send). Returns whether it completed now (false: it had ended already). */
export async function complete(ctx: MutationCtx, send: Doc<SendTable>): Promise<boolean> {
  if (!isLive(send.status)) return false;
  const now = Date.now();
  await ctx.db.patch(send._id, { status: "completed", finishedAt: now, leaseUntil: undefined, updatedAt: now });
  return true;
}
