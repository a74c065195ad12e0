/**
 * Districts (issue 37): an admin uploads the synthetic county's precincts (a TIGER/Line VTD
 * shapefile zip, the real Map data path) over voters whose file codes their precinct; /districts
 * lists the precincts with their counts and draws them on the map; the counts change live as a
 * voter is added; a district's page shows counts by party; "View its voters" opens the voter list
 * filtered by it. Accessible (axe) and usable at 390 px.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { api } from "@convex/_generated/api";
import { shapefileZip } from "../support/shapefileZip";
import { syntheticCounty } from "../support/syntheticCounty";
import { DESKTOP, PHONE, screenProblems } from "./a11y";
import { expect, test } from "./fixtures";
import { apiClientAs } from "./support";

const county = syntheticCounty(36);

function zipFile(name: string, bytes: Uint8Array): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "districts-")), name);
  writeFileSync(file, bytes);
  return file;
}

test("precincts from a boundary layer and voter codes: counts live, a district's page, its voters", async ({
  page,
  mapDataPage,
  shot,
}) => {
  test.setTimeout(180_000);
  // voters whose file codes their precinct (VTD 000010 is "Springfield 1", 000020 "Springfield 2")
  const client = await apiClientAs(page);
  const voter = (first: string, precinct: string, party: string) =>
    client.mutation(api.voters.create, {
      fields: { first_name: first, last_name: "Doe", precinct, party_affiliation: party, status: "Active" },
    });
  await voter("Ada", "10", "Democrat");
  await voter("Ben", "10", "Republican");
  await voter("Cy", "20", "Democrat");

  await page.goto("/districts");
  await expect(page.getByRole("heading", { name: "Districts", level: 1 })).toBeVisible();
  // codes alone: the precincts are listed, without outlines yet
  await expect(page.getByTestId("districts.row")).toHaveCount(2);

  await mapDataPage.goto();
  await mapDataPage.chooseFile(
    zipFile("tl_2020_17167_vtd20.zip", shapefileZip(county.precincts, "tl_2020_17167_vtd20")),
  );
  await expect(mapDataPage.preview).toBeVisible({ timeout: 30_000 });
  await mapDataPage.preview.getByLabel("Layer name").fill("Springfield precincts");
  await mapDataPage.confirmUpload();
  await expect(mapDataPage.status(mapDataPage.layer("Springfield precincts"))).toHaveText("Ready", {
    timeout: 60_000,
  });

  await page.goto("/districts");
  const rows = page.getByTestId("districts.row");
  // the six precincts of the layer, the coded voters in theirs
  await expect(rows).toHaveCount(6, { timeout: 30_000 });
  const row = (name: string) => rows.filter({ has: page.getByRole("button", { name, exact: true }) });
  await expect(row("Springfield 1").getByRole("cell").first()).toHaveText("2", { timeout: 30_000 });
  await expect(row("Springfield 2").getByRole("cell").first()).toHaveText("1");
  await expect(page.locator("[data-testid='districts.map'] path.leaflet-interactive")).toHaveCount(6);
  await shot("districts-list");

  // live: a new voter in precinct 2, the open page counts it
  await voter("Di", "20", "Green Party");
  await expect(row("Springfield 2").getByRole("cell").first()).toHaveText("2", { timeout: 15_000 });

  // a district's page
  await row("Springfield 1").getByRole("button", { name: "Springfield 1" }).click();
  const panel = page.getByTestId("districts.panel");
  await expect(panel.getByTestId("districts.panel.voters")).toHaveText("2");
  await expect(panel).toContainText("Democrat150.0%");
  await expect(panel).toContainText("Republican150.0%");
  await expect(panel.getByTestId("districts.panel.disagreement")).toContainText("No disagreement");
  expect(await screenProblems(page)).toEqual([]);
  await shot("districts-panel");

  // its voters: the voter list filtered by the district
  await panel.getByRole("link", { name: "View its voters" }).click();
  await expect(page).toHaveURL(/\/voters\?district=/);
  await expect(page.getByTestId("voters.districtFilter")).toContainText("District: Springfield 1");
  const voterRows = page.getByTestId("voters.table").getByRole("row");
  await expect(voterRows).toHaveCount(3);
  await expect(page.getByTestId("voters.table")).toContainText("Ada");
  await expect(page.getByTestId("voters.table")).toContainText("Ben");

  // accessible, on a desktop and a phone
  await page.goto("/districts");
  await expect(rows).toHaveCount(6);
  for (const size of [DESKTOP, PHONE]) {
    await page.setViewportSize(size);
    expect(await screenProblems(page)).toEqual([]);
  }
  await shot("districts-390", { fullPage: true });
});
