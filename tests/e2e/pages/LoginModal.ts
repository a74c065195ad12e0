/** The sign-in dialog on the landing page (/?login=true), where guarded pages send signed-out visitors. */
import { expect, type Locator, type Page } from "@playwright/test";

export class LoginModal {
  readonly dialog: Locator;
  readonly email: Locator;
  readonly password: Locator;
  readonly signInButton: Locator;

  constructor(readonly page: Page) {
    this.dialog = page.getByRole("dialog");
    this.email = this.dialog.getByLabel("Email");
    this.password = this.dialog.getByLabel("Password", { exact: true });
    this.signInButton = this.dialog.getByRole("button", { name: "Sign In" });
  }

  async open() {
    await this.page.goto("/?login=true");
  }

  /** Fills and submits the open dialog; where the app goes next is the caller's to check. */
  async submit(email: string, password: string) {
    await this.email.fill(email);
    await this.password.fill(password);
    await this.signInButton.click();
  }

  /** Opens the dialog, signs in and waits for the dashboard. */
  async signIn(email: string, password: string) {
    await this.open();
    await this.submit(email, password);
    await expect(this.page).toHaveURL(/\/dashboard/, { timeout: 20_000 });
  }
}
