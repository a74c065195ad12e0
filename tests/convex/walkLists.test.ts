/**
 * Turf and walk lists (convex/walkLists.ts) on a synthetic county's houses: doors (households,
 * apartments by unit) kept with the voter file, counting and cutting turf from an area, filters,
 * split, merge, undo, auto-cut, walk lists with held doors (three organisers at once), edits
 * through the collaboration layer, and who sees which list.
 */
import { describe, expect, test } from "vitest";
import { api, internal } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { segmentRow, zipCentres, type SegmentRow } from "@convex/lib/geo/rows";
import { streetsDrawing } from "@convex/lib/geo/drawing";
import { detectLayer, toStreetSegments, type LayerFeature } from "@convex/lib/geo/tiger";
import { areaTester, ringPolygon } from "@convex/lib/turf/geometry";
import { markCell } from "@convex/model/doors";
import { SEGMENTS_PER_BATCH } from "@convex/model/mapData";
import { recordOptOut } from "@convex/model/consent";
import { syntheticCounty, type SyntheticHouse } from "../support/syntheticCounty";
import { seedVoters, type SeedVoter } from "../support/turfSeed";
import { createMember, roleFixture, setupTest, type TestConvex } from "./setup";

const county = syntheticCounty(37);
const centre = county.houses[Math.floor(county.houses.length / 2)];
/** The 600 houses nearest the county's middle: the neighbourhood the tests canvass. */
const HOUSES: SyntheticHouse[] = county.houses
  .map((h) => ({ h, d: (h.lat - centre.lat) ** 2 + ((h.lng - centre.lng) * 0.77) ** 2 }))
  .sort((a, b) => a.d - b.d)
  .slice(0, 600)
  .map(({ h }) => h);

type Ring = number[][];
/** A rectangle [lng, lat] ring around a share of the neighbourhood (fractions of its bounding box). */
function rect(x0: number, y0: number, x1: number, y1: number): Ring {
  const lats = HOUSES.map((h) => h.lat);
  const lngs = HOUSES.map((h) => h.lng);
  const [s, n, w, e] = [Math.min(...lats), Math.max(...lats), Math.min(...lngs), Math.max(...lngs)];
  const lng = (f: number) => w + (e - w) * f;
  const lat = (f: number) => s + (n - s) * f;
  return [
    [lng(x0), lat(y0)],
    [lng(x1), lat(y0)],
    [lng(x1), lat(y1)],
    [lng(x0), lat(y1)],
  ];
}
function housesIn(ring: Ring): SyntheticHouse[] {
  const inside = areaTester(ringPolygon(ring.map((p) => [p[0], p[1]]))!);
  return HOUSES.filter((h) => inside(h.lat, h.lng));
}

/** Seeds voters with their places (and doors); the grid cells are rewritten by the scheduled steps, run here. */
async function seed(t: TestConvex, orgId: Id<"organizations">, voters: SeedVoter[], opts?: { doors?: boolean }) {
  const ids = await t.run((ctx) => seedVoters(ctx, orgId, voters, opts));
  await settle(t);
  return ids;
}

/** Runs the scheduled steps (before any walk list exists: a list's expiry is scheduled 30 days ahead). */
async function settle(t: TestConvex) {
  await t.finishAllScheduledFunctions(() => {}, 100);
}

const everyone = (extra: (h: SyntheticHouse, i: number) => Partial<SeedVoter> = () => ({})): SeedVoter[] =>
  HOUSES.map((house, i) => ({ house, ...extra(house, i) }));

