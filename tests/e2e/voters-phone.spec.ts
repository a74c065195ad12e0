/**
 * Voters on a phone (390×844): the list as cards with its total and bulk selection, a voter's
 * detail page (vote history, change history, state codes), and the add-to-group, bulk add and
 * send-email dialogs. Each screen passes axe (no serious or critical violation) and does not
 * scroll sideways; screenshots go to SHOTS_DIR.
 */
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { PHONE, screenProblems } from "./a11y";
import { expect, test, type Page } from "./fixtures";
import { apiClientAs } from "./support";

test.use({ viewport: PHONE, reducedMotion: "reduce" });

async function expectClean(page: Page, name: string) {
  const problems = await screenProblems(page);
  expect(problems, `${name}:\n${problems.join("\n")}`).toEqual([]);
}

test("voters at 390 px: list cards, detail, dialogs", async ({ page, account: _account, shot }) => {
  test.setTimeout(300_000);
  const client = await apiClientAs(page);
  const adaId = (await client.mutation(api.voters.create, {
    fields: {
      first_name: "Ada",
      last_name: "Lovelace",
      email: "ada.lovelace.with.a.long.address@example.org",
      phone: "(919) 555-0142",
      party_affiliation: "Democrat",
      party_code: "DEM",
      status: "Active",
      status_code: "A",
      city: "Raleigh",
      precinct: "P-017",
      date_of_birth: "1921",
      state_verified_first_name: "Ada",
      state_verified_last_name: "Byron",
      vote_history: [
        { election: "2020 General", date: "2020-11-03", type: "General", method: "Absentee" },
        { election: "2024 Primary", date: "2024-03-05", type: "Primary", method: "In person", party: "DEM" },
      ],
    },
  })) as Id<"voters">;
  await client.mutation(api.voters.create, {
    fields: {
      first_name: "Grace",
      last_name: "Hopper",
      email: "grace@example.org",
      party_affiliation: "Republican",
      status: "Inactive",
      status_code: "R",
    },
  });
  await client.mutation(api.voters.create, {
    fields: { first_name: "Alan", last_name: "Turing", phone: "704-555-0199", precinct: "P-018" },
  });
  await client.mutation(api.voters.update, { id: adaId, edits: [{ field: "city", base: "Raleigh", value: "Durham" }] });
  await client.mutation(api.groups.create, { name: "Canvassers", description: null });

  // the list: cards instead of the table, the total, search by phone
  await page.goto("/voters");
  const cards = page.getByTestId("voters.cards");
  await expect(cards.getByTestId("voters.card")).toHaveCount(3);
  await expect(page.getByTestId("voters.table")).toHaveCount(0);
  await expect(page.getByTestId("voters.total")).toHaveText("3 voters");
  await expectClean(page, "voter list");
  await shot("voters-phone-list", { fullPage: true });

  await page.getByLabel("Search voters").fill("(919) 555-0142");
  await expect(cards.getByTestId("voters.card")).toHaveCount(1);
  await expect(cards).toContainText("Ada Lovelace");
  await expect(page.getByTestId("voters.total")).toHaveText("1 voter");
  await page.getByLabel("Search voters").fill("");
  await expect(cards.getByTestId("voters.card")).toHaveCount(3);

  // bulk selection: tick one, then every match; the add-to-group dialog fits
  await page.getByRole("checkbox", { name: "Select Grace Hopper" }).click();
  const selection = page.getByTestId("voters.selection");
  await expect(selection).toContainText("1 selected");
  await selection.getByRole("button", { name: "Select all matching (3)" }).click();
  await expect(selection).toContainText("All 3 matching selected");
  await shot("voters-phone-selection");
  await selection.getByRole("button", { name: "Add to Group" }).click();
  const bulk = page.getByRole("dialog", { name: "Add to Group" });
  await expect(bulk).toContainText("All 3 matching voters");
  await expectClean(page, "bulk add to group dialog");
  await shot("voters-phone-bulk-add");
  await bulk.getByRole("combobox", { name: "Group" }).click();
  await page.getByRole("option", { name: "Canvassers" }).click();
  await bulk.getByRole("button", { name: "Add to Group" }).click();
  await expect(page.getByText("Voters Added Successfully")).toBeVisible();
  await expect(bulk).toBeHidden();

  // the detail page: codes, birth year, vote history newest first, change history
  await cards.getByRole("link", { name: "Ada Lovelace" }).click();
  await expect(page.getByRole("heading", { name: "Ada Lovelace", level: 1 })).toBeVisible();
  await expect(page.getByTestId("voters.statusCode")).toHaveText("A");
  await expect(page.getByTestId("voters.partyCode")).toHaveText("DEM");
  await expect(page.getByTestId("voters.election").first()).toContainText("2024 Primary");
  await expect(page.getByTestId("voters.change").first()).toContainText("City: Raleigh → Durham");
  await expect(page.getByTestId("voters.groups")).toContainText("Canvassers");
  await expect(page.getByText("1921", { exact: true })).toBeVisible();
  // the last name differs from the state's; the city has no state value, so no icon
  await expect(page.getByRole("img", { name: "Does not match state record" })).toHaveCount(1);
  await expect(page.getByRole("img", { name: "Matches state record" })).toHaveCount(1);
  await expectClean(page, "voter detail");
  await shot("voters-phone-detail", { fullPage: true });

  await page.getByTestId("voters.groups").getByRole("button", { name: "Add to Group" }).click();
  const addDialog = page.getByRole("dialog", { name: "Add to Group" });
  await expect(addDialog.getByRole("combobox", { name: "Group" })).toBeVisible();
  await expectClean(page, "add to group dialog");
  await shot("voters-phone-add-to-group");
  await page.keyboard.press("Escape");
  await expect(addDialog).toBeHidden();

  await page.getByRole("button", { name: "Send Email" }).click();
  const email = page.getByRole("dialog");
  await expect(email.getByLabel("Subject")).toBeVisible();
  await expectClean(page, "send email dialog");
  await shot("voters-phone-send-email");
  await page.keyboard.press("Escape");

  // a voter without any history: neutral, not a red 0/4
  await page.goto("/voters?q=grace");
  await page.getByTestId("voters.cards").getByRole("link", { name: "Grace Hopper" }).click();
  await expect(page.getByTestId("voters.history")).toHaveText("No vote history");
  await expectClean(page, "voter detail without history");
  await shot("voters-phone-detail-no-history", { fullPage: true });
});

