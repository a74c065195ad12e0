/** A second staffer for co-editing tests: invited by the signed-in admin, signed in on `other` through the emailed link. */
import { expect, type Page } from "@playwright/test";
import { DEFAULT_PASSWORD, uniqueEmail, type Mailbox } from "../support";
import { AcceptInvitationPage } from "./AcceptInvitationPage";
import { AccountSettingsPage } from "./AccountSettingsPage";

export async function inviteTeammate(
  page: Page,
  other: Page,
  mailbox: Mailbox,
  who: { firstName: string; lastName: string; role: string },
) {
  const email = uniqueEmail(who.firstName.toLowerCase());
  const settings = new AccountSettingsPage(page);
  await settings.goto();
  await settings.openCreateMember();
  await settings.invite({ firstName: who.firstName, lastName: who.lastName, email, role: who.role });
  await expect(page.getByText(`Invitation sent to ${email}`)).toBeVisible();
  const [mail] = await mailbox.read(email, { kind: "invitation" });
  await other.goto(mailbox.firstLink(mail));
  const invitation = new AcceptInvitationPage(other);
  await expect(invitation.heading).toBeVisible();
  await invitation.accept(DEFAULT_PASSWORD);
  await expect(other).toHaveURL(/\/dashboard/, { timeout: 20_000 });
}
