/** /cta-database: the organisation's CTAs as cards (search, sort, preview, embed, edit, duplicate, delete). */
import { expect, type Locator, type Page } from "@playwright/test";
import { choose, ConfirmDialog } from "./controls";

export class CtaDatabasePage {
  readonly cards: Locator;
  readonly search: Locator;
  readonly sort: Locator;
  readonly order: Locator;
  readonly empty: Locator;
  readonly createButton: Locator;
  readonly previewDialog: Locator;
  readonly embedDialog: Locator;

  constructor(readonly page: Page) {
    this.cards = page.getByTestId("cta.db.card");
    this.search = page.getByTestId("cta.db.search");
    this.sort = page.getByTestId("cta.db.sort");
    this.order = page.getByTestId("cta.db.order");
    this.empty = page.getByTestId("cta.db.empty");
    this.createButton = page.getByTestId("cta.db.create");
    this.previewDialog = page.getByTestId("cta.db.previewDialog");
    this.embedDialog = page.getByTestId("cta.embedDialog");
  }

  async goto() {
    await this.page.goto("/cta-database");
    await expect(this.page.getByRole("heading", { name: "CTA Database" })).toBeVisible({ timeout: 15_000 });
  }

  /** The card of the CTA with exactly this name. */
  card(name: string): Locator {
    return this.cards.filter({ has: this.page.getByRole("heading", { name, exact: true }) });
  }

  /** The card names in the order shown. */
  async names(): Promise<string[]> {
    return this.cards.getByRole("heading").allInnerTexts();
  }

  async sortBy(label: "Date Created" | "Name") {
    await choose(this.sort, label);
  }

  async orderBy(label: "Newest First" | "Oldest First" | "A to Z" | "Z to A") {
    await choose(this.order, label);
  }

  async duplicate(name: string) {
    await this.card(name).getByTestId("cta.db.duplicate").click();
  }

  /** Delete on a card, confirmed in the dialog. */
  async remove(name: string) {
    await this.card(name).getByTestId("cta.db.delete").click();
    const confirm = new ConfirmDialog(this.page, "Delete CTA");
    await expect(confirm.dialog).toContainText(name);
    await confirm.confirm();
  }

  async edit(name: string) {
    await this.card(name).getByTestId("cta.db.edit").click();
  }

  async openPreview(name: string) {
    await this.card(name)
      .getByRole("button", { name: `Preview ${name}` })
      .click();
    await expect(this.previewDialog).toBeVisible();
  }

  async openEmbed(name: string) {
    await this.card(name).getByTestId("cta.db.embed").click();
    await expect(this.embedDialog).toBeVisible();
  }

  toast(text: string | RegExp): Locator {
    return this.page.locator("[data-sonner-toast]").filter({ hasText: text }).last();
  }
}
