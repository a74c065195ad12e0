/** Pieces shared by several screens: Radix selects and confirmation dialogs. */
import type { Locator, Page } from "@playwright/test";

/** Picks `option` in a Radix select; its options open in a portal at the root of the page. */
export async function choose(combobox: Locator, option: string) {
  await combobox.click();
  await combobox.page().getByRole("option", { name: option, exact: true }).click();
}

/** An "are you sure?" alert dialog (optionally the one with this accessible name). */
export class ConfirmDialog {
  readonly dialog: Locator;

  constructor(page: Page, name?: string) {
    this.dialog = page.getByRole("alertdialog", name ? { name } : {});
  }

  async confirm(button = "Delete") {
    await this.dialog.getByRole("button", { name: button }).click();
  }
}
