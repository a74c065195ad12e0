/** /unsubscribe?t=…: the page an email's footer link opens, signed out. */
import type { Locator, Page } from "@playwright/test";

export class UnsubscribePage {
  readonly button: Locator;
  readonly done: Locator;
  readonly already: Locator;

  constructor(readonly page: Page) {
    this.button = page.getByTestId("unsubscribe.button");
    this.done = page.getByTestId("unsubscribe.done");
    this.already = page.getByTestId("unsubscribe.already");
  }

  async unsubscribe() {
    await this.button.click();
  }
}
