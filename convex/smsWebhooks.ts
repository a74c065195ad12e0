/**
 * Twilio's webhooks (http actions): message status callbacks and inbound texts. Each request is
 * size-capped, rate-limited per client address and globally, and refused unless its
 * X-Twilio-Signature is Twilio's signature of the URL and form fields with the account's auth
 * token (twilio.validateRequest, in integrations/twilio.ts). A signature carries no time, so a
 * captured request stays valid: each is taken once (an inbound text by its MessageSid, a status by
 * sid and status; model/smsReplies.ts firstTime) and a repeat is answered 200 with nothing done,
 * so Twilio does not retry it.
 */
import { defineRateLimits } from "convex-helpers/server/rateLimit";
import { z } from "zod";
import { v } from "convex/values";
import { internal } from "./_generated/api";
import type { ActionCtx } from "./_generated/server";
import { httpAction, internalMutation } from "./functions";
import { clientAddress } from "./model/clientAddress";
import { SMS_STATUSES, type SmsStatus } from "./tables/sms";

export const MAX_WEBHOOK_BYTES = 16 * 1024;
export const WEBHOOK_RATE_PER_ADDRESS = 600;
export const WEBHOOK_RATE_GLOBAL = 6_000;

const { rateLimit } = defineRateLimits({
  twilioWebhookPerAddress: {
    kind: "token bucket",
    rate: WEBHOOK_RATE_PER_ADDRESS,
    period: 60_000,
    capacity: WEBHOOK_RATE_PER_ADDRESS,
  },
  twilioWebhookGlobal: {
    kind: "token bucket",
    rate: WEBHOOK_RATE_GLOBAL,
    period: 60_000,
    capacity: WEBHOOK_RATE_GLOBAL,
    shards: 4,
  },
});

export const admit = internalMutation({
  args: { address: v.string() },
  returns: v.boolean(),
  handler: async (ctx, { address }) => {
    if (!(await rateLimit(ctx, { name: "twilioWebhookPerAddress", key: address })).ok) return false;
    return (await rateLimit(ctx, { name: "twilioWebhookGlobal" })).ok;
  },
});

const field = (max: number) => z.string().max(max);
const statusSchema = z.object({
  MessageSid: field(64).regex(/^[A-Za-z0-9]+$/),
  MessageStatus: field(32),
  ErrorCode: field(16).optional(),
});
const inboundSchema = z.object({
  MessageSid: field(64).regex(/^[A-Za-z0-9]+$/),
  From: field(32).min(1),
  Body: field(1600),
});

const text = (status: number, body: string) =>
  new Response(body, { status, headers: { "Content-Type": "text/plain" } });
const twiml = (message: string | null) =>
  new Response(
    message === null
      ? "<Response></Response>"
      : `<Response><Message>${message.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")}</Message></Response>`,
    { status: 200, headers: { "Content-Type": "text/xml" } },
  );

/** The URL Twilio signed: the public webhook base when one is configured, else the request's. */
function signedUrl(request: Request): string {
  const url = new URL(request.url);
  const base = process.env.TWILIO_WEBHOOK_BASE_URL;
  return base ? `${base.replace(/\/$/, "")}${url.pathname}${url.search}` : url.toString();
}

/** Reads, caps, rate-limits and verifies a webhook; the form fields, or the refusal to answer. */
async function verified(ctx: ActionCtx, request: Request): Promise<Record<string, string> | Response> {
  const declared = Number(request.headers.get("Content-Length") ?? 0);
  if (declared > MAX_WEBHOOK_BYTES) return text(413, "Payload too large");
  const raw = await request.text();
  if (raw.length > MAX_WEBHOOK_BYTES) return text(413, "Payload too large");
  if (!(await ctx.runMutation(internal.smsWebhooks.admit, { address: clientAddress(request) })))
    return text(429, "Too many requests");
  const signature = request.headers.get("X-Twilio-Signature");
  if (!signature || signature.length > 200) return text(403, "Invalid signature");
  const params: Record<string, string> = {};
  for (const [k, val] of new URLSearchParams(raw)) {
    if (Object.keys(params).length >= 100) return text(400, "Too many fields");
    params[k] = val;
  }
  const ok = await ctx.runAction(internal.integrations.twilio.verifySignature, {
    url: signedUrl(request),
    signature,
    params,
  });
  return ok ? params : text(403, "Invalid signature");
}

/** POST /api/twilio/status?m={messageId}: a message's delivery status. */
export const twilioStatus = httpAction(async (ctx, request) => {
  const params = await verified(ctx, request);
  if (params instanceof Response) return params;
  const parsed = statusSchema.safeParse(params);
  if (!parsed.success) return text(400, "Invalid status callback");
  const status = parsed.data.MessageStatus.toLowerCase();
  // accepted/scheduled/queued/sending before "sent"; read-receipts and the like are not statuses here
  const mapped: SmsStatus | null = (SMS_STATUSES as readonly string[]).includes(status)
    ? (status as SmsStatus)
    : status === "accepted" || status === "scheduled"
      ? "queued"
      : null;
  if (!mapped) return text(200, "Ignored");
  const messageId = new URL(request.url).searchParams.get("m");
  // false also for a sid and status already taken (a replay): 200 all the same, nothing changed
  await ctx.runMutation(internal.sms.applyStatus, {
    messageId: messageId && messageId.length <= 64 ? messageId : null,
    sid: parsed.data.MessageSid,
    status: mapped,
    errorCode: parsed.data.ErrorCode ?? null,
  });
  return text(200, "OK");
});

/** POST /api/twilio/inbound: a text to our number (STOP, START, HELP, or a reply for the log). */
export const twilioInbound = httpAction(async (ctx, request) => {
  const params = await verified(ctx, request);
  if (params instanceof Response) return params;
  const parsed = inboundSchema.safeParse(params);
  if (!parsed.success) return text(400, "Invalid inbound message");
  // a MessageSid already taken (a replay) changes nothing: empty TwiML, so Twilio does not retry
  const { reply } = await ctx.runMutation(internal.sms.inbound, {
    messageSid: parsed.data.MessageSid,
    from: parsed.data.From,
    body: parsed.data.Body,
  });
  return twiml(reply);
});