describe("doors (households)", () => {
  test("voters group by address, apartments by unit; a move or a deletion keeps doors right", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    const [h1, h2] = HOUSES;
    const ids = await seed(t, f.orgId, [
      { house: h1, unit: "1", first: "Ann" },
      { house: h1, unit: "1", first: "Ben" },
      { house: h1, unit: "2", first: "Cy" },
      { house: h1, first: "Dee" },
      { house: h2, first: "Eve" },
    ]);
    const doors = await t.run((ctx) => ctx.db.query("doors").collect());
    expect(doors.map((d) => d.voterIds.length).sort()).toEqual([1, 1, 1, 2]);
    expect(
      doors
        .filter((d) => d.unit !== null)
        .map((d) => d.unit)
        .sort(),
    ).toEqual(["1", "2"]);
    const cells = await t.run((ctx) => ctx.db.query("doorCells").collect());
    expect(cells.reduce((n, c) => n + c.ids.length, 0)).toBe(4);
    expect(cells.reduce((n, c) => n + c.voters.reduce((a, b) => a + b, 0), 0)).toBe(5);

    // Eve's deletion takes her door (its only voter) with her; Ben's leaves Ann at apartment 1
    await f.campaign_manager.as.mutation(api.voters.remove, { id: ids[4] });
    await f.campaign_manager.as.mutation(api.voters.remove, { id: ids[1] });
    await settle(t);
    const after = await t.run((ctx) => ctx.db.query("doors").collect());
    expect(after.map((d) => d.voterIds.length).sort()).toEqual([1, 1, 1]);
    expect(after.find((d) => d.unit === "1")!.voterIds).toEqual([ids[0]]);
    const cellsAfter = await t.run((ctx) => ctx.db.query("doorCells").collect());
    expect(cellsAfter.reduce((n, c) => n + c.ids.length, 0)).toBe(3);
  });

  test("voters placed before doors existed are gathered by a build (idempotent)", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    await seed(t, f.orgId, everyone().slice(0, 120), { doors: false });
    expect((await f.campaign_manager.as.query(api.turfs.overview, {})).hasDoors).toBe(false);
    await f.campaign_manager.as.mutation(api.turfs.buildDoors, {});
    await settle(t);
    await f.campaign_manager.as.mutation(api.turfs.buildDoors, {});
    await settle(t);
    const doors = await t.run((ctx) => ctx.db.query("doors").collect());
    expect(doors).toHaveLength(120);
    expect(doors.every((d) => d.voterIds.length === 1)).toBe(true);
    expect((await f.campaign_manager.as.query(api.turfs.overview, {})).hasDoors).toBe(true);
    // every grid cell rewritten at the build's end: the whole neighbourhood counts
    expect(await f.campaign_manager.as.query(api.turfs.countArea, { points: rect(-0.5, -0.5, 1.5, 1.5) })).toEqual({
      doors: 120,
      voters: 120,
      held: 0,
    });
  });
});

/** convex-test keeps no content type for stored files, so a layer is only uploaded on the embedded backend. */
const UPLOADS = "setEnv" in setupTest();

describe("doors from the geocoder", () => {
  (UPLOADS ? test : test.skip)(
    "a new streets layer places the voters and their doors follow; a voter who moves changes door",
    async () => {
      const t = setupTest();
      const f = await roleFixture(t);
      const cm = f.campaign_manager.as;
      const houses = HOUSES.slice(0, 12);
      const ids: Id<"voters">[] = [];
      for (const [i, h] of houses.entries())
        ids.push(
          await cm.mutation(api.voters.create, {
            fields: {
              first_name: `Resident${i}`,
              last_name: "Walker",
              address: `${h.number} ${h.fullName}${i < 2 ? " Apt 4" : ""}`,
              city: county.city,
              state: county.state,
              zip: h.zip,
            },
          }),
        );
      const features = county.edges.features as unknown as LayerFeature[];
      const detection = detectLayer(Object.keys(features[0].properties ?? {}));
      if ("error" in detection) throw new Error(detection.error);
      const layer = toStreetSegments(features, detection);
      if ("error" in layer) throw new Error(layer.error);
      const rows = layer.segments.map(segmentRow).filter((r): r is SegmentRow => r !== null);
      const storageId = await t.run((ctx) =>
        ctx.storage.store(new Blob([streetsDrawing(layer.segments)], { type: "application/geo+json" })),
      );
      const layerId = await f.account_admin.as.action(api.mapData.createLayer, {
        storageId,
        kind: "streets",
        tigerLayer: "EDGES",
        name: "Streets",
        fileName: "tl_2024_17167_edges.zip",
        nameField: null,
        features: rows.length,
        addressable: rows.length,
        bbox: null,
        replaces: null,
        zipCentres: zipCentres(layer.segments),
      });
      for (let i = 0; i < rows.length; i += SEGMENTS_PER_BATCH)
        await f.account_admin.as.mutation(api.mapData.appendSegments, {
          layerId,
          segments: rows.slice(i, i + SEGMENTS_PER_BATCH),
        });
      await f.account_admin.as.mutation(api.mapData.finish, { layerId });
      await settle(t);
      const doors = await t.run((ctx) => ctx.db.query("doors").collect());
      expect(doors).toHaveLength(12);
      expect(doors.filter((d) => d.unit === "4")).toHaveLength(2);
      const all = rect(-0.5, -0.5, 1.5, 1.5);
      expect(await cm.query(api.turfs.countArea, { points: all })).toEqual({ doors: 12, voters: 12, held: 0 });
      // Resident5 moves in with Resident6: one door fewer, one of two voters
      const [from, to] = [houses[5], houses[6]];
      await cm.mutation(api.voters.update, {
        id: ids[5],
        edits: [
          { field: "address", base: `${from.number} ${from.fullName}`, value: `${to.number} ${to.fullName}` },
          { field: "zip", base: from.zip, value: to.zip },
        ],
      });
      await settle(t);
      expect(await cm.query(api.turfs.countArea, { points: all })).toEqual({ doors: 11, voters: 12, held: 0 });
      const shared = (await t.run((ctx) => ctx.db.query("doors").collect())).find((d) => d.voterIds.length === 2)!;
      expect(shared.voterIds.sort()).toEqual([ids[5], ids[6]].sort());
    },
  );
});

