/**
 * The pure rules of email blasts (convex/lib/email/blast.ts) and the reading of Resend's webhook
 * payloads (convex/emailWebhooks.ts): the footer compliance check, manual recipients, unsubscribe
 * links and RFC 8058 headers, the personalised email of one recipient, what a provider error
 * means for the queue, and which webhook payloads become events.
 */
import { describe, expect, test } from "vitest";
import { newBlock, type BlockType, type BlockValue, type EmailBlock } from "@convex/lib/email/blocks";
import {
  addressOf,
  complianceProblem,
  oneClickUrl,
  parseManualRecipients,
  personalise,
  PLACEHOLDER_ADDRESS,
  providerVerdict,
  unsubscribeHeaders,
  unsubscribePageUrl,
  type BlastTemplate,
} from "@convex/lib/email/blast";
import { parseResendEvent } from "@convex/emailWebhooks";

function block(type: BlockType, id: string, content: Record<string, BlockValue> = {}): EmailBlock {
  const b = newBlock(type, id, new Date(2026, 0, 1));
  Object.assign(b.content, content);
  return b;
}
const ADDRESS = "42 Elm Street, Portland, OR 97201";

describe("complianceProblem", () => {
  test("a footer with a postal address and the unsubscribe link shown passes", () => {
    expect(complianceProblem([block("heading", "h"), block("footer", "f", { address: ADDRESS })])).toBeNull();
  });

  test("no footer at all", () => {
    expect(complianceProblem([block("heading", "h")])).toBe(
      "Add a footer with your organisation's postal address and an unsubscribe link before sending.",
    );
    expect(complianceProblem([])).toMatch(/^Add a footer/);
  });

  test("the unsubscribe link hidden or without text", () => {
    const hidden =
      "The footer must show the unsubscribe link. Turn on \u201cShow unsubscribe\u201d in the footer's properties.";
    expect(complianceProblem([block("footer", "f", { address: ADDRESS, showUnsubscribe: false })])).toBe(hidden);
    expect(complianceProblem([block("footer", "f", { address: ADDRESS, unsubscribeText: "   " })])).toBe(hidden);
  });

  test("the placeholder address, or none, is no postal address", () => {
    const missing = "Enter your organisation's postal address in the footer. Bulk email must carry it.";
    expect(block("footer", "f").content.address).toBe(PLACEHOLDER_ADDRESS);
    expect(complianceProblem([block("footer", "f")])).toBe(missing);
    expect(complianceProblem([block("footer", "f", { address: `  ${PLACEHOLDER_ADDRESS}  ` })])).toBe(missing);
    expect(complianceProblem([block("footer", "f", { address: " " })])).toBe(missing);
  });

  test("footers nested in a wrapper count", () => {
    const section = newBlock("section", "s");
    (section.content.children as EmailBlock[]).push(block("footer", "f", { address: ADDRESS }));
    expect(complianceProblem([section])).toBeNull();
  });
});

describe("parseManualRecipients", () => {
  test("splits on commas, semicolons and white space; lowercases; skips entries without @ and duplicates", () => {
    expect(
      parseManualRecipients(
        "A@Example.org, b@example.org;c@example.org\nd@example.org\t a@example.org, plain-name ,, ",
      ),
    ).toEqual({
      valid: ["a@example.org", "b@example.org", "c@example.org", "d@example.org"],
      invalid: [],
    });
  });

  test("an array of entries (each may hold several)", () => {
    expect(parseManualRecipients(["x@example.org", "y@example.org, X@example.org", ""])).toEqual({
      valid: ["x@example.org", "y@example.org"],
      invalid: [],
    });
    expect(parseManualRecipients([])).toEqual({ valid: [], invalid: [] });
  });

  test("entries with @ that are no address are invalid (once each)", () => {
    expect(parseManualRecipients("ok@example.org, bad@, @nowhere.org, no@tld, bad@")).toEqual({
      valid: ["ok@example.org"],
      invalid: ["bad@", "@nowhere.org", "no@tld"],
    });
  });
});

describe("unsubscribe links and headers", () => {
  test("the page and one-click URLs carry the token, encoded, whatever the trailing slash", () => {
    expect(unsubscribePageUrl("https://app.example.org/", "tok_1")).toBe("https://app.example.org/unsubscribe?t=tok_1");
    expect(unsubscribePageUrl("https://app.example.org", "a b&c")).toBe(
      "https://app.example.org/unsubscribe?t=a%20b%26c",
    );
    expect(oneClickUrl("https://x.convex.site/", "tok_1")).toBe("https://x.convex.site/api/email/unsubscribe?t=tok_1");
  });

  test("RFC 2369 / RFC 8058 headers: the https one-click URL first, a mailto fallback naming the token", () => {
    expect(
      unsubscribeHeaders(
        "https://x.convex.site/api/email/unsubscribe?t=tok_1",
        "unsubscribe@campaign.example.org",
        "tok_1",
      ),
    ).toEqual({
      "List-Unsubscribe":
        "<https://x.convex.site/api/email/unsubscribe?t=tok_1>, <mailto:unsubscribe@campaign.example.org?subject=unsubscribe%20tok_1>",
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    });
  });

  test("addressOf reads the address of a From header", () => {
    expect(addressOf('"Jane for Council" <jane@campaign.example.org>')).toBe("jane@campaign.example.org");
    expect(addressOf("jane@campaign.example.org")).toBe("jane@campaign.example.org");
    expect(addressOf("Jane <jane@x.org>  ")).toBe("jane@x.org");
  });
});

