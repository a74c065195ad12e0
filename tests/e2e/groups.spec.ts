/** Voter groups end to end: create, edit, add members (dialog and quick search), remove, delete. */
import { expect, test } from "./fixtures";

test("groups: CRUD and members", async ({ page, voterFormPage, groupsPage: groups, voterDetailPage, shot }) => {
  test.setTimeout(300_000);
  await voterFormPage.create({ firstName: "Ada", lastName: "Lovelace", email: "ada@example.org", party: "Democrat" });
  await voterFormPage.create({
    firstName: "Grace",
    lastName: "Hopper",
    email: "grace@example.org",
    party: "Republican",
  });

  await groups.goto();
  await expect(groups.heading).toBeVisible();
  await groups.openCreateGroup();
  await groups.saveGroup({});
  await expect(page.getByText("Please enter a group name.")).toBeVisible();
  await groups.saveGroup({ name: "Canvassers" });
  await expect(page.getByText("Group Created")).toBeVisible();
  await expect(groups.list).toContainText("Canvassers");

  await groups.openEditGroup("Canvassers");
  await groups.saveGroup({ name: "Door Knockers", description: "Saturday crew" });
  await expect(groups.list).toContainText("Door Knockers");
  await expect(groups.list).toContainText("Saturday crew");

  // Add Voters to Group: select all, add
  await groups.openAddVoters("Door Knockers");
  await expect(groups.dialog.getByText("Ada Lovelace")).toBeVisible();
  await groups.selectAllVoters();
  await expect(groups.dialog.getByText("2 selected")).toBeVisible();
  await shot("groups-add-voters");
  await groups.addSelectedVoters();
  await expect(page.getByText("Voters Added Successfully")).toBeVisible();
  await expect(groups.list).toContainText("2 members");

  await groups.openGroup("Door Knockers");
  await expect(groups.memberRows).toHaveCount(3);
  await shot("groups-members");

  // real removal
  await groups.removeMember("Grace Hopper");
  await expect(groups.memberRows).toHaveCount(2);
  await expect(groups.members).not.toContainText("Grace Hopper");
  await expect(groups.list).toContainText("1 members");

  // quick search adds to the selected group; an existing member is refused
  await groups.quickAdd("ada", "Ada Lovelace");
  await expect(page.getByText("Already a Member")).toBeVisible();
  await groups.quickAdd("grace", "Grace Hopper");
  await expect(page.getByText("Voter Added")).toBeVisible();
  await expect(groups.memberRows).toHaveCount(3);

  // the voter's detail page lists the group
  await groups.viewMember("Ada Lovelace");
  await expect(voterDetailPage.groups).toContainText("Door Knockers");
  await page.goBack();

  // delete with the spec's confirmation
  await groups.startDelete("Door Knockers");
  await expect(
    page.getByText(
      'Are you sure you want to delete the group "Door Knockers"? This will also remove all members from the group. This action cannot be undone.',
    ),
  ).toBeVisible();
  await groups.deleteConfirmation.confirm();
  await expect(page.getByText("Group Deleted")).toBeVisible();
  await expect(groups.list).not.toContainText("Door Knockers");
});
