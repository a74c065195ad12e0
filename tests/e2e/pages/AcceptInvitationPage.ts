/** /accept-invitation, opened from an emailed invitation: the invitee picks a password. */
import type { Locator, Page } from "@playwright/test";

export class AcceptInvitationPage {
  readonly heading: Locator;
  readonly firstName: Locator;
  readonly password: Locator;
  readonly confirmPassword: Locator;
  readonly acceptButton: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { name: "Accept Invitation" });
    this.firstName = page.getByLabel("First Name");
    this.password = page.getByLabel("Password", { exact: true });
    this.confirmPassword = page.getByLabel("Confirm Password");
    this.acceptButton = page.getByRole("button", { name: "Accept Invitation" });
  }

  async accept(password: string) {
    await this.password.fill(password);
    await this.confirmPassword.fill(password);
    await this.acceptButton.click();
  }
}
