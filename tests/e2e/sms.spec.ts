/**
 * SMS center end to end, in demo mode (the e2e server has no Twilio credentials): a quick send to
 * three ticked voters watched live from a second browser; a campaign aimed at a group from the
 * group page's "SMS Group", sent, its messages in the history; edit and delete.
 */
import { api } from "@convex/_generated/api";
import { middayTimeZone } from "../support/middayTimeZone";
import { expect, test, type Page } from "./fixtures";
import { LoginModal } from "./pages/LoginModal";
import { SmsCenterPage } from "./pages/SmsCenterPage";
import type { VoterFields, VoterFormPage } from "./pages/VoterFormPage";
import { apiClientAs } from "./support";

type Voter = VoterFields & { phone?: string };

/** Creates a voter (with a phone when given) through the voter form; returns its id. */
async function createVoter(page: Page, form: VoterFormPage, voter: Voter): Promise<string> {
  await form.gotoNew();
  await form.fill(voter);
  if (voter.phone) await form.phone.fill(voter.phone);
  await form.submit();
  // the detail page (not /voters/new, which the same pattern would match)
  await expect(page.getByRole("heading", { name: `${voter.firstName} ${voter.lastName}` })).toBeVisible({
    timeout: 15_000,
  });
  await expect(page).toHaveURL(/\/voters\/(?!new$)[a-z0-9]+$/);
  return page.url().split("/").pop()!;
}

/**
 * Sending all day long (fast unless a pace is given): the e2e may run at any hour, and quiet hours
 * would hold the messages. The voters here have no state or ZIP, so they are in the default zone:
 * made one where it is midday now, as federal hours (8 am-9 pm) hold texts whatever the settings.
 */
async function sendAllDay(sms: SmsCenterPage, pace = "5") {
  await sms.saveSettings({ from: "12 am (midnight)", until: "12 am (end of day)", pace });
  await expect(sms.page.getByText("SMS settings saved")).toBeVisible();
  const client = await apiClientAs(sms.page);
  const { settings } = await client.query(api.sms.overview, {});
  await client.mutation(api.sms.saveSettings, {
    settings: {
      quietStart: settings.quietStart,
      quietEnd: settings.quietEnd,
      defaultTimeZone: middayTimeZone(),
      profile: settings.profile,
      ...(settings.paceOverride === null ? {} : { segmentsPerSecond: settings.paceOverride }),
    },
  });
}

const SETTLED = /^(demo|failed)$/;

