/**
 * Surveys end to end (issue 17): build a two-page survey (rating, radio, checkbox, slider, skip
 * logic, required questions); answer it on the hosted page signed out (validation, Next, Submit);
 * the response appears live in the editor's Submissions tab; the notification email arrives in the
 * demo mailbox; the embed snippet works from a page on another localhost port. Two staffers co-edit
 * one survey and auto-save publishes what both did; typing in one question's label at once keeps
 * both people's keystrokes (issue 33 item 2).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "./fixtures";
import { holdableConnection } from "./pages/heldConnection";
import { PublicSurveyPage } from "./pages/PublicSurveyPage";
import { SurveyMakerPage } from "./pages/SurveyMakerPage";
import { inviteTeammate } from "./pages/teammates";
import { uniqueEmail } from "./support";

/** The public page needs a person's pace (spam protection: at least 2 s between loading and sending). */
const HUMAN_PACE_MS = 2_200;

async function serve(html: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { "Content-Type": "text/html" });
    res.end(
      `<!doctype html><html lang="en"><head><title>Campaign site</title></head><body><h1>Tell us</h1>${html}</body></html>`,
    );
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

test("build a two-page survey with skip logic, answer it publicly, see it live, get the email, embed it", async ({
  page,
  surveyMakerPage: maker,
  mailbox,
  openOtherBrowser,
  shot,
}) => {
  test.setTimeout(300_000);
  const lead = uniqueEmail("lead");
  await page.goto("/survey-maker?create=true");
  await expect(maker.createDialog).toBeVisible();
  await expect(page).toHaveURL(/\/survey-maker$/);
  await maker.create("Canvass feedback", { recipient: lead });
  await expect(page.getByText("Survey Created")).toBeVisible();
  await expect(maker.noSubmissions).toHaveText("No submissions yet");

  // page 1: a required rating and a required yes/no
  await maker.editTab.click();
  await maker.addQuestion("rating", "How was the visit?", { required: true });
  await maker.addQuestion("radio", "Would you volunteer?", { required: true, options: "Yes\nNo" });
  // moving is blocked at the ends
  await expect(maker.moveUp("How was the visit?")).toBeDisabled();
  await expect(maker.moveDown("Would you volunteer?")).toBeDisabled();
  // page 2, shown only to volunteers: a required checkbox list and a slider 0–20 by 2
  await maker.addPage();
  await maker.showPageOnlyWhen("Would you volunteer?", "Yes");
  await maker.addQuestion("checkbox", "Which days?", { required: true, options: "Saturday\nSunday" });
  await maker.addQuestion("slider", "Hours a week");
  await maker.max.fill("20");
  await maker.step.fill("2");
  // the last page cannot go
  await maker.pageTab(0).click();
  await maker.save();
  await expect(maker.saved).toBeVisible();
  await shot("surveys-editor");

  const { url, snippet } = await maker.readEmbed();
  await maker.submissionsTab.click();

  // a respondent, signed out: validation per page, the skip logic, Submit
  const visitor = await openOtherBrowser();
  const respondent = new PublicSurveyPage(visitor);
  await visitor.goto(url);
  await expect(respondent.heading("Canvass feedback")).toBeVisible();
  // before "Yes" only page 1 can show, so it ends with Submit; required answers are asked for first
  await respondent.submit();
  await expect(respondent.missingRequired).toBeVisible();
  await expect(respondent.fieldRequired).toHaveCount(3);
  await respondent.stars(4).click();
  await respondent.radio("Yes").click();
  await expect(respondent.progress).toBeVisible();
  await respondent.next();
  await expect(respondent.heading("Page 2")).toBeVisible();
  await respondent.submit();
  await expect(respondent.fieldRequired.first()).toBeVisible();
  await respondent.checkbox("Saturday").click();
  await respondent.slider.focus();
  for (let i = 0; i < 3; i++) await visitor.keyboard.press("ArrowRight");
  await expect(visitor.getByText("6", { exact: true })).toBeVisible();
  await respondent.email.fill("rosa@example.org");
  await visitor.waitForTimeout(HUMAN_PACE_MS);
  await respondent.submit();
  await expect(respondent.success).toBeVisible();
  // the thank-you stands alone: the answered form is gone, not shown blank beneath it
  await expect(respondent.stars(4)).toHaveCount(0);

  // live in the editor, without reloading; the summary counts it
  await expect(maker.submissionRows).toHaveCount(1);
  await expect(maker.submissionRows.first()).toContainText("rosa@example.org");
  await expect(maker.summary).toContainText("average 4.0");
  await maker.submissionRows.first().getByRole("button", { name: "Details" }).click();
  await expect(maker.details).toContainText("Saturday");
  await expect(maker.details).toContainText("6");
  await page.keyboard.press("Escape");
  await shot("surveys-submissions");

  // the notification email
  const [mail] = await mailbox.read(lead, { kind: "survey_submission" });
  expect(mail.subject).toBe('New response to "Canvass feedback"');
  expect(mail.text).toContain("Which days?: Saturday");

  // the snippet on another site: a non-volunteer skips page 2
  const site = await serve(snippet);
  try {
    const other = await openOtherBrowser();
    await other.goto(site.url);
    const embedded = new PublicSurveyPage(other.frameLocator("iframe"));
    await expect(embedded.heading("Canvass feedback")).toBeVisible();
    await embedded.stars(2).click();
    await embedded.radio("No").click();
    await expect(embedded.submitButton).toBeVisible();
    await embedded.email.fill("sam@example.org");
    await other.waitForTimeout(HUMAN_PACE_MS);
    await embedded.submit();
    await expect(embedded.success).toBeVisible();
  } finally {
    await site.close();
  }
  await expect(maker.submissionRows).toHaveCount(2);
  await expect(maker.submissionRows.first()).toContainText("sam@example.org");
});

