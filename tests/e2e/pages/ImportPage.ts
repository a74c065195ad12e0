/** /voters/import: the three-step import wizard (upload, map columns, summary). */
import type { Locator, Page } from "@playwright/test";

export type UploadFile = { name: string; mimeType: string; buffer: Buffer };
export type SummaryCard =
  | "Total Contacts"
  | "Successfully Imported"
  | "Updated"
  | "Duplicates Skipped"
  | "Errors"
  // a vote-history file
  | "Total Rows"
  | "Elections Attached"
  | "Voters Updated"
  | "Already Recorded";

export class ImportPage {
  readonly heading: Locator;
  readonly fileInput: Locator;
  readonly mapping: Locator;
  /** The dialog that asks what to do with a row that cannot be imported. */
  readonly errorDialog: Locator;
  readonly summary: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { name: "Import Contacts" });
    this.fileInput = page.getByLabel("Upload file");
    this.mapping = page.getByTestId("import.mapping");
    this.errorDialog = page.getByRole("alertdialog", { name: "Import Error" });
    this.summary = page.getByTestId("import.summary");
  }

  async goto() {
    await this.page.goto("/voters/import");
  }

  async upload(file: UploadFile) {
    await this.fileInput.setInputFiles(file);
  }

  /** The mapping row of one of the file's columns. */
  mappedColumn(header: string): Locator {
    return this.mapping.getByRole("rowheader", { name: header });
  }

  async pairWithAi() {
    await this.page.getByRole("button", { name: "Use AI to Pair" }).click();
  }

  async validateMapping() {
    await this.page.getByRole("button", { name: "Validate Mapping" }).click();
  }

  /**
   * Attests the voter file's use (issue 39): the state shown (North Carolina when none is), the
   * permitted use offered, and the attestation box ticked.
   */
  async attestVoterFileUse(state = "North Carolina") {
    const stateSelect = this.page.getByRole("combobox", { name: "State of this voter file" });
    if ((await stateSelect.textContent())?.includes("Choose a state")) {
      await stateSelect.click();
      await this.page.getByRole("option", { name: state, exact: true }).click();
    }
    const box = this.page.getByRole("checkbox", { name: /I attest that this voter file/ });
    if ((await box.getAttribute("aria-checked")) !== "true") await box.click();
  }

  async startImport() {
    await this.attestVoterFileUse();
    await this.page.getByRole("button", { name: "Import Contacts" }).click();
  }

  /** "Match existing records by": the rule chosen (its trigger shows the rule's label). */
  get matchRule(): Locator {
    return this.page.getByRole("combobox", { name: "Match existing records by" });
  }

  /** Ticks "Update existing records". */
  async updateExistingRecords() {
    await this.page.getByRole("checkbox", { name: /Update existing records/ }).click();
  }

  async stopImport() {
    await this.errorDialog.getByRole("button", { name: "Stop Import" }).click();
  }

  async skipErrorRow() {
    await this.errorDialog.getByRole("button", { name: "Skip and Continue" }).click();
  }

  /** A summary card showing `count`: "Successfully Imported: 2". */
  summaryCard(card: SummaryCard, count: number): Locator {
    return this.summary.getByRole("button", { name: `${card}: ${count}` });
  }

  /** Opens the table of rows behind a summary card. */
  async showOutcomes(card: SummaryCard, count: number) {
    await this.summaryCard(card, count).click();
  }

  /** The table of rows with one outcome (open it with showOutcomes). */
  outcomes(kind: "duplicate" | "error" | "imported" | "updated"): Locator {
    return this.page.getByTestId(`import.outcomes.${kind}`);
  }

  async importAnother() {
    await this.page.getByRole("button", { name: "Import Another File" }).click();
  }

  async openHistory() {
    await this.page.getByRole("link", { name: "Import History" }).first().click();
  }
}