describe("turf", () => {
  test("a turf from a district: the doors of its voters, by their voter-file code", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    const cm = f.campaign_manager.as;
    await seed(
      t,
      f.orgId,
      everyone((_, i) => ({ precinct: i % 3 === 0 ? "12" : "7" })),
    );
    await cm.mutation(api.districts.run, {});
    await settle(t);
    const { districts } = await cm.query(api.districts.list, { kind: "precinct" });
    const twelve = districts.find((d) => d.name === "12")!;
    expect(twelve.voters).toBe(HOUSES.filter((_, i) => i % 3 === 0).length);
    const options = await cm.query(api.walkLists.options, {});
    expect(options.districts.map((d) => d.name).sort()).toEqual(["Precinct 12", "Precinct 7"]);
    const cut = await cm.mutation(api.turfs.cutTurf, { name: "P12", filters: {}, districtId: twelve.id });
    expect(cut).toEqual({ id: expect.any(String), doors: twelve.voters, voters: twelve.voters });
    const turf = (await cm.query(api.turfs.turfs, {})).find((x) => x.id === cut.id)!;
    expect(turf).toMatchObject({ source: "district", sourceLabel: "Precinct 12" });
    // another organisation's district is not found
    const other = await f.outsider.as.mutation(api.districts.run, {});
    expect(other).toBeTruthy();
    await expect(
      f.outsider.as.mutation(api.turfs.cutTurf, { name: "X", filters: {}, districtId: twelve.id }),
    ).rejects.toThrow();
  });

  test("live count of a drawn area, a cut with filters, split, merge and undo", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    const cm = f.campaign_manager.as;
    await seed(
      t,
      f.orgId,
      everyone((_, i) => ({
        party: i % 2 ? "Democrat" : "Republican",
        status: i % 5 === 0 ? "Inactive" : "Active",
        votedIn: i % 3 === 0 ? ["2024 General"] : [],
        phone: i % 7 === 0 ? `+1555000${String(i).padStart(4, "0")}` : undefined,
      })),
    );
    const ring = rect(0.1, 0.1, 0.6, 0.7);
    const inside = housesIn(ring);
    expect(inside.length).toBeGreaterThan(50);
    expect(await cm.query(api.turfs.countArea, { points: ring })).toEqual({
      doors: inside.length,
      voters: inside.length,
      held: 0,
    });

    // filters: Democrats, active, voted in 2024, not opted out (a STOP from one of them)
    const optedOutPhone = "+15550000007";
    await t.run((ctx) =>
      ctx.db.insert("smsOptOuts", { orgId: f.orgId, phone: optedOutPhone, at: 1, source: "inbound" }),
    );
    const expected = HOUSES.map((h, i) => ({ h, i })).filter(
      ({ h, i }) =>
        inside.includes(h) &&
        i % 2 === 1 &&
        i % 5 !== 0 &&
        i % 3 === 0 &&
        `+1555000${String(i).padStart(4, "0")}` !== optedOutPhone,
    );
    const filtered = await cm.mutation(api.turfs.cutTurf, {
      name: "Dems who vote",
      points: ring,
      filters: { parties: ["Democrat"], statuses: ["Active"], votedIn: "2024 General", excludeOptedOut: true },
    });
    expect(filtered.doors).toBe(expected.length);

    const all = await cm.mutation(api.turfs.cutTurf, { name: "Oak loop", points: ring, filters: {} });
    expect(all).toMatchObject({ doors: inside.length, voters: inside.length });
    // not contacted since: doors talked to last week are left out
    const someDoors = await t.run(async (ctx) => (await ctx.db.get("turfs", all.id))!.doorIds.slice(0, 5));
    await t.run(async (ctx) => {
      for (const id of someDoors) await ctx.db.patch("doors", id, { lastContactAt: Date.now() });
    });
    const fresh = await cm.mutation(api.turfs.cutTurf, {
      name: "Not contacted",
      points: ring,
      filters: { notContactedSince: Date.now() - 7 * 86_400_000 },
    });
    expect(fresh.doors).toBe(inside.length - 5);

    // split along a north–south line through the middle of the area
    const [w, e] = [ring[0][0], ring[1][0]];
    const mid = (w + e) / 2;
    const line = [
      [mid, ring[0][1] - 1],
      [mid, ring[2][1] + 1],
    ];
    const [a, b] = await cm.mutation(api.turfs.splitTurf, { turfId: all.id, line });
    let turfs = await cm.query(api.turfs.turfs, {});
    const [ta, tb] = [turfs.find((x) => x.id === a)!, turfs.find((x) => x.id === b)!];
    expect(ta.doors + tb.doors).toBe(inside.length);
    expect(ta.doors).toBeGreaterThan(0);
    expect(turfs.some((x) => x.id === all.id)).toBe(false);
    const west = inside.filter((h) => h.lng < mid).length;
    expect([ta.doors, tb.doors].sort()).toEqual([west, inside.length - west].sort());

    // merge them back, then undo the merge and the split
    const merged = await cm.mutation(api.turfs.mergeTurfs, { turfIds: [a, b], name: "Whole loop" });
    turfs = await cm.query(api.turfs.turfs, {});
    expect(turfs.find((x) => x.id === merged)!.doors).toBe(inside.length);
    expect(turfs.some((x) => x.id === a)).toBe(false);
    expect(await cm.mutation(api.turfs.undoTurf, {})).toBe("merge");
    turfs = await cm.query(api.turfs.turfs, {});
    expect(turfs.map((x) => x.id)).toEqual(expect.arrayContaining([a, b]));
    expect(turfs.some((x) => x.id === merged)).toBe(false);
    expect(await cm.mutation(api.turfs.undoTurf, {})).toBe("split");
    turfs = await cm.query(api.turfs.turfs, {});
    expect(turfs.some((x) => x.id === all.id)).toBe(true);
    expect(turfs.some((x) => x.id === a)).toBe(false);
    // undo is per organiser: a teammate has nothing to undo
    const other = await createMember(t, ["campaign_manager"], { orgId: f.orgId });
    await expect(other.as.mutation(api.turfs.undoTurf, {})).rejects.toThrow(/no turf operation to undo/);
  });

  test("a cut from a boundary, a group or an email segment; bad areas are refused clearly", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    const cm = f.campaign_manager.as;
    const voterIds = await seed(t, f.orgId, everyone());
    const ring = rect(0, 0, 0.5, 0.5);
    const inside = housesIn(ring);
    const boundaryId = await t.run(async (ctx) => {
      const layerId = await ctx.db.insert("mapLayers", {
        orgId: f.orgId,
        kind: "boundaries",
        tigerLayer: "VTD",
        name: "Precincts",
        fileName: "vtd.zip",
        nameField: "NAME",
        status: "ready",
        storageId: null,
        size: 1,
        stored: 1,
        features: 1,
        addressable: 0,
        bbox: null,
        replaces: null,
        createdBy: f.creator.userId,
        createdByName: "Admin",
        createdAt: 1,
        updatedAt: 1,
      });
      return await ctx.db.insert("boundaries", {
        orgId: f.orgId,
        layerId,
        layer: "VTD",
        name: "Precinct 12",
        key: "precinct 12",
        code: "12",
        bbox: [],
        geometry: JSON.stringify({ type: "Polygon", coordinates: [[...ring, ring[0]]] }),
      });
    });
    const fromBoundary = await cm.mutation(api.turfs.cutTurf, { name: "P12", boundaryId, filters: {} });
    expect(fromBoundary.doors).toBe(inside.length);
    const groupId = await cm.mutation(api.groups.create, { name: "Walkers" });
    await cm.mutation(api.groups.addMembers, { groupId, voterIds: voterIds.slice(0, 30) });
    const fromGroup = await cm.mutation(api.turfs.cutTurf, { name: "Group", groupId, filters: {} });
    expect(fromGroup.doors).toBe(30);
    const segmentId = await t.run(async (ctx) => {
      const id = await ctx.db.insert("emailSegments", {
        orgId: f.orgId,
        name: "Emailable",
        description: null,
        rules: "[]",
        cachedCount: 12,
        lastRefreshedAt: 1,
        gen: 2,
        refreshing: false,
        createdBy: f.creator.userId,
        createdAt: 1,
        updatedAt: 1,
      });
      // the current generation's members count; an older generation's do not
      for (const [i, voterId] of voterIds.slice(100, 120).entries())
        await ctx.db.insert("emailSegmentMembers", { orgId: f.orgId, segmentId: id, voterId, gen: i < 12 ? 2 : 1 });
      return id;
    });
    const fromSegment = await cm.mutation(api.turfs.cutTurf, { name: "Segment", segmentId, filters: {} });
    expect(fromSegment.doors).toBe(12);
    const turfs = await cm.query(api.turfs.turfs, {});
    expect(turfs.find((x) => x.id === fromGroup.id)!.sourceLabel).toBe("Group Walkers");
    expect(turfs.find((x) => x.id === fromSegment.id)!.sourceLabel).toBe("Segment Emailable");
    await expect(cm.mutation(api.turfs.cutTurf, { name: "X", points: [[0, 0]], filters: {} })).rejects.toThrow(
      /at least three corners/,
    );
    await expect(
      cm.mutation(api.turfs.cutTurf, {
        name: "X",
        points: [
          [0, 0],
          [0.001, 0],
          [0, 0.001],
        ],
        filters: {},
      }),
    ).rejects.toThrow(/no doors in this area/);
    await expect(cm.mutation(api.turfs.cutTurf, { name: " ", points: ring, filters: {} })).rejects.toThrow(
      /name for the turf/,
    );
    // a rectangle drawn across the country, zoomed out (from the equator up: 7,200 grid rows, more
    // index ranges than a transaction may read): its live count says so, a cut is refused clearly
    const country = [
      [-120, 0],
      [-70, 0],
      [-70, 36],
      [-120, 36],
    ];
    expect(await cm.query(api.turfs.countArea, { points: country })).toEqual({
      doors: 0,
      voters: 0,
      held: 0,
      tooLarge: true,
    });
    await expect(cm.mutation(api.turfs.cutTurf, { name: "US", points: country, filters: {} })).rejects.toThrow(
      /too large to count its doors/,
    );
    // as tall as a large state (15°): counted
    const state = await cm.query(api.turfs.countArea, {
      points: [
        [-85, 25],
        [-75, 25],
        [-75, 40],
        [-85, 40],
      ],
    });
    expect(state.tooLarge).toBeUndefined();
    expect(state.doors).toBe(0);
  });

  test("auto-cut: an area's doors into turfs of about the target, each door once; undo takes them back", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    const cm = f.campaign_manager.as;
    await seed(t, f.orgId, everyone());
    const ring = rect(-0.01, -0.01, 1.01, 1.01);
    await cm.mutation(api.turfs.autoCut, { name: "Area", target: 40, points: ring });
    await t.finishAllScheduledFunctions(() => {}, 100);
    const turfs = await cm.query(api.turfs.turfs, {});
    const sizes = turfs.map((x) => x.doors);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(HOUSES.length);
    const within = sizes.filter((s) => Math.abs(s - 40) <= 8).length;
    expect(within / sizes.length).toBeGreaterThanOrEqual(0.95);
    const ids = await t.run(async (ctx) => (await ctx.db.query("turfs").collect()).flatMap((x) => x.doorIds));
    expect(new Set(ids).size).toBe(HOUSES.length);
    const [run] = await cm.query(api.turfs.autoCutRuns, {});
    expect(run).toMatchObject({ status: "done", turfs: turfs.length, progress: 1 });
    await expect(cm.mutation(api.turfs.autoCut, { name: "Area", target: 3, points: ring })).rejects.toThrow(
      /between 25 and/,
    );
    expect(await cm.mutation(api.turfs.undoTurf, {})).toBe("auto");
    expect(await cm.query(api.turfs.turfs, {})).toEqual([]);
  });
});

