/**
 * Forms end to end (issue 16): build a form with every field type, reorder by mouse and by
 * keyboard, save; open the public URL signed out, submit with errors then correctly; the
 * submission appears live in the builder's Form Submissions page; export and read the CSV; the
 * embed snippet works from a page on another localhost port and resizes its iframe. Two staffers
 * co-edit one form; typing in one label at once keeps both people's keystrokes (issue 33 item 2).
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import Papa from "papaparse";
import { expect, test, type Page } from "./fixtures";
import { choose } from "./pages/controls";
import { FormBuilderPage } from "./pages/FormBuilderPage";
import { cuttableConnection, holdableConnection } from "./pages/heldConnection";
import { inviteTeammate } from "./pages/teammates";

/** The public form needs a person's pace (spam protection: at least 2 s between loading and sending). */
const HUMAN_PACE_MS = 2_200;

async function serveSnippet(html: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { "Content-Type": "text/html" });
    res.end(
      `<!doctype html><html lang="en"><head><title>Campaign site</title></head><body><h1>Our campaign</h1>${html}</body></html>`,
    );
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

async function fillPublic(
  p: Page,
  values: {
    name: string;
    email: string;
    phone: string;
    about: string;
    topic: string;
    pick: string;
    date: string;
    count: string;
  },
) {
  await p.getByLabel("Full name").fill(values.name);
  await p.getByLabel("Email").fill(values.email);
  await p.getByLabel("Phone").fill(values.phone);
  await p.getByLabel("About you").fill(values.about);
  await choose(p.getByRole("combobox", { name: "Topic" }), values.topic);
  await p.getByRole("radio", { name: values.pick }).click();
  await p.getByRole("checkbox", { name: "Keep me informed" }).click();
  await p.getByLabel("Event date").fill(values.date);
  await p.getByLabel("Guests").fill(values.count);
}

