/** What e2e tests use besides the browser: the servers' addresses, test accounts, the demo mailbox, direct API calls. */
import type { APIRequestContext, Page } from "@playwright/test";
import { ConvexHttpClient } from "convex/browser";

export const BACKEND_URL = `http://127.0.0.1:${process.env.E2E_BACKEND_PORT ?? 3310}`;
/** The backend's http actions (site) port is the next one. */
export const SITE_URL = `http://127.0.0.1:${Number(process.env.E2E_BACKEND_PORT ?? 3310) + 1}`;
export const DEFAULT_PASSWORD = "correct-horse-42";

let seq = 0;
/** An address no other test (or worker, or earlier run on the same backend) uses. */
export function uniqueEmail(prefix = "user"): string {
  seq += 1;
  return `${prefix}.${Date.now().toString(36)}.${process.pid}.${seq}@example.org`;
}

export type Account = { firstName: string; lastName: string; email: string; password: string };

export function newAccount(overrides: Partial<Account> = {}): Account {
  return {
    firstName: "Casey",
    lastName: "Organizer",
    email: uniqueEmail(overrides.firstName?.toLowerCase() ?? "casey"),
    password: DEFAULT_PASSWORD,
    ...overrides,
  };
}

export type MailboxMessage = { to: string; from: string; replyTo: string | null; subject: string; text: string; html: string | null; kind: string; createdAt: number };

/** The operator's demo mailbox (GET {site}/api/dev/mailbox with the DEV_MAILBOX_KEY the e2e server was started with). */
export class Mailbox {
  constructor(private readonly request: APIRequestContext) {}

  /** Demo-mode emails sent to `to` (newest first, only `kind` if given), waiting until at least one has arrived. */
  async read(to: string, opts: { kind?: string; timeoutMs?: number } = {}): Promise<MailboxMessage[]> {
    const deadline = Date.now() + (opts.timeoutMs ?? 15_000);
    for (;;) {
      const res = await this.request.get(`${SITE_URL}/api/dev/mailbox`, {
        params: { to: to.toLowerCase() },
        headers: { Authorization: `Bearer ${process.env.DEV_MAILBOX_KEY}` },
      });
      if (!res.ok()) throw new Error(`demo mailbox: ${res.status()} ${await res.text()}`);
      const box = (await res.json()) as { messages: MailboxMessage[] };
      const messages = box.messages.filter((m) => !opts.kind || m.kind === opts.kind);
      if (messages.length > 0 || Date.now() > deadline) return messages;
      // polling interval while the email is on its way
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  /** The first http(s) link in an email's text. */
  firstLink(message: MailboxMessage): string {
    const m = message.text.match(/https?:\/\/\S+/);
    if (!m) throw new Error(`no link in email: ${message.text}`);
    return m[0];
  }
}

/** A Convex client that calls functions directly as the user signed in on `page` (with the JWT the browser holds). */
export async function apiClientAs(page: Page): Promise<ConvexHttpClient> {
  const token = await page.evaluate(() => {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i)!;
      if (key.startsWith("__convexAuthJWT")) return localStorage.getItem(key);
    }
    return null;
  });
  if (!token) throw new Error("no auth token in local storage");
  const client = new ConvexHttpClient(BACKEND_URL);
  client.setAuth(token);
  return client;
}