describe("personalise", () => {
  const template: BlastTemplate = {
    subject: "News for {{voter.first_name}}\r\nBcc: evil@example.org",
    from: '"Jane for Council" <jane@campaign.example.org>',
    replyTo: "team@campaign.example.org",
    html: '<p>Hello {{voter.first_name}} from {{user.campaign_name}}</p><a href="{{unsubscribe_url}}">Unsubscribe</a>',
    text: "Hello {{voter.first_name}} <{{voter.email}}> {{unsubscribe_url}} {{voter.shoe_size}}",
    senderValues: { campaign_name: "Jane & Co" },
  };
  const urls = {
    site: "https://app.example.org",
    convexSite: "https://x.convex.site",
    mailto: "unsubscribe@campaign.example.org",
  };
  const tags = [{ name: "campaign", value: "c1" }];

  test("fills in the recipient's values, the unsubscribe link and the headers", () => {
    const mail = personalise(
      template,
      { email: "ada@example.org", voter: { first_name: "Ada <b>", email: "Ada@Example.org" }, token: "tok_1" },
      urls,
      tags,
    );
    expect(mail.to).toEqual(["ada@example.org"]);
    expect(mail.from).toBe(template.from);
    expect(mail.replyTo).toBe("team@campaign.example.org");
    // no header injection through the subject
    expect(mail.subject).toBe("News for Ada <b> Bcc: evil@example.org");
    expect(mail.html).toBe(
      '<p>Hello Ada &lt;b&gt; from Jane &amp; Co</p><a href="https://app.example.org/unsubscribe?t=tok_1">Unsubscribe</a>',
    );
    expect(mail.text).toBe("Hello Ada <b> <Ada@Example.org> https://app.example.org/unsubscribe?t=tok_1 ");
    expect(mail.headers).toEqual(
      unsubscribeHeaders("https://x.convex.site/api/email/unsubscribe?t=tok_1", urls.mailto, "tok_1"),
    );
    expect(mail.tags).toEqual(tags);
  });

  test("a recipient who is no voter: the address stands in, other voter values are empty; no reply-to unless set", () => {
    const { replyTo: _r, ...noReply } = template;
    const mail = personalise(noReply, { email: "walkin@example.org", voter: null, token: "tok_2" }, urls, tags);
    expect(mail.subject).toBe("News for  Bcc: evil@example.org");
    expect(mail.text).toBe("Hello  <walkin@example.org> https://app.example.org/unsubscribe?t=tok_2 ");
    expect("replyTo" in mail).toBe(false);
  });
});

describe("providerVerdict", () => {
  const RETRY_MESSAGE = "You have sent too many emails. Please try again later.";
  const UNAVAILABLE = "The email service is currently unavailable. Please try again later.";

  test("429 and rate limits wait for retry-after (at most an hour; a second without one)", () => {
    expect(providerVerdict({ statusCode: 429, name: "rate_limit_exceeded" }, "7")).toEqual({
      kind: "retry",
      afterMs: 7000,
      message: RETRY_MESSAGE,
    });
    expect(providerVerdict({ statusCode: 429 }, null)).toEqual({
      kind: "retry",
      afterMs: 1000,
      message: RETRY_MESSAGE,
    });
    expect(providerVerdict({ statusCode: 429 }, "soon")).toMatchObject({ afterMs: 1000 });
    expect(providerVerdict({ statusCode: 429 }, "-5")).toMatchObject({ afterMs: 1000 });
    expect(providerVerdict({ statusCode: 429 }, "999999")).toMatchObject({ afterMs: 3_600_000 });
    expect(providerVerdict({ name: "concurrent_idempotent_requests" }, "2")).toMatchObject({
      kind: "retry",
      afterMs: 2000,
    });
  });

  test("the same idempotency key again: the provider already took the batch", () => {
    expect(providerVerdict({ name: "invalid_idempotent_request", statusCode: 409 }, null)).toEqual({
      kind: "already_sent",
    });
    expect(providerVerdict({ statusCode: 409 }, null)).toEqual({ kind: "already_sent" });
  });

  test("key, quota and sender problems stop the send", () => {
    for (const e of [
      { statusCode: 401 },
      { statusCode: 403 },
      { name: "missing_api_key" },
      { name: "invalid_api_key", statusCode: 400 },
      { name: "restricted_api_key" },
    ]) {
      expect(providerVerdict(e, null)).toEqual({ kind: "fatal", message: UNAVAILABLE });
    }
    expect(providerVerdict({ name: "invalid_from_address", statusCode: 422 }, null)).toEqual({
      kind: "fatal",
      message: "The from address is not allowed by the email provider (verify its domain).",
    });
  });

  test("a used-up quota stops the send: Resend answers it with 429, which must not be taken for a rate limit", () => {
    // https://resend.com/docs/api-reference/errors: daily_quota_exceeded and monthly_quota_exceeded are 429 Too Many Requests
    const quota = { kind: "fatal", message: "The email provider's sending quota is used up. Sending paused." };
    expect(
      providerVerdict(
        { name: "daily_quota_exceeded", statusCode: 429, message: "You have reached your daily email sending quota." },
        null,
      ),
    ).toEqual(quota);
    expect(
      providerVerdict(
        {
          name: "monthly_quota_exceeded",
          statusCode: 429,
          message: "You have reached your monthly email sending quota.",
        },
        "60",
      ),
    ).toEqual(quota);
  });

  test("validation errors refuse the batch's messages with the spec's words", () => {
    expect(
      providerVerdict(
        {
          name: "validation_error",
          statusCode: 422,
          message: "Invalid `to` field. The email address needs to follow the `email@example.com` format.",
        },
        null,
      ),
    ).toEqual({
      kind: "rejected",
      message: "The email address format is invalid. Please use a valid email.",
    });
    expect(providerVerdict({ statusCode: 400, message: "The subject is too long" }, null)).toEqual({
      kind: "rejected",
      message: "Failed to send email",
    });
  });

  test("anything else (5xx, no status) is retried after two seconds", () => {
    expect(providerVerdict({ statusCode: 500, name: "internal_server_error" }, null)).toEqual({
      kind: "retry",
      afterMs: 2000,
      message: UNAVAILABLE,
    });
    expect(providerVerdict({}, undefined)).toEqual({ kind: "retry", afterMs: 2000, message: UNAVAILABLE });
  });
});

