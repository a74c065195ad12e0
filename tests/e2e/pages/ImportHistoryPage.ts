/** /voters/import-history: past imports with live statistics, their details, deleting an import's voters. */
import type { Locator, Page } from "@playwright/test";
import { ConfirmDialog } from "./controls";

export class ImportHistoryPage {
  readonly table: Locator;
  readonly details: Locator;

  constructor(readonly page: Page) {
    this.table = page.getByTestId("importHistory.table");
    this.details = page.getByRole("dialog", { name: "Import Details" });
  }

  async goto() {
    await this.page.goto("/voters/import-history");
  }

  /** A statistic by its label ("Total Imports"). */
  stat(label: string): Locator {
    return this.page.getByLabel(label);
  }

  fileCell(fileName: string): Locator {
    return this.table.getByRole("rowheader", { name: fileName });
  }

  row(fileName: string): Locator {
    // `has` is matched inside each row, so it names the cell from the page, not from the table
    return this.table.getByRole("row").filter({ has: this.page.getByRole("rowheader", { name: fileName }) });
  }

  async openDetails(fileName: string) {
    await this.table.getByRole("button", { name: `View Details of ${fileName}` }).click();
  }

  /** From the open details: deletes the import and its voters, confirming. */
  async deleteImport() {
    await this.details.getByRole("button", { name: "Delete Import" }).click();
    await new ConfirmDialog(this.page, "Delete Import?").confirm();
  }
}
