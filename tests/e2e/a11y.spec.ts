/**
 * The product standard on every screen: "usable at 390 px width as well as on a desktop, and passes
 * axe-core with no serious or critical violation". Each screen (and the main dialogs) is opened at
 * 1400×900, checked with axe, then narrowed to 390×844 and checked with axe and for horizontal
 * overflow. Problems are gathered over all screens and reported together.
 */
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { DESKTOP, PHONE, screenProblems } from "./a11y";
import { expect, test, type Page, type Shot } from "./fixtures";
import { AppShell } from "./pages/AppShell";
import { CtaCreatorPage } from "./pages/CtaCreatorPage";
import { CtaDatabasePage } from "./pages/CtaDatabasePage";
import { EmailBuilderPage } from "./pages/EmailBuilderPage";
import { ForgotPasswordPage } from "./pages/ForgotPasswordPage";
import { GroupsPage } from "./pages/GroupsPage";
import { ImportPage } from "./pages/ImportPage";
import { VoterFormPage } from "./pages/VoterFormPage";
import { apiClientAs, uniqueEmail, type Mailbox } from "./support";

const ADA = {
  first_name: "Ada",
  last_name: "Lovelace",
  email: "ada@example.org",
  city: "Springfield",
  party_affiliation: "Democrat",
};
const CSV = ["First Name,Last Name,Email,Party", "Ann,Lee,ann@example.org,DEM", "Bo,Ray,bo@example.org,REP", ""].join(
  "\r\n",
);

/** Checks screens at both widths on one page and keeps every problem for the end. */
class Audit {
  private readonly failures: string[] = [];
  private readonly checked: string[] = [];

  constructor(
    private readonly page: Page,
    private readonly shot: Shot,
  ) {}

  /** `open` shows the screen at desktop width and waits for its content; the screen is then checked at both widths. */
  async screen(name: string, open: () => Promise<void>) {
    await this.page.setViewportSize(DESKTOP);
    await open();
    await this.here(name);
  }

  /** Checks what is on the page now (an open dialog, say) at desktop width, then at phone width. */
  async here(name: string, sizes = [DESKTOP, PHONE]) {
    for (const size of sizes) {
      await this.page.setViewportSize(size);
      const problems = await screenProblems(this.page);
      this.checked.push(`${name} @${size.width}`);
      await this.shot(`a11y-${name.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-${size.width}`, { page: this.page });
      if (problems.length) this.failures.push(`■ ${name} at ${size.width}px\n    ${problems.join("\n    ")}`);
    }
    await this.page.setViewportSize(DESKTOP);
  }

  /** Opens a route and waits for its main heading (and for no "Loading..." left). */
  async route(name: string, url: string, heading: string | RegExp, extraReady?: () => Promise<void>) {
    await this.screen(name, async () => {
      await this.page.goto(url);
      await expect(this.page.getByRole("heading", { name: heading }).first()).toBeVisible({ timeout: 15_000 });
      await expect(this.page.getByText(/^Loading/)).toHaveCount(0);
      await extraReady?.();
    });
  }

  expectClean() {
    expect(this.checked.length, "screens checked").toBeGreaterThan(0);
    expect(this.failures.length, `\n${this.failures.join("\n\n")}\n`).toBe(0);
  }
}

async function linkFrom(mailbox: Mailbox, to: string, kind: string): Promise<string> {
  const [mail] = await mailbox.read(to, { kind });
  expect(mail, `${kind} email to ${to}`).toBeTruthy();
  return mailbox.firstLink(mail);
}

test.use({ reducedMotion: "reduce" });

