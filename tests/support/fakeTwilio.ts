/**
 * A local fake of Twilio's Messages API for tests and the SMS benchmark: the request shape, Basic
 * auth, Twilio's documented error codes and magic test numbers, the list endpoint, signed status
 * callbacks, and signed inbound texts. The backend reaches it through TWILIO_API_BASE_URL
 * (`twilioEnv`).
 */
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import twilio from "twilio";

export const ACCOUNT_SID = `AC${"a1b2c3d4".repeat(4)}`;
export const AUTH_TOKEN = "f".repeat(32);
export const FROM = "+15005550006";

/** Twilio's magic test numbers and what the fake answers for them. */
export const MAGIC = {
  invalid: "+15005550001", // 21211
  unsubscribed: "+15005550004", // 21610
  cannotReceive: "+15005550009", // 21614
  rateLimitedOnce: "+15005550429", // 429 / 20429 the first time
  noFunds: "+15005550777", // 21606 — stands for "insufficient funds"
  // not Twilio's: a network that fails the first time (the sender cannot know whether it was sent)
  serverError: "+15005550500", // 500 / 20500 the first time, nothing stored
  dropUnstored: "+15005550501", // the connection drops the first time, nothing stored
  dropAnswered: "+15005550502", // stored the first time, then the connection drops before the answer
} as const;

export type FakeMessage = {
  sid: string;
  to: string;
  from: string | null;
  messagingServiceSid: string | null;
  body: string;
  statusCallback: string | null;
  createdAt: number;
  authOk: boolean;
};

export class FakeTwilio {
  readonly messages: FakeMessage[] = [];
  readonly requests: { method: string; path: string; auth: string | null }[] = [];
  private server: http.Server;
  /** magic numbers that already had their first-time answer */
  private answeredOnce = new Set<string>();
  /** when set, every call answers 401 / 20003 (wrong credentials on the account) */
  rejectAuth = false;
  /** the message with this count is accepted and stored, but never answered (the sender dies waiting) */
  hangAt: number | null = null;
  url = "";

  constructor() {
    this.server = http.createServer((req, res) => void this.handle(req, res));
  }

