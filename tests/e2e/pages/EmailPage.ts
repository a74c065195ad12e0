/**
 * /email?campaign=…&tab=…: the email blast dashboard. Its tabs (Create & Edit, Inbox, Send To,
 * Automated, Statistics) each have an object here; Create & Edit is the email builder
 * (EmailBuilderPage).
 */
import type { Locator, Page } from "@playwright/test";
import { EmailBuilderPage } from "./EmailBuilderPage";

/** The `tab` parameter: the dashboard's tabs and the navigation's aliases of Automated (schedule, setup, automate). */
export type EmailTabParam =
  "create-and-edit" | "inbox" | "send-to" | "automated" | "statistics" | "schedule" | "setup" | "automate";
export type EmailTabLabel = "Create & Edit" | "Inbox" | "Send To" | "Automated" | "Statistics";

export class EmailPage {
  /** the campaign picker at the top of the dashboard */
  readonly picker: Locator;
  /** a group handed over by "Email Group", waiting for a campaign to be picked */
  readonly groupPending: Locator;
  readonly createEdit: EmailBuilderPage;
  readonly inbox: InboxTab;
  readonly sendTo: SendToTab;
  readonly automated: AutomatedTab;
  readonly statistics: StatisticsTab;

  constructor(readonly page: Page) {
    this.picker = page.getByTestId("email.dashboard.picker");
    this.groupPending = page.getByTestId("email.groupPending");
    this.createEdit = new EmailBuilderPage(page);
    this.inbox = new InboxTab(page);
    this.sendTo = new SendToTab(page);
    this.automated = new AutomatedTab(page);
    this.statistics = new StatisticsTab(page);
  }

  /** Opens a campaign's dashboard on a tab. */
  async gotoCampaign(campaignId: string, tab: EmailTabParam) {
    await this.page.goto(`/email?campaign=${campaignId}&tab=${tab}`);
  }

  tab(label: EmailTabLabel): Locator {
    return this.page.getByRole("tab", { name: label });
  }

  async openTab(label: EmailTabLabel) {
    await this.tab(label).click();
  }

  /** Picks the campaign whose option matches `option` (its subject line). */
  async pickCampaign(option: RegExp | string) {
    await this.picker.click();
    await this.page.getByRole("option", { name: option }).click();
  }
}

/** Send To: groups, lists and segments to include, and manual addresses. */
export class SendToTab {
  readonly root: Locator;
  /** the Groups sub-tab */
  readonly groupsTab: Locator;
  /** the rows of the open sub-tab (a group, list or segment each) */
  readonly rows: Locator;
  readonly manualInput: Locator;
  readonly manualList: Locator;
  readonly recipientCount: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByTestId("email.sendTo");
    this.groupsTab = page.getByRole("tab", { name: "Groups" });
    this.rows = this.root.locator('[data-testid$=".row"]');
    this.manualInput = page.getByLabel("Add email addresses");
    this.manualList = page.getByRole("list", { name: "Manual recipients" });
    this.recipientCount = page.getByTestId("email.recipientCount");
  }

  /** The row of the group, list or segment named `name`. */
  row(name: string): Locator {
    return this.rows.filter({ hasText: name });
  }

  /** The first include checkbox of the open sub-tab. */
  firstCheckbox(): Locator {
    return this.root.getByRole("checkbox").first();
  }

  /** Adds manual addresses (comma or line separated, as typed). */
  async addAddresses(text: string) {
    await this.manualInput.fill(text);
    await this.page.getByRole("button", { name: "Add addresses" }).click();
  }
}

/** Automated: send now, schedule, event and filter automations; the send's progress. */
export class AutomatedTab {
  readonly root: Locator;
  readonly sendButton: Locator;
  /** the "are you sure?" before a send reaches its audience */
  readonly confirmation: Locator;
  readonly sendStatus: Locator;
  readonly scheduleOption: Locator;
  readonly filterOption: Locator;
  readonly schedule: Locator;
  readonly date: Locator;
  readonly time: Locator;
  readonly scheduled: Locator;
  readonly filterRules: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByTestId("email.automated");
    this.sendButton = page.getByTestId("email.send");
    this.confirmation = page.getByRole("alertdialog");
    this.sendStatus = page.getByTestId("email.sendProgress.status");
    this.scheduleOption = page.getByRole("radio", { name: /Schedule/ });
    this.filterOption = page.getByRole("radio", { name: /Filter/ });
    this.schedule = page.getByTestId("email.schedule");
    this.date = page.getByLabel("Date");
    this.time = page.getByLabel("Time");
    this.scheduled = page.getByTestId("email.status.scheduled");
    this.filterRules = page.getByTestId("email.filterRules");
  }

  /** The main action (Send now, Schedule, Start automation): checks first, then asks to confirm a send now. */
  async send() {
    await this.sendButton.click();
  }

  async confirmSendNow() {
    await this.confirmation.getByRole("button", { name: "Send now" }).click();
  }

  async cancelSchedule() {
    await this.page.getByRole("button", { name: "Cancel schedule" }).click();
  }

  removeRuleButtons(): Locator {
    return this.filterRules.getByRole("button", { name: /Remove/ });
  }

  async addRule() {
    await this.filterRules.getByRole("button", { name: /Add rule/ }).click();
  }
}

/** Statistics: the cards (estimates until the provider's events arrive, then measured), the link heat map. */
export class StatisticsTab {
  readonly root: Locator;
  readonly estimates: Locator;
  readonly measured: Locator;
  readonly heatMap: Locator;

  constructor(page: Page) {
    this.root = page.getByTestId("email.stats");
    this.estimates = page.getByTestId("email.stats.estimates");
    this.measured = page.getByTestId("email.stats.measured");
    this.heatMap = page.getByTestId("email.stats.heatMap");
  }
}

/** Inbox: the campaigns and their sends. */
export class InboxTab {
  readonly root: Locator;

  constructor(page: Page) {
    this.root = page.getByTestId("email.inbox");
  }
}