test("custom fields at 390 px: a taken label is refused in the dialog; a delete says how many voters hold a value", async ({
  page,
  account: _account,
  voterFormPage: form,
  shot,
}) => {
  const client = await apiClientAs(page);
  const key = await client.mutation(api.customFields.create, { label: "Shirt Size", type: "text", required: false });
  const voterId = await client.mutation(api.voters.create, {
    fields: { first_name: "Ada", last_name: "Lovelace", date_of_birth: "1921", custom_fields: { [key]: "M" } },
  });
  await client.mutation(api.voters.create, { fields: { first_name: "Grace", last_name: "Hopper" } });

  await form.gotoEdit(voterId);
  await expect(form.firstName).toHaveValue("Ada");
  // a birth year alone stays as it is (a date input would show it empty)
  await expect(page.getByLabel(/^Date of Birth/)).toHaveValue("1921");

  await form.openAddField();
  await form.describeField({ label: "  shirt SIZE ", type: "Text" });
  await form.fieldDialogSubmit.click();
  await expect(form.fieldDialog.getByRole("alert")).toHaveText("A field with this label already exists");
  await expect(form.fieldDialog).toBeVisible();
  await expectClean(page, "add field dialog, label taken");
  await shot("voters-phone-field-taken");
  await page.keyboard.press("Escape");
  await expect(form.fieldDialog).toBeHidden();

  await page.getByRole("button", { name: "Delete field Shirt Size" }).click();
  const confirm = page.getByRole("alertdialog");
  await expect(confirm.getByTestId("voters.deleteFieldQuestion")).toHaveText(
    "1 voter has a value for this field. Delete it?",
  );
  await expectClean(page, "delete field confirmation");
  await shot("voters-phone-delete-field");
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(page.getByRole("button", { name: "Delete field Shirt Size" })).toHaveCount(0);
});
