/**
 * Pure rules of email blasts (spec/2 §5 "Sending", §8; RFC 8058): the compliance check of a
 * design, the unsubscribe link and headers of a message, manual recipients, the personalised
 * email of one recipient, and what a provider error means for the queue.
 */
import { allBlocks, type EmailBlock } from "./blocks";
import { isEmailAddress } from "./addresses";
import { mergeValues, substitute, type MergeUser, type MergeVoter } from "./merge";

/** The footer's address until someone enters the organisation's own. */
export const PLACEHOLDER_ADDRESS = "123 Main Street, Springfield, ST 00000";

/** Messages of one provider call (Resend's batch endpoint takes at most 100). */
export const EMAIL_BATCH_SIZE = 100;
/** Provider errors in a row after which a send pauses itself. */
export const EMAIL_AUTO_PAUSE_ERRORS = 5;
/** Manual addresses on one campaign. */
export const MAX_MANUAL_RECIPIENTS = 500;

export const NO_RECIPIENTS_RESOLVED =
  'No recipients selected. Please go to the "Send To" tab and select at least one list, group, segment, or add manual recipients.';

/**
 * Why a design may not go out in bulk (null when it may): it needs a footer that shows the
 * unsubscribe link and carries the organisation's postal address (CAN-SPAM).
 */
export function complianceProblem(blocks: EmailBlock[]): string | null {
  const footers = allBlocks(blocks).filter((b) => b.type === "footer");
  if (footers.length === 0)
    return "Add a footer with your organisation's postal address and an unsubscribe link before sending.";
  const text = (v: unknown) => (typeof v === "string" ? v.trim() : "");
  const ok = footers.some((f) => f.content.showUnsubscribe === true && text(f.content.unsubscribeText) !== "");
  if (!ok)
    return "The footer must show the unsubscribe link. Turn on \u201cShow unsubscribe\u201d in the footer's properties.";
  const address = footers.map((f) => text(f.content.address)).find((a) => a !== "" && a !== PLACEHOLDER_ADDRESS);
  if (!address) return "Enter your organisation's postal address in the footer. Bulk email must carry it.";
  return null;
}

/**
 * Manual recipients as the dashboard takes them (spec/2 §5): split on commas, semicolons and
 * white space, lowercased; entries without @ are ignored and duplicates skipped. Entries with @
 * that are not addresses are returned as invalid.
 */
export function parseManualRecipients(input: string | string[]): { valid: string[]; invalid: string[] } {
  const parts = (Array.isArray(input) ? input : [input]).flatMap((s) => s.split(/[\s,;]+/));
  const valid: string[] = [];
  const invalid: string[] = [];
  for (const raw of parts) {
    const e = raw.trim().toLowerCase();
    if (!e.includes("@")) continue;
    if (!isEmailAddress(e)) {
      if (!invalid.includes(e)) invalid.push(e);
    } else if (!valid.includes(e)) valid.push(e);
  }
  return { valid, invalid };
}

export function unsubscribePageUrl(siteUrl: string, token: string): string {
  return `${siteUrl.replace(/\/$/, "")}/unsubscribe?t=${encodeURIComponent(token)}`;
}

export function oneClickUrl(convexSiteUrl: string, token: string): string {
  return `${convexSiteUrl.replace(/\/$/, "")}/api/email/unsubscribe?t=${encodeURIComponent(token)}`;
}

/** The address part of a From header ("Name" <a@b> → a@b). */
export function addressOf(from: string): string {
  const m = /<([^>]+)>\s*$/.exec(from);
  return (m ? m[1] : from).trim();
}

/** RFC 2369 / RFC 8058 headers: an https one-click URL (POST) and a mailto fallback. */
export function unsubscribeHeaders(oneClick: string, mailto: string, token: string): Record<string, string> {
  return {
    "List-Unsubscribe": `<${oneClick}>, <mailto:${mailto}?subject=${encodeURIComponent(`unsubscribe ${token}`)}>`,
    "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
  };
}

/** Where a blast's links point: the web app (unsubscribe page), the http actions (one-click), the mailto fallback. */
export function blastUrls(from: string, env: Record<string, string | undefined>): BlastUrls {
  const site = env.SITE_URL ?? "http://127.0.0.1:5173";
  const convexSite = env.CONVEX_SITE_URL ?? site;
  const domain = addressOf(from).split("@")[1] ?? "localhost";
  return { site, convexSite, mailto: env.EMAIL_UNSUBSCRIBE_MAILTO || `unsubscribe@${domain}` };
}

