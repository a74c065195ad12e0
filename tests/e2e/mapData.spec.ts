/**
 * Map data (issue 36): an admin uploads the synthetic county's TIGER/Line streets zip through the
 * real path (parsed in the browser's worker, previewed, stored in batches, finished) and sees it
 * ready; a teammate's open Map data screen shows the new layer without reloading. A zip without
 * its .dbf is refused with the message and nothing is stored.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { shapefileZip } from "../support/shapefileZip";
import { syntheticCounty } from "../support/syntheticCounty";
import { expect, test } from "./fixtures";
import { MapDataPage } from "./pages/MapDataPage";
import { inviteTeammate } from "./pages/teammates";

const county = syntheticCounty(36);
const roads = county.edges.features.filter(
  (f) => String(f.properties.MTFCC).startsWith("S") && String(f.properties.FULLNAME).trim() !== "",
);

function zipFile(name: string, bytes: Uint8Array): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "mapdata-")), name);
  writeFileSync(file, bytes);
  return file;
}

test("an admin uploads the county's streets; a teammate sees the layer appear without reload", async ({
  page,
  mapDataPage,
  mailbox,
  openOtherBrowser,
  shot,
}) => {
  const other = await openOtherBrowser();
  await inviteTeammate(page, other, mailbox, { firstName: "Bob", lastName: "Stone", role: "Account Administrator" });
  const theirs = new MapDataPage(other);
  await theirs.goto();
  await expect(theirs.empty).toBeVisible();

  await mapDataPage.goto();
  await mapDataPage.chooseFile(zipFile("tl_2024_17167_edges.zip", shapefileZip(county.edges, "tl_2024_17167_edges")));
  await expect(mapDataPage.preview).toBeVisible({ timeout: 30_000 });
  await expect(mapDataPage.previewCounts).toHaveText(
    new RegExp(`^${roads.length.toLocaleString("en-US")} segments, [\\d,]+ with address ranges$`),
  );
  // nothing is stored before the preview is confirmed
  await expect(theirs.empty).toBeVisible();
  await mapDataPage.preview.getByLabel("Layer name").fill("Springfield streets");
  await shot("mapData-preview");
  await mapDataPage.confirmUpload();

  const mine = mapDataPage.layer("Springfield streets");
  await expect(mapDataPage.status(mine)).toHaveText("Ready", { timeout: 60_000 });
  await expect(mine.getByTestId("mapData.layer.counts")).toContainText(
    `${roads.length.toLocaleString("en-US")} segments`,
  );
  await expect(mine).toContainText("TIGER/Line EDGES");
  await expect(mapDataPage.geocodingStatus).not.toHaveText(/No street map yet/);

  // the teammate's screen, never reloaded
  const seen = theirs.layer("Springfield streets");
  await expect(seen).toBeVisible();
  await expect(theirs.status(seen)).toHaveText("Ready");
  await expect(theirs.empty).toHaveCount(0);
  await shot("mapData-teammate", { page: other });
  // usable on a phone: nothing wider than the screen, every quality's count shown
  await page.setViewportSize({ width: 390, height: 844 });
  for (const q of ["exact", "interpolated", "streetOnly", "zipCentroid", "failed"]) {
    await page.getByTestId(`mapData.quality.${q}`).scrollIntoViewIfNeeded();
    await expect(page.getByTestId(`mapData.quality.${q}`)).toBeInViewport();
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await shot("mapData-390", { fullPage: true });
});

test("a zip without its .dbf is refused with the message, and nothing is stored", async ({ mapDataPage, shot }) => {
  await mapDataPage.goto();
  await mapDataPage.chooseFile(
    zipFile("tl_2024_17167_edges.zip", shapefileZip(county.edges, "tl_2024_17167_edges", { without: ["dbf"] })),
  );
  await expect(mapDataPage.parseError).toHaveText(
    /^tl_2024_17167_edges\.shp has no \.dbf file beside it \(the attributes: names, codes, address ranges\)\./,
  );
  await expect(mapDataPage.preview).toHaveCount(0);
  await expect(mapDataPage.empty).toBeVisible();
  await shot("mapData-refused");
});
