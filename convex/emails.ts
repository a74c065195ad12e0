/**
 * Outgoing email: every message is recorded in the outbox and delivered by a scheduled action.
 * Without RESEND_API_KEY the platform is in demo mode: nothing leaves the machine, the backend
 * log shows the message and the operator's demo mailbox (DEV_MAILBOX_KEY) lists it.
 */
import { v } from "convex/values";
import { internal } from "./_generated/api";
import { httpAction, internalMutation, internalQuery } from "./functions";
import { emailDemoMode, queueEmail } from "./model/emails";
import { sha256Hex } from "./model/strings";

export const enqueue = internalMutation({
  args: {
    to: v.string(),
    subject: v.string(),
    text: v.string(),
    html: v.optional(v.string()),
    kind: v.string(),
    orgId: v.optional(v.id("organizations")),
  },
  handler: async (ctx, args) => await queueEmail(ctx, args),
});

export const get = internalQuery({
  args: { id: v.id("emailOutbox") },
  handler: async (ctx, { id }) => await ctx.db.get("emailOutbox", id),
});

export const markDelivered = internalMutation({
  args: {
    id: v.id("emailOutbox"),
    status: v.union(v.literal("sent"), v.literal("demo"), v.literal("failed")),
    providerId: v.optional(v.string()),
    error: v.optional(v.string()),
  },
  handler: async (ctx, { id, ...patch }) => {
    await ctx.db.patch("emailOutbox", id, patch);
  },
});

/**
 * The demo mailbox: an operator's tool, never a tenant's. Served only in demo mode on a backend
 * whose operator set DEV_MAILBOX_KEY (npm start makes one per data directory and prints the
 * link), to a caller presenting that key. No public function reads the outbox.
 */
export const mailboxMessages = internalQuery({
  args: { to: v.optional(v.string()) },
  handler: async (ctx, { to }) => {
    const q = to
      ? ctx.db.query("emailOutbox").withIndex("by_to", (x) => x.eq("to", to.trim().toLowerCase()))
      : ctx.db.query("emailOutbox");
    const messages = await q.order("desc").take(50);
    return messages.map((m) => ({
      id: m._id,
      to: m.to,
      from: m.from,
      replyTo: m.replyTo ?? null,
      subject: m.subject,
      text: m.text,
      html: m.html ?? null,
      kind: m.kind,
      status: m.status,
      createdAt: m.createdAt,
    }));
  },
});

/** Compares two secrets without revealing through timing how much of them matched. */
async function sameSecret(given: string, expected: string): Promise<boolean> {
  const [a, b] = await Promise.all([sha256Hex(given), sha256Hex(expected)]);
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** GET /api/dev/mailbox[?to=] with `Authorization: Bearer <DEV_MAILBOX_KEY>`. */
export const devMailbox = httpAction(async (ctx, request) => {
  const key = process.env.DEV_MAILBOX_KEY;
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), {
      status,
      headers: { "Content-Type": "application/json", "Cache-Control": "no-store" },
    });
  if (!emailDemoMode() || !key || key.length < 16)
    return json(404, { error: "The demo mailbox is not enabled on this server." });
  const given = (request.headers.get("Authorization") ?? "").replace(/^Bearer\s+/i, "");
  if (!given || given.length > 200 || !(await sameSecret(given, key)))
    return json(401, {
      error: "The demo mailbox key is missing or wrong. Use the link printed when the server started.",
    });
  const to = new URL(request.url).searchParams.get("to") ?? undefined;
  if (to !== undefined && to.length > 254) return json(400, { error: "Invalid address." });
  const messages = await ctx.runQuery(internal.emails.mailboxMessages, { to });
  return json(200, { messages });
});