test("two staffers co-edit one survey: questions and pages merge live, presence, auto-save publishes", async ({
  page,
  surveyMakerPage: alice,
  mailbox,
  openOtherBrowser,
}) => {
  test.setTimeout(480_000);
  const other = await openOtherBrowser();
  const bob = new SurveyMakerPage(other);
  const bobNet = await holdableConnection(other.context());
  await inviteTeammate(page, other, mailbox, { firstName: "Bob", lastName: "Stone", role: "Campaign Manager" });
  await alice.goto();
  await alice.startCreate();
  await alice.create("Town hall");
  await alice.editTab.click();
  const url = new URL(page.url());
  await other.goto(`${url.pathname}${url.search}`);
  await bob.editTab.click();
  await expect(alice.presence("Bob Stone")).toBeVisible();

  // at the same time: Alice adds a question on page 1, Bob adds a page with its own question
  await alice.addQuestion("text", "Your question for the mayor");
  await bob.addPage();
  await bob.addQuestion("rating", "How useful was it?");
  await expect(bob.pageTab(0)).toBeVisible();
  await bob.pageTab(0).click();
  await expect(bob.fieldRow(0)).toContainText("Your question for the mayor");
  await alice.pageTab(1).click();
  await expect(alice.fieldRow(0)).toContainText("How useful was it?");
  // both type in that question's label at once (Bob's connection stalled): both keystrokes stay
  await alice.fieldRow(0).click();
  await bob.pageTab(1).click();
  await bob.fieldRow(0).click();
  await expect(bob.label).toHaveValue("How useful was it?");
  bobNet.hold();
  await alice.label.press("End");
  await alice.label.pressSequentially(" (1 to 5)");
  await bob.label.press("Home");
  await bob.label.pressSequentially("Honestly: ");
  await bobNet.release();
  for (const p of [alice, bob]) await expect(p.label).toHaveValue("Honestly: How useful was it? (1 to 5)");
  // auto-save is on by default: both screens settle on Saved, and a respondent gets both pages
  await expect(alice.saved).toBeVisible({ timeout: 15_000 });
  await expect(bob.saved).toBeVisible({ timeout: 15_000 });
  await alice.backToSurveys.click();
  await expect(alice.cards).toContainText("2 pages");
  await expect(alice.cards).toContainText("2 questions");
});
