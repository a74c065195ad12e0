/** /dashboard: one per mode, with the organisation's counters. */
import type { Locator, Page } from "@playwright/test";
import type { Mode } from "./AppShell";

export class DashboardPage {
  constructor(readonly page: Page) {}

  async goto() {
    await this.page.goto("/dashboard");
  }

  heading(mode: Mode): Locator {
    return this.page.getByRole("heading", { name: `${mode} Dashboard` });
  }

  /** A counter card, by its label ("Voters"). */
  stat(label: string): Locator {
    return this.page.getByTestId(`dashboard.stat.${label}.value`);
  }
}