test("quick send to three ticked voters in demo mode, watched live from a second browser", async ({
  page,
  account,
  voterFormPage,
  smsCenterPage: sms,
  voterDetailPage,
  openOtherBrowser,
  shot,
}) => {
  test.setTimeout(300_000);
  const adaId = await createVoter(page, voterFormPage, {
    firstName: "Ada",
    lastName: "Texter",
    phone: "(555) 201-0001",
    status: "Active",
  });
  await createVoter(page, voterFormPage, {
    firstName: "Ben",
    lastName: "Texter",
    phone: "555.201.0002",
    status: "Active",
  });
  await createVoter(page, voterFormPage, {
    firstName: "Cy",
    lastName: "Texter",
    phone: "+15552010003",
    status: "Active",
  });
  await createVoter(page, voterFormPage, { firstName: "Dee", lastName: "Nophone", status: "Inactive" });

  // a teammate (same account, another browser) watches the SMS center
  const other = await openOtherBrowser();
  await new LoginModal(other).signIn(account.email, account.password);
  const watcher = new SmsCenterPage(other);
  await watcher.goto();
  await expect(watcher.heading).toBeVisible();

  await sms.goto();
  await expect(sms.demoBadge).toHaveText("DEMO MODE");
  await expect(sms.demoCallout).toBeVisible();
  await sendAllDay(sms);

  await sms.openTab("Quick Send");
  await expect(sms.recipientRows).toHaveCount(4);
  await expect(sms.selectedCount).toHaveText("0 of 4 voters selected");
  await expect(sms.extraPhone).toHaveValue("");
  // only voters with a phone can be ticked
  await expect(sms.recipientCheckbox("Dee Nophone")).toBeDisabled();
  await sms.filterRecipients("Inactive");
  await expect(sms.recipientRows).toHaveCount(1);
  await sms.filterRecipients("Active");
  await expect(sms.recipientRows).toHaveCount(3);
  await page.getByRole("button", { name: "Refresh voters" }).click();
  await expect(sms.recipientRows).toHaveCount(3);

  // refusals before anything is sent
  await sms.sendButton().click();
  await expect(page.getByText("Please enter a message to send.")).toBeVisible();
  await sms.message.fill("Hello");
  await sms.sendButton().click();
  await expect(
    page.getByText("Please select voters or enter an additional phone number to send messages."),
  ).toBeVisible();

  for (const name of ["Ada Texter", "Ben Texter", "Cy Texter"]) await sms.recipientCheckbox(name).click();
  await expect(sms.selectedCount).toHaveText("3 of 3 voters selected");
  await expect(sms.sendButton()).toHaveText("Send to 3 Recipients");

  // an invalid additional number is refused with the spec's text
  await sms.extraPhone.fill("12345");
  await sms.sendButton().click();
  await expect(page.getByText("Invalid phone number format. Please use a valid phone number.").first()).toBeVisible();
  await sms.extraPhone.fill("");

  // segment counting: UCS-2 names the character that forces it; long GSM-7 splits at 153
  await sms.message.fill("Vote early ✓");
  await expect(sms.unicodeWarning).toContainText("“✓”");
  await expect(sms.composerCount).toContainText("1 segment · UCS-2");
  await sms.message.fill("x".repeat(161));
  await expect(sms.composerCount).toHaveText("161 characters · 2 segments · GSM-7");
  await expect(sms.unicodeWarning).toBeHidden();
  await sms.message.fill("Polls open at 7am tomorrow. See you there!");
  await expect(sms.composerCount).toContainText("1 segment · GSM-7");
  await shot("sms-quick-send");

  // the preflight asks for opt-out language; the sender confirms the exception
  await sms.sendButton().click();
  await expect(sms.optOutException).toBeVisible();
  await shot("sms-opt-out-preflight");
  await sms.optOutException.getByRole("button", { name: "Send anyway" }).click();
  await expect(sms.optOutException).toBeHidden();
  await expect(sms.quickProgress.getByTestId("sms.progress.percent")).toHaveText("100%", { timeout: 30_000 });
  // the summary toast of a demo send
  await expect(page.getByText(/^No text left the server/)).toBeVisible();

  // the teammate saw it live: three settled statuses and the log
  await expect(watcher.recentRows).toHaveCount(3, { timeout: 20_000 });
  for (const row of await watcher.recentRows.all()) {
    await expect(row.getByTestId("sms.status")).toHaveAttribute("data-status", SETTLED, { timeout: 20_000 });
    await expect(row).toContainText("Polls open at 7am");
  }
  await expect(watcher.log).toContainText("started a quick send");
  await expect(watcher.log).toContainText("3 messages queued");
  await expect(watcher.log).toContainText("Send finished");
  await shot("sms-watcher", { page: other, fullPage: true });

  // Clear Log empties the view only
  await watcher.page.getByRole("button", { name: "Clear Log" }).click();
  await expect(watcher.log).toContainText("No activity yet.");
  await expect(sms.log).toContainText("Send finished");

  // Message History
  await page.getByRole("button", { name: "View All" }).click();
  await expect(sms.messageHistoryRows).toHaveCount(3);
  await expect(sms.dialog).toContainText("+15552010001");
  await shot("sms-message-history");
  await page.keyboard.press("Escape");

  // the voter's contact history
  await voterDetailPage.goto(adaId);
  const card = page.getByTestId("voters.smsHistory");
  await expect(card).toContainText("Polls open at 7am tomorrow.");
  await expect(card.getByTestId("sms.status")).toHaveAttribute("data-status", SETTLED);

  // opting the number out by hand shows on the voter; opting back in clears it
  await card.getByRole("button", { name: "Opt out of SMS" }).click();
  await expect(card.getByTestId("voters.smsOptedOut")).toHaveText("Opted out of SMS");
  await card.getByRole("button", { name: "Opt back in" }).click();
  await expect(card.getByTestId("voters.smsOptedOut")).toBeHidden();
});

