"use node";
/** Delivers queued outbox emails through Resend; demo mode (no RESEND_API_KEY) only logs them. */
import { v } from "convex/values";
import { Resend } from "resend";
import { internal } from "../_generated/api";
import { internalAction } from "../functions";

export const deliver = internalAction({
  args: { id: v.id("emailOutbox") },
  handler: async (ctx, { id }) => {
    const email = await ctx.runQuery(internal.emails.get, { id });
    if (email === null || email.status !== "queued") return;
    const key = process.env.RESEND_API_KEY;
    if (!key) {
      // Stands out in the operator's console: this is the only place a demo email is visible besides the mailbox.
      const rule = "=".repeat(72);
      console.log(
        `\n${rule}\nDEMO EMAIL (not sent) to ${email.to}\nSubject: ${email.subject}\n\n${email.text}\n${rule}\n`,
      );
      await ctx.runMutation(internal.emails.markDelivered, { id, status: "demo", providerId: `demo_${id}` });
      return;
    }
    const resend = new Resend(key, process.env.RESEND_BASE_URL ? { baseUrl: process.env.RESEND_BASE_URL } : undefined);
    const { data, error } = await resend.emails.send({
      from: email.from,
      to: email.to,
      ...(email.replyTo ? { replyTo: email.replyTo } : {}),
      subject: email.subject,
      text: email.text,
      ...(email.html ? { html: email.html } : {}),
      // the kind of email ("password_reset", "invitation", …): filterable in Resend's logs
      tags: [{ name: "kind", value: email.kind.replace(/[^A-Za-z0-9_-]/g, "_") }],
    });
    if (error || !data?.id) {
      await ctx.runMutation(internal.emails.markDelivered, {
        id,
        status: "failed",
        error: error?.message ?? "Failed to send email",
      });
      return;
    }
    await ctx.runMutation(internal.emails.markDelivered, { id, status: "sent", providerId: data.id });
  },
});
