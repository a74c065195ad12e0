/**
 * The email outbox: every message is recorded and then delivered by a scheduled action
 * (integrations/resend.ts). Without RESEND_API_KEY the platform is in demo mode.
 */
import { internal } from "../_generated/api";
import type { Id } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";

export const DEFAULT_FROM = "Precinct <no-reply@precinct.local>";

export function emailDemoMode(): boolean {
  return !process.env.RESEND_API_KEY;
}

export async function queueEmail(
  ctx: MutationCtx,
  email: {
    to: string;
    subject: string;
    text: string;
    html?: string;
    kind: string;
    orgId?: Id<"organizations">;
    from?: string;
    replyTo?: string;
  },
) {
  const id = await ctx.db.insert("emailOutbox", {
    orgId: email.orgId,
    to: email.to,
    from: email.from ?? process.env.EMAIL_FROM ?? DEFAULT_FROM,
    ...(email.replyTo ? { replyTo: email.replyTo } : {}),
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
