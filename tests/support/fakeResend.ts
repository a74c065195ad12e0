/**
 * A local fake of Resend's email API for tests (DESIGN.md §4): POST /emails and /emails/batch
 * with Bearer auth, Resend's JSON request shape (from, to, subject, html, text, reply_to,
 * headers, tags) and its documented answers: `{ id }`, 401 for a wrong key, 422
 * validation_error for a bad address, 429 rate_limit_exceeded with retry-after; batches in
 * strict or permissive validation (x-batch-validation); the Idempotency-Key header (the same key
 * and body answer the first response without sending again, another body 409
 * invalid_idempotent_request). The backend reaches it through RESEND_BASE_URL (the SDK's
 * baseUrl). It also signs and posts Resend's webhooks (svix) to the app, and lists what it
 * received at GET /_fake/emails?to= (no auth: a test's mailbox).
 */
import { createHash, randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "svix";

export const RESEND_KEY = "re_test_fake_key_0123456789";
/** the webhook signing secret configured for tests (RESEND_WEBHOOK_SECRET) */
export const WEBHOOK_SECRET = `whsec_${Buffer.from("precinct-test-webhook-secret-0123").toString("base64")}`;

export type FakeEmail = {
  id: string;
  from: string;
  to: string[];
  subject: string;
  html: string | null;
  text: string | null;
  replyTo: string[] | null;
  headers: Record<string, string> | null;
  tags: { name: string; value: string }[] | null;
  idempotencyKey: string | null;
  at: number;
};

type Refusal = { status: number; name: string; message: string };

export class FakeResend {
  readonly emails: FakeEmail[] = [];
  readonly requests: {
    method: string;
    path: string;
    auth: string | null;
    idempotencyKey: string | null;
    validation: string | null;
    count: number;
    at: number;
  }[] = [];
  /** addresses the fake refuses as invalid (422), and answers once with 429 */
  invalid = new Set<string>();
  rateLimitOnce = new Set<string>();
  /** the next this many batch calls answer 429 with retry-after 1, or 500 */
  rateLimitBatches = 0;
  failBatches = 0;
  /** every call answers 401 (a revoked key) */
  rejectAuth = false;
  /** the batch call with this number (1-based) is accepted and stored but never answered (the sender dies waiting) */
  hangAtBatch: number | null = null;
  url = "";
  private batchCalls = 0;
  private idempotent = new Map<string, { hash: string; status: number; body: unknown }>();
  private server = http.createServer((req, res) => void this.handle(req, res));

  async start(port = 0): Promise<string> {
    await new Promise<void>((r) => this.server.listen(port, "127.0.0.1", r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async stop() {
    this.server.closeAllConnections();
    await new Promise<void>((r) => this.server.close(() => r()));
  }

  /** Emails received for an address (newest last). */
  to(address: string): FakeEmail[] {
    return this.emails.filter((e) => e.to.includes(address.toLowerCase()));
  }

  private send(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
    res.writeHead(status, { "Content-Type": "application/json", ...headers });
    res.end(JSON.stringify(body));
  }

  private error(
    res: http.ServerResponse,
    status: number,
    name: string,
    message: string,
    headers: Record<string, string> = {},
  ) {
    this.send(res, status, { statusCode: status, name, message }, headers);
  }

  /** Checks one email as Resend does; an error answer, or the email to store. */
  private accept(raw: Record<string, unknown>, idempotencyKey: string | null): FakeEmail | Refusal {
    const to = (Array.isArray(raw.to) ? (raw.to as string[]) : typeof raw.to === "string" ? [raw.to] : []).map((a) =>
      a.toLowerCase(),
    );
    if (typeof raw.from !== "string" || !raw.from)
      return { status: 422, name: "missing_required_field", message: "Missing `from` field." };
    if (to.length === 0) return { status: 422, name: "missing_required_field", message: "Missing `to` field." };
    if (typeof raw.subject !== "string")
      return { status: 422, name: "missing_required_field", message: "Missing `subject` field." };
    if (typeof raw.html !== "string" && typeof raw.text !== "string")
      return { status: 422, name: "validation_error", message: "Missing `html` or `text` field." };
    for (const address of to) {
      if (this.invalid.has(address) || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(address))
        return {
          status: 422,
          name: "validation_error",
          message: `Invalid \`to\` field. The email address needs to follow the \`email@example.com\` format.`,
        };
      if (this.rateLimitOnce.delete(address))
        return {
          status: 429,
          name: "rate_limit_exceeded",
          message: "Too many requests. You can only make 2 requests per second.",
        };
    }
    const replyTo = Array.isArray(raw.reply_to)
      ? (raw.reply_to as string[])
      : typeof raw.reply_to === "string"
        ? [raw.reply_to]
        : null;
    return {
      id: randomUUID(),
      from: raw.from,
      to,
      subject: raw.subject,
      html: typeof raw.html === "string" ? raw.html : null,
      text: typeof raw.text === "string" ? raw.text : null,
      replyTo,
      headers: (raw.headers as Record<string, string>) ?? null,
      tags: (raw.tags as { name: string; value: string }[]) ?? null,
      idempotencyKey,
      at: Date.now(),
    };
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url ?? "/", this.url);
    if (req.method === "GET" && url.pathname === "/_fake/emails") {
      const to = url.searchParams.get("to");
      return this.send(res, 200, { emails: to ? this.to(to) : this.emails });
    }
    const auth = req.headers.authorization ?? null;
    const key = (req.headers["idempotency-key"] as string | undefined) ?? null;
    const validation = (req.headers["x-batch-validation"] as string | undefined) ?? null;
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      body = null;
    }
    this.requests.push({
      method: req.method ?? "",
      path: url.pathname,
      auth,
      idempotencyKey: key,
      validation,
      count: Array.isArray(body) ? body.length : 1,
      at: Date.now(),
    });
    if (auth !== `Bearer ${RESEND_KEY}` || this.rejectAuth)
      return this.error(res, 401, "validation_error", "API key is invalid");
    if (body === null) return this.error(res, 400, "invalid_json", "Invalid JSON body.");
    const hash = createHash("sha256").update(`${url.pathname}\n${raw}`).digest("hex");
    if (key) {
      const seen = this.idempotent.get(key);
      if (seen && seen.hash !== hash)
        return this.error(
          res,
          409,
          "invalid_idempotent_request",
          "Same idempotency key used with a different request payload.",
        );
      if (seen) return this.send(res, seen.status, seen.body);
    }
    const answer = (status: number, out: unknown) => {
      if (key) this.idempotent.set(key, { hash, status, body: out });
      this.send(res, status, out);
    };
    if (req.method === "POST" && url.pathname === "/emails") {
      const r = this.accept(body as Record<string, unknown>, key);
      if ("status" in r)
        return this.error(res, r.status, r.name, r.message, r.status === 429 ? { "retry-after": "1" } : {});
      this.emails.push(r);
      return answer(200, { id: r.id });
    }
    if (req.method === "POST" && url.pathname === "/emails/batch") {
      if (!Array.isArray(body) || body.length === 0 || body.length > 100)
        return this.error(res, 422, "validation_error", "The batch must hold 1 to 100 emails.");
      this.batchCalls += 1;
      if (this.rateLimitBatches > 0) {
        this.rateLimitBatches -= 1;
        return this.error(
          res,
          429,
          "rate_limit_exceeded",
          "Too many requests. You can only make 2 requests per second.",
          { "retry-after": "1" },
        );
      }
      if (this.failBatches > 0) {
        this.failBatches -= 1;
        return this.error(res, 500, "internal_server_error", "An unexpected error occurred.");
      }
      const permissive = validation === "permissive";
      const accepted: FakeEmail[] = [];
      const errors: { index: number; message: string }[] = [];
      for (const [index, one] of body.entries()) {
        const r = this.accept(one as Record<string, unknown>, key);
        if ("status" in r) {
          if (!permissive || r.status === 429)
            return this.error(res, r.status, r.name, r.message, r.status === 429 ? { "retry-after": "1" } : {});
          errors.push({ index, message: r.message });
        } else accepted.push(r);
      }
      this.emails.push(...accepted);
      const out = permissive
        ? { data: accepted.map((e) => ({ id: e.id })), errors }
        : { data: accepted.map((e) => ({ id: e.id })) };
      if (key) this.idempotent.set(key, { hash, status: 200, body: out });
      if (this.hangAtBatch === this.batchCalls) return; // stored, never answered
      return this.send(res, 200, out);
    }
    return this.error(res, 404, "not_found", "The requested endpoint does not exist.");
  }
}

export type WebhookEventType =
  | "email.sent"
  | "email.delivered"
  | "email.opened"
  | "email.clicked"
  | "email.bounced"
  | "email.complained"
  | "email.delivery_delayed";

/**
 * Posts one of Resend's webhook events to the app (/api/resend/webhook), signed as svix signs
 * it; `forge` signs with another secret, `timestamp` overrides the signing time (a stale one).
 */
export async function postWebhook(
  siteUrl: string,
  event: { type: WebhookEventType; emailId: string; to?: string; link?: string; id?: string },
  opts: { forge?: boolean; timestamp?: Date; secret?: string } = {},
): Promise<Response> {
  const msgId = event.id ?? `msg_${randomUUID()}`;
  const payload = JSON.stringify({
    type: event.type,
    created_at: new Date().toISOString(),
    data: {
      email_id: event.emailId,
      from: "campaign@example.org",
      to: [event.to ?? "someone@example.org"],
      subject: "Hello",
      created_at: new Date().toISOString(),
      ...(event.link
        ? {
            click: { ipAddress: "127.0.0.1", link: event.link, timestamp: new Date().toISOString(), userAgent: "test" },
          }
        : {}),
      ...(event.type === "email.bounced"
        ? { bounce: { message: "Mailbox does not exist", subType: "General", type: "Permanent" } }
        : {}),
    },
  });
  const at = opts.timestamp ?? new Date();
  const secret = opts.forge
    ? `whsec_${Buffer.from("someone-else-entirely-0123456789").toString("base64")}`
    : (opts.secret ?? WEBHOOK_SECRET);
  const signature = new Webhook(secret).sign(msgId, at, payload);
  return await fetch(`${siteUrl}/api/resend/webhook`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "svix-id": msgId,
      "svix-timestamp": String(Math.floor(at.getTime() / 1000)),
      "svix-signature": signature,
    },
    body: payload,
  });
}
