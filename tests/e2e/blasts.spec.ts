/**
 * Email blasts end to end (issue 15), against the e2e server's fake of Resend:
 * "Email Group" on the groups page opens the dashboard, the campaign is picked and the group joins
 * its recipients (a teammate sees it live), manual addresses are added, Send now goes to the
 * provider, its delivery / open / click webhooks (svix-signed) fill the Statistics tab live in the
 * teammate's browser; a received email's one-click List-Unsubscribe header and the unsubscribe
 * page both work; the voter page lists the email. Every dashboard tab, the unsubscribe page and
 * the voter history pass axe and fit 390 px.
 */
import { newBlock, type BlockType, type BlockValue, type EmailBlock } from "@convex/lib/email/blocks";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { postWebhook } from "../support/fakeResend";
import { axeProblems, DESKTOP, overflowProblems, PHONE } from "./a11y";
import { expect, test, type Page } from "./fixtures";
import { EmailPage } from "./pages/EmailPage";
import { inviteTeammate } from "./pages/teammates";
import { UnsubscribePage } from "./pages/UnsubscribePage";
import { VoterDetailPage } from "./pages/VoterDetailPage";
import { apiClientAs, SITE_URL, uniqueEmail } from "./support";

function b(type: BlockType, id: string, content: Record<string, BlockValue> = {}): EmailBlock {
  const block = newBlock(type, id, new Date(2026, 10, 1));
  Object.assign(block.content, content);
  return block;
}

const DESIGN = [
  b("heading", "hd", { text: "Hi {{voter.first_name}}, the town hall is Thursday", level: "h1" }),
  b("text", "tx", { text: "Bring a neighbour. Doors open at 6 pm." }),
  b("button", "bt", { text: "RSVP", url: "https://example.org/rsvp" }),
  b("footer", "ft", { companyName: "Friends of Alex Rivera", address: "500 Main Street, Springfield, IL 62701" }),
];

async function toast(page: Page, text: string | RegExp) {
  await expect(page.locator("[data-sonner-toast]").filter({ hasText: text }).last()).toBeVisible();
}

/**
 * Checks the page at both widths (axe and, at 390 px, overflow); problems are collected for the end.
 * The Statistics tab's preview frame shows the email itself (sandboxed, no scripts): axe leaves
 * frames out (a11y.ts); the email's own markup is MJML's (tested in tests/lib/email/render.test.ts).
 */
async function audit(
  page: Page,
  name: string,
  failures: string[],
  shot: (name: string, opts?: { page?: Page }) => Promise<void>,
) {
  for (const size of [DESKTOP, PHONE]) {
    await page.setViewportSize(size);
    // the shared check: it waits for animations to end (a toast fading in is measured at its final colours)
    const problems = await axeProblems(page);
    if (size.width < DESKTOP.width) problems.push(...(await overflowProblems(page)));
    await shot(`blast-${name}-${size.width}`, { page });
    if (problems.length) failures.push(`■ ${name} at ${size.width}px\n    ${problems.join("\n    ")}`);
  }
  await page.setViewportSize(DESKTOP);
}

