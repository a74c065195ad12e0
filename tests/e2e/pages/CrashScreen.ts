/** The application error screen a render error ends on, with its limited retries. */
import type { Locator, Page } from "@playwright/test";

export class CrashScreen {
  readonly heading: Locator;
  readonly message: Locator;
  readonly errorIdLine: Locator;
  readonly goToDashboardButton: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { name: "Application Error" });
    this.message = page.getByText("Something went wrong. Our team has been notified and is working on a fix.");
    this.errorIdLine = page.getByText(/Error ID:/);
    this.goToDashboardButton = page.getByRole("button", { name: "Go to Dashboard" });
  }

  /** Opens the dashboard with its test switch that throws while rendering. */
  async provoke() {
    await this.page.goto("/dashboard?crash=1");
  }

  /** The id shown on the screen (as reported to /api/errors). */
  async errorId(): Promise<string> {
    return ((await this.errorIdLine.textContent()) ?? "").replace(/.*Error ID:\s*/, "").trim();
  }

  tryAgainButton(attemptsLeft: number): Locator {
    return this.page.getByRole("button", { name: `Try Again (${attemptsLeft} attempts left)` });
  }
}
