/** Import wizard end to end: a CSV and an XLSX through the three steps, then history and deletion. */
import * as XLSX from "xlsx";
import { expect, test } from "./fixtures";

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

test("import a CSV and an XLSX, see the summaries, open history, delete an import", async ({ page, importPage: wizard, importHistoryPage: history, shot }) => {
  await wizard.goto();
  await expect(wizard.heading).toBeVisible();

  // Step 1 → 2: the CSV; header synonyms are matched automatically, the local engine explains pairs
  await wizard.upload({ name: "contacts.csv", mimeType: "text/csv", buffer: Buffer.from(CSV) });
  await expect(wizard.mappedColumn("First Name")).toBeVisible();
  await wizard.pairWithAi();
  await expect(wizard.mapping.getByText(/sampled values are email addresses/)).toBeVisible();
  await shot("import-mapping");
  await wizard.validateMapping();
  await wizard.startImport();

  // the row without a first name asks what to do (ask mode)
  await expect(wizard.errorDialog.getByText("Missing required fields (first name or last name)")).toBeVisible({ timeout: 20_000 });
  await shot("import-error-dialog");
  await wizard.skipErrorRow();

  // Step 3: the four cards
  await expect(wizard.summaryCard("Total Contacts", 4)).toBeVisible({ timeout: 20_000 });
  await expect(wizard.summaryCard("Successfully Imported", 2)).toBeVisible();
  await expect(wizard.summaryCard("Duplicates Skipped", 1)).toBeVisible();
  await expect(wizard.summaryCard("Errors", 1)).toBeVisible();
  await wizard.showOutcomes("Duplicates Skipped", 1);
  await expect(wizard.outcomes("duplicate").getByRole("cell", { name: "Cy" })).toBeVisible();
  await expect(wizard.outcomes("duplicate").getByRole("link", { name: /Ann Lee/ })).toBeVisible();
  await shot("import-summary");

  // Import Another File: the XLSX (UPPER_CASE state-file headers)
  await wizard.importAnother();
  await wizard.upload({ name: "state-extract.xlsx", mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", buffer: xlsxBuffer() });
  await expect(wizard.mappedColumn("RESIDENTIAL_ZIP")).toBeVisible();
  await wizard.startImport();
  await expect(wizard.summaryCard("Successfully Imported", 3)).toBeVisible({ timeout: 20_000 });

  // History: live statistics and both imports
  await wizard.openHistory();
  await expect(page).toHaveURL(/\/voters\/import-history/);
  await expect(history.fileCell("contacts.csv")).toBeVisible();
  await expect(history.fileCell("state-extract.xlsx")).toBeVisible();
  await expect(history.stat("Total Imports")).toContainText("2");
  await expect(history.stat("Records Processed")).toContainText("7");
  await shot("import-history");

  // Details → delete the CSV import: exactly its two voters go
  await history.openDetails("contacts.csv");
  await expect(history.details.getByRole("cell", { name: "Email" }).first()).toBeVisible();
  await history.deleteImport();
  await expect(history.row("contacts.csv").getByText("deleted", { exact: true })).toBeVisible({ timeout: 20_000 });
  await expect(history.row("contacts.csv")).toContainText("0/4");
  await expect(history.row("state-extract.xlsx").getByText("completed", { exact: true })).toBeVisible();
  await shot("import-history-after-delete");
});

test("the wrong file type gets the spec message", async ({ page, importPage }) => {
  await importPage.goto();
  await importPage.upload({ name: "notes.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4") });
  await expect(page.getByText("Please upload a CSV or Excel file.")).toBeVisible();
});