test("email a group: pick the campaign, add addresses, send now, webhooks fill Statistics live for a teammate, one-click unsubscribe", async ({
  page,
  emailPage: email,
  mailbox,
  openOtherBrowser,
  shot,
}) => {
  test.setTimeout(480_000);
  const failures: string[] = [];
  const api_ = await apiClientAs(page);
  const people = [
    { first_name: "Jane", last_name: "Ortiz", email: uniqueEmail("jane") },
    { first_name: "Omar", last_name: "Haddad", email: uniqueEmail("omar") },
    { first_name: "Lena", last_name: "Berg", email: uniqueEmail("lena") },
  ];
  const voterIds: Id<"voters">[] = [];
  for (const p of people) voterIds.push(await api_.mutation(api.voters.create, { fields: p }));
  const groupId = await api_.mutation(api.groups.create, { name: "Town hall invitees" });
  await api_.mutation(api.groups.addMembers, { groupId, voterIds });
  const campaignId = await api_.mutation(api.emailCampaigns.create, {
    name: "Town hall",
    subject: "Town hall on Thursday, {{voter.first_name}}",
    fromName: "Friends of Alex Rivera",
    fromEmail: "team@alexrivera.org",
    replyTo: "",
    previewText: "",
    blocks: JSON.stringify(DESIGN),
  });

  // a teammate follows the campaign's Send To tab
  const bob = await openOtherBrowser();
  await inviteTeammate(page, bob, mailbox, { firstName: "Bob", lastName: "Stone", role: "Campaign Manager" });
  const bobEmail = new EmailPage(bob);
  await bobEmail.gotoCampaign(campaignId, "send-to");
  await bobEmail.sendTo.groupsTab.click();
  const bobRow = bobEmail.sendTo.firstCheckbox();
  await expect(bobRow).not.toBeChecked();

  // Email Group on the groups page → the dashboard with the group pending → pick the campaign
  await page.goto("/voter-groups");
  await page.getByText("Town hall invitees").first().click();
  await page
    .getByRole("button", { name: /Actions/ })
    .first()
    .click();
  await page.getByRole("menuitem", { name: "Email Group" }).click();
  await expect(page).toHaveURL(new RegExp(`/email\\?tab=send-to&group=${groupId}`));
  await expect(email.groupPending).toBeVisible();
  await email.pickCampaign(/Town hall on Thursday/);
  await expect(page).toHaveURL(new RegExp(`campaign=${campaignId}`));
  await expect(page).not.toHaveURL(/group=/);
  await email.sendTo.groupsTab.click();
  const groupRow = email.sendTo.row("Town hall invitees");
  await expect(groupRow.getByRole("checkbox")).toBeChecked();
  await expect(bobRow).toBeChecked(); // live for the teammate

  // manual addresses: entries without @ are ignored, duplicates skipped
  const walkIn = uniqueEmail("walkin");
  await email.sendTo.addAddresses(`${walkIn}, not-an-address, ${people[0].email}`);
  await expect(email.sendTo.manualList).toContainText(walkIn);
  await expect(email.sendTo.recipientCount).toContainText("5");
  await audit(page, "send-to", failures, shot);

  // Automated: send now
  await email.openTab("Automated");
  await expect(email.automated.root).toBeVisible();
  await audit(page, "automated", failures, shot);
  await email.automated.send();
  // one click does not reach the whole audience: a confirmation names the count first
  await expect(email.automated.confirmation).toContainText("Send this campaign to 5 recipients now?");
  await email.automated.confirmSendNow();
  await expect(email.automated.sendStatus).toHaveText(/completed/i, { timeout: 30_000 });
  await expect(email.tab("Statistics")).toBeVisible();

  // what the provider received: personalised, one email per address (the duplicate skipped), unsubscribe headers
  const received = [];
  for (const p of [...people, { first_name: "", email: walkIn }]) {
    const [mail] = await mailbox.read(p.email);
    expect(mail, `email to ${p.email}`).toBeTruthy();
    expect(mail.subject).toBe(`Town hall on Thursday, ${p.first_name}`.trim().replace(/,$/, ","));
    expect(mail.headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    received.push(mail);
  }
  expect(await mailbox.read(people[0].email)).toHaveLength(1);
  expect(received[0].html).toContain("Hi Jane, the town hall is Thursday");
  expect(received[0].html).toContain("500 Main Street, Springfield, IL 62701");

  // Bob opens Statistics: no events yet (estimates, labelled); webhooks arrive and the cards move live
  await bobEmail.gotoCampaign(campaignId, "statistics");
  await expect(bobEmail.statistics.estimates).toBeVisible();
  for (const mail of received)
    expect((await postWebhook(SITE_URL, { type: "email.delivered", emailId: mail.id })).status).toBe(200);
  for (const mail of received.slice(0, 2))
    expect((await postWebhook(SITE_URL, { type: "email.opened", emailId: mail.id })).status).toBe(200);
  expect(
    (await postWebhook(SITE_URL, { type: "email.clicked", emailId: received[0].id, link: "https://example.org/rsvp" }))
      .status,
  ).toBe(200);
  expect(
    (await postWebhook(SITE_URL, { type: "email.delivered", emailId: received[1].id }, { forge: true })).status,
  ).toBe(401);
  await expect(bobEmail.statistics.estimates).toHaveCount(0);
  await expect(bobEmail.statistics.measured).toContainText("Delivered");
  await expect(bobEmail.statistics.heatMap).toContainText("https://example.org/rsvp");
  await expect(bobEmail.statistics.root).toContainText(/100(\.0)?\s?%/); // 4 of 4 delivered
  await shot("blast-statistics-teammate", { page: bob });
  // (axe runs on the first browser: its frame-aware run needs the test's own context)
  await email.openTab("Statistics");
  await expect(email.statistics.heatMap).toContainText("https://example.org/rsvp");
  await audit(page, "statistics", failures, shot);

  // one-click unsubscribe from the received email's header (as a mail client posts it)
  const oneClick = /<(https?:[^>]+)>/.exec(received[1].headers["List-Unsubscribe"])![1];
  const res = await fetch(oneClick, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: "List-Unsubscribe=One-Click",
  });
  expect(res.status).toBe(200);
  await expect(bobEmail.statistics.root).toContainText("Unsubscribed");

  // the unsubscribe page from another email's footer link: confirm, then it says so
  const pageLink = /href="([^"]*\/unsubscribe\?t=[^"]+)"/.exec(received[2].html ?? "")![1].replace(/&amp;/g, "&");
  const visitor = await openOtherBrowser();
  const unsubscribe = new UnsubscribePage(visitor);
  await visitor.goto(pageLink);
  await expect(unsubscribe.button).toBeVisible();
  await audit(visitor, "unsubscribe-page", failures, shot);
  await unsubscribe.unsubscribe();
  await expect(unsubscribe.done).toBeVisible();
  await visitor.goto(/href="([^"]*\/unsubscribe\?t=[^"]+)"/.exec(received[1].html ?? "")![1].replace(/&amp;/g, "&"));
  await expect(unsubscribe.already).toBeVisible();

  // the voter page lists the email with its status; the inbox lists the campaign as sent
  const voter = new VoterDetailPage(page);
  await voter.goto(voterIds[0]);
  const history = voter.emailHistory;
  await expect(history).toContainText("Town hall");
  await expect(history).toContainText(/Opened/);
  await audit(page, "voter-history", failures, shot);
  await email.gotoCampaign(campaignId, "inbox");
  await expect(email.inbox.root).toContainText("Town hall");
  await audit(page, "inbox", failures, shot);

  expect(failures, `\n${failures.join("\n\n")}\n`).toHaveLength(0);
});