test("build a form, fill it in publicly, see it live, export it, embed it on another site", async ({
  page,
  formBuilderPage: builder,
  openOtherBrowser,
  shot,
}) => {
  test.setTimeout(300_000);
  await builder.goto();
  await expect(builder.empty).toHaveText("No forms created yet");
  await builder.startCreate();
  await expect(builder.previewEmpty).toHaveText("This form has no fields to display.");

  // every field type
  await builder.saveButton.click();
  await expect(page.getByText("Form name required").first()).toBeVisible();
  await builder.name.fill("Volunteer signup");
  await builder.description.fill("Help us win in November.");
  for (const type of [
    "Text",
    "Email",
    "Phone",
    "Text Area",
    "Select Dropdown",
    "Radio Buttons",
    "Checkbox",
    "Date",
    "Number",
  ])
    await builder.addField(type);
  await builder.addSeparator();
  const labels = [
    "Full name",
    "Email",
    "Phone",
    "About you",
    "Topic",
    "Shift",
    "Keep me informed",
    "Event date",
    "Guests",
  ];
  for (const [i, l] of labels.entries()) await builder.label(i).fill(l);
  await builder.options(4).fill("Yard sign\nPhone bank\nCanvass");
  await builder.options(5).fill("Morning\nEvening");
  await builder.required(0).click();
  await builder.required(1).click();
  await expect(builder.preview.getByText("Keep me informed")).toBeVisible();

  // reorder: the separator (last) dragged by mouse two places up, then "Guests" moved up by keyboard
  await builder.handle(9).scrollIntoViewIfNeeded();
  const from = (await builder.handle(9).boundingBox())!;
  const to = (await builder.handle(7).boundingBox())!;
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width / 2, from.y - 10, { steps: 5 });
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2 - 10, { steps: 20 });
  await page.mouse.up();
  const afterMouse = [
    "Full name",
    "Email",
    "Phone",
    "About you",
    "Topic",
    "Shift",
    "Keep me informed",
    "separator",
    "Event date",
    "Guests",
  ];
  await expect.poll(() => builder.fieldOrder()).toEqual(afterMouse);
  await builder.moveUpByKeyboard(9);
  await expect
    .poll(() => builder.fieldOrder())
    .toEqual([
      "Full name",
      "Email",
      "Phone",
      "About you",
      "Topic",
      "Shift",
      "Keep me informed",
      "separator",
      "Guests",
      "Event date",
    ]);
  await shot("forms-editor");

  await builder.saveButton.click();
  await expect(page.getByText("Form created")).toBeVisible();
  await expect(builder.saveButton).toHaveText("Update Form");
  await page.getByRole("button", { name: "Back to Forms" }).click();
  await expect(builder.rows).toHaveCount(1);
  await expect(builder.rows.first()).toContainText("9 fields");

  // the embed code and the public URL
  await builder.action("Volunteer signup", "Get Embed Code");
  const url = (await page.getByTestId("embed.url").textContent())!;
  expect(url).toMatch(/\/embed\/form\/[a-z0-9]+$/);
  const snippet = await page.getByTestId("embed.code").inputValue();
  expect(snippet).toContain('width="100%" height="600"');
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.getByTestId("embed.copy").click();
  await expect(page.getByText("Code copied to clipboard!")).toBeVisible();
  await page.keyboard.press("Escape");

  // the builder's teammate view: Form Submissions, live
  await page.goto("/form-submissions");
  await expect(page.getByTestId("submissions.empty")).toBeVisible();

  // a visitor, not signed in: errors first, then a good submission
  const visitor = await openOtherBrowser();
  await visitor.goto(url);
  await expect(visitor.getByRole("heading", { name: "Volunteer signup" })).toBeVisible();
  await visitor.getByLabel("Email").fill("not an email");
  await visitor.getByTestId("form.submit").click();
  await expect(visitor.getByText("Full name is required")).toBeVisible();
  await expect(visitor.getByText("Please enter a valid email address")).toBeVisible();
  await fillPublic(visitor, {
    name: "Rosa Diaz",
    email: "rosa@example.org",
    phone: "503-555-0101",
    about: "=1+1 retired teacher",
    topic: "Phone bank",
    pick: "Evening",
    date: "2026-12-05",
    count: "3",
  });
  await visitor.waitForTimeout(HUMAN_PACE_MS);
  await visitor.getByTestId("form.submit").click();
  await expect(visitor.getByTestId("publicForm.thanks")).toContainText("Form submitted successfully!");

  // live in the builder's context, without reloading
  await expect(builder.submissionRows).toHaveCount(1);
  await expect(builder.submissionRows.first()).toContainText("rosa@example.org");
  await builder.submissionRows.first().getByRole("button", { name: "Details" }).click();
  await expect(page.getByTestId("submissions.details")).toContainText("Phone bank");
  await page.keyboard.press("Escape");

  // export
  const download = page.waitForEvent("download");
  await page.getByTestId("submissions.export").click();
  const file = await download;
  expect(file.suggestedFilename()).toBe("all_form_submissions.csv");
  const csv = fs.readFileSync(await file.path(), "utf8").replace(/^\uFEFF/, "");
  const rows = Papa.parse<string[]>(csv, { skipEmptyLines: true }).data;
  expect(rows[0]).toEqual([
    "Submitted At",
    "Form",
    "Submitter Email",
    "Submitter IP",
    "Full name",
    "Email",
    "Phone",
    "About you",
    "Topic",
    "Shift",
    "Keep me informed",
    "Guests",
    "Event date",
  ]);
  expect(rows[1].slice(1)).toEqual([
    "Volunteer signup",
    "rosa@example.org",
    "127.0.0.1",
    "Rosa Diaz",
    "rosa@example.org",
    "503-555-0101",
    "'=1+1 retired teacher",
    "Phone bank",
    "Evening",
    "Yes",
    "3",
    "2026-12-05",
  ]);
  expect(csv.split("\r\n")[1].startsWith('"')).toBe(true);

  // the snippet on another site (another port): the form loads inside the iframe, resizes it, submits
  const site = await serveSnippet(snippet);
  try {
    const other = await openOtherBrowser();
    await other.goto(site.url);
    const frame = other.frameLocator("iframe");
    await expect(frame.getByRole("heading", { name: "Volunteer signup" })).toBeVisible();
    await expect.poll(async () => (await other.locator("iframe").boundingBox())?.height ?? 0).toBeGreaterThan(700);
    await frame.getByLabel("Full name").fill("Sam Lee");
    await frame.getByLabel("Email").fill("sam@example.org");
    await other.waitForTimeout(HUMAN_PACE_MS);
    await frame.getByTestId("form.submit").click();
    await expect(frame.getByTestId("publicForm.thanks")).toBeVisible();
    await shot("forms-embedded", { page: other });
  } finally {
    await site.close();
  }
  await expect(builder.submissionRows).toHaveCount(2);
  await expect(builder.submissionRows.first()).toContainText("sam@example.org");
  await shot("forms-submissions");

  // an inactive form is no longer available publicly
  await builder.goto();
  await builder.rows.first().getByTestId("forms.activeSwitch").click();
  await expect(builder.rows.first().getByTestId("forms.status")).toHaveText("inactive");
  await visitor.goto(url);
  await expect(visitor.getByTestId("publicForm.notFound")).toHaveText("Form not found or no longer available.");
});

