/** /voters/:id: one voter's details, groups and the send-email dialog; the not-found page for unknown ids. */
import { expect, type Locator, type Page } from "@playwright/test";

export type Email = { subject?: string; message?: string };

export class VoterDetailPage {
  readonly groups: Locator;
  readonly sendEmailButton: Locator;
  readonly emailDialog: Locator;
  readonly notFoundHeading: Locator;
  /** the emails the voter was sent, with their status */
  readonly emailHistory: Locator;

  constructor(readonly page: Page) {
    this.groups = page.getByTestId("voters.groups");
    this.sendEmailButton = page.getByRole("button", { name: "Send Email" });
    this.emailDialog = page.getByRole("dialog");
    this.notFoundHeading = page.getByRole("heading", { name: "Voter Not Found" });
    this.emailHistory = page.getByTestId("voters.emailHistory");
  }

  /** A teammate's avatar in the page's presence list ("who else is here"). */
  presenceAvatar(name: string): Locator {
    return this.page.getByTestId("presence").getByRole("img", { name, exact: true });
  }

  async goto(voterId: string) {
    await this.page.goto(`/voters/${voterId}`);
  }

  /** The value shown for a field, by its label (custom fields included). */
  fieldValue(label: string): Locator {
    return this.page.getByText(label, { exact: true }).locator("xpath=following-sibling::dd[1]");
  }

  /** On the not-found page: a link to a voter the page suggests instead. */
  suggestion(name: string): Locator {
    return this.page.getByRole("link", { name: new RegExp(name) });
  }

  /**
   * Opens the send-email dialog. A click that lands while the page is still rendering its cards can
   * be lost (CI: the button took focus, no dialog), so it is pressed again until the dialog shows.
   * Toasts (top right) can cover the button, and a pointer resting on them keeps them open (CI: a
   * click intercepted for 20 s): they are closed first.
   */
  async openSendEmail() {
    const closeToast = this.page.getByRole("button", { name: "Close toast" });
    await expect(async () => {
      for (const close of await closeToast.all()) await close.click({ timeout: 1_000 }).catch(() => undefined);
      if (!(await this.emailDialog.isVisible())) await this.sendEmailButton.click({ timeout: 2_000 });
      await expect(this.emailDialog).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 20_000 });
  }

  /** Fills what is given in the open send-email dialog and presses its "Send Email". */
  async sendEmail(email: Email) {
    if (email.subject !== undefined) await this.emailDialog.getByLabel("Subject").fill(email.subject);
    if (email.message !== undefined) await this.emailDialog.getByLabel("Message").fill(email.message);
    await this.emailDialog.getByRole("button", { name: "Send Email" }).click();
  }
}
