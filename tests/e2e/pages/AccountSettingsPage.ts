/** /account-settings: the organisation's members and invitations, and its client error log (admins only). */
import type { Locator, Page } from "@playwright/test";
import { choose } from "./controls";

export type Invitation = { firstName: string; lastName: string; email: string; role: string };

export class AccountSettingsPage {
  readonly heading: Locator;
  readonly adminOnlyNotice: Locator;
  readonly members: Locator;
  readonly clientErrors: Locator;
  readonly inviteDialog: Locator;
  readonly sendInvitationButton: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { name: "Account Settings" });
    this.adminOnlyNotice = page.getByText("You need Account Administrator privileges to access these settings.");
    this.members = page.getByTestId("admin.members");
    this.clientErrors = page.getByTestId("admin.clientErrors");
    this.inviteDialog = page.getByRole("dialog");
    this.sendInvitationButton = this.inviteDialog.getByRole("button", { name: "Send Invitation" });
  }

  async goto() {
    await this.page.goto("/account-settings");
  }

  memberRow(email: string): Locator {
    return this.members.getByRole("row").filter({ hasText: email });
  }

  async openCreateMember() {
    await this.page.getByRole("button", { name: "Create New Member" }).click();
  }

  /** Fills the open "Create New Member" dialog and sends the invitation. */
  async invite(invitation: Invitation) {
    await this.inviteDialog.getByLabel("First Name").fill(invitation.firstName);
    await this.inviteDialog.getByLabel("Last Name").fill(invitation.lastName);
    await this.inviteDialog.getByLabel("Email").fill(invitation.email);
    await choose(this.inviteDialog.getByRole("combobox", { name: "Role" }), invitation.role);
    await this.sendInvitationButton.click();
  }
}
