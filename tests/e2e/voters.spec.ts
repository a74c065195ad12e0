/** Voters end to end: create, search, filter, edit with a custom field, reorder sections, export, delete, live updates. */
import * as XLSX from "xlsx";
import { expect, test } from "./fixtures";
import { LoginModal } from "./pages/LoginModal";
import { VotersPage } from "./pages/VotersPage";

const DEFAULT_ORDER = ["personal", "address", "state_voter", "state_verified", "political", "notes", "custom"];
const NOTES_FIRST = ["personal", "address", "state_voter", "state_verified", "notes", "political", "custom"];

test("voters: create, search, filter, custom field, reorder, export, delete", async ({
  page,
  voterFormPage: form,
  votersPage: voters,
  voterDetailPage: detail,
  mailbox,
  shot,
}) => {
  test.setTimeout(300_000);

  // required fields block saving
  await form.gotoNew();
  await form.submit();
  await expect(page.getByText("Missing required fields")).toBeVisible();
  await expect(page.getByText("Please fill in: First Name, Last Name")).toBeVisible();

  const adaId = await form.create({
    firstName: "Ada",
    lastName: "Lovelace",
    email: "ada@example.org",
    party: "Democrat",
    status: "Active",
  });
  await form.create({
    firstName: "Grace",
    lastName: "Hopper",
    email: "grace@example.org",
    party: "Republican",
    status: "Inactive",
    city: '=HYPERLINK("evil")',
  });

  // list, newest first; search; filters
  await voters.goto();
  await expect(voters.rows).toHaveCount(3);
  await expect(voters.rows.nth(1)).toContainText("Grace Hopper");
  await expect(voters.table.getByText("Republican")).toBeVisible();
  await shot("voters-list");
  await voters.search("lovel");
  await expect(voters.rows).toHaveCount(2);
  await expect(voters.table).toContainText("Ada Lovelace");
  await voters.search("");
  await expect(voters.rows).toHaveCount(3);
  await voters.filterByParty("Republican");
  await expect(voters.rows).toHaveCount(2);
  await expect(voters.table).toContainText("Grace Hopper");
  await voters.filterByParty("All Parties");
  await voters.filterByStatus("Active");
  await expect(voters.rows).toHaveCount(2);
  await expect(voters.table).toContainText("Ada Lovelace");
  await voters.filterByStatus("All Statuses");

  // edit with a new required custom field
  await form.gotoEdit(adaId);
  await form.openAddField();
  await expect(form.fieldDialogSubmit).toBeDisabled();
  await form.describeField({ label: "Shirt Size", type: "Dropdown", options: "S, M, L", required: true });
  await shot("voter-add-field");
  await form.fieldDialogSubmit.click();
  await expect(form.fieldDialog).toBeHidden();
  await form.submit();
  await expect(page.getByText("Please fill in: Shirt Size")).toBeVisible();
  await form.select("Shirt Size", "M");
  await form.notes.fill("Met at the library");

  // reorder sections with the keyboard: Notes moves above Political Information, for the whole organisation
  expect(await form.sectionOrder()).toEqual(DEFAULT_ORDER);
  await form.moveSectionUp({ title: "Notes", id: "notes" }, "political");
  await expect.poll(() => form.sectionOrder()).toEqual(NOTES_FIRST);

  await form.submit();
  await expect(page).toHaveURL(new RegExp(`/voters/${adaId}$`));
  await expect(page.getByText("Voter updated successfully")).toBeVisible();
  await expect(detail.fieldValue("Shirt Size")).toHaveText("M");
  await expect(page.getByText("Met at the library", { exact: true })).toBeVisible();
  await shot("voter-detail");

  // send-email modal: validation, then sent through the provider (the e2e server's fake of Resend: no demo label)
  await detail.openSendEmail();
  await expect(detail.emailDialog.getByText(/Demo mode/)).toHaveCount(0);
  await detail.sendEmail({});
  await expect(page.getByText("Please enter an email subject.")).toBeVisible();
  await detail.sendEmail({ subject: "Hello Ada" });
  await expect(page.getByText("Message Required")).toBeVisible();
  await shot("voter-send-email");
  await detail.sendEmail({ message: "See you at the polls" });
  await expect(page.getByText("Email sent", { exact: true })).toBeVisible();
  await expect(detail.emailDialog).toBeHidden();
  const received = await mailbox.read("ada@example.org", { kind: "voter_email" });
  expect(received.some((m) => m.subject === "Hello Ada" && m.text.includes("See you at the polls"))).toBe(true);

  await form.gotoEdit(adaId);
  await expect(form.notes).toBeVisible();
  expect(await form.sectionOrder()).toEqual(NOTES_FIRST);
  await expect(form.firstName).toHaveValue("Ada");

  // export CSV and XLSX: every column incl. the custom field, formulas neutralised
  await voters.goto();
  await expect(voters.rows).toHaveCount(3);
  const csv = (await voters.exportAs("csv")).toString("utf8");
  const lines = csv
    .replace(/^\uFEFF/, "")
    .trim()
    .split("\r\n");
  expect(lines).toHaveLength(3);
  expect(lines[0]).toContain("First Name");
  expect(lines[0]).toContain("Shirt Size");
  expect(csv).toContain("Lovelace");
  expect(csv).toContain("ada@example.org");
  expect(csv).toContain(`"'=HYPERLINK(""evil"")"`);
  // the menu's trigger is disabled while an export runs: wait for the CSV one to finish
  await expect(page.getByText("Export complete")).toBeVisible();
  const wb = XLSX.read(await voters.exportAs("xlsx"), { type: "buffer" });
  const rows = XLSX.utils.sheet_to_json<Record<string, string>>(wb.Sheets[wb.SheetNames[0]], { defval: "" });
  expect(rows).toHaveLength(2);
  const ada = rows.find((r) => r["First Name"] === "Ada")!;
  expect(ada["Shirt Size"]).toBe("M");
  // an XLSX string cell is never run as a formula: the text is stored as it is, without a quote
  expect(rows.find((r) => r["First Name"] === "Grace")!["City"]).toBe('=HYPERLINK("evil")');

  // delete with the spec's confirmation
  await voters.startDelete("Grace Hopper");
  await expect(page.getByText("Are you sure you want to delete this voter?")).toBeVisible();
  await voters.deleteConfirmation.confirm();
  await expect(voters.rows).toHaveCount(2);
  await expect(voters.table).not.toContainText("Grace Hopper");

  // unknown voter: not-found page with suggestions
  await detail.goto("doesnotexist");
  await expect(detail.notFoundHeading).toBeVisible();
  await expect(detail.suggestion("Ada Lovelace")).toBeVisible();
  await shot("voter-not-found");
});

test("a voter added in one browser appears in another's list without reload", async ({
  account,
  voterFormPage,
  openOtherBrowser,
}) => {
  const other = await openOtherBrowser();
  await new LoginModal(other).signIn(account.email, account.password);
  const otherVoters = new VotersPage(other);
  await otherVoters.goto();
  await expect(otherVoters.emptyState).toBeVisible();
  await voterFormPage.create({ firstName: "Realtime", lastName: "Rita" });
  await expect(otherVoters.table).toContainText("Realtime Rita");
});
