/**
 * Turf and walk lists (issue 37) in three browsers: organiser A draws a rectangle on the turf map
 * (the door and voter count updates while drawing) and saves the turf; organiser B's open page
 * shows the new turf with its counts and then the new walk list, never reloaded; the list goes to
 * a Volunteer, who sees it (and only what is assigned), opens it with its doors in walking order and
 * prints the walk sheet: the PDF lists the doors in that order. Axe and 390 px on the way.
 */
import { readFileSync } from "node:fs";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { segmentRow, zipCentres, type SegmentRow } from "@convex/lib/geo/rows";
import { streetsDrawing } from "@convex/lib/geo/drawing";
import { detectLayer, toStreetSegments, type LayerFeature } from "@convex/lib/geo/tiger";
import { SEGMENTS_PER_BATCH } from "@convex/model/mapData";
import { pdfText } from "../support/pdfText";
import { syntheticCounty } from "../support/syntheticCounty";
import { DESKTOP, PHONE, screenProblems } from "./a11y";
import { expect, test } from "./fixtures";
import { apiClientAs } from "./support";
import { inviteTeammate } from "./pages/teammates";

const county = syntheticCounty(37);
const roads = county.edges.features as unknown as LayerFeature[];
const centre = county.houses[Math.floor(county.houses.length / 2)];
/** The neighbourhood: 60 houses around the county's middle; three of them buildings of two apartments. */
const HOUSES = county.houses
  .map((h) => ({ h, d: (h.lat - centre.lat) ** 2 + ((h.lng - centre.lng) * 0.77) ** 2 }))
  .sort((a, b) => a.d - b.d)
  .slice(0, 60)
  .map(({ h }) => h);
const ADDRESSES = HOUSES.flatMap((h, i) => {
  const line = `${h.number} ${h.fullName}`;
  return (i < 3 ? [`${line} Apt 1`, `${line} Apt 2`] : [line]).map((address) => ({ address, zip: h.zip }));
});

