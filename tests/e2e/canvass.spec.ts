/**
 * The canvasser's field app (issue 38) in the browser at 390 px: a Volunteer opens their walk list
 * (its doors, voters and the turf's streets kept on the phone, the service worker installed), goes
 * offline (browser context offline), records 20 doors, reloads the page while offline (the page
 * renders from the device, the 20 are still queued, the streets still paint), comes back online:
 * all 20 reach the organiser once (read through the organiser's own session), none twice. A second
 * canvasser's claim of doors near the same door never overlaps the first's. Axe on every screen.
 */
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { segmentRow, zipCentres, type SegmentRow } from "@convex/lib/geo/rows";
import { streetsDrawing } from "@convex/lib/geo/drawing";
import { detectLayer, toStreetSegments, type LayerFeature } from "@convex/lib/geo/tiger";
import { SEGMENTS_PER_BATCH } from "@convex/model/mapData";
import { syntheticCounty } from "../support/syntheticCounty";
import { PHONE, screenProblems } from "./a11y";
import { expect, test, type Page } from "./fixtures";
import { apiClientAs, BACKEND_URL } from "./support";
import { inviteTeammate } from "./pages/teammates";
import { canvassDashboardPath } from "../../src/lib/routes";

const county = syntheticCounty(38);
const roads = county.edges.features as unknown as LayerFeature[];
const centre = county.houses[Math.floor(county.houses.length / 2)];
/** The neighbourhood: 60 houses around the county's middle. */
const HOUSES = county.houses
  .map((h) => ({ h, d: (h.lat - centre.lat) ** 2 + ((h.lng - centre.lng) * 0.77) ** 2 }))
  .sort((a, b) => a.d - b.d)
  .slice(0, 60)
  .map(({ h }) => h);
const EVERYWHERE = [
  [-90, 39],
  [-89, 39],
  [-89, 40.5],
  [-90, 40.5],
];
const RECORDED = 20;