/** Demo mode: how many of a send's emails the operator's demo mailbox gets (the rest are only counted). */
export const DEMO_MAILBOX_PER_SEND = 50;

export type BlastTemplate = {
  subject: string;
  from: string;
  replyTo?: string;
  html: string;
  text: string;
  senderValues: MergeUser;
};
/** `subject`: the one personalised when the recipient was queued (personalSubject), sent as is */
export type BlastRecipient = { email: string; voter: MergeVoter | null; token: string; subject?: string };
export type BlastUrls = { site: string; convexSite: string; mailto: string };

function subjectLine(subject: string, values: ReturnType<typeof mergeValues>): string {
  return substitute(subject, values, "text")
    .replace(/[\r\n]+/g, " ")
    .trim();
}

/** One recipient's subject, fixed when queued: what they are sent and what their contact history shows. */
export function personalSubject(
  t: Pick<BlastTemplate, "subject" | "senderValues">,
  r: Pick<BlastRecipient, "email" | "voter">,
): string {
  return subjectLine(t.subject, mergeValues(r.voter ?? { email: r.email }, t.senderValues, {}));
}

/** The email one recipient gets: personalised subject and parts, the unsubscribe link and headers. */
export function personalise(
  t: BlastTemplate,
  r: BlastRecipient,
  urls: BlastUrls,
  tags: { name: string; value: string }[],
) {
  const values = mergeValues(r.voter ?? { email: r.email }, t.senderValues, {
    unsubscribe_url: unsubscribePageUrl(urls.site, r.token),
  });
  return {
    from: t.from,
    to: [r.email],
    subject: r.subject ?? subjectLine(t.subject, values),
    html: substitute(t.html, values, "html"),
    text: substitute(t.text, values, "text"),
    ...(t.replyTo ? { replyTo: t.replyTo } : {}),
    headers: unsubscribeHeaders(oneClickUrl(urls.convexSite, r.token), urls.mailto, r.token),
    tags,
  };
}

/** Resend's error as the queue acts on it. */
export type ProviderVerdict =
  | { kind: "retry"; afterMs: number; message: string }
  | { kind: "fatal"; message: string }
  | { kind: "rejected"; message: string }
  | { kind: "already_sent" };

/** What a Resend error answer means: wait and retry, stop the send, or refuse the batch's messages. */
export function providerVerdict(
  error: { name?: string; statusCode?: number | null; message?: string },
  retryAfter: string | null | undefined,
): ProviderVerdict {
  const status = error.statusCode ?? 0;
  const name = error.name ?? "";
  // Resend answers a used-up quota with 429 too: that is no back-off, it stops the send
  if (name === "daily_quota_exceeded" || name === "monthly_quota_exceeded")
    return { kind: "fatal", message: "The email provider's sending quota is used up. Sending paused." };
  if (status === 429 || name === "rate_limit_exceeded" || name === "concurrent_idempotent_requests") {
    const seconds = Number(retryAfter);
    return {
      kind: "retry",
      afterMs: Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, 3600) * 1000 : 1000,
      message: "You have sent too many emails. Please try again later.",
    };
  }
  // the same idempotency key with other content: the provider took this batch before
  if (name === "invalid_idempotent_request" || status === 409) return { kind: "already_sent" };
  if (
    status === 401 ||
    status === 403 ||
    name === "missing_api_key" ||
    name === "invalid_api_key" ||
    name === "restricted_api_key"
  ) {
    return { kind: "fatal", message: "The email service is currently unavailable. Please try again later." };
  }
  if (name === "invalid_from_address")
    return { kind: "fatal", message: "The from address is not allowed by the email provider (verify its domain)." };
  if (status === 422 || status === 400 || name === "validation_error")
    return {
      kind: "rejected",
      message: /email/i.test(error.message ?? "")
        ? "The email address format is invalid. Please use a valid email."
        : "Failed to send email",
    };
  return {
    kind: "retry",
    afterMs: 2000,
    message: "The email service is currently unavailable. Please try again later.",
  };
}