const A11Y_FORM_FIELDS = [
  { id: "field_name", type: "text" as const, label: "Full name", required: true, placeholder: null, options: [] },
  {
    id: "field_email",
    type: "email" as const,
    label: "Email",
    required: true,
    placeholder: "you@example.org",
    options: [],
  },
  { id: "separator_1", type: "separator" as const, label: "", required: false, placeholder: null, options: [] },
  {
    id: "field_topic",
    type: "select" as const,
    label: "Topic",
    required: false,
    placeholder: null,
    options: ["Yard sign", "Canvass"],
  },
  {
    id: "field_shift",
    type: "radio" as const,
    label: "Shift",
    required: false,
    placeholder: null,
    options: ["Morning", "Evening"],
  },
  {
    id: "field_ok",
    type: "checkbox" as const,
    label: "Keep me informed",
    required: false,
    placeholder: null,
    options: [],
  },
  { id: "field_date", type: "date" as const, label: "Date", required: false, placeholder: null, options: [] },
  { id: "field_n", type: "number" as const, label: "Guests", required: false, placeholder: null, options: [] },
  { id: "field_about", type: "textarea" as const, label: "About you", required: false, placeholder: null, options: [] },
  { id: "field_phone", type: "tel" as const, label: "Phone", required: false, placeholder: null, options: [] },
];
test("public screens pass axe and fit 390 px", async ({ page, account, mailbox, openOtherBrowser, shot }) => {
  test.setTimeout(360_000);
  // A real invitation and a real reset link, so their forms (not only their error states) are checked.
  const client = await apiClientAs(page);
  const invitee = uniqueEmail("invitee");
  await client.mutation(api.members.invite, {
    firstName: "Ivy",
    lastName: "Invitee",
    email: invitee,
    role: "volunteer",
  });
  const invitationLink = await linkFrom(mailbox, invitee, "invitation");

  const visitor = await openOtherBrowser();
  await visitor.emulateMedia({ reducedMotion: "reduce" });
  const audit = new Audit(visitor, shot);
  const forgot = new ForgotPasswordPage(visitor);

  await audit.route("landing", "/", /Organise every voter/);
  await audit.route("404 (unknown address, sent to the landing page)", "/no-such-page", /Organise every voter/);
  await audit.screen("login dialog", async () => {
    await visitor.goto("/?login=true");
    await expect(visitor.getByRole("dialog")).toBeVisible();
  });
  await audit.route("register", "/register", "Create your account");
  await audit.route("forgot password", "/forgot-password", "Forgot your password?");
  await audit.screen("forgot password, link sent", async () => {
    await forgot.requestReset(account.email);
    await expect(forgot.sentTo(account.email)).toBeVisible();
  });
  const resetLink = await linkFrom(mailbox, account.email, "password_reset");
  await audit.route("reset password", resetLink, "Reset your password", async () => {
    await expect(visitor.getByLabel("New Password", { exact: true })).toBeVisible();
  });
  await audit.route(
    "reset password, invalid link",
    "/reset-password?email=x%40example.org&code=nope",
    "Reset your password",
    async () => {
      await expect(visitor.getByRole("link", { name: "Request a new reset link" })).toBeVisible();
    },
  );
  await audit.route("accept invitation", invitationLink, "Accept Invitation");
  await audit.screen("accept invitation, invalid link", async () => {
    await visitor.goto("/accept-invitation?id=nope&token=nope");
    await expect(visitor.getByText("The invitation link is invalid or has expired.")).toBeVisible();
  });
  await audit.screen("public form, not found", async () => {
    await visitor.goto("/embed/form/f1");
    await expect(visitor.getByText("Form not found or no longer available.")).toBeVisible();
  });
  await audit.screen("demo mailbox (off: this server has an email provider)", async () => {
    await visitor.goto(`/dev/mailbox#key=${process.env.DEV_MAILBOX_KEY}`);
    await expect(visitor.getByText("The demo mailbox is not enabled on this server.")).toBeVisible();
  });

  audit.expectClean();
});

/**
 * The signed-in walk, in four parts that run side by side (each with its own organisation): the
 * voter file and administration; forms and surveys; signs and petitions; email, CTA and the rest.
 */
async function signedInAudit(page: Page, shot: Shot): Promise<Audit> {
  await page.emulateMedia({ reducedMotion: "reduce" });
  return new Audit(page, shot);
}

