/**
 * Petition verification end to end (issue 20): create a petition, upload a page scan, type its
 * signer lines with the keyboard, see each line's verdict against the voter file, adjudicate a
 * failure, and watch the projected valid count move in a teammate's browser.
 */
import { api } from "../../convex/_generated/api";
import { expect, test } from "./fixtures";
import { inviteTeammate } from "./pages/teammates";
import { apiClientAs } from "./support";

/** A 1×1 PNG: the page scan. */
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");

test("enter a petition page, see verdicts, adjudicate a failure, the projection moves for a teammate", async ({ page, account: _account, mailbox, openOtherBrowser, shot }) => {
  test.setTimeout(150_000);
  const client = await apiClientAs(page);
  for (const fields of [
    { first_name: "William", last_name: "Smith", address: "42 Oak Road, Portland, OR 97205", state: "OR", status: "Active", registration_date: "2010-01-01" },
    { first_name: "Margaret", last_name: "O'Connor", address: "7 N Main St Apt 3, Portland, OR 97209", state: "OR", status: "Active", registration_date: "2011-01-01" },
    { first_name: "Dana", last_name: "Whitfield", address: "3 Pine Lane, Portland, OR 97212", state: "OR", status: "Inactive", registration_date: "2011-01-01" },
  ]) await client.mutation(api.voters.create, { fields });
  const other = await openOtherBrowser();
  await inviteTeammate(page, other, mailbox, { firstName: "Bob", lastName: "Stone", role: "Campaign Manager" });

  await page.goto("/signature-verification");
  await expect(page.getByText("not a handwriting comparison")).toBeVisible();
  await page.getByRole("button", { name: "New Petition" }).click();
  const dialog = page.getByRole("dialog", { name: "New Petition" });
  await dialog.getByLabel("Petition name").fill("Measure 12");
  await dialog.getByLabel("Signatures needed").fill("4");
  await dialog.getByLabel("State").fill("OR");
  await dialog.getByRole("button", { name: "Create Petition" }).click();
  await expect(page.getByText("Petition created").first()).toBeVisible();

  // a page scan, then its lines typed beside it (Enter for the next line)
  await page.getByTestId("pages.file").setInputFiles({ name: "sheet-1.png", mimeType: "image/png", buffer: PNG });
  await expect(page.getByText("Page uploaded").first()).toBeVisible();
  await expect(page.getByRole("img", { name: "Page 1 scan" })).toBeVisible();
  const lines = [
    ["Bill Smith", "42 Oak Rd, Portland, OR 97205"],
    ["PEGGY OCONNOR", "7 North Main Street #3, Portland, OR 97209"],
    ["Dana Whitfield", "3 Pine Ln, Portland, OR 97212"],
    ["Zed Nobody", "1 Nowhere Rd, Portland, OR 97201"],
  ];
  for (const [i, [name, address]] of lines.entries()) {
    await page.getByLabel(`Line ${i + 1} name`).fill(name);
    await page.keyboard.press("Tab");
    await page.keyboard.type(address);
    await page.keyboard.press("Enter");
    await expect(page.getByLabel(`Line ${i + 2} name`)).toBeFocused();
  }
  await shot("petitions-entry");
  await page.getByRole("button", { name: "Save Lines" }).click();
  await expect(page.getByText("4 lines saved").first()).toBeVisible();

  // verdicts
  await page.getByRole("tab", { name: "Results" }).click();
  const rows = page.getByTestId("results.row");
  await expect(rows).toHaveCount(4);
  await expect(rows.nth(0)).toContainText("Verified");
  await expect(rows.nth(1)).toContainText("Verified");
  await expect(rows.nth(2)).toContainText("Voter registration is not active");
  await expect(rows.nth(3)).toContainText("Not found in the voter file");
  await expect(page.getByTestId("petition.projected")).toHaveText("2");
  await shot("petitions-results");

  // Bob watches the projection
  await other.goto("/signature-verification");
  await expect(other.getByTestId("petition.projected")).toHaveText("2");

  // Alice cures the inactive voter's line (re-registered): it counts
  await page.getByRole("button", { name: "Adjudicate line 3 of page 1" }).click();
  const adjudicate = page.getByRole("dialog", { name: "Adjudicate Signature" });
  await expect(adjudicate.getByText("Dana Whitfield").first()).toBeVisible();
  await adjudicate.getByRole("radio", { name: /Cure:/ }).click();
  await adjudicate.getByLabel("Notes").fill("Re-registered on 2026-05-10, confirmed by the county");
  await shot("petitions-adjudicate");
  await adjudicate.getByRole("button", { name: "Save Decision" }).click();
  await expect(page.getByText("Line adjudicated").first()).toBeVisible();
  await expect(rows.nth(2)).toContainText("Adjudicated");
  await expect(other.getByTestId("petition.projected")).toHaveText("3");
  await expect(other.getByText("Adjudicated 1")).toBeVisible();
});
