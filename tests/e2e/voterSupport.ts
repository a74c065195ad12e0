/** Voter e2e helpers (voters and groups specs): creating voters through the real form. */
import { expect, type Page } from "@playwright/test";

export type NewVoter = { first: string; last: string; email?: string; party?: string; status?: string; city?: string };

export async function pickOption(page: Page, label: string | RegExp, option: string) {
  await page.getByRole("combobox", { name: label }).click();
  await page.getByRole("option", { name: option, exact: true }).click();
}

/** Creates a voter through /voters/new and waits for its detail page; returns its id. */
export async function createVoter(page: Page, v: NewVoter): Promise<string> {
  await page.goto("/voters/new");
  await page.getByLabel(/^First Name/).fill(v.first);
  await page.getByLabel(/^Last Name/).fill(v.last);
  if (v.email) await page.getByLabel(/^Email/).fill(v.email);
  if (v.city) await page.getByLabel(/^City/).fill(v.city);
  if (v.party) await pickOption(page, "Party Affiliation", v.party);
  if (v.status) await pickOption(page, "Status", v.status);
  await page.getByRole("button", { name: /^Create (Voter|Contact)$/ }).click();
  await expect(page).toHaveURL(/\/voters\/[a-z0-9]+$/, { timeout: 15_000 });
  await expect(page.getByRole("heading", { name: `${v.first} ${v.last}` })).toBeVisible();
  return page.url().split("/").pop()!;
}
