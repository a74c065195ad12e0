/** /reset-password, opened from the emailed link: sets a new password. */
import type { Locator, Page } from "@playwright/test";

export class ResetPasswordPage {
  readonly newPassword: Locator;
  readonly confirmNewPassword: Locator;
  readonly updateButton: Locator;

  constructor(readonly page: Page) {
    this.newPassword = page.getByLabel("New Password", { exact: true });
    this.confirmNewPassword = page.getByLabel("Confirm New Password");
    this.updateButton = page.getByRole("button", { name: "Update Password" });
  }

  async setPassword(password: string, confirmation = password) {
    await this.newPassword.fill(password);
    await this.confirmNewPassword.fill(confirmation);
    await this.updateButton.click();
  }
}