test("schedule and automation setup: the browser's time zone is shown, rules need more than one to remove, cancel and stop", async ({
  page,
  emailPage: email,
  shot,
}) => {
  const failures: string[] = [];
  const client = await apiClientAs(page);
  const [v] = [
    await client.mutation(api.voters.create, {
      fields: { first_name: "Ana", last_name: "Lima", email: uniqueEmail("ana") },
    }),
  ];
  const groupId = await client.mutation(api.groups.create, { name: "Scheduled" });
  await client.mutation(api.groups.addMembers, { groupId, voterIds: [v] });
  const id = await client.mutation(api.emailCampaigns.create, {
    name: "Later",
    subject: "Later",
    fromName: "Team",
    fromEmail: "team@alexrivera.org",
    replyTo: "",
    previewText: "",
    blocks: JSON.stringify(DESIGN),
  });
  await client.mutation(api.emailBlasts.updateSetup, {
    id,
    edits: [{ field: "groupIds", base: [], value: [groupId] }],
  });
  const automated = email.automated;
  await email.gotoCampaign(id, "schedule");
  await expect(automated.root).toBeVisible();
  await automated.scheduleOption.click();
  const zone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
  await expect(automated.schedule).toContainText(zone);
  // the spec's check: both date and time
  await automated.send();
  await toast(page, "Schedule incomplete");
  const when = new Date(Date.now() + 2 * 86_400_000);
  const pad = (n: number) => String(n).padStart(2, "0");
  await automated.date.fill(`${when.getFullYear()}-${pad(when.getMonth() + 1)}-${pad(when.getDate())}`);
  await automated.time.fill("09:30");
  await automated.send();
  await expect(automated.scheduled).toBeVisible();
  await audit(page, "scheduled", failures, shot);
  await automated.cancelSchedule();
  await expect(automated.scheduled).toHaveCount(0);

  // filter rules: one rule cannot be removed, two can
  await automated.filterOption.click();
  await expect(automated.removeRuleButtons()).toHaveCount(0);
  await automated.addRule();
  await expect(automated.removeRuleButtons()).toHaveCount(2);
  await automated.send();
  await toast(page, "Filter rules incomplete");
  await audit(page, "filter-rules", failures, shot);
  expect(failures, `\n${failures.join("\n\n")}\n`).toHaveLength(0);
});