/** The organisation's streets (the Map data path, through the API) and its voters at the houses, geocoded. */
async function neighbourhood(page: Page) {
  const a = await apiClientAs(page);
  for (const [i, h] of HOUSES.entries())
    await a.mutation(api.voters.create, {
      fields: {
        first_name: `Resident${i}`,
        last_name: "Walker",
        address: `${h.number} ${h.fullName}`,
        city: county.city,
        state: county.state,
        zip: h.zip,
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
  await expect
    .poll(async () => (await a.query(api.turfs.countArea, { points: EVERYWHERE })).doors, { timeout: 60_000 })
    .toBeGreaterThanOrEqual(HOUSES.length - 3);
  return a;
}

const userIdOf = async (p: Page) => (await (await apiClientAs(p)).query(api.viewer.me, {})).userId;
const claimedDoors = (p: Page) =>
  p.getByTestId("canvass.claims.door").evaluateAll((els) => els.map((e) => e.getAttribute("data-door") ?? ""));

test("a canvasser records 20 doors offline, reloads offline, and all 20 reach the organiser once; claims never overlap", async ({
  signedInPage: page,
  mailbox,
  openOtherBrowser,
  shot,
}) => {
  test.setTimeout(420_000);
  const val = await openOtherBrowser();
  await inviteTeammate(page, val, mailbox, { firstName: "Val", lastName: "Volunteer", role: "Volunteer" });
  const wes = await openOtherBrowser();
  await inviteTeammate(page, wes, mailbox, { firstName: "Wes", lastName: "Walker", role: "Volunteer" });
  const organiser = await neighbourhood(page);
  await page.waitForTimeout(1000);
  const turf = await organiser.mutation(api.turfs.cutTurf, { name: "Oak loop", filters: {}, points: EVERYWHERE });
  const list = await organiser.mutation(api.walkLists.create, {
    name: "Oak loop",
    turfId: turf.id,
    surveyId: null,
    status: "Active",
    assignees: [await userIdOf(val), await userIdOf(wes)],
  });
  const doors = list.doors;
  expect(doors).toBeGreaterThan(RECORDED + 20);

  // Val, a Volunteer, at 390 px: the field app from the menu's address, their list, its first door
  await val.setViewportSize(PHONE);
  await val.goto("/canvass");
  await expect(val.getByTestId("canvass.list")).toHaveCount(1);
  await expect(val.getByTestId("canvass.state")).toHaveText("Synced");
  expect.soft(await screenProblems(val)).toEqual([]);
  await shot("canvass-lists-390", { page: val });
  await val.getByRole("link", { name: "Open Oak loop" }).click();
  await expect(val.getByTestId("canvass.door.position")).toHaveText(`Door 1 of ${doors}`);
  // ready for offline: the list on the phone, the turf's streets kept, the service worker in charge
  await expect(val.getByTestId("canvass.streetsOffline")).toHaveAttribute("data-state", "ready", { timeout: 60_000 });
  await expect(val.getByTestId("canvass.map")).toHaveAttribute("data-streets", "painted", { timeout: 30_000 });
  await val.waitForFunction(() => !!navigator.serviceWorker?.controller, null, { timeout: 60_000 });
  expect.soft(await screenProblems(val)).toEqual([]);
  await shot("canvass-door-390", { page: val });

  // airplane mode: 20 doors recorded, each one waiting on the phone
  await val.context().setOffline(true);
  await expect(val.getByTestId("canvass.state")).toHaveText("Offline · nothing waiting");
  const seen: string[] = [];
  for (let i = 1; i <= RECORDED; i++) {
    const door = await val.getByTestId("canvass.door").getAttribute("data-door");
    seen.push(door!);
    const result = i % 5 === 0 ? "Come Back" : "Not Home";
    await val.getByTestId("canvass.results").getByRole("button", { name: result, exact: true }).click();
    await expect(val.getByTestId("canvass.record")).toBeVisible();
    if (i === 1) {
      expect.soft(await screenProblems(val)).toEqual([]);
      await shot("canvass-record-390", { page: val });
    }
    await val.getByTestId("canvass.save").click();
    await expect(val.getByTestId("canvass.state")).toHaveText(`Offline · ${i} waiting`);
    await expect(val.getByTestId("canvass.door")).not.toHaveAttribute("data-door", door!);
  }
  // twenty different doors
  expect(new Set(seen).size).toBe(RECORDED);
  await expect(val.getByTestId("canvass.list.progress")).toHaveText(`${RECORDED} of ${doors} doors knocked`);

  // the page reloads with no network: it renders from the phone, the 20 still queued, streets painted
  await val.reload();
  await expect(val.getByTestId("canvass.state")).toHaveText(`Offline · ${RECORDED} waiting`, { timeout: 30_000 });
  // (really offline: the backend cannot be reached, and the page came from the service worker)
  expect(
    await val.evaluate(
      (url) =>
        fetch(url, { cache: "no-store" }).then(
          () => "reached",
          () => "unreachable",
        ),
      `${BACKEND_URL}/version`,
    ),
  ).toBe("unreachable");
  expect(
    await val.evaluate(
      () => (performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming).workerStart,
    ),
  ).toBeGreaterThan(0);
  await expect(val.getByTestId("canvass.list.progress")).toHaveText(`${RECORDED} of ${doors} doors knocked`);
  await expect(val.getByTestId("canvass.map")).toHaveAttribute("data-streets", "painted", { timeout: 30_000 });
  expect.soft(await screenProblems(val)).toEqual([]);
  await shot("canvass-offline-reloaded-390", { page: val });
  // nothing reached the server while offline
  expect((await organiser.query(api.canvass.dashboard, { listId: list.id })).list.attempts).toBe(0);
  // the organiser watches the list's live dashboard in their own browser
  await page.goto(canvassDashboardPath(list.id));
  await expect(page.getByTestId("canvass-dashboard")).toBeVisible();
  await expect(page.getByTestId("canvass-knocked")).toHaveText("0");

  // back online: synced, and the organiser's dashboard shows all 20, each once, without a reload
  await val.context().setOffline(false);
  const online = Date.now();
  await expect(page.getByTestId("canvass-knocked")).toHaveText(String(RECORDED), { timeout: 30_000 });
  // the figure (goal ≤ 2 s from the phone's reconnection), reported rather than asserted on time
  test.info().annotations.push({ type: "reconnect → organiser's dashboard", description: `${Date.now() - online} ms` });
  console.log(`reconnect -> the organiser's dashboard shows all ${RECORDED}: ${Date.now() - online} ms`);
  await expect(page.getByTestId("canvass-attempts")).toHaveText(String(RECORDED));
  await expect(page.getByTestId("canvass-canvasser-row")).toHaveCount(1);
  await expect(val.getByTestId("canvass.state")).toHaveText("Synced", { timeout: 60_000 });
  const board = await organiser.query(api.canvass.dashboard, { listId: list.id });
  expect(board.list).toMatchObject({ attempts: RECORDED, doors: RECORDED });
  expect(board.list.results).toMatchObject({ not_home: 16, come_back: 4 });
  expect(board.canvassers.map((c) => [c.name, c.attempts])).toEqual([["Val Volunteer", RECORDED]]);
  // the walk list's progress on /walk-lists follows (its rollup runs within a second)
  await expect
    .poll(async () => (await organiser.query(api.walkLists.list, {})).find((l) => l.id === list.id)?.knocked, {
      timeout: 10_000,
    })
    .toBe(RECORDED);
  await shot("canvass-synced-390", { page: val });
  expect.soft(await screenProblems(page)).toEqual([]);
  await shot("canvass-dashboard", { page });
  // and on the organiser's phone
  await page.setViewportSize(PHONE);
  await expect(page.getByTestId("canvass-knocked")).toHaveText(String(RECORDED));
  expect.soft(await screenProblems(page)).toEqual([]);
  await shot("canvass-dashboard-390", { page });

  // claims: Val and then Wes take 10 doors near the same door; never one door twice
  await val.getByTestId("canvass.claim").click();
  await expect(val.getByTestId("canvass.claims.door")).toHaveCount(10);
  await wes.setViewportSize(PHONE);
  await wes.goto(`/canvass/${list.id}?door=${await val.getByTestId("canvass.door").getAttribute("data-door")}`);
  await expect(wes.getByTestId("canvass.door.position")).toBeVisible();
  await wes.getByTestId("canvass.claim").click();
  await expect(wes.getByTestId("canvass.claims.door")).toHaveCount(10);
  const mine = await claimedDoors(val);
  const theirs = await claimedDoors(wes);
  expect(mine.filter((d) => theirs.includes(d))).toEqual([]);
  // knocked doors are not handed out
  expect([...mine, ...theirs].filter((d) => seen.includes(d))).toEqual([]);
  expect.soft(await screenProblems(wes)).toEqual([]);
  await shot("canvass-claims-390", { page: wes });
});
