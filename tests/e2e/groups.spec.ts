/** Voter groups end to end: create, edit, add members (dialog and quick search), remove, delete. */
import { expect, test } from "@playwright/test";
import { newAccount, registerAndSignIn, shot } from "./support";
import { createVoter, pickOption } from "./voterSupport";

test("groups: CRUD and members", async ({ page }) => {
  test.setTimeout(120_000);
  await registerAndSignIn(page, newAccount({ firstName: "Gus", lastName: "Groups" }));
  await createVoter(page, { first: "Ada", last: "Lovelace", email: "ada@example.org", party: "Democrat" });
  await createVoter(page, { first: "Grace", last: "Hopper", email: "grace@example.org", party: "Republican" });

  await page.goto("/voter-groups");
  await expect(page.getByRole("heading", { name: "Voter Groups" })).toBeVisible();
  await page.getByRole("button", { name: "Create Group" }).click();
  let dialog = page.getByRole("dialog");
  await dialog.getByRole("button", { name: "Create Group" }).click();
  await expect(page.getByText("Please enter a group name.")).toBeVisible();
  await dialog.getByLabel("Group name").fill("Canvassers");
  await dialog.getByRole("button", { name: "Create Group" }).click();
  await expect(page.getByText("Group Created")).toBeVisible();
  const list = page.getByTestId("groups.list");
  await expect(list).toContainText("Canvassers");

  await page.getByRole("button", { name: "Edit group Canvassers" }).click();
  dialog = page.getByRole("dialog");
  await dialog.getByLabel("Group name").fill("Door Knockers");
  await dialog.getByLabel("Description").fill("Saturday crew");
  await dialog.getByRole("button", { name: "Update Group" }).click();
  await expect(list).toContainText("Door Knockers");
  await expect(list).toContainText("Saturday crew");

  // Add Voters to Group: select all, add
  await page.getByRole("button", { name: "Add Voters to Group" }).click();
  dialog = page.getByRole("dialog");
  await pickOption(page, "Target group", "Door Knockers");
  await expect(dialog.getByText("Ada Lovelace")).toBeVisible();
  await dialog.getByRole("checkbox", { name: "Select all" }).click();
  await expect(dialog.getByText("2 selected")).toBeVisible();
  await shot(page, "groups-add-voters");
  await dialog.getByRole("button", { name: "Add to Group" }).click();
  await expect(page.getByText("Voters Added Successfully")).toBeVisible();
  await expect(list).toContainText("2 members");

  const members = page.getByTestId("groups.members");
  await list.getByText("Door Knockers").click();
  await expect(members.getByRole("row")).toHaveCount(3);
  await shot(page, "groups-members");

  // real removal
  await members.getByRole("button", { name: "Remove Grace Hopper" }).click();
  await expect(members.getByRole("row")).toHaveCount(2);
  await expect(members).not.toContainText("Grace Hopper");
  await expect(list).toContainText("1 members");

  // quick search adds to the selected group; an existing member is refused
  await page.getByLabel("Quick search voters").fill("ada");
  await page.getByRole("option", { name: /Ada Lovelace/ }).click();
  await expect(page.getByText("Already a Member")).toBeVisible();
  await page.getByLabel("Quick search voters").fill("grace");
  await page.getByRole("option", { name: /Grace Hopper/ }).click();
  await expect(page.getByText("Voter Added")).toBeVisible();
  await expect(members.getByRole("row")).toHaveCount(3);

  // the voter's detail page lists the group
  await members.getByRole("button", { name: "View Ada Lovelace" }).click();
  await expect(page.getByTestId("voters.groups")).toContainText("Door Knockers");
  await page.goBack();

  // delete with the spec's confirmation
  await page.getByRole("button", { name: "Delete group Door Knockers" }).click();
  await expect(page.getByText('Are you sure you want to delete the group "Door Knockers"? This will also remove all members from the group. This action cannot be undone.')).toBeVisible();
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
  await expect(page.getByText("Group Deleted")).toBeVisible();
  await expect(list).not.toContainText("Door Knockers");
});
