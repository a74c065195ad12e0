/**
 * Account administration end to end: an emailed invitation accepted in a fresh browser; a custom
 * role with limited permissions whose holder is refused by the UI and by the server.
 */
import { api } from "@convex/_generated/api";
import { expect, test, type Page, type Shot } from "./fixtures";
import { AcceptInvitationPage } from "./pages/AcceptInvitationPage";
import { AccountSettingsPage } from "./pages/AccountSettingsPage";
import { AppShell } from "./pages/AppShell";
import { UserRoleManagementPage } from "./pages/UserRoleManagementPage";
import { apiClientAs, DEFAULT_PASSWORD, uniqueEmail } from "./support";

/** Accepts an emailed invitation on `page` (another browser, nobody signed in), through the short-password check. */
async function acceptInvitation(page: Page, link: string, firstName: string, shot: Shot) {
  const invitation = new AcceptInvitationPage(page);
  await page.goto(link);
  await expect(invitation.heading).toBeVisible();
  await expect(invitation.firstName).toHaveValue(firstName);
  await invitation.accept("short");
  await expect(page.getByText("Password must be at least 8 characters long.")).toBeVisible();
  await shot("admin-accept-invitation", { page, fullPage: true });
  await invitation.accept(DEFAULT_PASSWORD);
  await expect(page).toHaveURL(/\/dashboard/, { timeout: 20_000 });
  await expect(page.getByText("Account Created Successfully")).toBeVisible();
}

test("an admin invites a member by email; the member accepts in a fresh browser and gets the role's menus", async ({
  page,
  account: admin,
  accountSettingsPage: settings,
  mailbox,
  openOtherBrowser,
  shot,
}) => {
  const email = uniqueEmail("val");

  await settings.goto();
  await expect(settings.heading).toBeVisible();
  await settings.openCreateMember();
  await settings.sendInvitationButton.click();
  await expect(page.getByText("Please fill in all required fields.")).toBeVisible();
  await settings.invite({ firstName: "Val", lastName: "Volunteer", email, role: "Volunteer" });
  await expect(page.getByText(`Invitation sent to ${email}`)).toBeVisible();
  // The link goes to the invited address only (here the operator's demo mailbox), never to the admin's screen.
  await expect(settings.inviteDialog).toHaveCount(0);
  await expect(page.getByText(/accept-invitation/)).toHaveCount(0);
  await shot("admin-invitation-sent", { fullPage: true });
  const row = settings.memberRow(email);
  await expect(row).toContainText("pending");
  await expect(row).toContainText("Volunteer");

  const mail = await mailbox.read(email, { kind: "invitation" });
  expect(mail).toHaveLength(1);
  const link = mailbox.firstLink(mail[0]);
  expect(link).toMatch(/\/accept-invitation\?id=[^&]+&token=[A-Za-z0-9]{32}$/);

  const memberPage = await openOtherBrowser();
  await acceptInvitation(memberPage, link, "Val", shot);
  const member = new AppShell(memberPage);
  await expect(member.userMenu).toContainText(`${admin.firstName} ${admin.lastName}'s Organization`);
  await expect(member.userMenu).toContainText("Volunteer");
  await expect(member.navLink("Voters")).toBeVisible();
  await expect(member.navLink(/Import History/i)).toHaveCount(0);
  await expect(member.navLink(/Text Blasts/i)).toHaveCount(0);
  await shot("admin-member-dashboard", { page: memberPage, fullPage: true });
  const memberSettings = new AccountSettingsPage(memberPage);
  await memberSettings.goto();
  await expect(memberSettings.adminOnlyNotice).toBeVisible();

  // The admin's list turns the member active live; the link cannot be used twice.
  await expect(row).toContainText("active");
  await shot("admin-members-active", { fullPage: true });
  const latecomer = await openOtherBrowser();
  await latecomer.goto(link);
  await expect(latecomer.getByText("Invalid Invitation")).toBeVisible();
  await expect(latecomer.getByText("The invitation link is invalid or has expired.")).toBeVisible();
});

test("a custom role with limited permissions: its holder is refused in the UI and by the server", async ({
  page,
  userRoleManagementPage: admin,
  mailbox,
  openOtherBrowser,
  shot,
}) => {
  await admin.goto();
  await admin.openTab("Roles");
  await admin.openCreateRole();
  await expect(admin.accessLevel).toHaveValue("20");
  await admin.createRole({ name: "Report Reader", description: "Reads reports only", permissions: ["reports.view"] });
  await expect(page.getByText("Role created")).toBeVisible();
  await expect(admin.roleRow("Report Reader")).toContainText("reports.view");
  await shot("admin-roles", { fullPage: true });

  await admin.openTab("Users");
  const email = uniqueEmail("rita");
  await admin.createUser({ email, name: "Rita Reader", role: "Report Reader" });
  await expect(admin.dialog).toHaveCount(0);
  await expect(admin.userRow(email)).toContainText("invited");

  const [invitation] = await mailbox.read(email, { kind: "invitation" });
  const memberPage = await openOtherBrowser();
  await acceptInvitation(memberPage, mailbox.firstLink(invitation), "Rita", shot);
  const member = new AppShell(memberPage);
  await expect(member.userMenu).toContainText("Report Reader");
  await expect(member.navLink("Voters")).toHaveCount(0);
  const memberAdmin = new UserRoleManagementPage(memberPage);
  await memberAdmin.goto();
  await expect(memberAdmin.refusal).toBeVisible();
  await shot("admin-custom-role-refused", { page: memberPage, fullPage: true });

  // The server refuses a direct call too, while the same token works for what the role allows.
  const client = await apiClientAs(memberPage);
  const me = await client.query(api.viewer.me, {});
  expect(me.org && me.permissions).toEqual(["reports.view"]);
  await expect(client.query(api.adminUsers.list, {})).rejects.toThrow(/permission/);
  await expect(
    client.mutation(api.adminRoles.create, {
      name: "Escalate",
      description: "",
      permissions: ["users.manage"],
      modes: ["campaign"],
      color: "red",
    }),
  ).rejects.toThrow(/permission/);

  // The assigned role cannot be deleted.
  await admin.openTab("Roles");
  await expect(admin.userCount("Report Reader")).toHaveText("1");
  await admin.deleteRole("Report Reader");
  await expect(
    page.getByText("This role is assigned to 1 user(s). Please reassign or remove these users first."),
  ).toBeVisible();
});
