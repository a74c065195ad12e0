/** The public landing page (/): hero, pricing, the way to register. */
import type { Locator, Page } from "@playwright/test";

export class LandingPage {
  readonly hero: Locator;
  readonly registerButton: Locator;

  constructor(readonly page: Page) {
    this.hero = page.getByRole("heading", { name: /Organise every voter/ });
    this.registerButton = page.getByRole("button", { name: "Register" });
  }

  async goto() {
    await this.page.goto("/");
  }
}