test("organiser A cuts turf while B watches live; a Volunteer gets the list and prints its walk sheet", async ({
  signedInPage: page,
  mailbox,
  openOtherBrowser,
  shot,
}) => {
  test.setTimeout(300_000);
  const b = await openOtherBrowser();
  await inviteTeammate(page, b, mailbox, { firstName: "Bea", lastName: "Organiser", role: "Campaign Manager" });
  const val = await openOtherBrowser();
  await inviteTeammate(page, val, mailbox, { firstName: "Val", lastName: "Volunteer", role: "Volunteer" });

  // the organisation's streets and voters, geocoded (the Map data path, through the API)
  const a = await apiClientAs(page);
  for (const [i, { address, zip }] of ADDRESSES.entries())
    await a.mutation(api.voters.create, {
      fields: {
        first_name: `Resident${i}`,
        last_name: "Walker",
        address,
        city: county.city,
        state: county.state,
        zip,
      },
    });
  const detection = detectLayer(Object.keys(roads[0].properties ?? {}));
  if ("error" in detection) throw new Error(detection.error);
  const layer = toStreetSegments(roads, detection);
  if ("error" in layer) throw new Error(layer.error);
  const rows = layer.segments.map(segmentRow).filter((r): r is SegmentRow => r !== null);
  const uploadUrl = await a.action(api.mapData.generateUploadUrl, {});
  const res = await fetch(uploadUrl, {
    method: "POST",
    headers: { "Content-Type": "application/geo+json" },
    body: streetsDrawing(layer.segments),
  });
  const { storageId } = (await res.json()) as { storageId: Id<"_storage"> };
  const layerId = await a.action(api.mapData.createLayer, {
    storageId,
    kind: "streets",
    tigerLayer: "EDGES",
    name: "Springfield streets",
    fileName: "tl_2024_17167_edges.zip",
    nameField: null,
    features: rows.length,
    addressable: rows.filter((r) => r.lFrom !== undefined || r.rFrom !== undefined).length,
    bbox: null,
    replaces: null,
    zipCentres: zipCentres(layer.segments),
  });
  for (let i = 0; i < rows.length; i += SEGMENTS_PER_BATCH)
    await a.mutation(api.mapData.appendSegments, { layerId, segments: rows.slice(i, i + SEGMENTS_PER_BATCH) });
  await a.mutation(api.mapData.finish, { layerId });
  // the geocoding run places the voters; their doors follow
  const everywhere = [
    [-90, 39],
    [-89, 39],
    [-89, 40.5],
    [-90, 40.5],
  ];
  await expect
    .poll(async () => (await a.query(api.turfs.countArea, { points: everywhere })).doors, { timeout: 60_000 })
    .toBeGreaterThanOrEqual(ADDRESSES.length - 3);
  // every placed voter's door (one voter each; an address the geocoder could not place has none)
  await page.waitForTimeout(1000);
  const total = (await a.query(api.turfs.countArea, { points: everywhere })).doors;
  const counts = `${total} doors · ${total} voters`;

  // B opens the turf screen first and keeps it open
  await b.goto("/walk-lists?tab=turf");
  await expect(b.getByText("No turfs yet.")).toBeVisible();

  await page.setViewportSize(DESKTOP);
  await page.goto("/walk-lists?tab=turf");
  const map = page.getByTestId("turf.map").locator(".leaflet-container");
  await expect(map).toBeVisible();
  await expect(page.getByTestId("walkLists.noDoors")).toHaveCount(0);
  // one step out, so the whole neighbourhood is in view
  await page.locator(".leaflet-control-zoom-out").click();
  await page.waitForTimeout(400);
  const box = (await map.boundingBox())!;
  await page.getByRole("button", { name: "Draw rectangle" }).click();
  // clear of the zoom buttons in the map's top left corner
  const [x0, y0, x1, y1] = [
    box.x + box.width * 0.12,
    box.y + box.height * 0.06,
    box.x + box.width * 0.94,
    box.y + box.height * 0.94,
  ];
  await page.mouse.click(x0, y0);
  await page.mouse.move((x0 + x1) / 2, (y0 + y1) / 2, { steps: 5 });
  await page.mouse.move(x1, y1, { steps: 5 });
  // the count while the rectangle is still being drawn: every door of the neighbourhood
  const live = page.getByTestId("turf.liveCount");
  await expect(live).toHaveText(counts);
  await shot("walkLists-drawing");
  await page.mouse.click(x1, y1);
  await expect(live).toHaveText(counts);
  await page.getByLabel("Turf name").fill("Oak loop");
  await page.getByRole("button", { name: "Save turf" }).click();

  // B's screen, never reloaded: the turf with its counts
  const theirs = b.getByTestId("turf.row").filter({ hasText: "Oak loop" });
  await expect(theirs.getByTestId("turf.row.counts")).toHaveText(`${counts} · Drawn on the map`);
  expect.soft(await screenProblems(page)).toEqual([]);
  await b.getByRole("tab", { name: "Walk lists" }).click();
  await expect(b.getByTestId("walkLists.empty")).toBeVisible();

  // A makes the walk list for Val
  await page
    .getByTestId("turf.row")
    .filter({ hasText: "Oak loop" })
    .getByRole("button", { name: "Create walk list" })
    .click();
  const form = page.getByRole("dialog");
  await form.getByRole("checkbox", { name: "Val Volunteer" }).click();
  await form.getByRole("button", { name: "Create Walk List" }).click();
  await expect(page.getByTestId("walkList.detail")).toBeVisible();
  await expect(page.getByTestId("walkList.door")).toHaveCount(total);

  // B sees it appear with its canvasser and progress
  const row = b.getByTestId("walkList.row").filter({ hasText: "Oak loop" });
  await expect(row.getByTestId("walkList.status")).toHaveText("Active");
  await expect(row.getByTestId("walkList.assignees")).toHaveText("Val Volunteer");
  await expect(row.getByTestId("walkList.progress")).toContainText(`0 / ${total}`);
  await shot("walkLists-teammate", { page: b });

  // Val, a Volunteer: the list assigned to them, no turf tools; usable at 390 px
  await val.setViewportSize(PHONE);
  await val.goto("/walk-lists");
  await expect(val.getByTestId("walkList.row")).toHaveCount(1);
  await expect(val.getByRole("tab", { name: "Cut turf" })).toHaveCount(0);
  expect.soft(await screenProblems(val)).toEqual([]);
  await val.getByRole("button", { name: "Open Oak loop" }).click();
  const doors = val.getByTestId("walkList.door");
  await expect(doors).toHaveCount(total);
  const shown = (await doors.allInnerTexts()).map((t) =>
    t.split("\t").slice(0, 2).join(". ").replace(/\s+/g, " ").trim(),
  );
  expect.soft(await screenProblems(val)).toEqual([]);
  await shot("walkLists-volunteer-390", { page: val });
  const [download] = await Promise.all([
    val.waitForEvent("download"),
    val.getByRole("button", { name: "Print walk sheet" }).click(),
  ]);
  expect(download.suggestedFilename()).toBe("walk-sheet-oak-loop.pdf");
  const text = pdfText(readFileSync(await download.path(), "latin1"));
  expect(text[0]).toBe("Walk sheet: Oak loop");
  expect(text).toContain("Canvassers: Val Volunteer");
  const sheetDoors = text.filter((t) => /^\d+\. /.test(t));
  // the sheet's doors are the list's, in its walking order
  expect(sheetDoors).toEqual(shown);
  expect(sheetDoors[0]).toMatch(/^1\. /);
});
