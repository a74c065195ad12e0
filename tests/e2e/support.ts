/** Shared e2e helpers: accounts through the real screens, the demo mailbox as its operator reads it. */
import { expect, type Page } from "@playwright/test";

export const BACKEND_URL = `http://127.0.0.1:${process.env.E2E_BACKEND_PORT ?? 3310}`;
/** The backend's http actions (site) port is the next one. */
export const SITE_URL = `http://127.0.0.1:${Number(process.env.E2E_BACKEND_PORT ?? 3310) + 1}`;
export const DEFAULT_PASSWORD = "correct-horse-42";

/** Saves a screenshot of the page as `<name>.png` when SHOTS_DIR is set (for looking at the screens). */
export async function shot(page: Page, name: string) {
  const dir = process.env.SHOTS_DIR;
  if (dir) await page.screenshot({ path: `${dir}/${name}.png`, fullPage: false });
}

let seq = 0;
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

/** Registers through /register and waits for the dashboard (the new user's own organisation). */
export async function registerAndSignIn(page: Page, account: Account = newAccount()): Promise<Account> {
  await page.goto("/register");
  await page.getByLabel("First Name").fill(account.firstName);
  await page.getByLabel("Last Name").fill(account.lastName);
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  await page.getByLabel("Confirm Password").fill(account.password);
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page).toHaveURL(/\/dashboard/, { timeout: 20_000 });
  return account;
}

/** Signs in through the login modal on the landing page. */
export async function signIn(page: Page, email: string, password: string) {
  await page.goto("/?login=true");
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Email").fill(email);
  await dialog.getByLabel("Password", { exact: true }).fill(password);
  await dialog.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/dashboard/, { timeout: 20_000 });
}

export type MailboxMessage = { to: string; subject: string; text: string; kind: string; createdAt: number };

/** Demo-mode emails sent to `email` (newest first), waiting until at least one has arrived. */
export async function readMailbox(email: string, opts: { kind?: string; timeoutMs?: number } = {}): Promise<MailboxMessage[]> {
  const deadline = Date.now() + (opts.timeoutMs ?? 15_000);
  for (;;) {
    const res = await fetch(`${SITE_URL}/api/dev/mailbox?to=${encodeURIComponent(email.toLowerCase())}`, {
      headers: { Authorization: `Bearer ${process.env.DEV_MAILBOX_KEY}` },
    });
    if (!res.ok) throw new Error(`demo mailbox: ${res.status} ${await res.text()}`);
    const box = (await res.json()) as { messages: MailboxMessage[] };
    const messages = box.messages.filter((m) => !opts.kind || m.kind === opts.kind);
    if (messages.length > 0 || Date.now() > deadline) return messages;
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The first http(s) link in an email's text. */
export function firstLink(text: string): string {
  const m = text.match(/https?:\/\/\S+/);
  if (!m) throw new Error(`no link in email: ${text}`);
  return m[0];
}
