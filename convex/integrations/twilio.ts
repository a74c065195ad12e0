"use node";
/**
 * The SMS sender on Twilio (spec/2 §7) and webhook signature checks. Credentials come from the
 * deployment's environment (TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_PHONE_NUMBER or
 * TWILIO_MESSAGING_SERVICE_SID); without valid ones the send runs in DEMO MODE (nothing leaves,
 * statuses simulated). TWILIO_API_BASE_URL points the SDK at another host (a local fake in tests).
 *
 * `drain` takes batches from the queue (model/smsSender.ts claim) and sends them at the send's pace in
 * segments per second, outside each recipient's quiet hours, recording every answer at once.
 */
import { v } from "convex/values";
import twilio from "twilio";
import type RequestClient from "twilio/lib/base/RequestClient";
import { internal } from "../_generated/api";
import type { Id } from "../_generated/dataModel";
import { internalAction } from "../functions";
import { nextSendingTime } from "../lib/sms/quietHours";
import { SMS_ERROR_MESSAGES } from "../lib/sms/rules";
import type { ClaimedMessage, SendResult } from "../model/smsSender";
import { providerErrorMessage, providerConfig } from "../model/smsShared";

/** One sender run sends for at most this long, then hands over to the next run. */
const RUN_MS = 60_000;
/** Answers recorded together: at most this many, at most this old. */
const RECORD_EVERY = 10;
const RECORD_MS = 200;
/** Work claimed at a time, in milliseconds at the send's pace. */
const CLAIM_AHEAD_MS = 200;
/** Requests to the provider at once (a short code's pace needs several: each takes ~100 ms). */
const MAX_IN_FLIGHT = 16;
/** Back-off after the provider's rate limit (429 / 20429). */
const RATE_LIMIT_BACKOFF_MS = 5_000;
/** After a request that got no answer, how long before the provider is asked whether it has the message. */
const DOUBT_LOOKUP_MS = 1_000;

type RequestOptions<T> = RequestClient.RequestOptions<T>;

/** Rewrites every request of the SDK to TWILIO_API_BASE_URL's origin (same paths). */
class BaseUrlClient extends twilio.RequestClient {
  constructor(private readonly base: string) {
    super();
  }
  request<T>(opts: RequestOptions<T>) {
    const u = new URL(opts.uri);
    const b = new URL(this.base);
    u.protocol = b.protocol;
    u.host = b.host;
    return super.request<T>({ ...opts, uri: u.toString() });
  }
}

function client() {
  const sid = process.env.TWILIO_ACCOUNT_SID!;
  const token = process.env.TWILIO_AUTH_TOKEN!;
  const base = process.env.TWILIO_API_BASE_URL;
  return twilio(sid, token, base ? { httpClient: new BaseUrlClient(base) } : {});
}

function senderFields(): { from: string } | { messagingServiceSid: string } {
  const service = process.env.TWILIO_MESSAGING_SERVICE_SID;
  return service ? { messagingServiceSid: service } : { from: process.env.TWILIO_PHONE_NUMBER! };
}

/** Where Twilio posts a message's status: this deployment's site URL, the message id in the query. */
function statusCallback(messageId: string): string | undefined {
  const site = process.env.TWILIO_WEBHOOK_BASE_URL || process.env.CONVEX_SITE_URL;
  return site ? `${site.replace(/\/$/, "")}/api/twilio/status?m=${encodeURIComponent(messageId)}` : undefined;
}

type ProviderError = { code?: number | string; status?: number; message?: string };

/**
 * A request with no answer (the connection dropped or timed out) or the provider's own failure
 * (5xx) may still have created the message: it is neither sent nor failed until the provider says.
 */
function answerUnknown(e: ProviderError): boolean {
  return typeof e.status !== "number" || e.status >= 500;
}

