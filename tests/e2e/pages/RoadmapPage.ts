/** /roadmap: the areas still to come, by status. */
import type { Locator, Page } from "@playwright/test";

export class RoadmapPage {
  readonly heading: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { name: "Roadmap" });
  }

  async goto() {
    await this.page.goto("/roadmap");
  }

  item(id: string): Locator {
    return this.page.getByTestId(`roadmap.item.${id}`);
  }

  /** The number of items with this status ("In Development"). */
  count(status: string): Locator {
    return this.page.getByTestId(`roadmap.count.${status}`);
  }
}
