/**
 * "Send test email" (spec/2 §5, §8): the current design rendered to email-safe HTML (MJML) and a
 * plain-text part, personalised with fixed sample values, the subject prefixed [TEST], sent to at
 * most TEST_MAX_RECIPIENTS addresses through the email outbox (Resend, or demo mode without
 * RESEND_API_KEY). The action waits briefly for the outbox to report, so the builder can say
 * whether the provider took the message, in the spec's words.
 */
import { v } from "convex/values";
import { internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { appError, internalMutation, internalQuery, orgAction, orgQuery } from "./functions";
import { compileMjml } from "./lib/email/mjml";
import { renderEmail, EMAIL_MAX_BYTES, formatBytes } from "./lib/email/render";
import { emptyLinks, emptyLinksMessage, previewValues, substitute } from "./lib/email/merge";
import { emailOptOutOf } from "./model/consent";
import { emailDemoMode, queueEmail } from "./model/emails";
import { isEmailAddress, parseRecipients } from "./lib/email/addresses";
import { checkVariables, emailRateLimit, parseBlocks, senderValues, TEST_MAX_RECIPIENTS } from "./model/emailCampaigns";
import { TEXTS } from "./lib/texts";

const WAIT_MS = 10_000;
const POLL_MS = 250;

/** The spec's test-send messages for what the provider said (spec/2 §8). */
export function testSendMessage(providerError: string): string {
  if (/invalid.*(email|address|recipient)|(email|address|recipient).*invalid/i.test(providerError))
    return "One or more email addresses are invalid.";
  if (/rate.?limit|too many/i.test(providerError)) return "Too many emails sent. Please try again later.";
  if (/insufficient.?funds/i.test(providerError)) return "Resend account has insufficient funds.";
  if (/suspended/i.test(providerError)) return "Email service is temporarily unavailable.";
  return "Failed to send test email";
}

type TestResult = {
  demo: boolean;
  sent: number;
  failed: number;
  pending: number;
  message: string | null;
  bytes: number;
};
type OutboxStatus = { status: string; error: string | null };

function oneLine(s: string): string {
  return s.replace(/[\r\n]+/g, " ").trim();
}

export const queueTest = internalMutation({
  args: {
    orgId: v.id("organizations"),
    userId: v.id("users"),
    to: v.array(v.string()),
    from: v.string(),
    replyTo: v.optional(v.string()),
    subject: v.string(),
    html: v.string(),
    text: v.string(),
  },
  returns: v.array(v.id("emailOutbox")),
  handler: async (ctx, { orgId, userId, to, ...email }) => {
    for (const [name, key] of [
      ["testEmailsPerUser", userId],
      ["testEmailsPerOrg", orgId],
    ] as const) {
      const { ok } = await emailRateLimit(ctx, { name, key, count: to.length });
      if (!ok)
        throw appError("RATE_LIMIT", "Too many emails sent. Please try again later.", "Failed to send test email");
    }
    // a test addressed to someone who opted out of the organisation's email (a voter, a teammate) is refused
    const optedOut: string[] = [];
    for (const address of to)
      if (await emailOptOutOf(ctx.db, orgId, address.trim().toLowerCase())) optedOut.push(address);
    if (optedOut.length > 0)
      throw appError("VALIDATION_ERROR", TEXTS.email.testOptedOut(optedOut), "Failed to send test email");
    const ids: Id<"emailOutbox">[] = [];
    for (const address of to) ids.push(await queueEmail(ctx, { ...email, to: address, kind: "test_email", orgId }));
    return ids;
  },
});

export const outboxStatus = internalQuery({
  args: { ids: v.array(v.id("emailOutbox")) },
  handler: async (ctx, { ids }) => {
    const rows = await Promise.all(ids.map((id) => ctx.db.get("emailOutbox", id)));
    return rows.map((r) => ({ status: r?.status ?? "failed", error: r?.error ?? null }));
  },
});

const senderValuesValidator = v.record(v.string(), v.string());

/** The sender's side of personalisation (user.*) as the signed-in user would send: previews fill it in so they show what recipients get. */
export const previewSender = orgQuery("campaigns.view")({
  args: {},
  returns: senderValuesValidator,
  handler: async (ctx) => senderValues(ctx.viewer.user, ctx.viewer.org),
});

export const senderFor = internalQuery({
  args: { userId: v.id("users"), orgId: v.id("organizations") },
  returns: senderValuesValidator,
  handler: async (ctx, { userId, orgId }) => {
    const [user, org] = await Promise.all([ctx.db.get("users", userId), ctx.db.get("organizations", orgId)]);
    if (!user || !org) throw appError("FORBIDDEN");
    return senderValues(user, org);
  },
});

export const sendTest = orgAction("campaigns.manage")({
  args: {
    recipients: v.string(),
    subject: v.string(),
    fromName: v.string(),
    fromEmail: v.string(),
    replyTo: v.string(),
    previewText: v.string(),
    blocks: v.string(),
  },
  returns: v.object({
    demo: v.boolean(),
    sent: v.number(),
    failed: v.number(),
    pending: v.number(),
    message: v.union(v.string(), v.null()),
    bytes: v.number(),
  }),
  handler: async (ctx, args): Promise<TestResult> => {
    if (args.recipients.length > 5_000)
      throw appError(
        "VALIDATION_ERROR",
        `A test goes to at most ${TEST_MAX_RECIPIENTS} addresses.`,
        "Invalid email address",
      );
    const { valid, invalid } = parseRecipients(args.recipients);
    if (valid.length === 0 && invalid.length === 0)
      throw appError("VALIDATION_ERROR", "Please enter at least one email address.", "Recipients required");
    if (invalid.length)
      throw appError("VALIDATION_ERROR", `Please check: ${invalid.join(", ")}`, "Invalid email address");
    if (valid.length > TEST_MAX_RECIPIENTS)
      throw appError(
        "VALIDATION_ERROR",
        `A test goes to at most ${TEST_MAX_RECIPIENTS} addresses.`,
        "Invalid email address",
      );
    const subject = oneLine(args.subject);
    const fromEmail = args.fromEmail.trim();
    if (!subject || !fromEmail)
      throw appError(
        "VALIDATION_ERROR",
        "Subject and from email are required. Fill them in under Message settings.",
        TEXTS.titles.missingRequired,
      );
    if (!isEmailAddress(fromEmail) || (args.replyTo.trim() && !isEmailAddress(args.replyTo.trim()))) {
      throw appError(
        "VALIDATION_ERROR",
        "The email address format is invalid. Please use a valid email.",
        "Invalid email address",
      );
    }
    if (subject.length > 300 || args.fromName.length > 120 || args.previewText.length > 300)
      throw appError("VALIDATION_ERROR", "The subject, sender name or preview text is too long.");
    const blocks = parseBlocks(args.blocks);
    if (blocks.length === 0)
      throw appError("VALIDATION_ERROR", "Add at least one component before sending.", TEXTS.titles.addContent);
    checkVariables(blocks, [subject, args.previewText], "Failed to send test email");

    const rendered = await renderEmail(blocks, compileMjml, { title: subject, previewText: args.previewText });
    if (rendered.bytes > EMAIL_MAX_BYTES) {
      throw appError(
        "VALIDATION_ERROR",
        `This email is ${formatBytes(rendered.bytes)}; Gmail clips messages above ${formatBytes(EMAIL_MAX_BYTES)}. Remove some content before sending.`,
        "Email too large",
      );
    }
    // the sender's real values (a test shows what recipients get), sample ones for the voter
    const sender: Record<string, string> = await ctx.runQuery(internal.emailTest.senderFor, {
      userId: ctx.viewer.userId,
      orgId: ctx.viewer.orgId,
    });
    const empty = emptyLinks(blocks, sender);
    if (empty.length > 0) throw appError("VALIDATION_ERROR", emptyLinksMessage(empty), "Link is empty");
    const values = previewValues(sender);
    const fromName = oneLine(args.fromName).replace(/["<>\\]/g, "");
    const ids: Id<"emailOutbox">[] = await ctx.runMutation(internal.emailTest.queueTest, {
      orgId: ctx.viewer.orgId,
      userId: ctx.viewer.userId,
      to: valid,
      from: fromName ? `"${fromName}" <${fromEmail}>` : fromEmail,
      replyTo: args.replyTo.trim() || undefined,
      subject: `[TEST] ${oneLine(substitute(subject, values, "text"))}`,
      html: substitute(rendered.html, values, "html"),
      text: substitute(rendered.text, values, "text"),
    });

    // demo mode sends nothing: the outbox only records the messages (the operator's demo mailbox lists them)
    if (emailDemoMode())
      return { demo: true, sent: ids.length, failed: 0, pending: 0, message: null, bytes: rendered.bytes };
    // the outbox delivers on its own; wait a little for the provider's verdict
    const deadline = Date.now() + WAIT_MS;
    let statuses: OutboxStatus[] = await ctx.runQuery(internal.emailTest.outboxStatus, { ids });
    while (statuses.some((s) => s.status === "queued") && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, POLL_MS));
      statuses = await ctx.runQuery(internal.emailTest.outboxStatus, { ids });
    }
    const failed = statuses.filter((s) => s.status === "failed");
    return {
      demo: false,
      sent: statuses.filter((s) => s.status === "sent" || s.status === "demo").length,
      failed: failed.length,
      pending: statuses.filter((s) => s.status === "queued").length,
      message: failed.length ? testSendMessage(failed[0].error ?? "") : null,
      bytes: rendered.bytes,
    };
  },
});
