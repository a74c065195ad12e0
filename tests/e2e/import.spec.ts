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

test("import a CSV and an XLSX, see the summaries, open history, delete an import", async ({
  page,
  importPage: wizard,
  importHistoryPage: history,
  shot,
}) => {
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
  await expect(wizard.errorDialog.getByText("Missing required fields (first name or last name)")).toBeVisible({
    timeout: 20_000,
  });
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
  await wizard.upload({
    name: "state-extract.xlsx",
    mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    buffer: xlsxBuffer(),
  });
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

/** An NC-style extract: voter IDs, addresses, raw status / party codes and per-election columns. */
function stateFile(changed: boolean): string {
  const header =
    "ncid,first_name,last_name,res_street_address,res_city_desc,zip_code,status_cd,party_cd,GENERAL-11/08/2022,GENERAL-11/05/2024";
  const rows = Array.from({ length: 20 }, (_, i) => {
    // common names: every fifth voter is a John Smith, each with its own ncid
    const [first, last] = i % 5 === 0 ? ["John", "Smith"] : [`Voter${i}`, `Family${i}`];
    let street = `${100 + i} Main St`;
    let zip = "27601";
    let status = "A";
    if (changed && i === 3) [street, zip] = ["9 New Rd", "27701"]; // moved
    if (changed && i === 5) status = "R"; // removed from the rolls
    return `EH${String(4000 + i)},${first},${last},${street},RALEIGH,${zip},${status},${i % 2 ? "DEM" : "REP"},${i % 3 ? "X" : ""},${i % 4 ? "X" : ""}`;
  });
  return [header, ...rows, ""].join("\n");
}

test("a state file re-imported with update existing, then its vote-history file: updated counts, each voter's changes and elections; at phone width", async ({
  page,
  importPage: wizard,
  votersPage,
  shot,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await wizard.goto();
  await wizard.upload({ name: "ncvoter-wake.csv", mimeType: "text/csv", buffer: Buffer.from(stateFile(false)) });
  await expect(wizard.mappedColumn("GENERAL-11/05/2024")).toBeVisible();
  // a file with voter IDs matches by them (the name rule is never the default for it)
  await expect(wizard.matchRule).toContainText("Voter ID, else email");
  await shot("import-state-mapping-phone");
  await wizard.startImport();
  await expect(wizard.summaryCard("Successfully Imported", 20)).toBeVisible({ timeout: 20_000 });
  await expect(wizard.summaryCard("Duplicates Skipped", 0)).toBeVisible();

  // next month's file: one voter moved, one was removed; the rest unchanged
  await wizard.importAnother();
  await wizard.upload({
    name: "ncvoter-wake-december.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(stateFile(true)),
  });
  await wizard.updateExistingRecords();
  await wizard.startImport();
  await expect(wizard.summaryCard("Updated", 2)).toBeVisible({ timeout: 20_000 });
  await expect(wizard.summaryCard("Successfully Imported", 0)).toBeVisible();
  await expect(wizard.summaryCard("Duplicates Skipped", 18)).toBeVisible();
  await expect(wizard.summary.getByTestId("import.matchRule")).toContainText("existing records updated");
  await wizard.showOutcomes("Updated", 2);
  await expect(wizard.outcomes("updated").getByRole("cell", { name: "Address, ZIP Code changed" })).toBeVisible();
  await expect(wizard.outcomes("updated").getByRole("cell", { name: "Status, Status Code changed" })).toBeVisible();
  await shot("import-reimport-summary-phone");

  // the state's vote-history file (ncvhis layout) attaches earlier elections by ncid
  await wizard.importAnother();
  const ncvhis = [
    "county_id,election_lbl,election_desc,voting_method,voted_party_cd,ncid",
    "92,11/03/2020,11/03/2020 GENERAL,ABSENTEE BY MAIL,DEM,EH4003",
    "92,03/03/2020,03/03/2020 PRIMARY,IN-PERSON,DEM,EH4003",
    "92,11/03/2020,11/03/2020 GENERAL,IN-PERSON,REP,EH4004",
    "92,11/03/2020,11/03/2020 GENERAL,IN-PERSON,REP,ZZ0001",
    "",
  ].join("\n");
  await wizard.upload({ name: "ncvhis-wake.csv", mimeType: "text/csv", buffer: Buffer.from(ncvhis) });
  await expect(page.getByTestId("import.matching")).toContainText("Vote-history file");
  await wizard.startImport();
  // an ncid nobody holds is not known before the server looks: it is listed as the row's error
  await expect(wizard.summaryCard("Elections Attached", 3)).toBeVisible({ timeout: 20_000 });
  await expect(wizard.summaryCard("Voters Updated", 2)).toBeVisible();
  await expect(wizard.summaryCard("Errors", 1)).toBeVisible();
  await wizard.showOutcomes("Errors", 1);
  await expect(wizard.outcomes("error").getByRole("cell", { name: "No voter with voter ID ZZ0001" })).toBeVisible();
  await shot("import-vote-history-summary-phone");

  // the moved voter, found by the voter ID: the change, from which file, and the elections voted
  await votersPage.goto();
  await votersPage.search("EH4003");
  await page.getByRole("link", { name: "Voter3 Family3" }).click();
  await expect(page).toHaveURL(/\/voters\/[a-z0-9]+$/);
  const history = page.getByTestId("voter.changes");
  await expect(history).toContainText("ncvoter-wake-december.csv");
  await expect(history).toContainText("103 Main St");
  await expect(history).toContainText("9 New Rd");
  const elections = page.getByTestId("voter.voteHistory");
  await expect(elections).toContainText("GENERAL-11/05/2024");
  await expect(elections).toContainText("11/03/2020 GENERAL");
  await expect(elections).toContainText("Absentee By Mail");
  await expect(elections).toContainText("03/03/2020 PRIMARY");
  await shot("import-reimport-voter-phone", { fullPage: true });
});
