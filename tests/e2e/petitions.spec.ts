/**
 * Petition verification end to end (issue 20): create a petition, upload a page scan, type its
 * signer lines with the keyboard, see each line's verdict against the voter file, adjudicate a
 * failure, and watch the projected valid count move in a teammate's browser.
 */
import fs from "node:fs";
import Papa from "papaparse";
import { api } from "@convex/_generated/api";
import { DESKTOP, PHONE, screenProblems } from "./a11y";
import { expect, test, type Page } from "./fixtures";
import { SignatureVerificationPage } from "./pages/SignatureVerificationPage";
import { inviteTeammate } from "./pages/teammates";
import { apiClientAs } from "./support";

/** A 1×1 PNG: the page scan. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

test("enter a petition page, see verdicts, adjudicate a failure, the projection moves for a teammate", async ({
  page,
  signatureVerificationPage: petitions,
  mailbox,
  openOtherBrowser,
  shot,
}) => {
  test.setTimeout(300_000);
  const client = await apiClientAs(page);
  for (const fields of [
    {
      first_name: "William",
      last_name: "Smith",
      address: "42 Oak Road, Portland, OR 97205",
      state: "OR",
      status: "Active",
      registration_date: "2010-01-01",
    },
    {
      first_name: "Margaret",
      last_name: "O'Connor",
      address: "7 N Main St Apt 3, Portland, OR 97209",
      state: "OR",
      status: "Active",
      registration_date: "2011-01-01",
    },
    // removed from the rolls (NC "R"): not eligible (an Ohio CONFIRMATION voter would be)
    {
      first_name: "Dana",
      last_name: "Whitfield",
      address: "3 Pine Lane, Portland, OR 97212",
      state: "OR",
      status: "Inactive",
      status_code: "R",
      registration_date: "2011-01-01",
    },
  ])
    await client.mutation(api.voters.create, { fields });
  const other = await openOtherBrowser();
  await inviteTeammate(page, other, mailbox, { firstName: "Bob", lastName: "Stone", role: "Campaign Manager" });

  await petitions.goto();
  await expect(page.getByText("not a handwriting comparison")).toBeVisible();
  await petitions.createPetition({ name: "Measure 12", signaturesNeeded: "4", state: "OR" });
  await expect(page.getByText("Petition created").first()).toBeVisible();

  // a page scan, then its lines typed beside it (Enter for the next line)
  await petitions.scanFile.setInputFiles({ name: "sheet-1.png", mimeType: "image/png", buffer: PNG });
  await expect(page.getByText("Page uploaded").first()).toBeVisible();
  await expect(page.getByRole("img", { name: "Page 1 scan" })).toBeVisible();
  const lines = [
    ["Bill Smith", "42 Oak Rd, Portland, OR 97205"],
    ["PEGGY OCONNOR", "7 North Main Street #3, Portland, OR 97209"],
    ["Dana Whitfield", "3 Pine Ln, Portland, OR 97212"],
    ["Zed Nobody", "1 Nowhere Rd, Portland, OR 97201"],
  ];
  for (const [i, [name, address]] of lines.entries()) {
    await petitions.lineName(i + 1).fill(name);
    await page.keyboard.press("Tab");
    await page.keyboard.type(address);
    await page.keyboard.press("Enter");
    await expect(petitions.lineName(i + 2)).toBeFocused();
  }
  await shot("petitions-entry");
  await petitions.saveLines();
  await expect(page.getByText("4 lines saved").first()).toBeVisible();

  // verdicts
  await petitions.resultsTab.click();
  const rows = petitions.resultRows;
  await expect(rows).toHaveCount(4);
  await expect(rows.nth(0)).toContainText("Verified");
  await expect(rows.nth(1)).toContainText("Verified");
  await expect(rows.nth(2)).toContainText("Voter registration is not active");
  await expect(rows.nth(3)).toContainText("Not found in the voter file");
  await expect(petitions.projected).toHaveText("2");
  await shot("petitions-results");

  // Bob watches the projection
  const bob = new SignatureVerificationPage(other);
  await bob.goto();
  await expect(bob.projected).toHaveText("2");

  // Alice cures the inactive voter's line (re-registered): it counts
  await petitions.adjudicate(3, 1);
  const adjudicate = petitions.adjudication;
  await expect(adjudicate.dialog.getByText("Dana Whitfield").first()).toBeVisible();
  await adjudicate.option(/Cure:/).click();
  await adjudicate.notes.fill("Re-registered on 2026-05-10, confirmed by the county");
  await shot("petitions-adjudicate");
  await adjudicate.save();
  await expect(page.getByText("Line adjudicated").first()).toBeVisible();
  await expect(rows.nth(2)).toContainText("Adjudicated");
  await expect(bob.projected).toHaveText("3");
  await expect(other.getByText("Adjudicated 1")).toBeVisible();
});

/** axe (no serious or critical violation) and no sideways scroll, at 1400 and 390 px. */
async function expectAccessible(page: Page) {
  for (const size of [DESKTOP, PHONE]) {
    await page.setViewportSize(size);
    expect(await screenProblems(page), `at ${size.width}px`).toEqual([]);
  }
  await page.setViewportSize(DESKTOP);
}

