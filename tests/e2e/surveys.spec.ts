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
import { expect, test, type Page } from "./fixtures";
import { holdableConnection } from "./pages/heldConnection";
import { inviteTeammate } from "./pages/teammates";
import { uniqueEmail } from "./support";

/** The public page needs a person's pace (spam protection: at least 2 s between loading and sending). */
const HUMAN_PACE_MS = 2_200;

async function serve(html: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { "Content-Type": "text/html" });
    res.end(`<!doctype html><html lang="en"><head><title>Campaign site</title></head><body><h1>Tell us</h1>${html}</body></html>`);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => new Promise((r) => server.close(() => r())) };
}

async function addQuestion(page: Page, type: string, label: string, opts: { required?: boolean; options?: string } = {}) {
  await page.getByTestId(`survey.add.${type}`).click();
  await page.getByTestId("survey.prop.label").fill(label);
  if (opts.options) await page.getByTestId("survey.prop.options").fill(opts.options);
  if (opts.required) await page.getByTestId("survey.prop.required").click();
}

test("build a two-page survey with skip logic, answer it publicly, see it live, get the email, embed it", async ({ page, account: _account, mailbox, openOtherBrowser, shot }) => {
  test.setTimeout(300_000);
  const lead = uniqueEmail("lead");
  await page.goto("/survey-maker?create=true");
  await expect(page.getByRole("dialog", { name: "Create Survey" })).toBeVisible();
  await expect(page).toHaveURL(/\/survey-maker$/);
  await page.getByTestId("survey.createName").fill("Canvass feedback");
  await page.getByLabel("Recipient email (optional)").fill(lead);
  await page.getByTestId("survey.createSubmit").click();
  await expect(page.getByText("Survey Created")).toBeVisible();
  await expect(page.getByTestId("survey.noSubmissions")).toHaveText("No submissions yet");

  // page 1: a required rating and a required yes/no
  await page.getByRole("tab", { name: "Edit Survey" }).click();
  await addQuestion(page, "rating", "How was the visit?", { required: true });
  await addQuestion(page, "radio", "Would you volunteer?", { required: true, options: "Yes\nNo" });
  // moving is blocked at the ends
  await expect(page.getByRole("button", { name: "Move How was the visit? up" })).toBeDisabled();
  await expect(page.getByRole("button", { name: "Move Would you volunteer? down" })).toBeDisabled();
  // page 2, shown only to volunteers: a required checkbox list and a slider 0–20 by 2
  await page.getByTestId("survey.addPage").click();
  await page.getByRole("combobox", { name: "Show this page only when: question" }).click();
  await page.getByRole("option", { name: "Would you volunteer?" }).click();
  await page.getByRole("textbox", { name: "Show this page only when: value" }).fill("Yes");
  await addQuestion(page, "checkbox", "Which days?", { required: true, options: "Saturday\nSunday" });
  await addQuestion(page, "slider", "Hours a week");
  await page.getByTestId("survey.prop.max").fill("20");
  await page.getByTestId("survey.prop.step").fill("2");
  // the last page cannot go
  await page.getByTestId("survey.page.0").click();
  await page.getByTestId("survey.save").click();
  await expect(page.getByTestId("survey.saved")).toBeVisible();
  await shot("surveys-editor");

  await page.getByTestId("survey.embed").click();
  const url = (await page.getByTestId("survey.embedUrl").textContent())!;
  const snippet = await page.getByTestId("survey.embedCode").inputValue();
  await page.keyboard.press("Escape");
  await page.getByTestId("survey.tab.submissions").click();

  // a respondent, signed out: validation per page, the skip logic, Submit
  const visitor = await openOtherBrowser();
  await visitor.goto(url);
  await expect(visitor.getByRole("heading", { name: "Canvass feedback" })).toBeVisible();
  // before "Yes" only page 1 can show, so it ends with Submit; required answers are asked for first
  await visitor.getByTestId("survey.submit").click();
  await expect(visitor.getByText("Please fill in all required fields")).toBeVisible();
  await expect(visitor.getByText("This field is required")).toHaveCount(3);
  await visitor.getByRole("button", { name: "4 stars" }).click();
  await visitor.getByRole("radio", { name: "Yes" }).click();
  await expect(visitor.getByTestId("survey.progress")).toBeVisible();
  await visitor.getByTestId("survey.next").click();
  await expect(visitor.getByRole("heading", { name: "Page 2" })).toBeVisible();
  await visitor.getByTestId("survey.submit").click();
  await expect(visitor.getByText("This field is required").first()).toBeVisible();
  await visitor.getByRole("checkbox", { name: "Saturday" }).click();
  await visitor.getByRole("slider").focus();
  for (let i = 0; i < 3; i++) await visitor.keyboard.press("ArrowRight");
  await expect(visitor.getByText("6", { exact: true })).toBeVisible();
  await visitor.getByLabel("Your email").fill("rosa@example.org");
  await visitor.waitForTimeout(HUMAN_PACE_MS);
  await visitor.getByTestId("survey.submit").click();
  await expect(visitor.getByTestId("survey.success")).toBeVisible();
  // the thank-you stands alone: the answered form is gone, not shown blank beneath it
  await expect(visitor.getByRole("button", { name: "4 stars" })).toHaveCount(0);

  // live in the editor, without reloading; the summary counts it
  await expect(page.getByTestId("survey.submissionRow")).toHaveCount(1);
  await expect(page.getByTestId("survey.submissionRow").first()).toContainText("rosa@example.org");
  await expect(page.getByTestId("survey.summary")).toContainText("average 4.0");
  await page.getByTestId("survey.submissionRow").first().getByRole("button", { name: "Details" }).click();
  await expect(page.getByTestId("survey.details")).toContainText("Saturday");
  await expect(page.getByTestId("survey.details")).toContainText("6");
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
    const frame = other.frameLocator("iframe");
    await expect(frame.getByRole("heading", { name: "Canvass feedback" })).toBeVisible();
    await frame.getByRole("button", { name: "2 stars" }).click();
    await frame.getByRole("radio", { name: "No" }).click();
    await expect(frame.getByTestId("survey.submit")).toBeVisible();
    await frame.getByLabel("Your email").fill("sam@example.org");
    await other.waitForTimeout(HUMAN_PACE_MS);
    await frame.getByTestId("survey.submit").click();
    await expect(frame.getByTestId("survey.success")).toBeVisible();
  } finally {
    await site.close();
  }
  await expect(page.getByTestId("survey.submissionRow")).toHaveCount(2);
  await expect(page.getByTestId("survey.submissionRow").first()).toContainText("sam@example.org");
});