describe("filters on packed doors (live count, auto-cut)", () => {
  const phoneOf = (i: number) => `+1555000${String(i).padStart(4, "0")}`;
  const seedMixed = (t: TestConvex, orgId: Id<"organizations">) =>
    seed(
      t,
      orgId,
      everyone((_, i) => ({
        party: i % 2 ? "Democrat" : "Republican",
        status: i % 5 === 0 ? "Inactive" : "Active",
        votedIn: i % 3 === 0 ? ["2024 General"] : [],
        phone: phoneOf(i),
      })),
    );

  test("the live count applies the filters, as a cut does; an opt-out, a party change and a list's hold reach it", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    const cm = f.campaign_manager.as;
    const ids = await seedMixed(t, f.orgId);
    const ring = rect(0.1, 0.1, 0.6, 0.7);
    const inside = new Set(housesIn(ring));
    const filters = { parties: ["Democrat"], statuses: ["Active"], votedIn: "2024 General", excludeOptedOut: true };
    const matching = () =>
      HOUSES.map((h, i) => ({ h, i })).filter(({ h, i }) => inside.has(h) && i % 2 === 1 && i % 5 !== 0 && i % 3 === 0);
    const before = matching();
    expect(before.length).toBeGreaterThan(5);
    expect(await cm.query(api.turfs.countArea, { points: ring, filters })).toEqual({
      doors: before.length,
      voters: before.length,
      held: 0,
    });
    // each filter alone narrows the count
    const democrats = [...inside].filter((h) => HOUSES.indexOf(h) % 2 === 1).length;
    expect((await cm.query(api.turfs.countArea, { points: ring, filters: { parties: ["Democrat"] } })).doors).toBe(
      democrats,
    );
    expect(
      (await cm.query(api.turfs.countArea, { points: ring, filters: { votedIn: "An election nobody voted in" } }))
        .doors,
    ).toBe(0);

    // one of them replies STOP (the opt-out path re-packs their door), another turns Republican
    const [first, second] = before;
    await t.run((ctx) =>
      recordOptOut(ctx, {
        orgId: f.orgId,
        channel: "sms",
        contact: phoneOf(first.i),
        provenance: { source: "keyword" },
      }),
    );
    await cm.mutation(api.voters.update, {
      id: ids[second.i],
      edits: [{ field: "party_affiliation", base: "Democrat", value: "Republican" }],
    });
    await settle(t);
    const count = await cm.query(api.turfs.countArea, { points: ring, filters });
    expect(count).toEqual({ doors: before.length - 2, voters: before.length - 2, held: 0 });
    // the cut (reading the voters themselves) agrees with the live count
    const cut = await cm.mutation(api.turfs.cutTurf, { name: "Dems", points: ring, filters });
    expect(cut).toMatchObject({ doors: count.doors, voters: count.voters });

    // a walk list made from that turf holds its doors: the count says so
    await cm.mutation(api.walkLists.create, {
      name: "Dems list",
      turfId: cut.id,
      surveyId: null,
      status: "Active",
      assignees: [],
    });
    await settle(t);
    expect(await cm.query(api.turfs.countArea, { points: ring })).toMatchObject({
      doors: inside.size,
      held: count.doors,
    });
    // not contacted since: doors talked to lately are left out
    const someDoors = await t.run(async (ctx) => (await ctx.db.get("turfs", cut.id))!.doorIds.slice(0, 3));
    await t.run(async (ctx) => {
      for (const id of someDoors) {
        await ctx.db.patch("doors", id, { lastContactAt: Date.now() });
        await markCell(ctx, f.orgId, (await ctx.db.get("doors", id))!.cell);
      }
    });
    await settle(t);
    expect(
      (await cm.query(api.turfs.countArea, { points: ring, filters: { notContactedSince: Date.now() - 86_400_000 } }))
        .doors,
    ).toBe(inside.size - 3);
  });

  test("auto-cut applies the filters and leaves out doors an open list holds", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    const cm = f.campaign_manager.as;
    await seedMixed(t, f.orgId);
    // a walk list holds the doors of a small corner first
    const corner = await cm.mutation(api.turfs.cutTurf, {
      name: "Corner",
      filters: {},
      points: rect(0.35, 0.35, 0.65, 0.65),
    });
    await cm.mutation(api.walkLists.create, {
      name: "Corner list",
      turfId: corner.id,
      surveyId: null,
      status: "Active",
      assignees: [],
    });
    await settle(t);
    const held = new Set(
      await t.run(async (ctx) => (await ctx.db.get("turfs", corner.id))!.doorIds.map((id) => id as string)),
    );
    expect(held.size).toBeGreaterThan(10);
    await cm.mutation(api.turfs.autoCut, {
      name: "Dems",
      target: 40,
      points: rect(-0.01, -0.01, 1.01, 1.01),
      filters: { parties: ["Democrat"] },
    });
    await settle(t);
    const cut = await t.run(async (ctx) =>
      (await ctx.db.query("turfs").collect()).filter((x) => x.source === "auto" && !x.archived),
    );
    const doorIds = cut.flatMap((x) => x.doorIds as string[]);
    const heldDemocrats = HOUSES.filter((_, i) => i % 2 === 1).length;
    const doorsOfDemocrats = await t.run(async (ctx) => {
      let n = 0;
      for (const id of held) {
        const door = await ctx.db.get("doors", id as Id<"doors">);
        const voter = door && (await ctx.db.get("voters", door.voterIds[0]));
        if (voter?.party_affiliation === "Democrat") n++;
      }
      return n;
    });
    expect(doorIds).toHaveLength(heldDemocrats - doorsOfDemocrats);
    expect(doorIds.some((id) => held.has(id))).toBe(false);
    expect(new Set(doorIds).size).toBe(doorIds.length);
    expect(cut.every((x) => x.voters === x.doors && x.filters.parties?.[0] === "Democrat")).toBe(true);
  });
});

