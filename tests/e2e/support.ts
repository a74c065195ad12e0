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

export type MailboxMessage = {
  id: string;
  to: string;
  from: string;
  replyTo: string | null;
  subject: string;
  text: string;
  html: string | null;
  kind: string;
  headers: Record<string, string>;
  createdAt: number;
};

/** Where the e2e server's fake of Resend listens (tests/support/fakeResend.ts). */
export const FAKE_RESEND_URL = `http://127.0.0.1:${process.env.E2E_RESEND_PORT ?? 3320}`;

type FakeEmail = {
  id: string;
  from: string;
  to: string[];
  replyTo: string[] | null;
  subject: string;
  text: string | null;
  html: string | null;
  headers: Record<string, string> | null;
  tags: { name: string; value: string }[] | null;
  at: number;
};

/** The emails the e2e server's email provider (a local fake of Resend) received. */
export class Mailbox {
  constructor(private readonly request: APIRequestContext) {}

  /** Emails sent to `to` (newest first, only `kind` if given), waiting until at least one has arrived. */
  async read(to: string, opts: { kind?: string; timeoutMs?: number } = {}): Promise<MailboxMessage[]> {
    const deadline = Date.now() + (opts.timeoutMs ?? 15_000);
    for (;;) {
      const res = await this.request.get(`${FAKE_RESEND_URL}/_fake/emails`, { params: { to: to.toLowerCase() } });
      if (!res.ok()) throw new Error(`fake email provider: ${res.status()} ${await res.text()}`);
      const { emails } = (await res.json()) as { emails: FakeEmail[] };
      const messages = emails
        .map((e) => ({
          id: e.id,
          to: e.to[0],
          from: e.from,
          replyTo: e.replyTo?.[0] ?? null,
          subject: e.subject,
          text: e.text ?? "",
          html: e.html,
          kind: e.tags?.find((t) => t.name === "kind")?.value ?? "blast",
          headers: e.headers ?? {},
          createdAt: e.at,
        }))
        .reverse()
        .filter((m) => !opts.kind || m.kind === opts.kind);
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

/**
 * Signs `account` up through the backend as the app does (a sign-in ticket, then Convex Auth's
 * `auth:signIn` with the same fields the registration form sends) and leaves `page` signed in on
 * its dashboard: the session's tokens go where Convex Auth's React client keeps them. For tests
 * about something else than registering (foundation.spec.ts drives the form itself): the form
 * costs every test a page load and its rendering.
 */
export async function signUpThroughApi(page: Page, account: Account): Promise<void> {
  const res = await fetch(`${SITE_URL}/api/auth/ticket`, { method: "POST" });
  const { ticket } = (await res.json()) as { ticket?: string };
  if (!res.ok || !ticket) throw new Error(`no sign-in ticket: ${res.status}`);
  const params = {
    flow: "signUp",
    email: account.email,
    password: account.password,
    firstName: account.firstName,
    lastName: account.lastName,
    ticket,
  };
  const result = (await new ConvexHttpClient(BACKEND_URL).action(
    "auth:signIn" as never,
    { provider: "password", params } as never,
  )) as {
    tokens?: { token: string; refreshToken: string } | null;
  };
  if (!result.tokens) throw new Error(`sign-up of ${account.email} gave no session`);
  // Convex Auth's keys: the name, then the deployment URL without its punctuation
  const namespace = BACKEND_URL.replace(/[^a-zA-Z0-9]/g, "");
  // a same-origin page without the app, so that its storage can be written before the app starts
  await page.goto("/favicon.svg");
  await page.evaluate(
    ({ namespace, token, refreshToken }) => {
      localStorage.setItem(`__convexAuthJWT_${namespace}`, token);
      localStorage.setItem(`__convexAuthRefreshToken_${namespace}`, refreshToken);
    },
    { namespace, ...result.tokens },
  );
  await page.goto("/dashboard");
  await page.waitForURL(/\/dashboard/);
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

/**
 * Records the text of every toast a page shows (an init script, run in each of the context's
 * pages): a toast lasts a few seconds, and on a loaded machine it can come and go between two
 * polls of an assertion. `expectToast` then asks whether it was shown, not whether it still is.
 */
export function recordToasts(): void {
  const w = window as unknown as { __toasts?: string[] };
  w.__toasts = [];
  const seen = new WeakSet<Element>();
  new MutationObserver(() => {
    for (const el of Array.from(document.querySelectorAll("[data-sonner-toast]"))) {
      const text = el.textContent?.trim() ?? "";
      if (!seen.has(el) && text) {
        seen.add(el);
        w.__toasts!.push(text);
      }
    }
  }).observe(document, { childList: true, subtree: true, characterData: true });
}

/** Waits until `page` has shown a toast containing `text` (since it loaded; see recordToasts). */
export async function expectToast(page: Page, text: string, timeout = 10_000): Promise<void> {
  await page.waitForFunction(
    (t) => ((window as unknown as { __toasts?: string[] }).__toasts ?? []).some((x) => x.includes(t)),
    text,
    { timeout },
  );
}