test("two staffers co-edit one survey: questions and pages merge live, presence, auto-save publishes", async ({ page, account: _account, mailbox, openOtherBrowser }) => {
  test.setTimeout(480_000);
  const other = await openOtherBrowser();
  const bobNet = await holdableConnection(other.context());
  await inviteTeammate(page, other, mailbox, { firstName: "Bob", lastName: "Stone", role: "Campaign Manager" });
  await page.goto("/survey-maker");
  await page.getByTestId("survey.create").click();
  await page.getByTestId("survey.createName").fill("Town hall");
  await page.getByTestId("survey.createSubmit").click();
  await page.getByRole("tab", { name: "Edit Survey" }).click();
  const url = new URL(page.url());
  await other.goto(`${url.pathname}${url.search}`);
  await other.getByRole("tab", { name: "Edit Survey" }).click();
  await expect(page.getByRole("img", { name: "Bob Stone" })).toBeVisible();

  // at the same time: Alice adds a question on page 1, Bob adds a page with its own question
  await addQuestion(page, "text", "Your question for the mayor");
  await other.getByTestId("survey.addPage").click();
  await addQuestion(other, "rating", "How useful was it?");
  await expect(other.getByTestId("survey.page.0")).toBeVisible();
  await other.getByTestId("survey.page.0").click();
  await expect(other.getByTestId("survey.fieldRow.0")).toContainText("Your question for the mayor");
  await page.getByTestId("survey.page.1").click();
  await expect(page.getByTestId("survey.fieldRow.0")).toContainText("How useful was it?");
  // both type in that question's label at once (Bob's connection stalled): both keystrokes stay
  await page.getByTestId("survey.fieldRow.0").click();
  await other.getByTestId("survey.page.1").click();
  await other.getByTestId("survey.fieldRow.0").click();
  await expect(other.getByTestId("survey.prop.label")).toHaveValue("How useful was it?");
  bobNet.hold();
  await page.getByTestId("survey.prop.label").press("End");
  await page.getByTestId("survey.prop.label").pressSequentially(" (1 to 5)");
  await other.getByTestId("survey.prop.label").press("Home");
  await other.getByTestId("survey.prop.label").pressSequentially("Honestly: ");
  await bobNet.release();
  for (const p of [page, other]) await expect(p.getByTestId("survey.prop.label")).toHaveValue("Honestly: How useful was it? (1 to 5)");
  // auto-save is on by default: both screens settle on Saved, and a respondent gets both pages
  await expect(page.getByTestId("survey.saved")).toBeVisible({ timeout: 15_000 });
  await expect(other.getByTestId("survey.saved")).toBeVisible({ timeout: 15_000 });
  await page.getByRole("button", { name: "Back to Surveys" }).click();
  await expect(page.getByTestId("survey.card")).toContainText("2 pages");
  await expect(page.getByTestId("survey.card")).toContainText("2 questions");
});
