/** /voters: the organisation's voter list with search, filters, export and delete. */
import { readFile } from "node:fs/promises";
import { expect, type Locator, type Page } from "@playwright/test";
import { choose, ConfirmDialog } from "./controls";

export type ExportFormat = "csv" | "xlsx";

const EXPORT_ITEMS: Record<ExportFormat, string | RegExp> = { csv: "Export CSV", xlsx: /Export Excel/ };

export class VotersPage {
  readonly table: Locator;
  /** Every row of the table, its header row included. */
  readonly rows: Locator;
  readonly emptyState: Locator;
  readonly searchBox: Locator;
  readonly partyFilter: Locator;
  readonly statusFilter: Locator;
  readonly exportButton: Locator;
  readonly deleteConfirmation: ConfirmDialog;

  constructor(readonly page: Page) {
    this.table = page.getByTestId("voters.table");
    this.rows = this.table.getByRole("row");
    this.emptyState = page.getByText("No voters found.");
    this.searchBox = page.getByLabel("Search voters");
    this.partyFilter = page.getByRole("combobox", { name: "Party filter" });
    this.statusFilter = page.getByRole("combobox", { name: "Status filter" });
    this.exportButton = page.getByTestId("voters.export");
    this.deleteConfirmation = new ConfirmDialog(page);
  }

  async goto() {
    await this.page.goto("/voters");
  }

  async search(text: string) {
    await this.searchBox.fill(text);
  }

  async filterByParty(party: string) {
    await choose(this.partyFilter, party);
  }

  async filterByStatus(status: string) {
    await choose(this.statusFilter, status);
  }

  /** Asks to delete a voter from its row; the confirmation stays open. */
  async startDelete(name: string) {
    await this.page.getByRole("button", { name: `Delete ${name}` }).click();
  }

  /**
   * Exports the listed voters and returns the file's bytes. The menu is worked with the keyboard
   * (a pointer click on an item of a menu that is still opening was now and then dropped under
   * load); its trigger is disabled while an earlier export runs.
   */
  async exportAs(format: ExportFormat): Promise<Buffer> {
    await expect(this.exportButton).toBeEnabled();
    await this.exportButton.focus();
    await this.page.keyboard.press("Enter");
    const item = this.page.getByRole("menuitem", { name: EXPORT_ITEMS[format] });
    await expect(item).toBeVisible();
    await item.focus();
    await expect(item).toBeFocused();
    const downloading = this.page.waitForEvent("download");
    await this.page.keyboard.press("Enter");
    // an organisation with imports attested for states sees their voter-file use restrictions first
    const confirm = this.page.getByTestId("voters.exportNotice").getByRole("button", { name: EXPORT_ITEMS[format] });
    const first = await Promise.race([
      downloading.then(() => "download" as const),
      confirm.waitFor({ timeout: 15_000 }).then(
        () => "notice" as const,
        () => "download" as const,
      ),
    ]);
    if (first === "notice") await confirm.click();
    const download = await downloading;
    return readFile(await download.path());
  }
}
