/** /user-role-management: the organisation's users and its custom roles with their permissions. */
import type { Locator, Page } from "@playwright/test";

export type NewRole = { name: string; description: string; permissions: string[] };
export type NewUser = { email: string; name: string; role: string };

export class UserRoleManagementPage {
  readonly refusal: Locator;
  readonly roles: Locator;
  readonly users: Locator;
  /** The open "Create Role" or "Create User" dialog. */
  readonly dialog: Locator;
  readonly accessLevel: Locator;

  constructor(readonly page: Page) {
    this.refusal = page.getByText("You don't have permission to manage users and roles.");
    this.roles = page.getByTestId("admin.roles");
    this.users = page.getByTestId("admin.users");
    this.dialog = page.getByRole("dialog");
    this.accessLevel = this.dialog.getByLabel("Access Level (1-100)");
  }

  async goto() {
    await this.page.goto("/user-role-management");
  }

  async openTab(tab: "Users" | "Roles") {
    await this.page.getByRole("tab", { name: tab }).click();
  }

  roleRow(name: string): Locator {
    return this.roles.getByRole("row").filter({ hasText: name });
  }

  /** The "Users" column of a role's row: how many users hold it. */
  userCount(roleName: string): Locator {
    return this.roleRow(roleName).getByRole("cell").nth(3);
  }

  userRow(email: string): Locator {
    return this.users.getByRole("row").filter({ hasText: email });
  }

  async openCreateRole() {
    await this.page.getByRole("button", { name: "Create Role" }).click();
  }

  /** Fills the open "Create Role" dialog (permissions by their key, "reports.view") and creates the role. */
  async createRole(role: NewRole) {
    await this.dialog.getByLabel("Role Name").fill(role.name);
    await this.dialog.getByLabel("Description").fill(role.description);
    for (const permission of role.permissions) await this.dialog.getByText(permission).click();
    await this.dialog.getByRole("button", { name: "Create Role" }).click();
  }

  /** On the Users tab: invites a user with one role. */
  async createUser(user: NewUser) {
    await this.page.getByRole("button", { name: "Create User" }).click();
    await this.dialog.getByLabel("Email").fill(user.email);
    await this.dialog.getByLabel("Name").fill(user.name);
    await this.dialog.getByText(user.role).click();
    await this.dialog.getByRole("button", { name: "Create User" }).click();
  }

  /** Asks to delete a role from its actions menu (the app may refuse). */
  async deleteRole(name: string) {
    await this.roleRow(name)
      .getByRole("button", { name: `Actions for ${name}` })
      .click();
    await this.page.getByRole("menuitem", { name: "Delete" }).click();
  }
}
