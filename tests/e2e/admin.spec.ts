/**
 * Account administration end to end: an emailed invitation accepted in a fresh browser; a custom
 * role with limited permissions whose holder is refused by the UI and by the server.
 */
import { expect, test, type Browser, type Page } from "@playwright/test";
import { ConvexHttpClient } from "convex/browser";
import { api } from "../../convex/_generated/api";
import { BACKEND_URL, DEFAULT_PASSWORD, firstLink, newAccount, readMailbox, registerAndSignIn, uniqueEmail } from "./support";

const SHOTS = process.env.SHOTS_DIR;
async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

/** Opens an emailed link in a brand-new browser context (nobody signed in) and accepts it. */
async function acceptInFreshContext(browser: Browser, link: string, names: { firstName: string; lastName: string }) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(link);
  await expect(page.getByRole("heading", { name: "Accept Invitation" })).toBeVisible();
  await expect(page.getByLabel("First Name")).toHaveValue(names.firstName);
  await page.getByLabel("Password", { exact: true }).fill("short");
  await page.getByLabel("Confirm Password").fill("short");
  await page.getByRole("button", { name: "Accept Invitation" }).click();
  await expect(page.getByText("Password must be at least 8 characters long.")).toBeVisible();
  await page.getByLabel("Password", { exact: true }).fill(DEFAULT_PASSWORD);
  await page.getByLabel("Confirm Password").fill(DEFAULT_PASSWORD);
  await shot(page, "admin-accept-invitation");
  await page.getByRole("button", { name: "Accept Invitation" }).click();
  await expect(page).toHaveURL(/\/dashboard/, { timeout: 20_000 });
  await expect(page.getByText("Account Created Successfully")).toBeVisible();
  return { context, page };
}

function mainNav(page: Page) {
  return page.getByLabel("Main navigation");
}

/** The Convex Auth JWT the browser holds, to call functions directly as that user. */
async function authToken(page: Page): Promise<string> {
  const token = await page.evaluate(() => {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i)!;
      if (key.startsWith("__convexAuthJWT")) return localStorage.getItem(key);
    }
    return null;
  });
  if (!token) throw new Error("no auth token in local storage");
  return token;
}

