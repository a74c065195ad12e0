/**
 * The send queue's own steps (model/sendQueue.ts) for SMS and email sends alike: a sender run's
 * hand-over and the lease check. Internal only: scheduled by the queue or called by a provider's
 * sender run. A send's id names its table, and so its channel.
 */
import { v } from "convex/values";
import type { Id } from "./_generated/dataModel";
import type { MutationCtx } from "./_generated/server";
import { internalMutation } from "./functions";
import { emailQueue } from "./model/emailSender";
import * as queue from "./model/sendQueue";
import { smsQueue } from "./model/smsSender";

const vSendId = v.union(v.id("smsSends"), v.id("emailSends"));

type Step = <S extends queue.SendTable, L>(p: queue.SendQueueProvider<S, L>, sendId: Id<S>) => Promise<void>;

/** Runs a queue step with the send's channel. */
async function withChannel(ctx: MutationCtx, sendId: Id<queue.SendTable>, step: Step) {
  const sms = ctx.db.normalizeId("smsSends", sendId);
  if (sms) return await step(smsQueue, sms);
  const email = ctx.db.normalizeId("emailSends", sendId);
  if (email) return await step(emailQueue, email);
  throw new Error(`${sendId} is not a send of any channel`);
}

/** A sender run ends: the next one starts at `at`, unless the run was fenced off or the send stopped. */
export const continueSender = internalMutation({
  args: { sendId: vSendId, gen: v.number(), at: v.number() },
  returns: v.null(),
  handler: async (ctx, { sendId, gen, at }) => {
    await withChannel(ctx, sendId, (p, id) => queue.continueSender(ctx, p, id, at, gen));
    return null;
  },
});

/** At the end of a lease: a new sender run when the last one died (model/sendQueue.ts checkLease). */
export const checkLease = internalMutation({
  args: { sendId: vSendId },
  returns: v.null(),
  handler: async (ctx, { sendId }) => {
    await withChannel(ctx, sendId, (p, id) => queue.checkLease(ctx, p, id));
    return null;
  },
});

/** Cancels a cancelled send's queued messages, a page per transaction. */
export const cancelQueued = internalMutation({
  args: { sendId: vSendId },
  returns: v.null(),
  handler: async (ctx, { sendId }) => {
    await withChannel(ctx, sendId, (p, id) => queue.cancelQueued(ctx, p, id));
    return null;
  },
});