test("a campaign aimed at a group from the group page's SMS Group, sent, its messages in history", async ({
  page,
  voterFormPage,
  groupsPage: groups,
  smsCenterPage: sms,
  shot,
}) => {
  test.setTimeout(300_000);
  await createVoter(page, voterFormPage, { firstName: "Gil", lastName: "Grouped", phone: "555-301-0001" });
  await createVoter(page, voterFormPage, { firstName: "Hal", lastName: "Grouped", phone: "555-301-0002" });
  await createVoter(page, voterFormPage, { firstName: "Ivy", lastName: "Nophone" });

  await sms.goto();
  await expect(sms.emptyState).toBeVisible();
  await sendAllDay(sms);

  await groups.goto();
  await groups.openCreateGroup();
  await groups.saveGroup({ name: "Canvassers" });
  await expect(page.getByText("Group Created")).toBeVisible();
  await groups.openAddVoters("Canvassers");
  await groups.selectAllVoters();
  await groups.addSelectedVoters();
  await expect(page.getByText("Voters Added Successfully")).toBeVisible();
  await groups.openGroup("Canvassers");
  await page.getByRole("button", { name: "Actions" }).click();
  await page.getByRole("menuitem", { name: "SMS Group" }).click();

  // Create SMS Campaign opens with the group ticked and the summary of who it reaches
  await expect(page).toHaveURL(/\/campaigns\/sms\?group=/);
  await expect(sms.dialog.getByRole("heading", { name: "Create SMS Campaign" })).toBeVisible();
  await expect(sms.groupCheckbox("Canvassers")).toBeChecked();
  await expect(sms.summaryValue("recipients")).toHaveText("2");
  await expect(sms.summaryValue("noPhone")).toHaveText("1");
  await expect(sms.summaryValue("optedOut")).toHaveText("0");

  await sms.dialog.getByRole("button", { name: "Create Campaign" }).click();
  await expect(page.getByText("Campaign name required")).toBeVisible();
  await expect(page.getByText("Please enter a campaign name.")).toBeVisible();

  await sms.fillCampaign({
    name: "Early vote push",
    description: "Canvassers only",
    message: "Early voting starts Monday at the library.",
  });
  await sms.dialog.getByRole("button", { name: "Add opt-out line" }).click();
  await expect(sms.dialog.getByRole("textbox", { name: "Message", exact: true })).toHaveValue(/Reply STOP to opt out$/);
  await expect(sms.summaryValue("segments")).toHaveText("2");
  await expect(sms.summaryValue("eta")).toContainText("at 5 segments/s");
  await shot("sms-create-campaign");
  await sms.dialog.getByRole("button", { name: "Create Campaign" }).click();
  await expect(page.getByText("Campaign created")).toBeVisible();
  await expect(page).not.toHaveURL(/group=/);
  await expect(sms.campaignRow("Early vote push")).toContainText("draft");
  await expect(sms.stat("Total Text Blast")).toHaveText("1");

  // Send Campaign: summary, then the server sends it
  await sms.campaignAction("Send", "Early vote push");
  await expect(sms.dialog.getByRole("heading", { name: "Send Campaign" })).toBeVisible();
  await expect(sms.summaryValue("recipients")).toHaveText("2");
  await shot("sms-send-campaign");
  await sms.dialog.getByRole("button", { name: "Send Campaign" }).click();
  await expect(sms.dialog).toBeHidden();
  await expect(sms.campaignRow("Early vote push")).toContainText("completed", { timeout: 30_000 });

  // its messages in the history
  await sms.campaignAction("Messages of", "Early vote push");
  await expect(sms.messageHistoryRows).toHaveCount(2);
  for (const row of await sms.messageHistoryRows.all()) {
    await expect(row).toContainText("Early voting starts Monday");
    await expect(row.getByTestId("sms.status")).toHaveAttribute("data-status", SETTLED);
  }
  await expect(sms.dialog).toContainText("Gil Grouped");
  await expect(sms.dialog).toContainText("Hal Grouped");
  await page.keyboard.press("Escape");
  await shot("sms-campaign-sent", { fullPage: true });

  // edit: the update button is disabled while the name is blank
  await sms.campaignAction("Edit", "Early vote push");
  await sms.fillCampaign({ name: "" });
  await expect(sms.dialog.getByRole("button", { name: "Update Campaign" })).toBeDisabled();
  await sms.fillCampaign({ name: "Early vote push 2" });
  await sms.dialog.getByRole("button", { name: "Update Campaign" }).click();
  await expect(page.getByText("Campaign updated")).toBeVisible();
  await expect(sms.campaignRow("Early vote push 2")).toBeVisible();

  // delete with the spec's confirmation
  await sms.campaignAction("Delete", "Early vote push 2");
  await expect(
    page.getByText('Are you sure you want to delete the campaign "Early vote push 2"? This action cannot be undone.'),
  ).toBeVisible();
  await sms.deleteConfirmation.confirm();
  await expect(page.getByText("Campaign deleted")).toBeVisible();
  await expect(sms.emptyState).toBeVisible();
});

