/**
 * Yard-sign map end to end (issue 19): a sign placed by clicking the offline map appears in a
 * teammate's map and table without reload; schedule, mark removed, filter and delete travel live
 * too; many signs cluster on the map.
 */
import { expect, test } from "./fixtures";
import { SignsMapPage } from "./pages/SignsMapPage";
import { inviteTeammate } from "./pages/teammates";
import { apiClientAs, expectToast } from "./support";
import { api } from "@convex/_generated/api";

test("a sign placed on the map shows up live for a teammate; schedule, remove, filter, delete", async ({
  page,
  account: _account,
  mailbox,
  openOtherBrowser,
  shot,
}) => {
  test.setTimeout(300_000);
  const other = await openOtherBrowser();
  await inviteTeammate(page, other, mailbox, { firstName: "Bob", lastName: "Stone", role: "Campaign Manager" });
  const alice = new SignsMapPage(page);
  const bob = new SignsMapPage(other);
  await alice.goto();
  await bob.goto();
  await expect(bob.inView).toHaveText("0 signs in view");

  // Alice adds a sign: required fields first, then a click on the map sets the place
  await alice.startAdd();
  await alice.form.getByRole("button", { name: "Add Sign" }).click();
  await expect(page.getByText("Required fields missing").first()).toBeVisible();
  await alice.newCampaign("Yes on Measure 12");
  await alice.address().fill("1120 SW 5th Ave, Portland, OR 97204");
  await alice.clickMap(0.6, 0.4);
  await expect(page.getByText("Location selected").first()).toBeVisible();
  const lat = await alice.form.getByRole("textbox", { name: "Latitude" }).inputValue();
  expect(Number(lat)).toBeGreaterThan(45.45);
  expect(Number(lat)).toBeLessThan(45.56);
  await alice.form.getByRole("textbox", { name: "Notes" }).fill("Front lawn, facing the street");
  await shot("signs-add-form");
  await alice.form.getByRole("button", { name: "Add Sign" }).click();
  await expectToast(page, "Sign added");
  await expect(alice.markers).toHaveCount(1);

  // Bob sees it without reloading: marker, side list, info window, table
  await expect(bob.inView).toHaveText("1 sign in view");
  await expect(bob.markers).toHaveCount(1);
  await bob.listItems.first().click();
  await expect(other.getByTestId("sign.info")).toContainText("Yes on Measure 12");
  await expect(other.getByTestId("sign.info")).toContainText("Front lawn, facing the street");
  await shot("signs-map-info", { page: other });
  await bob.tab("Table View");
  await expect(bob.row("1120 SW 5th Ave")).toContainText("Active");

  // schedule (Active only), then mark removed, seen live by Bob
  await alice.tab("Table View");
  await alice.rowAction("1120 SW 5th Ave, Portland, OR 97204", "Schedule placement");
  const schedule = page.getByRole("dialog", { name: "Schedule Sign Placement" });
  await expect(schedule.getByLabel("Time")).toHaveValue("09:00");
  await schedule.getByRole("button", { name: "Schedule" }).click();
  await expect(page.getByText("Sign scheduled").first()).toBeVisible();
  await expect(bob.row("1120 SW 5th Ave")).toContainText("Scheduled");
  await expect(bob.row("1120 SW 5th Ave")).toContainText("9:00");
  await alice
    .row("1120 SW 5th Ave")
    .getByRole("button", { name: /Actions for/ })
    .click();
  await expect(page.getByRole("menuitem", { name: "Schedule placement" })).toHaveCount(0);
  await page.keyboard.press("Escape");
  await alice.rowAction("1120 SW 5th Ave, Portland, OR 97204", "Mark as removed");
  await page
    .getByRole("dialog", { name: "Mark Sign as Removed" })
    .getByRole("button", { name: "Mark as Removed" })
    .click();
  await expect(page.getByText("Sign marked as removed").first()).toBeVisible();
  await expect(bob.row("1120 SW 5th Ave")).toContainText("Removed");

  // filter
  await bob.filter("Active");
  await expect(other.getByText("No signs with status Active")).toBeVisible();
  await bob.filter("Removed");
  await expect(bob.row("1120 SW 5th Ave")).toBeVisible();
  await shot("signs-table", { page: other });

  // delete: gone for Bob too
  await alice.rowAction("1120 SW 5th Ave, Portland, OR 97204", "Delete");
  await alice.confirmDelete();
  await expect(page.getByText("Sign deleted").first()).toBeVisible();
  await expect(bob.rows).toHaveCount(0);
  await bob.tab("Map View");
  await bob.filter("All");
  await expect(bob.inView).toHaveText("0 signs in view");
});

