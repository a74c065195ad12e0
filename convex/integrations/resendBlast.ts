"use node";
/**
 * The email blast sender on Resend (spec/2 §7; DESIGN.md §4). Each run claims batches of up to
 * 100 messages (model/emailSender.ts), personalises each email (merge variables, unsubscribe
 * link, List-Unsubscribe headers of RFC 8058) and sends the batch through the SDK's batch
 * endpoint under the batch's idempotency key, in permissive validation (one bad address fails
 * alone). The pace is EMAIL_BATCHES_PER_SECOND (Resend's default limit is 2 requests a second);
 * a 429 waits for its retry-after. Without RESEND_API_KEY the send is DEMO MODE: nothing leaves.
 */
import { v } from "convex/values";
import { Resend } from "resend";
import { internal } from "../_generated/api";
import type { Id } from "../_generated/dataModel";
import { internalAction } from "../functions";
import { blastUrls, personalise, providerVerdict, type BlastTemplate, type BlastUrls } from "../lib/email/blast";
import type { BatchOutcome, ClaimedBatch } from "../model/emailSender";

/** One run sends for at most this long, then hands over to the next run. */
const RUN_MS = 30_000;

function batchesPerSecond(): number {
  const n = Number(process.env.EMAIL_BATCHES_PER_SECOND);
  return Number.isFinite(n) && n > 0 ? Math.min(n, 1000) : 2;
}

function urls(from: string): BlastUrls {
  return blastUrls(from, process.env);
}

type ClaimResult =
  | { stop: true }
  | { wait: number; template: BlastTemplate; demo: boolean; campaignId: Id<"emailCampaigns">; sendId: Id<"emailSends"> }
  | {
      batch: ClaimedBatch;
      template: BlastTemplate;
      demo: boolean;
      campaignId: Id<"emailCampaigns">;
      sendId: Id<"emailSends">;
    };

type BatchAnswer = {
  data: { data: { id: string }[]; errors?: { index: number; message: string }[] } | null;
  error: { name?: string; statusCode?: number | null; message?: string } | null;
  headers: Record<string, string> | null;
};

/** Sends one batch and says what happened to each of its messages. */
async function sendBatch(
  provider: Resend | null,
  batch: ClaimedBatch,
  t: BlastTemplate,
  campaignId: string,
): Promise<BatchOutcome> {
  if (!provider) {
    return {
      kind: "sent",
      demo: true,
      results: batch.messages.map((m) => ({ id: m.id, providerId: `demo_${m.id}`, error: null })),
    };
  }
  const u = urls(t.from);
  const tags = [{ name: "campaign", value: campaignId.replace(/[^A-Za-z0-9_-]/g, "_") }];
  const emails = batch.messages.map((m) => personalise(t, m, u, tags));
  let answer: BatchAnswer;
  try {
    answer = await provider.batch.send(emails, { idempotencyKey: batch.key, batchValidation: "permissive" });
  } catch (e) {
    return {
      kind: "retry",
      afterMs: 2_000,
      message: e instanceof Error ? e.message : "network error",
      countsAsError: true,
    };
  }
  if (answer.error || !answer.data) {
    const verdict = providerVerdict(answer.error ?? {}, answer.headers?.["retry-after"]);
    if (verdict.kind === "already_sent")
      return {
        kind: "sent",
        demo: false,
        results: batch.messages.map((m) => ({ id: m.id, providerId: null, error: null })),
      };
    if (verdict.kind === "retry")
      return {
        kind: "retry",
        afterMs: verdict.afterMs,
        message: verdict.message,
        countsAsError: (answer.error?.statusCode ?? 0) !== 429,
      };
    return verdict;
  }
  // permissive mode: `data` lists the accepted emails in order, `errors` the refused ones by index
  const refused = new Map((answer.data.errors ?? []).map((e) => [e.index, e.message]));
  const ids = answer.data.data ?? [];
  let next = 0;
  const results = batch.messages.map((m, i) => {
    const error = refused.get(i);
    if (error !== undefined)
      return {
        id: m.id,
        providerId: null,
        error: /email|address/i.test(error)
          ? "The email address format is invalid. Please use a valid email."
          : "Failed to send email",
      };
    return { id: m.id, providerId: ids[next++]?.id ?? null, error: null };
  });
  return { kind: "sent", demo: false, results };
}

/** One sender run: batches at the pace, each answer recorded before the next batch is claimed. */
export const drain = internalAction({
  args: { sendId: v.id("emailSends"), gen: v.number() },
  returns: v.null(),
  handler: async (ctx, { sendId, gen }) => {
    const started = Date.now();
    const key = process.env.RESEND_API_KEY;
    const provider = key
      ? new Resend(key, process.env.RESEND_BASE_URL ? { baseUrl: process.env.RESEND_BASE_URL } : undefined)
      : null;
    const interval = 1000 / batchesPerSecond();
    let sentBatches = 0;
    for (;;) {
      const claimed = (await ctx.runMutation(internal.emailBlasts.claim, { sendId, gen })) as ClaimResult;
      if ("stop" in claimed) return null;
      if ("wait" in claimed) {
        if (claimed.wait - Date.now() > 2_000 || Date.now() - started > RUN_MS) {
          await ctx.runMutation(internal.sendQueue.continueSender, { sendId, gen, at: claimed.wait });
          return null;
        }
        await new Promise((r) => setTimeout(r, Math.max(0, claimed.wait - Date.now())));
        continue;
      }
      const outcome = await sendBatch(
        claimed.demo ? null : provider,
        claimed.batch,
        claimed.template,
        claimed.campaignId,
      );
      await ctx.runMutation(internal.emailBlasts.recordBatch, { sendId, key: claimed.batch.key, outcome });
      sentBatches += 1;
      const nextAt = outcome.kind === "retry" ? Date.now() + outcome.afterMs : started + sentBatches * interval;
      if (outcome.kind === "fatal") return null;
      if (nextAt - Date.now() > 2_000 || Date.now() - started > RUN_MS) {
        await ctx.runMutation(internal.sendQueue.continueSender, { sendId, gen, at: Math.max(nextAt, Date.now()) });
        return null;
      }
      if (nextAt > Date.now()) await new Promise((r) => setTimeout(r, nextAt - Date.now()));
    }
  },
});
