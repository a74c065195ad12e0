/** /campaigns/sms (and /messaging): the SMS center: tiles, campaigns, quick send, recent messages, the activity log, its modals. */
import type { Locator, Page } from "@playwright/test";
import { choose, ConfirmDialog } from "./controls";

export type CampaignFields = { name?: string; description?: string; message?: string };

export class SmsCenterPage {
  readonly heading: Locator;
  readonly emptyState: Locator;
  readonly demoBadge: Locator;
  readonly demoCallout: Locator;
  /** Campaign History: one row per campaign */
  readonly campaignRows: Locator;
  /** Quick Send */
  readonly recipientRows: Locator;
  readonly selectedCount: Locator;
  readonly extraPhone: Locator;
  readonly message: Locator;
  readonly composerCount: Locator;
  readonly unicodeWarning: Locator;
  readonly quickProgress: Locator;
  readonly recentRows: Locator;
  readonly log: Locator;
  readonly activeSends: Locator;
  /** the open dialog (campaign, send, history, settings) */
  readonly dialog: Locator;
  readonly summary: Locator;
  readonly messageHistoryRows: Locator;
  readonly optOutException: Locator;
  readonly deleteConfirmation: ConfirmDialog;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { name: "SMS Center" });
    this.emptyState = page.getByText('No SMS campaigns created yet. Click "New SMS Campaign" to get started.');
    this.demoBadge = page.getByTestId("sms.demoBadge");
    this.demoCallout = page.getByTestId("sms.demoCallout");
    this.campaignRows = page.getByTestId("sms.campaign");
    this.recipientRows = page.getByTestId("sms.recipient");
    this.selectedCount = page.getByTestId("sms.selectedCount");
    this.extraPhone = page.getByLabel("Additional Phone Number");
    this.message = page.getByRole("textbox", { name: "Message", exact: true });
    this.composerCount = page.getByTestId("sms.composer.count");
    this.unicodeWarning = page.getByTestId("sms.composer.unicode");
    this.quickProgress = page.getByTestId("sms.quickProgress");
    this.recentRows = page.getByTestId("sms.recentRow");
    this.log = page.getByRole("log", { name: "Activity log" });
    this.activeSends = page.getByTestId("sms.activeSend");
    this.dialog = page.getByRole("dialog");
    this.summary = page.getByTestId("sms.summary");
    this.messageHistoryRows = page.getByTestId("sms.messageRow");
    this.optOutException = page.getByRole("alertdialog", { name: "Opt-out language missing" });
    this.deleteConfirmation = new ConfirmDialog(page, "Delete Campaign");
  }

  async goto() {
    await this.page.goto("/messaging");
  }

  /** A counter card, by its label ("Total Text Blast"). */
  stat(label: string): Locator {
    return this.page.getByTestId(`sms.stat.${label}.value`);
  }

  async openTab(name: "Text Blast" | "Quick Send") {
    await this.page.getByRole("tab", { name }).click();
  }

  /** SMS Settings: sending hours (0–24), pace. */
  async saveSettings(settings: { from?: string; until?: string; pace?: string }) {
    await this.page.getByRole("button", { name: "Settings" }).click();
    if (settings.from) await choose(this.dialog.getByRole("combobox", { name: "Send from" }), settings.from);
    if (settings.until) await choose(this.dialog.getByRole("combobox", { name: "Send until" }), settings.until);
    if (settings.pace !== undefined) await this.dialog.getByLabel("Pace (segments per second)").fill(settings.pace);
    await this.dialog.getByRole("button", { name: "Save Settings" }).click();
  }

  async filterRecipients(status: string) {
    await choose(this.page.getByRole("combobox", { name: "Voter status" }), status);
  }

  recipientCheckbox(name: string): Locator {
    return this.page.getByRole("checkbox", { name: `Select ${name}` });
  }

  sendButton(): Locator {
    return this.page.getByRole("button", { name: /^Send to \d+ Recipients$/ });
  }

  async openNewCampaign() {
    await this.page.getByRole("button", { name: "New SMS" }).click();
  }

  /** Fills what is given in the open Create/Edit campaign dialog. */
  async fillCampaign(fields: CampaignFields) {
    if (fields.name !== undefined) await this.dialog.getByLabel("Campaign Name").fill(fields.name);
    if (fields.description !== undefined) await this.dialog.getByLabel("Description").fill(fields.description);
    if (fields.message !== undefined)
      await this.dialog.getByRole("textbox", { name: "Message", exact: true }).fill(fields.message);
  }

  groupCheckbox(name: string): Locator {
    return this.dialog
      .getByRole("group", { name: "Voter groups" })
      .getByRole("checkbox", { name: new RegExp(`^${name}`) });
  }

  summaryValue(key: "recipients" | "optedOut" | "noPhone" | "segments" | "eta"): Locator {
    return this.page.getByTestId(`sms.summary.${key}`);
  }

  campaignRow(name: string): Locator {
    return this.campaignRows.filter({ hasText: name });
  }

  async campaignAction(action: "Send" | "Edit" | "Delete" | "Messages of", name: string) {
    await this.page.getByRole("button", { name: `${action} campaign ${name}` }).click();
  }
}
