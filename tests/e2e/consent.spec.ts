/**
 * The consent ledger end to end (issue 39): with "Apply an opt-out to every channel" switched on
 * in the SMS settings, a STOP reply (posted as Twilio posts it, signed with the webhook secret)
 * removes its sender from a running text blast and from an email automation whose message to them
 * is queued: the text is cancelled, the email never reaches the provider, while the others' go
 * out. The voter's page shows both opt-outs and where they came from.
 */
import { newBlock, type BlockType, type BlockValue, type EmailBlock } from "@convex/lib/email/blocks";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { postInbound } from "../support/fakeTwilio";
import { middayTimeZone } from "../support/middayTimeZone";
import { axeProblems } from "./a11y";
import { expect, test } from "./fixtures";
import { apiClientAs, FAKE_RESEND_URL, Mailbox, SITE_URL, uniqueEmail } from "./support";

function block(type: BlockType, id: string, content: Record<string, BlockValue>): EmailBlock {
  const b = newBlock(type, id, new Date(2026, 10, 1));
  Object.assign(b.content, content);
  return b;
}

const DESIGN = JSON.stringify([
  block("text", "tx", { text: "Welcome aboard! Doors open at 6 pm." }),
  block("footer", "ft", { companyName: "Friends of Alex Rivera", address: "500 Main Street, Springfield, IL 62701" }),
]);

test("a STOP reply removes its sender from a running text blast and an email automation", async ({
  page,
  smsCenterPage: sms,
  voterDetailPage,
  request,
  shot,
}) => {
  test.setTimeout(240_000);
  await sms.goto();
  await expect(sms.heading).toBeVisible();
  // the organisation's option, switched in the SMS settings
  await page.getByRole("button", { name: "Settings" }).click();
  await sms.dialog.getByRole("switch", { name: "Apply an opt-out to every channel" }).click();
  await expect(page.getByText("Opt-outs now apply to every channel")).toBeVisible();
  await shot("consent-settings");
  await page.keyboard.press("Escape");

  const client = await apiClientAs(page);
  // one text every ten seconds, in a zone where it is midday (federal hours are open whatever the hour)
  await client.mutation(api.sms.saveSettings, {
    settings: {
      quietStart: 0,
      quietEnd: 24,
      defaultTimeZone: middayTimeZone(),
      profile: "long_code",
      segmentsPerSecond: 0.1,
    },
  });

  // an automation that welcomes every new voter in Springfield, paused so its messages wait queued
  const campaignId = await client.mutation(api.emailCampaigns.create, {
    name: "Welcome",
    subject: "Welcome to the campaign",
    fromName: "Team",
    fromEmail: "team@alexrivera.org",
    replyTo: "",
    previewText: "",
    blocks: DESIGN,
  });
  const setup = (await client.query(api.emailBlasts.setup, { id: campaignId }))!;
  await client.mutation(api.emailBlasts.updateSetup, {
    id: campaignId,
    edits: [
      { field: "sendType", base: setup.sendType, value: "event" },
      { field: "eventTrigger", base: setup.eventTrigger, value: "voter_created" },
      {
        field: "eventRules",
        base: setup.eventRulesJson,
        value: JSON.stringify([
          { id: "r1", field: "city", operator: "equals", value: "Springfield", timeDelay: 0, timeUnit: "minutes" },
        ]),
      },
    ],
  });
  const { sendId: automationSendId } = await client.mutation(api.emailBlasts.send, { id: campaignId });
  await client.mutation(api.emailBlasts.control, { sendId: automationSendId as Id<"emailSends">, action: "pause" });

  const stellaEmail = uniqueEmail("stella");
  const samEmail = uniqueEmail("sam");
  const voter = (first: string, phone: string, email: string) =>
    client.mutation(api.voters.create, {
      fields: { first_name: first, last_name: "Consent", phone, email, city: "Springfield" },
    });
  const others = [await voter("Ann", "555-302-0001", uniqueEmail("ann")), await voter("Sam", "555-302-0002", samEmail)];
  const stella = await voter("Stella", "555-302-0009", stellaEmail);
  await expect
    .poll(async () => (await client.query(api.emailBlasts.progress, { id: campaignId }))?.counts.queued)
    .toBe(3);

  // the text blast: Stella last, so her text is still queued when she replies
  const { orgName } = await client.query(api.sms.overview, {});
  const smsSendId = await client.mutation(api.sms.start, {
    body: `${orgName}: polls are open until 8 pm. Reply STOP to opt out`,
    voterIds: [...others, stella],
  });
  await expect
    .poll(async () => (await client.query(api.sms.progress, { sendId: smsSendId }))?.counts.queued ?? 0)
    .toBeGreaterThan(0);

  // Stella replies STOP, as Twilio posts it (signed)
  const reply = await postInbound(SITE_URL, "+15553020009", "Stop");
  expect(reply.status).toBe(200);

  // the text to her is cancelled at once, the blast goes on for the others
  await expect.poll(async () => (await client.query(api.sms.progress, { sendId: smsSendId }))?.counts.optedOut).toBe(1);
  const history = await client.query(api.sms.history, {
    sendId: smsSendId,
    paginationOpts: { numItems: 10, cursor: null },
  });
  expect(history.page.find((m) => m.recipientName === "Stella Consent")?.status).toBe("cancelled");
  expect(history.page.filter((m) => m.recipientName !== "Stella Consent").every((m) => m.status !== "cancelled")).toBe(
    true,
  );

  // the automation goes on: Sam's welcome arrives, Stella's never leaves
  await client.mutation(api.emailBlasts.control, { sendId: automationSendId as Id<"emailSends">, action: "resume" });
  const mailbox = new Mailbox(request);
  expect((await mailbox.read(samEmail, { timeoutMs: 30_000 }))[0].subject).toBe("Welcome to the campaign");
  await expect
    .poll(async () => (await client.query(api.emailBlasts.progress, { id: campaignId }))?.counts.queued)
    .toBe(0);
  const toStella = await request.get(`${FAKE_RESEND_URL}/_fake/emails`, { params: { to: stellaEmail } });
  expect(((await toStella.json()) as { emails: unknown[] }).emails).toHaveLength(0);

  // her page: both channels opted out, with where each came from
  await voterDetailPage.goto(stella);
  const consent = page.getByTestId("voters.consent");
  await expect(consent.getByTestId("voters.consent.sms.state")).toHaveText("Opted out");
  await expect(consent.getByTestId("voters.consent.email.state")).toHaveText("Opted out");
  await expect(consent.getByTestId("voters.consent.sms")).toContainText("Text reply");
  await expect(consent.getByTestId("voters.consent.email")).toContainText("Opted out on the other channel");
  await consent.scrollIntoViewIfNeeded();
  await shot("consent-voter");
  expect(await axeProblems(page)).toEqual([]);
});
