/**
 * Live collaboration end to end (issue 12): an admin and an invited teammate, each in their own
 * browser, edit the same voter. Different fields: both changes kept, the untouched field updates
 * in the other's open form. The same field: the second editor sees the conflict inline and
 * chooses. Presence avatars appear and disappear.
 */
import { expect, test, type Page } from "./fixtures";
import { AppShell } from "./pages/AppShell";
import { VoterDetailPage } from "./pages/VoterDetailPage";
import { inviteTeammate } from "./pages/teammates";
import { VoterFormPage } from "./pages/VoterFormPage";
import type { Mailbox } from "./support";

/** Invites "Bob Stone" as a Volunteer and signs him in on `other` through the emailed link. */
const inviteBob = (page: Page, other: Page, mailbox: Mailbox) =>
  inviteTeammate(page, other, mailbox, { firstName: "Bob", lastName: "Stone", role: "Volunteer" });

test("two staffers edit one voter: different fields merge, the same field asks, presence comes and goes", async ({
  page,
  account,
  voterFormPage: alice,
  mailbox,
  openOtherBrowser,
  shot,
}) => {
  const otherPage = await openOtherBrowser();
  await inviteBob(page, otherPage, mailbox);
  const bob = new VoterFormPage(otherPage);
  const aliceName = `${account.firstName} ${account.lastName}`;
  const voterId = await alice.create({ firstName: "Maria", lastName: "Lopez", email: "maria@example.org" });

  // both open the edit form and see each other
  await alice.gotoEdit(voterId);
  await bob.gotoEdit(voterId);
  await expect(alice.presenceAvatar("Bob Stone")).toBeVisible();
  await expect(bob.presenceAvatar(aliceName)).toBeVisible();

  // different fields: Bob's untouched City follows Alice's save in place; both changes are kept
  await bob.phone.fill("555-0142");
  await alice.city.fill("Austin");
  await alice.submit();
  await expect(alice.page).toHaveURL(new RegExp(`/voters/${voterId}$`));
  await expect(bob.city).toHaveValue("Austin");
  await expect(bob.phone).toHaveValue("555-0142");
  await expect(bob.conflict).toHaveCount(0);
  await bob.submit();
  await expect(bob.page).toHaveURL(new RegExp(`/voters/${voterId}$`));
  const detail = new VoterDetailPage(page);
  await expect(detail.fieldValue("Phone")).toHaveText("555-0142");
  await expect(detail.fieldValue("City")).toHaveText("Austin");

  // the same field: Bob is changing the phone when Alice saves hers; Bob sees it inline and chooses
  await alice.gotoEdit(voterId);
  await bob.gotoEdit(voterId);
  await expect(bob.phone).toHaveValue("555-0142");
  await bob.phone.fill("555-0177");
  await alice.phone.fill("555-0199");
  await alice.submit();
  await expect(alice.page).toHaveURL(new RegExp(`/voters/${voterId}$`));
  await expect(bob.conflict).toContainText(`${aliceName} changed Phone while you were editing`);
  await expect(bob.conflict).toContainText("555-0199");
  await expect(bob.phone).toHaveValue("555-0177");
  await shot("collab-conflict", { page: otherPage, fullPage: true });
  await bob.keepMine();
  await expect(bob.conflict).toHaveCount(0);
  await bob.submit();
  await expect(bob.page).toHaveURL(new RegExp(`/voters/${voterId}$`));
  await expect(detail.fieldValue("Phone")).toHaveText("555-0177");

  // presence: Bob leaves the page (gone at once), comes back, then his browser closes (gone after the timeout)
  await expect(detail.presenceAvatar("Bob Stone")).toBeVisible();
  await new AppShell(otherPage).navLink("Voters").click();
  await expect(detail.presenceAvatar("Bob Stone")).toHaveCount(0);
  await bob.gotoEdit(voterId);
  await expect(detail.presenceAvatar("Bob Stone")).toBeVisible();
  await otherPage.context().setOffline(true);
  await expect(detail.presenceAvatar("Bob Stone")).toHaveCount(0, { timeout: 20_000 });
  await otherPage.context().setOffline(false);

  // taking theirs: Bob drops his change to the phone
  await bob.gotoEdit(voterId);
  await alice.gotoEdit(voterId);
  await bob.phone.fill("555-0000");
  await alice.phone.fill("555-0111");
  await alice.submit();
  await expect(bob.conflict).toContainText("555-0111");
  await bob.takeTheirs();
  await expect(bob.phone).toHaveValue("555-0111");
});