test("two staffers co-edit one form: both changes live on both screens, presence, then publish", async ({
  page,
  formBuilderPage: alice,
  mailbox,
  openOtherBrowser,
  shot,
}) => {
  test.setTimeout(480_000);
  const otherPage = await openOtherBrowser();
  const bobNet = await holdableConnection(otherPage.context());
  await inviteTeammate(page, otherPage, mailbox, { firstName: "Bob", lastName: "Stone", role: "Campaign Manager" });
  const bob = new FormBuilderPage(otherPage);

  await alice.goto();
  await alice.startCreate();
  await alice.name.fill("Yard sign requests");
  await alice.addField("Text");
  await alice.label(0).fill("Address");
  await alice.saveButton.click();
  await expect(alice.saveButton).toHaveText("Update Form");
  const editUrl = alice.page.url();

  await bob.page.goto(editUrl.replace(/^https?:\/\/[^/]+/, ""));
  await expect(bob.label(0)).toHaveValue("Address");
  await expect(alice.page.getByRole("img", { name: "Bob Stone" })).toBeVisible();

  // at the same time: Alice renames the field, Bob adds one and makes the first required
  await alice.label(0).fill("Street address");
  await bob.addField("Email");
  await bob.required(0).click();
  await expect(bob.label(0)).toHaveValue("Street address");
  await expect(alice.label(1)).toHaveValue("Email");
  await expect(alice.required(0)).toBeChecked();
  await expect(alice.page.getByTestId("builder.unsaved")).toBeVisible();
  await shot("forms-coedit-bob", { page: bob.page });

  // both type in that label at once (Bob's connection stalled, so neither sees the other): both keystrokes stay
  bobNet.hold();
  await alice.label(0).press("End");
  await alice.label(0).pressSequentially(" (with ZIP)");
  await bob.label(0).press("Home");
  await bob.label(0).pressSequentially("Home ");
  await expect(alice.label(0)).toHaveValue("Street address (with ZIP)");
  await expect(bob.label(0)).toHaveValue("Home Street address");
  await bobNet.release();
  for (const b of [alice, bob]) await expect(b.label(0)).toHaveValue("Home Street address (with ZIP)");

  // Bob publishes what both did; Alice's screen shows it is published
  await bob.saveButton.click();
  await expect(bob.page.getByText("Form updated")).toBeVisible();
  await expect(alice.page.getByTestId("builder.unsaved")).toBeHidden();
  await alice.page.getByRole("button", { name: "Back to Forms" }).click();
  await expect(alice.rows.first()).toContainText("2 fields");
  await expect(alice.rows.first()).toContainText("saved by Bob Stone");
});

test("offline in the form designer: it says so, edits go on, and they reach the form when the connection returns", async ({
  page,
  formBuilderPage: builder,
}) => {
  const net = await cuttableConnection(page.context());
  await builder.goto();
  await builder.startCreate();
  await builder.name.fill("Door knock sign-up");
  await builder.addField("Text");
  await builder.label(0).fill("Address");
  await builder.saveButton.click();
  await expect(builder.saveButton).toHaveText("Update Form");
  await expect(page.getByTestId("collab.offline")).toBeHidden();

  await net.cut();
  await expect(page.getByTestId("collab.offline")).toBeVisible();
  await expect(page.getByTestId("collab.offline")).toContainText("Keep working");
  await builder.label(0).fill("Street address");

  net.restore();
  await expect(page.getByTestId("collab.offline")).toBeHidden({ timeout: 30_000 });
  // the edit made offline reached the shared draft: a reload shows it
  await expect(async () => {
    await page.reload();
    await expect(builder.label(0)).toHaveValue("Street address", { timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
});
