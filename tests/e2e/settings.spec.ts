/**
 * Issue 33, the placeholders made real: /polls-surveys lists the organisation's surveys with a
 * response count that moves live when someone answers; /settings keeps a time zone, a default
 * mode the app then starts in, and notification switches, across reloads. Both at 1400 and 390 px.
 */
import { expect, test, type Page } from "./fixtures";

const HUMAN_PACE_MS = 2_200;

async function noSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
}

test("the Polls & Surveys hub: empty, Create survey, then a live response count and the links into the Survey Maker", async ({
  page,
  account: _account,
  openOtherBrowser,
  shot,
}) => {
  test.setTimeout(300_000);
  await page.goto("/polls-surveys");
  await expect(page.getByRole("heading", { level: 1, name: "Polls & Surveys" })).toBeVisible();
  await expect(page.getByTestId("hub.empty")).toContainText("No surveys yet");
  await page.getByTestId("hub.create").click();
  await expect(page.getByRole("dialog", { name: "Create Survey" })).toBeVisible();
  await page.getByTestId("survey.createName").fill("Doorstep check-in");
  await page.getByTestId("survey.createSubmit").click();
  await expect(page.getByText("Survey Created")).toBeVisible();
  await page.getByRole("tab", { name: "Edit Survey" }).click();
  await page.getByTestId("survey.add.radio").click();
  await page.getByTestId("survey.prop.label").fill("Will you vote early?");
  await page.getByTestId("survey.prop.options").fill("Yes\nNo");
  await page.getByTestId("survey.save").click();
  await expect(page.getByTestId("survey.saved")).toBeVisible();
  await page.getByTestId("survey.embed").click();
  const url = (await page.getByTestId("survey.embedUrl").textContent())!;
  await page.keyboard.press("Escape");

  await page.goto("/polls-surveys");
  const card = page.getByTestId("hub.survey").filter({ hasText: "Doorstep check-in" });
  await expect(card.getByTestId("hub.status")).toHaveText("Collecting responses");
  await expect(card.getByTestId("hub.responses")).toHaveText("0");
  await expect(card.getByTestId("hub.lastResponseAt")).toHaveText("No responses yet");

  // someone answers, signed out: the hub counts it without a reload
  const visitor = await openOtherBrowser();
  await visitor.goto(url);
  await visitor.getByRole("radio", { name: "Yes" }).click();
  const email = visitor.getByLabel("Your email");
  if (await email.count()) await email.fill("voter@example.org");
  await visitor.waitForTimeout(HUMAN_PACE_MS);
  await visitor.getByTestId("survey.submit").click();
  await expect(visitor.getByTestId("survey.success")).toBeVisible();
  await expect(card.getByTestId("hub.responses")).toHaveText("1");
  await expect(card.getByTestId("hub.lastResponseAt")).not.toHaveText("No responses yet");
  await expect(page.getByTestId("hub.totalResponses")).toHaveText("1");
  await shot("hub-1400");

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(card.getByRole("link", { name: /View responses/ })).toBeVisible();
  await noSidewaysScroll(page);
  await shot("hub-390", { fullPage: true });
  await card.getByRole("link", { name: /View responses/ }).click();
  await expect(page).toHaveURL(/\/survey-maker\?survey=.+&tab=submissions/);
  await expect(page.getByTestId("survey.submissionRow")).toHaveCount(1);
});

test("Settings: time zone, default mode and notification switches persist; the app starts in the default mode", async ({
  page,
  account: _account,
  shot,
}) => {
  await page.goto("/settings");
  await expect(page.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible();
  const zone = page.getByTestId("settings.timeZone");
  await expect(zone).toHaveValue("browser");
  await zone.selectOption("Asia/Tokyo");
  await expect(page.getByText("Settings saved").first()).toBeVisible();
  await expect(page.getByTestId("settings.timeZonePreview")).toContainText("Asia/Tokyo (GMT+9)");

  await page.getByRole("radio", { name: "Petition mode" }).click();
  await page.getByRole("switch", { name: /When someone I invited joins/ }).click();
  await expect(page.getByRole("switch", { name: /When someone I invited joins/ })).toHaveAttribute(
    "aria-checked",
    "false",
  );
  await shot("settings-1400", { fullPage: true });

  // a device with no stored mode choice starts in the default mode
  await page.evaluate(() => localStorage.removeItem("mode"));
  await page.goto("/dashboard");
  await expect(page.getByRole("heading", { level: 1, name: "Petition Dashboard" })).toBeVisible();

  await page.goto("/settings");
  await expect(page.getByTestId("settings.timeZone")).toHaveValue("Asia/Tokyo");
  await expect(page.getByRole("radio", { name: "Petition mode" })).toHaveAttribute("aria-checked", "true");
  await expect(page.getByRole("switch", { name: /When someone I invited joins/ })).toHaveAttribute(
    "aria-checked",
    "false",
  );
  await expect(page.getByRole("switch", { name: /New survey responses/ })).toHaveAttribute("aria-checked", "true");

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(zone).toBeVisible();
  await noSidewaysScroll(page);
  await shot("settings-390", { fullPage: true });
});
