/** /forgot-password: asks for a reset link by email. */
import type { Locator, Page } from "@playwright/test";

export class ForgotPasswordPage {
  readonly email: Locator;
  readonly sendButton: Locator;

  constructor(readonly page: Page) {
    this.email = page.getByLabel("Email");
    this.sendButton = page.getByRole("button", { name: "Send Reset Link" });
  }

  async requestReset(email: string) {
    await this.page.goto("/forgot-password");
    await this.email.fill(email);
    await this.sendButton.click();
  }

  /** The confirmation the page shows once the link is on its way. */
  sentTo(email: string): Locator {
    return this.page.getByRole("status").getByText(`A password reset email has been sent to ${email}`);
  }
}