/** What a provider error means for one message. */
function outcomeOf(id: Id<"smsMessages">, e: ProviderError): SendResult {
  const code = String(e.code ?? e.status ?? "");
  if (code === "20003" || e.status === 401)
    return { id, outcome: "fatal", code: "20003", error: SMS_ERROR_MESSAGES.suspended };
  if (code === "429" || code === "20429" || e.status === 429)
    return { id, outcome: "requeue", readyAt: Date.now() + RATE_LIMIT_BACKOFF_MS };
  if (code === "21606" || code === "20005" || code === "30044")
    return { id, outcome: "fatal", code, error: providerErrorMessage(code) };
  return {
    id,
    outcome: "failed",
    code: code || "unknown",
    error: providerErrorMessage(code),
    optOut: code === "21610",
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A message whose request got no answer: the provider holds it (sent) or it goes back to the queue. */
type Doubt = { id: Id<"smsMessages">; outcome: "doubt"; since: number };

async function sendOne(
  provider: ReturnType<typeof client> | null,
  m: ClaimedMessage,
  demo: boolean,
  index: number,
): Promise<SendResult | Doubt> {
  if (demo || !provider) {
    // DEMO MODE (spec/2 §7): nothing leaves; one in ten fails, as the spec's demo does
    if (Math.random() < 0.1) return { id: m.id, outcome: "failed", code: "demo", error: SMS_ERROR_MESSAGES.default };
    return { id: m.id, outcome: "sent", sid: `DEMO${m.id}${index}`, status: "demo" };
  }
  const since = Date.now();
  try {
    const res = await provider.messages.create({
      to: m.phone,
      body: m.body,
      statusCallback: statusCallback(m.id),
      ...senderFields(),
    });
    if (!res.sid)
      return {
        id: m.id,
        outcome: "failed",
        code: "no_sid",
        error: "No confirmation id was received from the SMS provider.",
      };
    const status =
      res.status === "sent" || res.status === "delivered" || res.status === "failed" || res.status === "undelivered"
        ? res.status
        : "sent";
    return {
      id: m.id,
      outcome: "sent",
      sid: res.sid,
      status: status === "failed" || status === "undelivered" ? "sent" : status,
    };
  } catch (e) {
    if (answerUnknown(e as ProviderError)) return { id: m.id, outcome: "doubt", since };
    return outcomeOf(m.id, e as ProviderError);
  }
}

/**
 * Asks the provider about a message whose request got no answer: sent when it has it, queued
 * again when not. When the provider cannot be asked either, the message stays "sending" and the
 * lease check has it reconciled later (null).
 */
async function settleDoubt(m: ClaimedMessage, since: number): Promise<SendResult | null> {
  await sleep(DOUBT_LOOKUP_MS);
  try {
    const sid = await findSent(m.phone, m.body, since);
    return sid
      ? { id: m.id, outcome: "sent", sid, status: "sent" }
      : { id: m.id, outcome: "requeue", readyAt: Date.now() };
  } catch {
    return null;
  }
}

/**
 * One sender run: claims batches and sends them at the pace (t₀ + segments so far ÷ rate), holds
 * messages outside the recipient's sending hours until their window opens, records each answer,
 * and hands over to the next run after RUN_MS or when it has to wait.
 */
export const drain = internalAction({
  args: { sendId: v.id("smsSends"), gen: v.number() },
  returns: v.null(),
  handler: async (ctx, { sendId, gen }) => {
    const started = Date.now();
    const provider = providerConfig().demo ? null : client();
    let segmentsDone = 0;
    let index = 0;
    let claimSize = 1;
    // answers are recorded in small groups (at most RECORD_EVERY messages or RECORD_MS old):
    // a crash leaves only those in doubt, and the reconciliation settles them
    let pending: SendResult[] = [];
    let pendingSince = 0;
    const flush = async () => {
      if (pending.length === 0) return;
      const results = pending;
      pending = [];
      await ctx.runMutation(internal.sms.recordResults, { sendId, results });
    };
    const add = async (r: SendResult) => {
      if (pending.length === 0) pendingSince = Date.now();
      pending.push(r);
      if (
        r.outcome === "fatal" ||
        r.outcome === "requeue" ||
        pending.length >= RECORD_EVERY ||
        Date.now() - pendingSince >= RECORD_MS
      )
        await flush();
    };
    const inFlight = new Set<Promise<void>>();
    const settle = async () => {
      await Promise.all(inFlight);
      await flush();
    };
    let stopped = false;
    let pausedUntil = 0;
    let pace = 1;
    const nextDue = () => Math.max(started + (segmentsDone / pace) * 1000, pausedUntil);
    while (Date.now() - started < RUN_MS) {
      // claim only when the next message is due, about CLAIM_AHEAD_MS of work: what is claimed is
      // "sending" (it goes out even if the send is paused or cancelled now), the rest stays queued
      const wait = nextDue() - Date.now();
      if (wait > 0) {
        if (wait > RECORD_MS) await flush();
        await sleep(wait);
      }
      const batch = await ctx.runMutation(internal.sms.claim, { sendId, max: claimSize, gen });
      if ("stop" in batch) {
        await settle();
        return null;
      }
      if (!("messages" in batch) || !batch.messages) {
        await settle();
        await ctx.runMutation(internal.sendQueue.continueSender, {
          sendId,
          at: Math.max(batch.wait, Date.now() + 50),
          gen,
        });
        return null;
      }
      const { settings, demo } = batch;
      pace = batch.pace;
      claimSize = Math.max(1, Math.min(200, Math.ceil((pace * CLAIM_AHEAD_MS) / 1000)));
      for (const m of batch.messages) {
        if (stopped) {
          await add({ id: m.id, outcome: "requeue", readyAt: Date.now() });
          continue;
        }
        const open = nextSendingTime(Date.now(), m, settings.quietStart, settings.quietEnd);
        if (open > Date.now()) {
          await add({ id: m.id, outcome: "requeue", readyAt: open });
          continue;
        }
        // message k leaves at t₀ + (segments before it) ÷ pace, several in flight at once
        const due = nextDue();
        segmentsDone += m.segments;
        if (due > Date.now()) await sleep(due - Date.now());
        while (inFlight.size >= MAX_IN_FLIGHT) await Promise.race(inFlight);
        const i = index++;
        const p: Promise<void> = (async () => {
          const answer = await sendOne(provider, m, demo, i);
          const result = answer.outcome === "doubt" ? await settleDoubt(m, answer.since) : answer;
          if (result === null) return;
          if (result.outcome === "fatal") stopped = true;
          // the provider's rate limit: hold every later message for the back-off
          if (result.outcome === "requeue") pausedUntil = Date.now() + RATE_LIMIT_BACKOFF_MS;
          await add(result);
        })().finally(() => inFlight.delete(p));
        inFlight.add(p);
      }
      if (stopped) {
        await settle();
        return null;
      }
    }
    await settle();
    await ctx.runMutation(internal.sendQueue.continueSender, { sendId, at: Math.max(Date.now(), nextDue()), gen });
    return null;
  },
});

/**
 * Settles messages a dead sender left "sending": a message the provider has (same number and
 * text, created after the claim) is recorded as sent; one it never received goes back to the
 * queue. Demo messages never left, so they are queued again. Then a new sender starts.
 */
export const reconcile = internalAction({
  args: { sendId: v.id("smsSends"), gen: v.number(), messageIds: v.array(v.id("smsMessages")) },
  returns: v.null(),
  handler: async (ctx, { sendId, gen, messageIds }) => {
    const stuck = await ctx.runQuery(internal.sms.stuckMessages, { messageIds });
    const { demo } = providerConfig();
    const results: SendResult[] = [];
    for (const m of stuck) {
      if (demo) {
        results.push({ id: m.id, outcome: "requeue", readyAt: Date.now() });
        continue;
      }
      const found = await findSent(m.phone, m.body, m.claimedAt);
      results.push(
        found
          ? { id: m.id, outcome: "sent", sid: found, status: "sent" }
          : { id: m.id, outcome: "requeue", readyAt: Date.now() },
      );
    }
    await ctx.runMutation(internal.sms.recordResults, { sendId, results });
    await ctx.runMutation(internal.sendQueue.continueSender, { sendId, at: Date.now(), gen });
    return null;
  },
});

/** The sid of a message to `phone` with `body` the provider created after `since`, if any. */
async function findSent(phone: string, body: string, since: number): Promise<string | null> {
  const list = await client().messages.list({ to: phone, dateSentAfter: new Date(since - 60_000), limit: 50 });
  const match = list.find((m) => m.body === body && (m.dateCreated ? m.dateCreated.getTime() >= since - 60_000 : true));
  return match?.sid ?? null;
}

/** X-Twilio-Signature check of a webhook (twilio.validateRequest over the URL and form params). */
export const verifySignature = internalAction({
  args: { url: v.string(), signature: v.string(), params: v.record(v.string(), v.string()) },
  returns: v.boolean(),
  handler: async (_ctx, { url, signature, params }) => {
    const token = process.env.TWILIO_AUTH_TOKEN;
    if (!token) return false;
    return twilio.validateRequest(token, signature, url, params);
  },
});
