/**
 * Map data (issue 36): an admin uploads the synthetic county's TIGER/Line streets zip through the
 * real path (parsed in the browser's worker, previewed, stored in batches, finished) and sees it
 * ready; a teammate's open Map data screen shows the new layer without reloading; the signs map
 * draws the streets, and a sign placed by its address lands on its street. A zip without
 * its .dbf is refused with the message and nothing is stored.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { shapefileZip } from "../support/shapefileZip";
import { syntheticCounty } from "../support/syntheticCounty";
import { expect, test } from "./fixtures";
import { expectToast } from "./support";
import { MapDataPage } from "./pages/MapDataPage";
import { SignsMapPage } from "./pages/SignsMapPage";
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

  // the signs map: no "no street map" notice; a sign placed by its address lands on its street
  await page.setViewportSize({ width: 1400, height: 900 });
  const signs = new SignsMapPage(page);
  await signs.goto();
  await expect(page.getByTestId("signs.noStreets")).toHaveCount(0);
  await signs.startAdd();
  await signs.newCampaign("Yes on 36");
  const house = county.houses[37];
  const address = `${house.number} ${house.fullName}, ${county.city}, ${county.state} ${house.zip}`;
  await signs.address().fill(address);
  await expect(
    signs.form.getByText(`Placed on ${house.fullName} from your street map.`, { exact: false }),
  ).toBeVisible();
  const lat = Number(await signs.form.getByRole("textbox", { name: "Latitude" }).inputValue());
  const lng = Number(await signs.form.getByRole("textbox", { name: "Longitude" }).inputValue());
  const metres = Math.hypot(
    (lat - house.lat) * 111_320,
    (lng - house.lng) * 111_320 * Math.cos((house.lat * Math.PI) / 180),
  );
  expect(metres).toBeLessThan(30);
  await signs.form.getByRole("button", { name: "Add Sign" }).click();
  await expectToast(page, "Sign added");
  // shown on the map at street zoom: the streets pane draws tiles with lines on them
  await signs.tab("Table View");
  await signs.rowAction(address, "View on map");
  const painted = async () =>
    await page.evaluate(() =>
      [...document.querySelectorAll<HTMLCanvasElement>(".leaflet-streets-pane canvas")].some((c) => {
        const ctx = c.getContext("2d");
        if (!ctx || c.width === 0) return false;
        const data = ctx.getImageData(0, 0, c.width, c.height).data;
        for (let i = 3; i < data.length; i += 4) if (data[i] > 0) return true;
        return false;
      }),
    );
  await expect.poll(painted, { timeout: 20_000 }).toBe(true);
  await shot("mapData-signs-streets");
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
