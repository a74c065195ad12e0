/** The frame around every signed-in screen: header with the mode switch, main navigation, user menu. */
import { expect, type Locator, type Page } from "@playwright/test";
import { LandingPage } from "./LandingPage";

export type Mode = "Campaign" | "Petition" | "Relationship";

export class AppShell {
  readonly header: Locator;
  readonly nav: Locator;
  readonly userMenu: Locator;

  constructor(readonly page: Page) {
    this.header = page.getByRole("banner");
    this.nav = page.getByRole("complementary", { name: "Main navigation" });
    this.userMenu = page.getByTestId("shell.userMenu");
  }

  /** A link of the main navigation: a string names it exactly, a RegExp matches part of it. */
  navLink(name: string | RegExp): Locator {
    return this.nav.getByRole("link", { name, exact: true });
  }

  async switchMode(mode: Mode) {
    await this.header.getByRole("radio", { name: mode }).click();
  }

  /** In-app navigation through the user menu (no reload). */
  async openAccountSettings() {
    await this.openUserMenu("Account Settings");
  }

  /** Signs out and waits for the landing page. */
  async signOut() {
    await this.openUserMenu("Sign out");
    await expect(this.page).toHaveURL(/127\.0\.0\.1:\d+\/$/);
    await expect(new LandingPage(this.page).registerButton).toBeVisible();
  }

  private async openUserMenu(item: string) {
    await this.userMenu.click();
    await this.page.getByRole("menuitem", { name: item }).click();
  }
}