test("signed-in screens pass axe and fit 390 px: voters, groups, import, administration", async ({
  page,
  account: _account,
  shot,
}) => {
  test.setTimeout(480_000);
  const audit = await signedInAudit(page, shot);
  const form = new VoterFormPage(page);
  const groups = new GroupsPage(page);
  const wizard = new ImportPage(page);

  // the minimum data: an import (two voters, a history row), a voter made in the form, a group with a member
  await wizard.goto();
  await wizard.upload({ name: "contacts.csv", mimeType: "text/csv", buffer: Buffer.from(CSV) });
  await expect(wizard.mappedColumn("First Name")).toBeVisible();
  await audit.here("import, column mapping");
  await wizard.startImport();
  await expect(wizard.summaryCard("Successfully Imported", 2)).toBeVisible({ timeout: 20_000 });
  await audit.here("import, summary");
  const voterId = await form.create({
    firstName: "Ada",
    lastName: "Lovelace",
    email: "ada@example.org",
    city: "Springfield",
    party: "Democrat",
  });
  const client = await apiClientAs(page);
  const groupId = await client.mutation(api.groups.create, { name: "Canvassers", description: "Saturday crew" });
  await client.mutation(api.groups.addMember, { groupId, voterId: voterId as Id<"voters"> });

  await audit.route("dashboard", "/dashboard", "Campaign Dashboard");
  // on a phone the sidebar's menu opens from the header, and closes on the way to a page
  await page.setViewportSize(PHONE);
  await expect(page.getByRole("complementary", { name: "Main navigation" })).toBeHidden();
  await page.getByRole("button", { name: "Main navigation" }).click();
  const menu = page.getByRole("dialog", { name: "Main navigation" });
  await expect(menu.getByRole("link", { name: "Voter Groups" })).toBeVisible();
  await audit.here("navigation menu", [PHONE]);
  await page.setViewportSize(PHONE);
  await menu.getByRole("link", { name: "Voter Groups" }).click();
  await expect(page).toHaveURL(/\/voter-groups$/);
  await expect(menu).toBeHidden();
  await audit.screen("crash screen", async () => {
    await page.goto("/dashboard?crash=1");
    await expect(page.getByRole("heading", { name: "Application Error" })).toBeVisible();
  });
  await audit.route("voters list", "/voters", "Voters", async () => {
    await expect(page.getByTestId("voters.table").getByRole("row")).toHaveCount(4);
  });
  await audit.route("voter detail", `/voters/${voterId}`, "Ada Lovelace");
  await audit.route("voter not found", "/voters/doesnotexist", "Voter Not Found");
  await audit.route("new voter", "/voters/new", "Add Voter");
  await audit.route("edit voter", `/voters/${voterId}/edit`, "Edit Ada Lovelace", async () => {
    await expect(form.firstName).toHaveValue("Ada");
  });
  await form.openAddField();
  await expect(form.fieldDialog).toBeVisible();
  await audit.here("add custom field dialog");

  await audit.screen("voter groups, group selected", async () => {
    await groups.goto();
    await groups.openGroup("Canvassers");
    await expect(groups.members.getByText("Ada Lovelace")).toBeVisible();
  });
  await groups.openCreateGroup();
  await expect(groups.dialog).toBeVisible();
  await audit.here("create group dialog");
  await page.keyboard.press("Escape");
  await page.getByRole("button", { name: "Add Voters to Group" }).click();
  await expect(groups.dialog.getByText("Ada Lovelace")).toBeVisible();
  await audit.here("add voters to group dialog");

  await audit.route("import", "/voters/import", "Import Contacts");
  await audit.route("import history", "/voters/import-history", "Import History", async () => {
    await expect(
      page.getByTestId("importHistory.table").getByRole("rowheader", { name: "contacts.csv" }),
    ).toBeVisible();
  });
  await page.getByRole("button", { name: "View Details of contacts.csv" }).click();
  await expect(page.getByRole("dialog", { name: "Import Details" })).toBeVisible();
  await audit.here("import details dialog");
  await audit.route("debug import", "/voters/debug-import", "Debug Import Deletion");

  await audit.route("profile", "/profile", "Profile");
  await audit.route("SMS center", "/campaigns/sms", "SMS Center");
  await audit.route("account settings", "/account-settings", "Account Settings", async () => {
    await expect(page.getByTestId("admin.members")).toBeVisible();
  });
  await page.getByRole("button", { name: "Create New Member" }).click();
  await expect(page.getByRole("dialog")).toBeVisible();
  await audit.here("invite member dialog");
  await audit.route("subscription & billing", "/subscription", "Subscription & Billing");
  await audit.route("users & roles, users", "/user-role-management", "Users & Roles", async () => {
    await expect(page.getByTestId("admin.users")).toBeVisible();
  });
  await page.getByRole("button", { name: "Create User" }).click();
  await expect(page.getByRole("dialog")).toBeVisible();
  await audit.here("create user dialog");
  await audit.screen("users & roles, roles", async () => {
    await page.goto("/user-role-management");
    await page.getByRole("tab", { name: "Roles" }).click();
    await expect(page.getByTestId("admin.roles")).toBeVisible();
  });
  await page.getByRole("button", { name: "Create Role" }).click();
  await expect(page.getByRole("dialog")).toBeVisible();
  await audit.here("role dialog");

  audit.expectClean();
});