describe("walk lists", () => {
  test("three organisers cutting overlapping turf at once: no door is in two open lists", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    await seed(t, f.orgId, everyone());
    const organisers = [
      f.campaign_manager,
      await createMember(t, ["campaign_manager"], { orgId: f.orgId }),
      await createMember(t, ["campaign_manager"], { orgId: f.orgId }),
    ];
    const rings = [rect(0, 0, 0.6, 0.6), rect(0.3, 0.3, 0.9, 0.9), rect(0.2, 0, 0.8, 0.5)];
    const results = await Promise.allSettled(
      organisers.map(async (o, i) => {
        const turf = await o.as.mutation(api.turfs.cutTurf, { name: `Turf ${i}`, points: rings[i], filters: {} });
        return await o.as.mutation(api.walkLists.create, {
          name: `List ${i}`,
          turfId: turf.id,
          surveyId: null,
          status: "Active",
          assignees: [],
        });
      }),
    );
    const won = results.filter((r) => r.status === "fulfilled");
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(won.length).toBeGreaterThanOrEqual(1);
    for (const r of lost) expect(String(r.reason)).toMatch(/doors? (is|are) already in the walk list \W*List \d/);
    const lists = await t.run((ctx) => ctx.db.query("walkLists").collect());
    const held = lists.filter((l) => l.holds);
    const seen = new Set<string>();
    for (const l of held)
      for (const d of l.doorIds) {
        expect(seen.has(d), "a door in two open lists").toBe(false);
        seen.add(d);
      }
    const doors = await t.run((ctx) => ctx.db.query("doors").collect());
    for (const d of doors) if (d.listId) expect(lists.find((l) => l._id === d.listId)!.doorIds).toContain(d._id);
    // a loser can make the list of the doors still free
    const turfs = await f.campaign_manager.as.query(api.turfs.turfs, {});
    for (const turf of turfs.filter((x) => x.list === null)) {
      const r = await f.campaign_manager.as.mutation(api.walkLists.create, {
        name: `${turf.name} rest`,
        turfId: turf.id,
        surveyId: null,
        status: "Active",
        assignees: [],
        leaveOutTaken: true,
      });
      expect(r.leftOut).toBeGreaterThan(0);
    }
    const all = await t.run((ctx) => ctx.db.query("walkLists").collect());
    const ids = all.filter((l) => l.holds).flatMap((l) => l.doorIds);
    expect(new Set(ids).size).toBe(ids.length);
  });

  test("create, edit through the collaboration layer, complete (lets go of its doors), reopen, expire, delete", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    const a = f.campaign_manager;
    const b = await createMember(t, ["campaign_manager"], { orgId: f.orgId, firstName: "Bea", lastName: "Organiser" });
    await seed(t, f.orgId, everyone());
    const turf = await a.as.mutation(api.turfs.cutTurf, {
      name: "North",
      points: rect(0, 0.5, 0.5, 1),
      filters: {},
    });
    const surveyId = await t.run((ctx) =>
      ctx.db.insert("surveys", {
        orgId: f.orgId,
        name: "Door script",
        description: null,
        recipient: null,
        pages: [],
        settings: { allowMultipleSubmissions: false, showProgressBar: true },
        version: 1,
        submissionCount: 0,
        createdBy: f.creator.userId,
        updatedAt: 1,
        updatedBy: f.creator.userId,
      }),
    );
    const before = Date.now();
    const { id, doors } = await a.as.mutation(api.walkLists.create, {
      name: "North walk",
      turfId: turf.id,
      surveyId,
      status: "Active",
      assignees: [f.volunteer.userId],
    });
    expect(doors).toBe(turf.doors);
    const { list, doors: walk } = await a.as.query(api.walkLists.get, { id });
    expect(list).toMatchObject({
      status: "Active",
      holds: true,
      knocked: 0,
      contacts: 0,
      assignees: [{ id: f.volunteer.userId }],
    });
    // default expiry: 30 days
    expect(list.expiresAt - before).toBeGreaterThanOrEqual(30 * 86_400_000 - 1000);
    expect(list.expiresAt - before).toBeLessThan(30 * 86_400_000 + 60_000);
    expect(walk.map((d) => d.order)).toEqual(walk.map((_, i) => i + 1));
    expect(walk[0].address).toMatch(/^\d+ /);
    expect(walk[0].voters[0].name).toMatch(/Walker/);

    // disjoint edits merge; the same field is refused naming the teammate
    await a.as.mutation(api.walkLists.update, {
      id,
      edits: [{ field: "name", base: "North walk", value: "North loop" }],
    });
    await b.as.mutation(api.walkLists.update, { id, edits: [{ field: "status", base: "Active", value: "Paused" }] });
    await expect(
      b.as.mutation(api.walkLists.update, { id, edits: [{ field: "name", base: "North walk", value: "Bea's name" }] }),
    ).rejects.toThrow(/changed by .* while you were editing: name/);
    let row = (await a.as.query(api.walkLists.list, {})).find((l) => l.id === id)!;
    expect(row).toMatchObject({ name: "North loop", status: "Paused", holds: true });

    // another list over the same doors is refused while this one is open…
    const again = await b.as.mutation(api.turfs.cutTurf, {
      name: "Same",
      points: rect(0, 0.5, 0.5, 1),
      filters: {},
    });
    await expect(
      b.as.mutation(api.walkLists.create, {
        name: "Dup",
        turfId: again.id,
        surveyId: null,
        status: "Scheduled",
        assignees: [],
      }),
    ).rejects.toThrow(new RegExp(`${turf.doors} doors are already in the walk list \\W*North loop`));
    // …and accepted once it is completed (a completed list lets go of its doors)
    await a.as.mutation(api.walkLists.update, { id, edits: [{ field: "status", base: "Paused", value: "Completed" }] });
    row = (await a.as.query(api.walkLists.list, {})).find((l) => l.id === id)!;
    expect(row.holds).toBe(false);
    const dup = await b.as.mutation(api.walkLists.create, {
      name: "Dup",
      turfId: again.id,
      surveyId: null,
      status: "Scheduled",
      assignees: [],
    });
    // reopening the completed list is refused: its doors are in "Dup" now
    await expect(
      a.as.mutation(api.walkLists.update, { id, edits: [{ field: "status", base: "Completed", value: "Active" }] }),
    ).rejects.toThrow(/already in the walk list \W*Dup/);

    // expiry lets go of the doors too
    await t.run((ctx) => ctx.db.patch("walkLists", dup.id, { expiresAt: Date.now() - 1 }));
    await t.mutation(internal.walkLists.expire, { listId: dup.id });
    expect((await a.as.query(api.walkLists.list, {})).find((l) => l.id === dup.id)).toMatchObject({
      expired: true,
      holds: false,
    });
    await a.as.mutation(api.walkLists.update, { id, edits: [{ field: "status", base: "Completed", value: "Active" }] });
    expect((await t.run((ctx) => ctx.db.query("doors").collect())).filter((d) => d.listId === id)).toHaveLength(
      turf.doors,
    );
    await expect(
      a.as.mutation(api.walkLists.update, {
        id,
        edits: [{ field: "expiresAt", base: row.expiresAt, value: Date.now() - 5 }],
      }),
    ).rejects.toThrow(/in the future/);
    await expect(
      a.as.mutation(api.walkLists.update, {
        id,
        edits: [{ field: "assignees", base: [f.volunteer.userId], value: [f.outsider.userId] }],
      }),
    ).rejects.toThrow(/members of the organisation/);

    await b.as.mutation(api.walkLists.remove, { id });
    expect((await t.run((ctx) => ctx.db.query("doors").collect())).some((d) => d.listId === id)).toBe(false);
    await expect(
      a.as.mutation(api.walkLists.update, { id, edits: [{ field: "name", base: "North loop", value: "x" }] }),
    ).rejects.toThrow(/deleted by Bea Organiser/);
  });

  test("a volunteer sees only the lists assigned to them; other roles and organisations are refused", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    const cm = f.campaign_manager.as;
    await seed(t, f.orgId, everyone());
    const t1 = await cm.mutation(api.turfs.cutTurf, { name: "West", points: rect(0, 0, 0.5, 1), filters: {} });
    const t2 = await cm.mutation(api.turfs.cutTurf, { name: "East", points: rect(0.5, 0, 1, 1), filters: {} });
    const mine = await cm.mutation(api.walkLists.create, {
      name: "West walk",
      turfId: t1.id,
      surveyId: null,
      status: "Active",
      assignees: [f.volunteer.userId],
    });
    const theirs = await cm.mutation(api.walkLists.create, {
      name: "East walk",
      turfId: t2.id,
      surveyId: null,
      status: "Scheduled",
      assignees: [],
    });
    expect((await cm.query(api.walkLists.list, {})).map((l) => l.name).sort()).toEqual(["East walk", "West walk"]);
    const seen = await f.volunteer.as.query(api.walkLists.list, {});
    expect(seen.map((l) => l.name)).toEqual(["West walk"]);
    expect((await f.volunteer.as.query(api.walkLists.get, { id: mine.id })).doors.length).toBe(t1.doors);
    await expect(f.volunteer.as.query(api.walkLists.get, { id: theirs.id })).rejects.toThrow(
      /not found|could not be found/i,
    );
    // a volunteer cuts no turf and manages no list
    await expect(
      f.volunteer.as.mutation(api.turfs.cutTurf, { name: "V", points: rect(0, 0, 1, 1), filters: {} }),
    ).rejects.toThrow(/permission/);
    await expect(
      f.volunteer.as.mutation(api.walkLists.update, {
        id: mine.id,
        edits: [{ field: "status", base: "Active", value: "Completed" }],
      }),
    ).rejects.toThrow(/permission/);
    // a viewer sees no walk lists; another organisation sees none of these; signed out: refused
    await expect(f.viewer.as.query(api.walkLists.list, {})).rejects.toThrow(/permission/);
    expect(await f.outsider.as.query(api.walkLists.list, {})).toEqual([]);
    await expect(f.outsider.as.query(api.walkLists.get, { id: mine.id })).rejects.toThrow(
      /not found|could not be found/i,
    );
    await expect(f.outsider.as.mutation(api.walkLists.remove, { id: mine.id })).rejects.toThrow();
    expect(await f.outsider.as.query(api.turfs.countArea, { points: rect(0, 0, 1, 1) })).toEqual({
      doors: 0,
      voters: 0,
      held: 0,
    });
    await expect(t.query(api.walkLists.list, {})).rejects.toThrow(/log in/i);
  });
});
