/**
 * Resend's webhooks (spec/2 §3 statistics): POST /api/resend/webhook, signed by svix. The
 * signature (RESEND_WEBHOOK_SECRET, "whsec_…") and its timestamp (5 minutes' tolerance) are
 * verified with the `svix` package before anything is read; the body is capped; verified calls
 * are rate-limited per client and overall (429 makes svix retry later). Each event applies once
 * (svix-id), in any order (model/emailEvents.ts).
 */
import { v } from "convex/values";
import { Webhook } from "svix";
import { internal } from "./_generated/api";
import { httpAction, internalMutation } from "./functions";
import { clientAddress } from "./model/clientAddress";
import { applyProviderEvent, emailPublicRateLimit } from "./model/emailEvents";
import { PROVIDER_EVENTS, vProviderEvent, type ProviderEvent } from "./tables/emailBlast";

const MAX_BODY = 64 * 1024;

export const apply = internalMutation({
  args: {
    client: v.string(),
    event: vProviderEvent,
  },
  returns: v.union(v.literal("applied"), v.literal("duplicate"), v.literal("unknown"), v.literal("limited")),
  handler: async (ctx, { client, event }) => {
    for (const [name, key] of [
      ["webhookPerClient", client],
      ["webhookGlobal", undefined],
    ] as const) {
      const { ok } = await emailPublicRateLimit(ctx, { name, key });
      if (!ok) return "limited";
    }
    return await applyProviderEvent(ctx, event);
  },
});

function json(status: number, body: unknown, headers: Record<string, string> = {}) {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", ...headers } });
}

/** Reads the fields we use from a verified payload (anything else is ignored, not an error). */
export function parseResendEvent(eventId: string, payload: unknown): ProviderEvent | null {
  if (typeof payload !== "object" || payload === null) return null;
  const p = payload as {
    type?: unknown;
    created_at?: unknown;
    data?: { email_id?: unknown; click?: { link?: unknown } };
  };
  if (typeof p.type !== "string" || !(PROVIDER_EVENTS as readonly string[]).includes(p.type)) return null;
  const emailId = p.data?.email_id;
  if (typeof emailId !== "string" || emailId.length === 0 || emailId.length > 100) return null;
  const at = typeof p.created_at === "string" ? Date.parse(p.created_at) : NaN;
  const link = p.data?.click?.link;
  return {
    eventId: eventId.slice(0, 100),
    type: p.type as ProviderEvent["type"],
    emailId,
    at: Number.isFinite(at) ? at : Date.now(),
    ...(p.type === "email.clicked" && typeof link === "string" && /^https?:\/\//i.test(link)
      ? { url: link.slice(0, 2048) }
      : {}),
  };
}

export const resendWebhook = httpAction(async (ctx, request) => {
  const secret = process.env.RESEND_WEBHOOK_SECRET;
  if (!secret) return json(404, { error: "Email webhooks are not configured on this server." });
  if (Number(request.headers.get("Content-Length") ?? 0) > MAX_BODY) return json(413, { error: "Payload too large." });
  const body = await request.text();
  if (body.length > MAX_BODY) return json(413, { error: "Payload too large." });
  const headers = {
    "svix-id": request.headers.get("svix-id") ?? "",
    "svix-timestamp": request.headers.get("svix-timestamp") ?? "",
    "svix-signature": request.headers.get("svix-signature") ?? "",
  };
  let payload: unknown;
  try {
    payload = new Webhook(secret).verify(body, headers);
  } catch {
    return json(401, { error: "Invalid signature." });
  }
  const event = parseResendEvent(headers["svix-id"], payload);
  if (!event) return json(200, { ignored: true });
  const result = await ctx.runMutation(internal.emailWebhooks.apply, { client: clientAddress(request), event });
  if (result === "limited") return json(429, { error: "Too many requests." }, { "Retry-After": "30" });
  return json(200, { result });
});

/**
 * Applies many events in one transaction, each exactly as the webhook does (deduplicated,
 * order-safe): for replaying events fetched from Resend after an outage, and for the benchmark
 * that fills a campaign with a million events. Internal: only the operator (admin key) calls it.
 */
export const applyBatch = internalMutation({
  args: { events: v.array(vProviderEvent) },
  returns: v.number(),
  handler: async (ctx, { events }) => {
    let applied = 0;
    for (const e of events.slice(0, 1000)) if ((await applyProviderEvent(ctx, e)) === "applied") applied += 1;
    return applied;
  },
});