test("signed-in screens pass axe and fit 390 px: forms and surveys", async ({ page, account: _account, shot }) => {
  test.setTimeout(480_000);
  const audit = await signedInAudit(page, shot);
  // forms: list, editor, View and Embed dialogs, the public page, submissions and their details
  const client = await apiClientAs(page);
  const formId = (
    await client.mutation(api.forms.create, {
      name: "Volunteer signup",
      description: "Help us win.",
      fields: A11Y_FORM_FIELDS,
    })
  ).id;
  await client.mutation(api.formSubmissions.submitInApp, {
    formId,
    data: { field_name: "Rosa Diaz", field_email: "rosa@example.org", field_topic: "Canvass" },
  });
  await audit.route("form builder", "/form-builder", "Form Builder");
  await page.getByTestId("forms.actions").click();
  await page.getByRole("menuitem", { name: "View" }).click();
  await expect(page.getByRole("dialog")).toBeVisible();
  await audit.here("form view dialog");
  await page.keyboard.press("Escape");
  await page.getByTestId("forms.actions").click();
  await page.getByRole("menuitem", { name: "Get Embed Code" }).click();
  await expect(page.getByTestId("embed.code")).toBeVisible();
  await audit.here("form embed dialog");
  await page.keyboard.press("Escape");
  await audit.route("form editor", `/form-builder?form=${formId}`, "Edit Form", async () => {
    await expect(page.getByTestId("builder.name")).toHaveValue("Volunteer signup");
  });
  await audit.route("public form", `/embed/form/${formId}`, "Volunteer signup");
  await audit.route("form submissions", "/form-submissions", "Form Submissions", async () => {
    await expect(page.getByTestId("submissions.row")).toHaveCount(1);
  });
  await page.getByTestId("submissions.row").getByRole("button", { name: "Details" }).click();
  await expect(page.getByTestId("submissions.details")).toBeVisible();
  await audit.here("form submission details");
  await page.keyboard.press("Escape");

  // surveys: list, create dialog, editor (each tab), preview and embed dialogs, the hosted page
  await audit.route("survey maker, empty", "/survey-maker", "Survey Maker");
  await page.getByTestId("survey.create").click();
  await expect(page.getByRole("dialog")).toBeVisible();
  await audit.here("create survey dialog");
  await page.getByTestId("survey.createName").fill("Door survey");
  await page.getByTestId("survey.createSubmit").click();
  await expect(page.getByTestId("survey.tab.submissions")).toHaveAttribute("data-state", "active");
  await audit.here("survey submissions tab");
  await page.getByRole("tab", { name: "Edit Survey" }).click();
  await page.getByTestId("survey.add.rating").click();
  await page.getByTestId("survey.add.checkbox").click();
  await expect(page.getByTestId("survey.properties")).toBeVisible();
  await audit.here("survey editor");
  await page.getByTestId("survey.tab.settings").click();
  await audit.here("survey settings tab");
  await page.getByTestId("survey.preview").click();
  await expect(page.getByRole("dialog")).toBeVisible();
  await audit.here("survey preview dialog");
  await page.keyboard.press("Escape");
  await page.getByTestId("survey.save").click();
  await expect(page.getByTestId("survey.saved")).toBeVisible();
  await page.getByTestId("survey.embed").click();
  const surveyUrl = (await page.getByTestId("survey.embedUrl").textContent())!;
  await audit.here("survey embed dialog");
  await page.keyboard.press("Escape");
  await audit.route("hosted survey", new URL(surveyUrl).pathname, "Door survey");
  await audit.route("survey maker", "/survey-maker", "Survey Maker", async () => {
    await expect(page.getByTestId("survey.card")).toHaveCount(1);
  });

  audit.expectClean();
});