test("a running send at phone width: progress, pause, resume, cancel with confirmation", async ({
  page,
  voterFormPage,
  smsCenterPage: sms,
  shot,
}) => {
  test.setTimeout(300_000);
  // a phone: the app shell collapses its sidebar into the navigation menu below 768 px
  await page.setViewportSize({ width: 390, height: 844 });
  const slow = ["Kim", "Lou", "Max", "Ned"];
  for (const [i, firstName] of slow.entries())
    await createVoter(page, voterFormPage, { firstName, lastName: "Slow", phone: `555-401-000${i + 1}` });

  await sms.goto();
  await expect(sms.heading).toBeVisible();
  await shot("sms-mobile-top", { fullPage: true });
  // one segment every ten seconds: the send is still running while it is paused and cancelled
  await sendAllDay(sms, "0.1");

  await sms.openTab("Quick Send");
  await page.getByRole("checkbox", { name: "Select all voters with a phone" }).click();
  await expect(sms.selectedCount).toHaveText("4 of 4 voters selected");
  await sms.extraPhone.fill("555 401 0009");
  await expect(sms.sendButton()).toHaveText("Send to 5 Recipients");
  await sms.message.fill("Thanks for your support! Reply STOP to opt out.");
  await page.getByRole("button", { name: "Add opt-out line" }).click();
  await sms.sendButton().click();

  const running = sms.activeSends.first();
  await expect(running).toBeVisible();
  await expect(running).toContainText("Quick send");
  await shot("sms-mobile-running", { fullPage: true });
  await running.getByRole("button", { name: "Pause" }).click();
  await expect(page.getByText("Send paused")).toBeVisible();
  await expect(running).toContainText("paused");
  await running.getByRole("button", { name: "Resume" }).click();
  await expect(page.getByText("Send resumed")).toBeVisible();
  await running.getByRole("button", { name: "Cancel" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Cancel this send?" });
  await expect(confirm).toContainText("Messages already sent stay sent.");
  await shot("sms-mobile-cancel");
  await confirm.getByRole("button", { name: "Cancel Send" }).click();
  await expect(page.getByText("Send cancelled")).toBeVisible();
  await expect(sms.activeSends).toHaveCount(0);
  await expect(sms.log).toContainText(/cancel/i);

  // what was still queued is cancelled in the history
  await page.getByRole("button", { name: "View All" }).click();
  await expect(sms.messageHistoryRows).toHaveCount(5);
  await expect(sms.dialog.getByText("cancelled", { exact: true }).first()).toBeVisible();
  await shot("sms-mobile-history");
  await page.keyboard.press("Escape");

  await sms.openNewCampaign();
  await expect(sms.dialog.getByRole("heading", { name: "Create SMS Campaign" })).toBeVisible();
  await shot("sms-mobile-create");
});
