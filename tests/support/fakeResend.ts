/**
 * A local fake of Resend's email API for tests (DESIGN.md §4): POST /emails and /emails/batch
 * with Bearer auth, Resend's JSON request shape (from, to, subject, html, text, reply_to,
 * headers, tags) and its documented answers: `{ id }`, 401 for a wrong key, 422
 * validation_error for a bad address, 429 rate_limit_exceeded with retry-after. The backend
 * reaches it through RESEND_BASE_URL (the SDK's baseUrl).
 */
import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

export const RESEND_KEY = "re_test_fake_key_0123456789";

export type FakeEmail = { id: string; from: string; to: string[]; subject: string; html: string | null; text: string | null; replyTo: string[] | null; headers: Record<string, string> | null; idempotencyKey: string | null };

export class FakeResend {
  readonly emails: FakeEmail[] = [];
  readonly requests: { method: string; path: string; auth: string | null }[] = [];
  /** addresses the fake refuses as invalid (422), and answers once with 429 */
  invalid = new Set<string>();
  rateLimitOnce = new Set<string>();
  url = "";
  private server = http.createServer((req, res) => void this.handle(req, res));

  async start(): Promise<string> {
    await new Promise<void>((r) => this.server.listen(0, "127.0.0.1", r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async stop() {
    this.server.closeAllConnections();
    await new Promise<void>((r) => this.server.close(() => r()));
  }

  private send(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
    res.writeHead(status, { "Content-Type": "application/json", ...headers });
    res.end(JSON.stringify(body));
  }

  private error(res: http.ServerResponse, status: number, name: string, message: string, headers: Record<string, string> = {}) {
    this.send(res, status, { statusCode: status, name, message }, headers);
  }

  /** Checks one email as Resend does; an error answer, or the stored email. */
  private accept(raw: Record<string, unknown>, idempotencyKey: string | null): FakeEmail | { status: number; name: string; message: string } {
    const to = Array.isArray(raw.to) ? (raw.to as string[]) : typeof raw.to === "string" ? [raw.to] : [];
    if (typeof raw.from !== "string" || !raw.from) return { status: 422, name: "missing_required_field", message: "Missing `from` field." };
    if (to.length === 0) return { status: 422, name: "missing_required_field", message: "Missing `to` field." };
    if (typeof raw.subject !== "string") return { status: 422, name: "missing_required_field", message: "Missing `subject` field." };
    if (typeof raw.html !== "string" && typeof raw.text !== "string") return { status: 422, name: "validation_error", message: "Missing `html` or `text` field." };
    for (const address of to) {
      if (this.invalid.has(address) || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(address)) return { status: 422, name: "validation_error", message: `Invalid \`to\` field. The email address needs to follow the \`email@example.com\` format.` };
      if (this.rateLimitOnce.delete(address)) return { status: 429, name: "rate_limit_exceeded", message: "Too many requests. You can only make 2 requests per second." };
    }
    const replyTo = Array.isArray(raw.reply_to) ? (raw.reply_to as string[]) : typeof raw.reply_to === "string" ? [raw.reply_to] : null;
    return { id: randomUUID(), from: raw.from, to, subject: raw.subject, html: typeof raw.html === "string" ? raw.html : null, text: typeof raw.text === "string" ? raw.text : null, replyTo, headers: (raw.headers as Record<string, string>) ?? null, idempotencyKey };
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url ?? "/", this.url);
    const auth = req.headers.authorization ?? null;
    this.requests.push({ method: req.method ?? "", path: url.pathname, auth });
    if (auth !== `Bearer ${RESEND_KEY}`) return this.error(res, 401, "validation_error", "API key is invalid");
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    let body: unknown;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch {
      return this.error(res, 400, "invalid_json", "Invalid JSON body.");
    }
    const key = (req.headers["idempotency-key"] as string | undefined) ?? null;
    if (req.method === "POST" && url.pathname === "/emails") {
      const r = this.accept(body as Record<string, unknown>, key);
      if ("status" in r) return this.error(res, r.status, r.name, r.message, r.status === 429 ? { "retry-after": "1" } : {});
      this.emails.push(r);
      return this.send(res, 200, { id: r.id });
    }
    if (req.method === "POST" && url.pathname === "/emails/batch") {
      if (!Array.isArray(body) || body.length === 0 || body.length > 100) return this.error(res, 422, "validation_error", "The batch must hold 1 to 100 emails.");
      const accepted: FakeEmail[] = [];
      for (const one of body) {
        const r = this.accept(one as Record<string, unknown>, key);
        if ("status" in r) return this.error(res, r.status, r.name, r.message, r.status === 429 ? { "retry-after": "1" } : {});
        accepted.push(r);
      }
      this.emails.push(...accepted);
      return this.send(res, 200, { data: accepted.map((e) => ({ id: e.id })) });
    }
    return this.error(res, 404, "not_found", "The requested endpoint does not exist.");
  }
}
