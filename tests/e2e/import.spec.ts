/** Import wizard end to end: a CSV and an XLSX through the three steps, then history and deletion. */
import { expect, test } from "@playwright/test";
import * as XLSX from "xlsx";
import { registerAndSignIn, shot } from "./support";

const CSV = [
  "First Name,Last Name,Email,Party,ZIP",
  "Ann,Lee,ann@example.org,DEM,02134",
  "Bo,Ray,bo@example.org,REP,27601",
  "Cy,Kim,ANN@example.org,UNA,07030",
  ",NoFirst,nf@example.org,,",
  "",
].join("\r\n");

function xlsxBuffer(): Buffer {
  const ws = XLSX.utils.aoa_to_sheet([
    ["FIRST_NAME", "LAST_NAME", "EMAIL_ADDRESS", "RESIDENTIAL_ZIP"],
    ["Dee", "Xu", "dee@example.org", "08540"],
    ["Eli", "Yoon", "eli@example.org", "01002"],
    ["Fay", "Zed", "fay@example.org", "33101"],
  ]);
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, ws, "Voters");
  return Buffer.from(XLSX.write(wb, { type: "buffer", bookType: "xlsx" }) as Buffer);
}

test("import a CSV and an XLSX, see the summaries, open history, delete an import", async ({ page }) => {
  await registerAndSignIn(page);
  await page.goto("/voters/import");
  await expect(page.getByRole("heading", { name: "Import Contacts" })).toBeVisible();

  // Step 1 → 2: the CSV; header synonyms are matched automatically, the local engine explains pairs
  await page.getByLabel("Upload file").setInputFiles({ name: "contacts.csv", mimeType: "text/csv", buffer: Buffer.from(CSV) });
  const mapping = page.getByTestId("import.mapping");
  await expect(mapping.getByRole("rowheader", { name: "First Name" })).toBeVisible();
  await page.getByRole("button", { name: "Use AI to Pair" }).click();
  await expect(mapping.getByText(/sampled values are email addresses/)).toBeVisible();
  await shot(page, "import-mapping");
  await page.getByRole("button", { name: "Validate Mapping" }).click();
  await page.getByRole("button", { name: "Import Contacts" }).click();

  // the row without a first name asks what to do (ask mode)
  const errorDialog = page.getByRole("alertdialog", { name: "Import Error" });
  await expect(errorDialog.getByText("Missing required fields (first name or last name)")).toBeVisible({ timeout: 20_000 });
  await shot(page, "import-error-dialog");
  await errorDialog.getByRole("button", { name: "Skip and Continue" }).click();

  // Step 3: the four cards
  const summary = page.getByTestId("import.summary");
  await expect(summary.getByRole("button", { name: "Total Contacts: 4" })).toBeVisible({ timeout: 20_000 });
  await expect(summary.getByRole("button", { name: "Successfully Imported: 2" })).toBeVisible();
  await expect(summary.getByRole("button", { name: "Duplicates Skipped: 1" })).toBeVisible();
  await expect(summary.getByRole("button", { name: "Errors: 1" })).toBeVisible();
  await summary.getByRole("button", { name: "Duplicates Skipped: 1" }).click();
  const dupTable = page.getByTestId("import.outcomes.duplicate");
  await expect(dupTable.getByRole("cell", { name: "Cy" })).toBeVisible();
  await expect(dupTable.getByRole("link", { name: /Ann Lee/ })).toBeVisible();
  await shot(page, "import-summary");

  // Import Another File: the XLSX (UPPER_CASE state-file headers)
  await page.getByRole("button", { name: "Import Another File" }).click();
  await page.getByLabel("Upload file").setInputFiles({
    name: "state-extract.xlsx",
    mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    buffer: xlsxBuffer(),
  });
  await expect(page.getByTestId("import.mapping").getByRole("rowheader", { name: "RESIDENTIAL_ZIP" })).toBeVisible();
  await page.getByRole("button", { name: "Import Contacts" }).click();
  await expect(page.getByTestId("import.summary").getByRole("button", { name: "Successfully Imported: 3" })).toBeVisible({ timeout: 20_000 });

  // History: live statistics and both imports
  await page.getByRole("link", { name: "Import History" }).first().click();
  await expect(page).toHaveURL(/\/voters\/import-history/);
  const table = page.getByTestId("importHistory.table");
  await expect(table.getByRole("rowheader", { name: "contacts.csv" })).toBeVisible();
  await expect(table.getByRole("rowheader", { name: "state-extract.xlsx" })).toBeVisible();
  await expect(page.getByLabel("Total Imports")).toContainText("2");
  await expect(page.getByLabel("Records Processed")).toContainText("7");
  await shot(page, "import-history");

  // Details → delete the CSV import: exactly its two voters go
  await table.getByRole("button", { name: "View Details of contacts.csv" }).click();
  const details = page.getByRole("dialog", { name: "Import Details" });
  await expect(details.getByRole("cell", { name: "Email" }).first()).toBeVisible();
  await details.getByRole("button", { name: "Delete Import" }).click();
  await page.getByRole("alertdialog", { name: "Delete Import?" }).getByRole("button", { name: "Delete" }).click();
  const csvRow = table.getByRole("row").filter({ has: page.getByRole("rowheader", { name: "contacts.csv" }) });
  await expect(csvRow.getByText("deleted", { exact: true })).toBeVisible({ timeout: 20_000 });
  await expect(csvRow).toContainText("0/4");
  const xlsxRow = table.getByRole("row").filter({ has: page.getByRole("rowheader", { name: "state-extract.xlsx" }) });
  await expect(xlsxRow.getByText("completed", { exact: true })).toBeVisible();
  await shot(page, "import-history-after-delete");
});

test("the wrong file type gets the spec message", async ({ page }) => {
  await registerAndSignIn(page);
  await page.goto("/voters/import");
  await page.getByLabel("Upload file").setInputFiles({ name: "notes.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4") });
  await expect(page.getByText("Please upload a CSV or Excel file.")).toBeVisible();
});
