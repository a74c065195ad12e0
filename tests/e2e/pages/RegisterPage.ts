/** /register: a new account and its own organisation. */
import { expect, type Locator, type Page } from "@playwright/test";
import type { Account } from "../support";

export class RegisterPage {
  readonly firstName: Locator;
  readonly lastName: Locator;
  readonly email: Locator;
  readonly password: Locator;
  readonly confirmPassword: Locator;
  readonly createAccountButton: Locator;

  constructor(readonly page: Page) {
    this.firstName = page.getByLabel("First Name");
    this.lastName = page.getByLabel("Last Name");
    this.email = page.getByLabel("Email");
    this.password = page.getByLabel("Password", { exact: true });
    this.confirmPassword = page.getByLabel("Confirm Password");
    this.createAccountButton = page.getByRole("button", { name: "Create Account" });
  }

  async goto() {
    await this.page.goto("/register");
  }

  /** Registers `account` and waits for the dashboard of its new organisation. */
  async register(account: Account) {
    await this.goto();
    await this.firstName.fill(account.firstName);
    await this.lastName.fill(account.lastName);
    await this.email.fill(account.email);
    await this.password.fill(account.password);
    await this.confirmPassword.fill(account.password);
    await this.createAccountButton.click();
    await expect(this.page).toHaveURL(/\/dashboard/, { timeout: 20_000 });
  }
}
