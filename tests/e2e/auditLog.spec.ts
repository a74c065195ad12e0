/**
 * The audit log live (issue 39): admin B watches the audit page while admin A, in another browser,
 * exports the voter file through the voters page; the export's entry appears on B's page without
 * a reload (the sealer chains it within about half a second; the subscription delivers it).
 * B verifies the chain. The page stays within a phone's width.
 */
import { expect, test } from "./fixtures";
import { AuditLogPage } from "./pages/AuditLogPage";
import { inviteTeammate } from "./pages/teammates";

test("admin A exports voters while admin B watches the audit log: the entry appears live, and the chain verifies", async ({
  page,
  account,
  voterFormPage,
  votersPage,
  mailbox,
  openOtherBrowser,
  shot,
}) => {
  const aName = `${account.firstName} ${account.lastName}`;
  // the organisation's own voters, so the export has rows (this account's organisation is new)
  await voterFormPage.create({ firstName: "Ada", lastName: "Lovelace", email: "ada@example.org" });
  await voterFormPage.create({ firstName: "Grace", lastName: "Hopper" });

  // admin B: another Account Administrator of the same organisation, in their own browser
  const other = await openOtherBrowser();
  await inviteTeammate(page, other, mailbox, { firstName: "Bea", lastName: "Watcher", role: "Account Administrator" });
  const audit = new AuditLogPage(other);
  await audit.goto();
  await expect(audit.heading).toBeVisible();
  await expect(audit.accessRestricted).toHaveCount(0);
  // what A did so far is there (creating the voters); no export yet
  await expect(audit.entries("Voter created", aName)).toHaveCount(2, { timeout: 10_000 });
  await expect(audit.entries("Export", aName)).toHaveCount(0);
  // a mark in B's page: gone if the page reloads
  await other.evaluate(() => ((window as unknown as { __auditMark?: boolean }).__auditMark = true));

  // admin A exports the voter file through the voters page's export menu
  await votersPage.goto();
  await expect(votersPage.rows).toHaveCount(3);
  const csv = (await votersPage.exportAs("csv")).toString("utf8");
  expect(csv).toContain("Lovelace");

  // B sees the export's entry appear, at the top, without reloading
  const exported = audit.entries("Export", aName).first();
  await expect(exported).toBeVisible({ timeout: 5_000 });
  await expect(audit.rows.first()).toContainText("Export");
  expect(await other.evaluate(() => (window as unknown as { __auditMark?: boolean }).__auditMark)).toBe(true);
  await shot("auditLog-live", { page: other });

  // its details: the request id and the hash of its place in the chain
  await exported.getByRole("button", { name: /^Show details of entry #\d+$/ }).click();
  await expect(other.getByTestId("audit.hash").first()).toHaveText(/^[0-9a-f]{64}$/);

  // B verifies the chain
  await audit.verifyChain();
  await expect(audit.verifyResult).toHaveText(/^Chain verified: [\d,]+ entr(y|ies)$/, { timeout: 15_000 });

  // a phone: the table scrolls in its own box, the page does not get wider than the screen
  await other.setViewportSize({ width: 390, height: 844 });
  await expect(audit.table).toBeVisible();
  expect(await other.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await shot("auditLog-390", { page: other, fullPage: true });
});