test("signed-in screens pass axe and fit 390 px: signs and petitions", async ({ page, account: _account, shot }) => {
  test.setTimeout(480_000);
  const audit = await signedInAudit(page, shot);
  // signs: the map with a sign and its info window, the add form, the table and its dialogs, a voter's signs
  const client = await apiClientAs(page);
  const voterId = await client.mutation(api.voters.create, { fields: ADA });
  const signCampaign = await client.mutation(api.signs.createCampaign, { name: "Yes on 12" });
  const day = 24 * 3600_000;
  await client.mutation(api.signs.create, {
    campaignId: signCampaign,
    address: "1120 SW 5th Ave, Portland, OR 97204",
    latitude: 45.5151,
    longitude: -122.679,
    datePlaced: Date.now() - day,
    dateRemoval: Date.now() + 30 * day,
    notes: "Front lawn",
    voterId,
    responsibleUserId: null,
    assignedById: null,
  });
  await audit.route("sign map", "/signs-map", "Sign Map", async () => {
    await expect(page.getByTestId("signs.inView")).toHaveText("1 sign in view");
  });
  await page.getByTestId("signs.listItem").click();
  await expect(page.getByTestId("sign.info")).toContainText("Front lawn");
  await audit.here("sign info window");
  await page.getByRole("button", { name: "Add Sign Location" }).click();
  await expect(page.getByTestId("sign.form")).toBeVisible();
  await audit.here("add sign form");
  await audit.screen("sign table", async () => {
    await page.goto("/signs-map?tab=table");
    await expect(page.getByTestId("signs.row")).toHaveCount(1);
  });
  await page.getByRole("button", { name: /Actions for/ }).click();
  await page.getByRole("menuitem", { name: "Schedule placement" }).click();
  await expect(page.getByRole("dialog", { name: "Schedule Sign Placement" })).toBeVisible();
  await audit.here("schedule sign dialog");
  await page.keyboard.press("Escape");
  await page.getByRole("button", { name: /Actions for/ }).click();
  await page.getByRole("menuitem", { name: "Mark as removed" }).click();
  await expect(page.getByRole("dialog", { name: "Mark Sign as Removed" })).toBeVisible();
  await audit.here("mark sign removed dialog");
  await page.keyboard.press("Escape");
  await audit.route("voter detail with a yard sign", `/voters/${voterId}`, "Ada Lovelace", async () => {
    await expect(page.getByTestId("voter.signs")).toContainText("Yes on 12");
  });

  // petitions: the verification screen, the new-petition dialog, page entry, results, adjudication, the queue
  const petitionId = await client.mutation(api.petitions.create, {
    name: "Measure 12",
    signaturesNeeded: 100,
    deadline: "2026-07-01",
    state: null,
    county: null,
    mode: "full",
  });
  const petitionPage = await client.mutation(api.petitions.addPage, { petitionId, fileId: null, fileName: "Sheet 1" });
  await client.mutation(api.petitions.addLines, {
    pageId: petitionPage,
    lines: [
      { name: "Ada Lovelace", address: "1 Main St, Springfield, OR 97477", signedOn: "2026-05-01" },
      { name: "Zed Nobody", address: "9 Nowhere Rd, Springfield, OR 97477", signedOn: "2026-05-01" },
    ],
  });
  await audit.route("signature verification", "/signature-verification", "Signature Verification", async () => {
    await expect(page.getByTestId("petition.progress")).toContainText("2");
  });
  await page.getByRole("button", { name: "New Petition" }).click();
  await expect(page.getByRole("dialog", { name: "New Petition" })).toBeVisible();
  await audit.here("new petition dialog");
  await page.keyboard.press("Escape");
  await page.getByTestId("pages.page").first().click();
  await expect(page.getByLabel("Line 3 name")).toBeVisible();
  await audit.here("petition page entry");
  await page.getByRole("tab", { name: "Results" }).click();
  await expect(page.getByTestId("results.row")).toHaveCount(2);
  await audit.here("petition results");
  await page.getByRole("button", { name: "Adjudicate line 2 of page 1" }).click();
  await expect(page.getByRole("dialog", { name: "Adjudicate Signature" })).toContainText("Zed Nobody");
  await audit.here("adjudicate signature dialog");
  await page.keyboard.press("Escape");
  await page.getByRole("tab", { name: /Review Queue/ }).click();
  await audit.here("petition review queue");

  audit.expectClean();
});

