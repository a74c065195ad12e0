/**
 * The voter detail's send-email modal: queues one email to the voter through the email outbox
 * (Resend, or demo mode without RESEND_API_KEY) and logs it as a completed email campaign.
 * Subject and message are personalised with the merge variables of email campaigns.
 * Requires messaging.send (campaign managers and super admins).
 */
import { v } from "convex/values";
import { appError, orgMutation, orgQuery } from "./functions";
import { audit } from "./model/audit";
import { emailOptOutOf } from "./model/consent";
import { adjustCounter } from "./model/counters";
import { mergeValues, substitute } from "./lib/email/merge";
import { checkVariables, senderValues } from "./model/emailCampaigns";
import { emailDemoMode, queueEmail } from "./model/emails";
import { TEXTS } from "./lib/texts";

/** Whether sending is a demo (no provider credentials): the modal labels itself so. */
export const status = orgQuery("voters.view")({
  args: {},
  returns: v.object({ demoMode: v.boolean() }),
  handler: async () => ({ demoMode: emailDemoMode() }),
});

export const send = orgMutation("messaging.send")({
  args: { voterId: v.id("voters"), subject: v.string(), message: v.string() },
  returns: v.object({ outboxId: v.id("emailOutbox"), campaignId: v.id("campaigns"), demoMode: v.boolean() }),
  handler: async (ctx, { voterId, subject, message }) => {
    const voter = await ctx.db.get("voters", voterId);
    if (!voter) throw appError("NOT_FOUND");
    const to = voter.email?.trim().toLowerCase();
    if (!to) throw appError("VALIDATION_ERROR", "Recipient email address is required", "Error Sending Email");
    // the consent ledger's state, in the transaction that queues the email
    if (await emailOptOutOf(ctx.db, ctx.viewer.orgId, to))
      throw appError("VALIDATION_ERROR", TEXTS.voterEmail.optedOut, "Error Sending Email");
    const s = subject.trim();
    if (!s) throw appError("VALIDATION_ERROR", TEXTS.required.emailSubject, "Subject Required");
    const body = message.trim();
    if (!body) throw appError("VALIDATION_ERROR", TEXTS.voterEmail.message, "Message Required");
    if (s.length > 500 || body.length > 100_000) throw appError("VALIDATION_ERROR");
    // personalization as in campaigns: {{voter.first_name}} … {{user.campaign_name}}; unknown variables are refused, never sent raw
    checkVariables([], [s, body], "Error Sending Email");
    const values = mergeValues(voter, senderValues(ctx.viewer.user, ctx.viewer.org), {});
    const orgId = ctx.viewer.orgId;
    const outboxId = await queueEmail(ctx, {
      to,
      subject: substitute(s, values, "text").replace(/[\r\n]+/g, " "),
      text: substitute(body, values, "text"),
      kind: "voter_email",
      orgId,
    });
    const now = Date.now();
    const campaignId = await ctx.db.insert("campaigns", {
      orgId,
      name: `Email to ${voter.first_name} ${voter.last_name}`.trim(),
      description: null,
      campaign_type: "email",
      status: "completed",
      individual_voters: [voterId],
      subject: s,
      body,
      sentCount: 1,
      createdBy: ctx.viewer.userId,
      updatedAt: now,
    });
    await adjustCounter(ctx, orgId, "campaigns", 1);
    await adjustCounter(ctx, orgId, "emailsSent", 1);
    const name = `${voter.first_name} ${voter.last_name}`.trim() || to;
    await audit(ctx, ctx.viewer, {
      action: "email.send",
      target: { table: "voters", id: voterId, label: name },
      summary: `Emailed ${name} (${to}): ${s.slice(0, 200)}${emailDemoMode() ? " (demo mode)" : ""}.`,
    });
    return { outboxId, campaignId, demoMode: emailDemoMode() };
  },
});