test("an admin invites a member by email; the member accepts in a fresh browser and gets the role's menus", async ({ page, browser }) => {
  const admin = await registerAndSignIn(page, newAccount({ firstName: "Alex", lastName: "Admin" }));
  const email = uniqueEmail("val");

  await page.goto("/account-settings");
  await expect(page.getByRole("heading", { name: "Account Settings" })).toBeVisible();
  await page.getByRole("button", { name: "Create New Member" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("button", { name: "Send Invitation" }).click();
  await expect(page.getByText("Please fill in all required fields.")).toBeVisible();
  await dialog.getByLabel("First Name").fill("Val");
  await dialog.getByLabel("Last Name").fill("Volunteer");
  await dialog.getByLabel("Email").fill(email);
  await dialog.getByRole("combobox", { name: "Role" }).click();
  await page.getByRole("option", { name: "Volunteer" }).click();
  await dialog.getByRole("button", { name: "Send Invitation" }).click();
  await expect(page.getByText(`Invitation sent to ${email}`)).toBeVisible();
  // The link goes to the invited address only (here the operator's demo mailbox), never to the admin's screen.
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText(/accept-invitation/)).toHaveCount(0);
  await shot(page, "admin-invitation-sent");
  const row = page.getByTestId("admin.members").getByRole("row").filter({ hasText: email });
  await expect(row).toContainText("pending");
  await expect(row).toContainText("Volunteer");

  const mail = await readMailbox(email, { kind: "invitation" });
  expect(mail).toHaveLength(1);
  const link = firstLink(mail[0].text);
  expect(link).toMatch(/\/accept-invitation\?id=[^&]+&token=[A-Za-z0-9]{32}$/);

  const member = await acceptInFreshContext(browser, link, { firstName: "Val", lastName: "Volunteer" });
  await expect(member.page.getByTestId("shell.userMenu")).toContainText(`${admin.firstName} ${admin.lastName}'s Organization`);
  await expect(member.page.getByTestId("shell.userMenu")).toContainText("Volunteer");
  await expect(mainNav(member.page).getByRole("link", { name: "Voters", exact: true })).toBeVisible();
  await expect(mainNav(member.page).getByRole("link", { name: "Import History" })).toHaveCount(0);
  await expect(mainNav(member.page).getByRole("link", { name: "Text Blasts" })).toHaveCount(0);
  await shot(member.page, "admin-member-dashboard");
  await member.page.goto("/account-settings");
  await expect(member.page.getByText("You need Account Administrator privileges to access these settings.")).toBeVisible();

  // The admin's list turns the member active live; the link cannot be used twice.
  await expect(row).toContainText("active");
  await shot(page, "admin-members-active");
  const again = await browser.newContext();
  const againPage = await again.newPage();
  await againPage.goto(link);
  await expect(againPage.getByText("Invalid Invitation")).toBeVisible();
  await expect(againPage.getByText("The invitation link is invalid or has expired.")).toBeVisible();
  await again.close();
  await member.context.close();
});

test("a custom role with limited permissions: its holder is refused in the UI and by the server", async ({ page, browser }) => {
  await registerAndSignIn(page, newAccount({ firstName: "Rhea", lastName: "Roles" }));
  await page.goto("/user-role-management");
  await page.getByRole("tab", { name: "Roles" }).click();
  await page.getByRole("button", { name: "Create Role" }).click();
  const roleDialog = page.getByRole("dialog");
  await roleDialog.getByLabel("Role Name").fill("Report Reader");
  await roleDialog.getByLabel("Description").fill("Reads reports only");
  await expect(roleDialog.getByLabel("Access Level (1-100)")).toHaveValue("20");
  await roleDialog.getByText("reports.view").click();
  await roleDialog.getByRole("button", { name: "Create Role" }).click();
  await expect(page.getByText("Role created")).toBeVisible();
  const roleRow = page.getByTestId("admin.roles").getByRole("row").filter({ hasText: "Report Reader" });
  await expect(roleRow).toContainText("reports.view");
  await shot(page, "admin-roles");

  await page.getByRole("tab", { name: "Users" }).click();
  await page.getByRole("button", { name: "Create User" }).click();
  const email = uniqueEmail("rita");
  const userDialog = page.getByRole("dialog");
  await userDialog.getByLabel("Email").fill(email);
  await userDialog.getByLabel("Name").fill("Rita Reader");
  await userDialog.getByText("Report Reader").click();
  await userDialog.getByRole("button", { name: "Create User" }).click();
  await expect(userDialog).toHaveCount(0);
  await expect(page.getByTestId("admin.users").getByRole("row").filter({ hasText: email })).toContainText("invited");

  const link = firstLink((await readMailbox(email, { kind: "invitation" }))[0].text);
  const member = await acceptInFreshContext(browser, link, { firstName: "Rita", lastName: "Reader" });
  await expect(member.page.getByTestId("shell.userMenu")).toContainText("Report Reader");
  await expect(mainNav(member.page).getByRole("link", { name: "Voters", exact: true })).toHaveCount(0);
  await member.page.goto("/user-role-management");
  await expect(member.page.getByText("You don't have permission to manage users and roles.")).toBeVisible();
  await shot(member.page, "admin-custom-role-refused");

  // The server refuses a direct call too, while the same token works for what the role allows.
  const client = new ConvexHttpClient(BACKEND_URL);
  client.setAuth(await authToken(member.page));
  const me = await client.query(api.viewer.me, {});
  expect(me.org && me.permissions).toEqual(["reports.view"]);
  await expect(client.query(api.adminUsers.list, {})).rejects.toThrow(/permission/);
  await expect(client.mutation(api.adminRoles.create, { name: "Escalate", description: "", permissions: ["users.manage"], modes: ["campaign"], color: "red" })).rejects.toThrow(/permission/);

  // The assigned role cannot be deleted.
  await page.getByRole("tab", { name: "Roles" }).click();
  await expect(roleRow.getByRole("cell").nth(3)).toHaveText("1");
  await roleRow.getByRole("button", { name: "Actions for Report Reader" }).click();
  await page.getByRole("menuitem", { name: "Delete" }).click();
  await expect(page.getByText("This role is assigned to 1 user(s). Please reassign or remove these users first.")).toBeVisible();
  await member.context.close();
});