test("signed-in screens pass axe and fit 390 px: email, CTA, settings, roadmap, districts, walk lists, other modes", async ({
  page,
  account: _account,
  shot,
}) => {
  test.setTimeout(480_000);
  const audit = await signedInAudit(page, shot);
  await audit.route("settings", "/settings", "Settings");
  await audit.route("roadmap", "/roadmap", "Roadmap");
  await audit.route("districts", "/districts", "Districts");
  await audit.route("walk lists", "/walk-lists", "Walk Lists");
  await audit.route("polls & surveys", "/polls-surveys", "Polls & Surveys");
  await audit.route("email builder", "/email", "Email");
  // the email builder with a template loaded and a block selected, its Preview and Send test dialogs, the campaign list
  const email = new EmailBuilderPage(page);
  await audit.screen("email builder, template loaded, block selected", async () => {
    await email.goto();
    await email.loadTemplate("Event Invitation");
    await email.select(email.blocks("heading").first());
    await expect(email.props.getByRole("heading", { name: "Heading" })).toBeVisible();
  });
  await email.openPreview();
  await expect(email.previewFrame).toBeVisible();
  await audit.here("email preview dialog");
  await page.keyboard.press("Escape");
  await expect(email.previewDialog).toBeHidden();
  await email.openTestDialog();
  await audit.here("email send test dialog");
  await page.keyboard.press("Escape");
  await expect(email.testDialog).toBeHidden();
  await email.save();
  await expect(page).toHaveURL(/[?&]campaign=[a-z0-9]+/);
  await email.openCampaignList();
  await expect(email.campaignListItems).toHaveCount(1);
  await audit.here("email campaign list");
  await page.keyboard.press("Escape");
  await audit.route("email template test page", "/test-email-templates", "Email template test page");
  // the CTA creator: empty, with a template loaded and an element selected, its Preview and (once saved) Embed Code dialogs;
  // the CTA database with a card and its preview; the embedded CTA
  const cta = new CtaCreatorPage(page);
  await audit.route("CTA creator, empty", "/cta-creator", "CTA Creator", async () => {
    await expect(cta.empty).toBeVisible();
  });
  await audit.screen("CTA creator, template loaded, element selected", async () => {
    await cta.goto();
    await cta.loadTemplate("Button");
    await cta.select(await cta.idOf(cta.elementsOf("text").first()));
    await expect(cta.props.getByRole("heading", { name: "Text" })).toBeVisible();
  });
  await cta.openPreview();
  await audit.here("CTA preview dialog");
  await page.keyboard.press("Escape");
  await expect(cta.previewDialog).toBeHidden();
  await cta.name.fill("Volunteer button");
  await cta.save();
  await expect(page).toHaveURL(/[?&]cta=[a-z0-9]+/);
  const ctaId = cta.ctaId()!;
  await cta.openEmbedCode();
  await audit.here("CTA embed code dialog");
  await page.keyboard.press("Escape");
  await expect(cta.embedDialog).toBeHidden();
  const ctaDb = new CtaDatabasePage(page);
  await audit.route("CTA database", "/cta-database", "CTA Database", async () => {
    await expect(ctaDb.cards).toHaveCount(1);
  });
  await ctaDb.openPreview("Volunteer button");
  await audit.here("CTA database preview dialog");
  await page.keyboard.press("Escape");
  await expect(ctaDb.previewDialog).toBeHidden();
  await audit.screen("embedded CTA", async () => {
    await page.goto(`/embed/cta/${ctaId}`);
    await expect(page.getByTestId("cta.embed").locator("svg")).toContainText("Volunteer Today");
  });

  // the other modes' dashboards and menus
  const shell = new AppShell(page);
  for (const mode of ["Petition", "Relationship"] as const) {
    await audit.screen(`${mode.toLowerCase()} dashboard`, async () => {
      await page.goto("/dashboard");
      await shell.switchMode(mode);
      await expect(page.getByRole("heading", { name: `${mode} Dashboard` })).toBeVisible();
    });
  }
  await shell.switchMode("Campaign");

  audit.expectClean();
});