describe("parseResendEvent", () => {
  const at = "2026-11-03T10:00:00.000Z";

  test("the events used, with their email id and time", () => {
    for (const type of ["email.delivered", "email.opened", "email.bounced", "email.complained"] as const) {
      expect(
        parseResendEvent("msg_1", {
          type,
          created_at: at,
          data: { email_id: "re_1", click: { link: "https://example.org" } },
        }),
      ).toEqual({ eventId: "msg_1", type, emailId: "re_1", at: Date.parse(at) });
    }
  });

  test("a click keeps its http(s) link, at most 2048 characters; other links are dropped", () => {
    expect(
      parseResendEvent("msg_2", {
        type: "email.clicked",
        created_at: at,
        data: { email_id: "re_1", click: { link: "https://example.org/rsvp" } },
      }),
    ).toMatchObject({ url: "https://example.org/rsvp" });
    const long = `https://example.org/${"a".repeat(3000)}`;
    expect(
      parseResendEvent("msg_3", {
        type: "email.clicked",
        created_at: at,
        data: { email_id: "re_1", click: { link: long } },
      })!.url,
    ).toHaveLength(2048);
    for (const link of ["javascript:alert(1)", "mailto:x@example.org", 42, undefined]) {
      const e = parseResendEvent("msg_4", {
        type: "email.clicked",
        created_at: at,
        data: { email_id: "re_1", click: { link } },
      });
      expect(e).not.toBeNull();
      expect(e).not.toHaveProperty("url");
    }
  });

  test("anything else is ignored (null): other types, no or odd email ids, no object", () => {
    expect(parseResendEvent("m", { type: "email.sent", created_at: at, data: { email_id: "re_1" } })).toBeNull();
    expect(parseResendEvent("m", { type: "contact.created", data: { email_id: "re_1" } })).toBeNull();
    expect(parseResendEvent("m", { type: "email.delivered", data: {} })).toBeNull();
    expect(parseResendEvent("m", { type: "email.delivered", data: { email_id: "" } })).toBeNull();
    expect(parseResendEvent("m", { type: "email.delivered", data: { email_id: 7 } })).toBeNull();
    expect(parseResendEvent("m", { type: "email.delivered", data: { email_id: "x".repeat(101) } })).toBeNull();
    expect(parseResendEvent("m", { type: "email.delivered" })).toBeNull();
    expect(parseResendEvent("m", null)).toBeNull();
    expect(parseResendEvent("m", "email.delivered")).toBeNull();
    expect(parseResendEvent("m", [])).toBeNull();
  });

  test("an unreadable time is now; the event id is cut to 100 characters", () => {
    const before = Date.now();
    const e = parseResendEvent("i".repeat(300), {
      type: "email.opened",
      created_at: "yesterday",
      data: { email_id: "re_1" },
    })!;
    expect(e.at).toBeGreaterThanOrEqual(before);
    expect(e.at).toBeLessThanOrEqual(Date.now());
    expect(e.eventId).toBe("i".repeat(100));
    expect(
      parseResendEvent("m", { type: "email.opened", created_at: 12345, data: { email_id: "re_1" } })!.at,
    ).toBeGreaterThanOrEqual(before);
  });
});
