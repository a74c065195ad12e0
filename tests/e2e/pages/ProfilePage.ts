/** /profile: the user's own details (read view, edit form) and password change. */
import type { Locator, Page } from "@playwright/test";

export type ProfileFields = { firstName?: string; phone?: string };

export class ProfilePage {
  readonly readView: Locator;
  readonly editButton: Locator;
  readonly firstName: Locator;
  readonly phone: Locator;
  readonly saveButton: Locator;
  readonly currentPassword: Locator;
  readonly newPassword: Locator;
  readonly confirmNewPassword: Locator;
  readonly updatePasswordButton: Locator;

  constructor(readonly page: Page) {
    this.readView = page.getByTestId("profile.readView");
    this.editButton = page.getByRole("button", { name: "Edit Profile" });
    this.firstName = page.getByLabel(/^First Name/);
    this.phone = page.getByLabel("Phone");
    this.saveButton = page.getByRole("button", { name: "Save Changes" });
    this.currentPassword = page.getByLabel("Current Password");
    this.newPassword = page.getByLabel("New Password", { exact: true });
    this.confirmNewPassword = page.getByLabel("Confirm New Password");
    this.updatePasswordButton = page.getByRole("button", { name: "Update Password" });
  }

  async goto() {
    await this.page.goto("/profile");
  }

  async startEditing() {
    await this.editButton.click();
  }

  /** Fills the given fields of the open edit form and saves. */
  async saveDetails(fields: ProfileFields) {
    if (fields.phone !== undefined) await this.phone.fill(fields.phone);
    if (fields.firstName !== undefined) await this.firstName.fill(fields.firstName);
    await this.saveButton.click();
  }

  async changePassword(current: string, next: string, confirmation = next) {
    await this.currentPassword.fill(current);
    await this.newPassword.fill(next);
    await this.confirmNewPassword.fill(confirmation);
    await this.updatePasswordButton.click();
  }
}
