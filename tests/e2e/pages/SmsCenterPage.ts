/** /messaging: the SMS center with its campaign counters. */
import type { Locator, Page } from "@playwright/test";

export class SmsCenterPage {
  readonly heading: Locator;
  readonly emptyState: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { name: "SMS Center" });
    this.emptyState = page.getByText('No SMS campaigns created yet. Click "New SMS Campaign" to get started.');
  }

  async goto() {
    await this.page.goto("/messaging");
  }

  /** A counter card, by its label ("Total Text Blast"). */
  stat(label: string): Locator {
    return this.page.getByTestId(`sms.stat.${label}`);
  }
}