test("hundreds of signs cluster on the offline map and split as you zoom in", async ({
  page,
  account: _account,
  shot,
}) => {
  test.setTimeout(300_000);
  const signs = new SignsMapPage(page);
  await signs.goto();
  const client = await apiClientAs(page);
  const campaignId = await client.mutation(api.signs.createCampaign, { name: "Neighbors for Parks" });
  const now = Date.now();
  const day = 24 * 3600_000;
  await Promise.all(
    Array.from({ length: 240 }, (_, i) =>
      client.mutation(api.signs.create, {
        campaignId,
        address: `${100 + i} NE Sample St, Portland, OR 97212`,
        latitude: 45.47 + ((i * 37) % 70) / 1000,
        longitude: -122.72 + ((i * 53) % 90) / 1000,
        datePlaced: i % 5 === 0 ? now + 3 * day : now - day,
        dateRemoval: now + 40 * day,
        notes: "",
        voterId: null,
        responsibleUserId: null,
        assignedById: null,
      }),
    ),
  );
  await expect(signs.inView).toHaveText("240 signs in view");
  await expect(signs.clusters.first()).toBeVisible();
  await expect(page.getByRole("button", { name: "Scheduled (48)" })).toBeVisible();
  // the offline basemap names the places around (ZIP centres, computed in a worker)
  await expect(page.locator(".basemap-label--place span", { hasText: /^Portland$/ })).toBeVisible({ timeout: 20_000 });
  await shot("signs-clusters");
  const before = await signs.clusters.count();
  await signs.clusters.first().click();
  await expect.poll(async () => (await signs.markers.count()) + (await signs.clusters.count())).toBeGreaterThan(0);
  await signs.filter("Scheduled");
  await page.getByRole("button", { name: "Zoom out" }).click();
  await expect(signs.inView).toContainText("in view");
  expect(before).toBeGreaterThan(0);
});

test("on a phone, Add Sign Location brings its form into view with focus; signs sharing a ZIP centre fan out to be picked", async ({
  page,
  account: _account,
  shot,
}) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 390, height: 844 });
  const signs = new SignsMapPage(page);
  await signs.goto();
  // without the organisation's streets, the map says how to add them
  await expect(page.getByTestId("signs.noStreets")).toContainText(
    "No street map yet. An admin can add streets under Account Settings → Map data.",
  );
  await signs.startAdd();
  const title = signs.form.getByRole("heading", { name: "Add Sign Location" });
  await expect(title).toBeFocused();
  await expect(title).toBeInViewport();
  await shot("signs-add-390");
  await signs.form.getByRole("button", { name: "Close" }).click();

  const client = await apiClientAs(page);
  const campaignId = await client.mutation(api.signs.createCampaign, { name: "Same ZIP" });
  const now = Date.now();
  for (let i = 0; i < 6; i++) {
    await client.mutation(api.signs.create, {
      campaignId,
      address: `ZIP 97212 sign ${i + 1}`,
      latitude: 45.5365,
      longitude: -122.6456,
      datePlaced: now - 86_400_000,
      dateRemoval: now + 30 * 86_400_000,
      notes: "",
      voterId: null,
      responsibleUserId: null,
      assignedById: null,
    });
  }
  await expect(signs.inView).toHaveText("6 signs in view");
  // zoom in past clustering: the six stand apart, each clickable
  for (let i = 0; i < 8 && (await signs.clusters.count()) > 0; i++) await signs.clusters.first().click();
  await expect(signs.markers).toHaveCount(6);
  const boxes = await signs.markers.evaluateAll((els) =>
    els.map((e) => {
      const r = e.getBoundingClientRect();
      return [Math.round(r.x + r.width / 2), Math.round(r.y + r.height / 2)];
    }),
  );
  expect(new Set(boxes.map((b) => b.join(","))).size).toBe(6);
  await shot("signs-spiderfied-390");
});