test("a CSV transcription lands on its pages and lines; a typo is verified; a line nobody matches is rescued by searching the voter file (issue 33)", async ({
  page,
  signatureVerificationPage: petitions,
  shot,
}) => {
  test.setTimeout(300_000);
  const client = await apiClientAs(page);
  for (const fields of [
    {
      first_name: "Ann",
      last_name: "Hughes",
      address: "12 Oak St, Portland, OR 97205",
      state: "OR",
      status: "Active",
      registration_date: "2010-01-01",
      voter_id: "OR0000012",
    },
    {
      first_name: "Rosa",
      last_name: "Delgado",
      address: "31 Elm St, Portland, OR 97206",
      state: "OR",
      status: "Active",
      registration_date: "2010-01-01",
      voter_id: "OR0000777",
    },
    {
      first_name: "Gail",
      last_name: "Porter",
      address: "5 Lake Rd, Portland, OR 97210",
      state: "OR",
      status: "Active",
      registration_date: "2010-01-01",
    },
    {
      first_name: "Gail",
      last_name: "Porter",
      address: "900 Hill St, Portland, OR 97201",
      state: "OR",
      status: "Active",
      registration_date: "2010-01-01",
    },
  ])
    await client.mutation(api.voters.create, { fields });
  await client.mutation(api.petitions.create, {
    name: "Measure 33",
    signaturesNeeded: 10,
    deadline: null,
    state: "OR",
    county: null,
    mode: "full",
  });

  await petitions.goto();
  const csv = [
    "Page,Line,Signer Name,Street Address,City,ZIP,Date Signed,Circulator",
    "2,7,Ann Huhes,12 Oak St,Portland,97205,5/1/2026,Bo",
    "2,8,Rosa Whitman,31 Elm St,Portland,97206,5/1/2026,Bo",
    "3,1,Gail Porter,77 New St,Salem,97301,5/2/2026,Cy",
  ].join("\n");
  await petitions.csvFile.setInputFiles({ name: "transcription.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await expect(page.getByText("3 lines imported").first()).toBeVisible();
  await expect(petitions.importNote).toContainText('Not imported: "Circulator"');
  await expect(petitions.pageRows).toHaveText([/^Page 2 · 2 lines/, /^Page 3 · 1 lines/]);
  await expectAccessible(page);

  await petitions.resultsTab.click();
  const rows = petitions.resultRows;
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0)).toContainText("2 / 7");
  await expect(rows.nth(0)).toContainText("Verified");
  await expect(rows.nth(1)).toContainText("Not found in the voter file");
  await expect(rows.nth(2)).toContainText("Needs review");

  // the mover: two Gail Porters, neither at the written address — nobody is pre-selected
  await petitions.adjudicate(1, 3);
  const dialog = petitions.adjudication;
  await expect(dialog.option(/Gail Porter/)).toHaveCount(2);
  for (const r of await dialog.option(/Gail Porter/).all()) await expect(r).not.toBeChecked();
  await expect(dialog.chosen).toContainText("Choose the voter this signature belongs to");
  await expect(dialog.saveButton).toBeDisabled();
  await dialog.cancel();

  // the married name: no candidate; the reviewer finds her by address and accepts
  await petitions.adjudicate(8, 2);
  await expect(dialog.dialog.getByText("No voter in the file resembles this signer")).toBeVisible();
  await dialog.search.fill("31 Elm St");
  await dialog.option(/Rosa Delgado/).click();
  await expect(dialog.chosen).toContainText("Rosa Delgado (voter ID OR0000777)");
  await dialog.notes.fill("Married since registering; same address");
  await expectAccessible(page);
  await shot("petitions-search-rescue");
  await dialog.save();
  await expect(page.getByText("Line adjudicated").first()).toBeVisible();
  await expect(rows.nth(1)).toContainText("Adjudicated");

  // the export carries the voter ID
  const download = page.waitForEvent("download");
  await petitions.exportCsv();
  const file = await download;
  const out = Papa.parse<string[]>(fs.readFileSync(await file.path(), "utf8").replace(/^\uFEFF/, ""), {
    skipEmptyLines: true,
  }).data;
  const voterId = out[0].indexOf("Voter ID");
  expect(voterId).toBeGreaterThan(0);
  expect(out.slice(1).map((r) => [r[0], r[1], r[voterId]])).toEqual([
    ["2", "7", "OR0000012"],
    ["2", "8", "OR0000777"],
    ["3", "1", ""],
  ]);
});
