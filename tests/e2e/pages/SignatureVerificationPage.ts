/** /signature-verification: petitions, their pages (scans, typed lines, CSV transcriptions), the Results tab, the projection, and the adjudication dialog. */
import type { Locator, Page } from "@playwright/test";

export type NewPetition = { name: string; signaturesNeeded: string; state: string };

export class SignatureVerificationPage {
  readonly newPetitionDialog: Locator;
  /** the scan and CSV inputs of the Pages tab */
  readonly scanFile: Locator;
  readonly csvFile: Locator;
  /** what a CSV import left out */
  readonly importNote: Locator;
  /** the Pages tab's pages ("Page 2 · 2 lines") */
  readonly pageRows: Locator;
  readonly resultsTab: Locator;
  /** the Results tab's lines, with their verdicts */
  readonly resultRows: Locator;
  /** the projected valid count */
  readonly projected: Locator;
  readonly adjudication: AdjudicationDialog;

  constructor(readonly page: Page) {
    this.newPetitionDialog = page.getByRole("dialog", { name: "New Petition" });
    this.scanFile = page.getByTestId("pages.file");
    this.csvFile = page.getByTestId("pages.csv");
    this.importNote = page.getByTestId("pages.importNote");
    this.pageRows = page.getByTestId("pages.page");
    this.resultsTab = page.getByRole("tab", { name: "Results" });
    this.resultRows = page.getByTestId("results.row");
    this.projected = page.getByTestId("petition.projected");
    this.adjudication = new AdjudicationDialog(page);
  }

  async goto() {
    await this.page.goto("/signature-verification");
  }

  async createPetition(p: NewPetition) {
    await this.page.getByRole("button", { name: "New Petition" }).click();
    await this.newPetitionDialog.getByLabel("Petition name").fill(p.name);
    await this.newPetitionDialog.getByLabel("Signatures needed").fill(p.signaturesNeeded);
    await this.newPetitionDialog.getByLabel("State").fill(p.state);
    await this.newPetitionDialog.getByRole("button", { name: "Create Petition" }).click();
  }

  /** A signer line's name input on the open page (1-based). */
  lineName(line: number): Locator {
    return this.page.getByLabel(`Line ${line} name`);
  }

  async saveLines() {
    await this.page.getByRole("button", { name: "Save Lines" }).click();
  }

  /** Opens the adjudication dialog for a line of a page (both 1-based). */
  async adjudicate(line: number, page: number) {
    await this.page.getByRole("button", { name: `Adjudicate line ${line} of page ${page}` }).click();
  }

  async exportCsv() {
    await this.page.getByRole("button", { name: "Export CSV" }).click();
  }
}

/** "Adjudicate Signature": the line, its candidates, a search of the voter file, the decision. */
export class AdjudicationDialog {
  readonly dialog: Locator;
  /** who the decision names so far */
  readonly chosen: Locator;
  readonly search: Locator;
  readonly notes: Locator;
  readonly saveButton: Locator;

  constructor(page: Page) {
    this.dialog = page.getByRole("dialog", { name: "Adjudicate Signature" });
    this.chosen = this.dialog.getByTestId("adjudicate.chosen");
    this.search = this.dialog.getByLabel("Search the voter file");
    this.notes = this.dialog.getByLabel("Notes");
    this.saveButton = this.dialog.getByRole("button", { name: "Save Decision" });
  }

  /** A decision or candidate radio, by its label. */
  option(name: RegExp | string): Locator {
    return this.dialog.getByRole("radio", { name });
  }

  async save() {
    await this.saveButton.click();
  }

  async cancel() {
    await this.dialog.getByRole("button", { name: "Cancel" }).click();
  }
}
