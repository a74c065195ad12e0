/**
 * Outgoing email: every message is recorded in the outbox and delivered by a scheduled action.
 * Without RESEND_API_KEY the platform is in demo mode: nothing leaves the machine, the backend
 * log shows the message and the dev mailbox page (DEV_MAILBOX=1) lists it.
 */
import { v } from "convex/values";
import { internal } from "./_generated/api";
import { internalMutation, internalQuery, publicQuery } from "./functions";
import type { MutationCtx } from "./_generated/server";
import type { Id } from "./_generated/dataModel";

export const DEFAULT_FROM = "Precinct <no-reply@precinct.local>";

export function emailDemoMode(): boolean {
  return !process.env.RESEND_API_KEY;
}

export async function queueEmail(
  ctx: MutationCtx,
  email: { to: string; subject: string; text: string; html?: string; kind: string; orgId?: Id<"organizations">; from?: string },
) {
  const id = await ctx.db.insert("emailOutbox", {
    orgId: email.orgId,
    to: email.to,
    from: email.from ?? process.env.EMAIL_FROM ?? DEFAULT_FROM,
    subject: email.subject,
    text: email.text,
    html: email.html,
    kind: email.kind,
    status: "queued",
    createdAt: Date.now(),
  });
  await ctx.scheduler.runAfter(0, internal.integrations.resend.deliver, { id });
  return id;
}

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
  handler: async (ctx, { id }) => await ctx.db.get(id),
});

export const markDelivered = internalMutation({
  args: {
    id: v.id("emailOutbox"),
    status: v.union(v.literal("sent"), v.literal("demo"), v.literal("failed")),
    providerId: v.optional(v.string()),
    error: v.optional(v.string()),
  },
  handler: async (ctx, { id, ...patch }) => {
    await ctx.db.patch(id, patch);
  },
});

/**
 * The dev mailbox: only in demo mode on a backend started with DEV_MAILBOX=1 (npm start does),
 * where no email can be delivered and this page is the only way to read reset and invitation links.
 */
export const devMailbox = publicQuery({
  args: { to: v.optional(v.string()) },
  handler: async (ctx, { to }) => {
    if (!emailDemoMode() || process.env.DEV_MAILBOX !== "1") return { enabled: false as const, messages: [] };
    const q = to
      ? ctx.db.query("emailOutbox").withIndex("by_to", (x) => x.eq("to", to.trim().toLowerCase()))
      : ctx.db.query("emailOutbox");
    const messages = await q.order("desc").take(50);
    return {
      enabled: true as const,
      messages: messages.map((m) => ({ id: m._id, to: m.to, from: m.from, subject: m.subject, text: m.text, kind: m.kind, status: m.status, createdAt: m.createdAt })),
    };
  },
});