  async start(): Promise<string> {
    await new Promise<void>((r) => this.server.listen(0, "127.0.0.1", r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async stop() {
    this.server.closeAllConnections();
    await new Promise<void>((r) => this.server.close(() => r()));
  }

  private json(res: http.ServerResponse, status: number, body: unknown) {
    res.writeHead(status, { "Content-Type": "application/json" });
    res.end(JSON.stringify(body));
  }

  private error(res: http.ServerResponse, status: number, code: number, message: string) {
    this.json(res, status, { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status });
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url ?? "/", this.url);
    const auth = req.headers.authorization ?? null;
    this.requests.push({ method: req.method ?? "", path: url.pathname, auth });
    const expected = `Basic ${Buffer.from(`${ACCOUNT_SID}:${AUTH_TOKEN}`).toString("base64")}`;
    const path_ = `/2010-04-01/Accounts/${ACCOUNT_SID}/Messages.json`;
    if (url.pathname !== path_) return this.error(res, 404, 20404, "The requested resource was not found");
    if (auth !== expected || this.rejectAuth) return this.error(res, 401, 20003, "Authenticate");
    if (req.method === "GET") {
      const to = url.searchParams.get("To");
      const after = url.searchParams.get("DateSent>");
      const since = after ? Date.parse(after) : 0;
      const found = this.messages.filter((m) => (!to || m.to === to) && m.createdAt >= since - 86_400_000);
      return this.json(res, 200, {
        messages: found.map((m) => this.resource(m)),
        uri: `${path_}?PageSize=50&Page=0`,
        first_page_uri: `${path_}?PageSize=50&Page=0`,
        next_page_uri: null,
        previous_page_uri: null,
        page: 0,
        page_size: 50,
        start: 0,
        end: found.length,
      });
    }
    let raw = "";
    for await (const chunk of req) raw += chunk;
    const form = new URLSearchParams(raw);
    const to = form.get("To");
    const body = form.get("Body");
    const from = form.get("From");
    const service = form.get("MessagingServiceSid");
    if (!to || body === null || (!from && !service))
      return this.error(res, 400, 21604, "A 'To' phone number, 'Body' and 'From' are required.");
    if (to === MAGIC.invalid) return this.error(res, 400, 21211, `The 'To' number ${to} is not a valid phone number.`);
    if (to === MAGIC.unsubscribed) return this.error(res, 400, 21610, "Attempt to send to unsubscribed recipient");
    if (to === MAGIC.cannotReceive)
      return this.error(res, 400, 21614, `'To' number ${to} is not a valid mobile number`);
    if (to === MAGIC.noFunds)
      return this.error(
        res,
        400,
        21606,
        "The 'From' phone number provided is not a valid message-capable Twilio phone number for this destination/account.",
      );
    if (to === MAGIC.rateLimitedOnce && this.firstTime(to)) return this.error(res, 429, 20429, "Too Many Requests");
    if (to === MAGIC.serverError && this.firstTime(to)) return this.error(res, 500, 20500, "Internal Server Error");
    if (to === MAGIC.dropUnstored && this.firstTime(to)) return void req.socket.destroy();
    const m: FakeMessage = {
      sid: `SM${randomBytes(16).toString("hex")}`,
      to,
      from,
      messagingServiceSid: service,
      body,
      statusCallback: form.get("StatusCallback"),
      createdAt: Date.now(),
      authOk: true,
    };
    this.messages.push(m);
    if (this.messages.length === this.hangAt) return;
    if (to === MAGIC.dropAnswered && this.firstTime(to)) return void req.socket.destroy();
    this.json(res, 201, this.resource(m));
  }

  private firstTime(to: string): boolean {
    if (this.answeredOnce.has(to)) return false;
    this.answeredOnce.add(to);
    return true;
  }

  private resource(m: FakeMessage) {
    return {
      sid: m.sid,
      account_sid: ACCOUNT_SID,
      to: m.to,
      from: m.from,
      messaging_service_sid: m.messagingServiceSid,
      body: m.body,
      status: "queued",
      num_segments: "1",
      direction: "outbound-api",
      date_created: new Date(m.createdAt).toUTCString(),
      date_updated: new Date(m.createdAt).toUTCString(),
      date_sent: null,
      error_code: null,
      error_message: null,
      price: null,
      uri: `/2010-04-01/Accounts/${ACCOUNT_SID}/Messages/${m.sid}.json`,
    };
  }

  /** Posts Twilio's status callback for a message (signed with the auth token unless `forge`). */
  async postStatus(
    m: FakeMessage,
    status: string,
    opts: { errorCode?: string; forge?: boolean } = {},
  ): Promise<Response> {
    if (!m.statusCallback) throw new Error("no StatusCallback on the message");
    const params: Record<string, string> = {
      MessageSid: m.sid,
      MessageStatus: status,
      AccountSid: ACCOUNT_SID,
      To: m.to,
      From: m.from ?? "",
    };
    if (opts.errorCode) params.ErrorCode = opts.errorCode;
    const signature = opts.forge
      ? "bm90IGEgc2lnbmF0dXJl"
      : twilio.getExpectedTwilioSignature(AUTH_TOKEN, m.statusCallback, params);
    return await fetch(m.statusCallback, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Twilio-Signature": signature },
      body: new URLSearchParams(params),
    });
  }
}

/** An inbound text as Twilio posts it to the site's /api/twilio/inbound (signed unless `forge`). */
export async function postInbound(
  siteUrl: string,
  from: string,
  body: string,
  opts: { forge?: boolean } = {},
): Promise<Response> {
  const url = `${siteUrl}/api/twilio/inbound`;
  const params = {
    From: from,
    To: FROM,
    Body: body,
    AccountSid: ACCOUNT_SID,
    MessageSid: `SM${randomBytes(16).toString("hex")}`,
  };
  const signature = opts.forge ? "AAAA" : twilio.getExpectedTwilioSignature(AUTH_TOKEN, url, params);
  return await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Twilio-Signature": signature },
    body: new URLSearchParams(params),
  });
}

/** The backend environment that points the app's Twilio client at the fake on `url`. */
export function twilioEnv(url: string): Record<string, string> {
  return {
    TWILIO_ACCOUNT_SID: ACCOUNT_SID,
    TWILIO_AUTH_TOKEN: AUTH_TOKEN,
    TWILIO_PHONE_NUMBER: FROM,
    TWILIO_API_BASE_URL: url,
  };
}
