/**
 * The fields the durable send queue (model/sendQueue.ts) keeps on a send and on its messages, the
 * same for every channel: spread into smsSends / smsMessages and emailSends / emailMessages. Both
 * message tables also index `by_send_ready` on (sendId, status, readyAt, position), which the
 * queue reads.
 */
import { v } from "convex/values";

/** A send's lease: which sender run may claim its messages, until when, and who checks on it. */
export const sendLeaseFields = {
  /** the sender holds the send until then (lease of the running drain) */
  leaseUntil: v.optional(v.number()),
  /** which sender run may claim (a new run fences off any older one still alive) */
  drainGen: v.optional(v.number()),
  /** the pending lease check (one at a time) */
  watchdog: v.optional(v.id("_scheduled_functions")),
};

/** A message's place in its send's queue and its claims by sender runs. */
export const queuedMessageFields = {
  /** queue order within the send */
  position: v.number(),
  /** not before this time (quiet hours, a provider's back-off); when it was queued at first */
  readyAt: v.number(),
  /** how many times a sender run claimed it */
  attempts: v.number(),
  /** set when a sender run claimed it ("sending"), cleared when its answer is recorded */
  claimedAt: v.optional(v.number()),
};
