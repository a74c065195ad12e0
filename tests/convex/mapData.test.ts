/**
 * Map data and the voter file's geocoding (convex/mapData.ts, convex/geocode.ts) on a synthetic
 * TIGER county: an admin uploads the streets layer (the drawing copy to storage, the rows in
 * batches), teammates see it, voters are placed on their street within metres, a changed address
 * is placed again, a replacing layer removes the old one's rows, bad input is refused with nothing
 * stored, and other organisations see and touch nothing.
 */
import { describe, expect, test } from "vitest";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { haversine } from "@convex/lib/geo/geocoder";
import { boundaryRow, segmentRow, zipCentres, type SegmentRow } from "@convex/lib/geo/rows";
import { streetsDrawing } from "@convex/lib/geo/drawing";
import { detectLayer, toBoundaries, toStreetSegments, type LayerFeature } from "@convex/lib/geo/tiger";
import { SEGMENTS_PER_BATCH } from "@convex/model/mapData";
import { seededRandom, syntheticCounty, writtenAddress } from "../support/syntheticCounty";
import { createMember, roleFixture, setupTest, type Member, type TestConvex } from "./setup";

const county = syntheticCounty(36);

function streetRows(features: LayerFeature[]): {
  rows: SegmentRow[];
  drawing: string;
  addressable: number;
  zips: ReturnType<typeof zipCentres>;
} {
  const detection = detectLayer(Object.keys(features[0].properties ?? {}));
  if ("error" in detection) throw new Error(detection.error);
  const layer = toStreetSegments(features, detection);
  if ("error" in layer) throw new Error(layer.error);
  const rows = layer.segments.map(segmentRow).filter((r): r is SegmentRow => r !== null);
  return {
    rows,
    zips: zipCentres(layer.segments),
    drawing: streetsDrawing(layer.segments),
    addressable: rows.filter((r) => r.lFrom !== undefined || r.rFrom !== undefined).length,
  };
}

const streets = streetRows(county.edges.features);

/** convex-test keeps no content type for stored files, so an upload is only handed in on the embedded backend (as on Convex). */
const UPLOADS = "setEnv" in setupTest();
const withUploads = UPLOADS ? test : test.skip;

async function store(t: TestConvex, text: string, type = "application/geo+json") {
  return await t.run((ctx) => ctx.storage.store(new Blob([text], { type })));
}

/** Uploads the county's streets as `member` (the browser's path, batch by batch) and finishes the layer. */
async function uploadStreets(
  t: TestConvex,
  member: Member,
  rows = streets.rows,
  replaces: Id<"mapLayers"> | null = null,
) {
  const storageId = await store(t, streets.drawing);
  const layerId = await member.as.action(api.mapData.createLayer, {
    storageId,
    kind: "streets",
    tigerLayer: "EDGES",
    name: "Synthetic county streets",
    fileName: "tl_2024_17167_edges.zip",
    nameField: null,
    features: rows.length,
    addressable: rows.filter((r) => r.lFrom !== undefined || r.rFrom !== undefined).length,
    bbox: [-89.8, 39.6, -89.4, 39.9],
    replaces,
    zipCentres: streets.zips,
  });
  for (let i = 0; i < rows.length; i += SEGMENTS_PER_BATCH)
    await member.as.mutation(api.mapData.appendSegments, { layerId, segments: rows.slice(i, i + SEGMENTS_PER_BATCH) });
  await member.as.mutation(api.mapData.finish, { layerId });
  return layerId;
}

async function drain(t: TestConvex) {
  await t.finishAllScheduledFunctions(() => {}, 1000);
}

async function addVoter(member: Member, address: string, zip: string) {
  return await member.as.mutation(api.voters.create, {
    fields: { first_name: "Pat", last_name: "Doe", address, city: county.city, state: county.state, zip },
  });
}

describe("map data: layers", () => {
  withUploads("an admin uploads a streets layer; every member sees it live, ready, with its drawing copy", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    const layerId = await uploadStreets(t, f.account_admin);
    for (const role of ["account_admin", "campaign_manager", "volunteer", "viewer"] as const) {
      const { layers } = await f[role].as.query(api.mapData.overview, {});
      expect(layers).toHaveLength(1);
      expect(layers[0]).toMatchObject({ id: layerId, kind: "streets", status: "ready", stored: streets.rows.length });
      expect(layers[0].url).toMatch(/^https?:\/\//);
    }
    const stored = await t.run((ctx) => ctx.db.query("streetSegments").collect());
    expect(stored).toHaveLength(streets.rows.length);
    expect(new Set(stored.map((s) => s.orgId))).toEqual(new Set([f.orgId]));
  });

  test("who may change map data: organization.manage only; an outsider sees nothing and reaches nothing", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    const storageId = await store(t, streets.drawing);
    const args = {
      storageId,
      kind: "streets" as const,
      tigerLayer: "EDGES" as const,
      name: "x",
      fileName: "x.zip",
      nameField: null,
      features: 1,
      addressable: 1,
      bbox: null,
      replaces: null,
    };
    await expect(f.campaign_manager.as.action(api.mapData.createLayer, args)).rejects.toThrow(/permission/);
    await expect(f.volunteer.as.mutation(api.mapData.setTiles, { edits: [] })).rejects.toThrow(/permission/);
    await expect(f.campaign_manager.as.query(api.mapData.tileSettings, {})).rejects.toThrow(/permission/);
    if (!UPLOADS) return;
    const layerId = await uploadStreets(t, f.account_admin);
    expect((await f.outsider.as.query(api.mapData.overview, {})).layers).toEqual([]);
    await expect(f.outsider.as.mutation(api.mapData.remove, { layerId })).rejects.toThrow(/no longer exists/);
    await expect(
      f.outsider.as.mutation(api.mapData.appendSegments, { layerId, segments: streets.rows.slice(0, 1) }),
    ).rejects.toThrow(/no longer exists/);
    expect(
      (
        await f.outsider.as.query(api.mapData.place, {
          address: writtenAddress(county.houses[0], county, seededRandom(1)),
        })
      ).quality,
    ).toBe("failed");
  });

  test("a file that is not GeoJSON is refused and deleted; a layer missing rows does not become ready", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    const bad = await store(t, "PK\u0003\u0004 not geojson", "application/geo+json");
    await expect(
      f.account_admin.as.action(api.mapData.createLayer, {
        storageId: bad,
        kind: "streets",
        tigerLayer: "EDGES",
        name: "x",
        fileName: "x.zip",
        nameField: null,
        features: 10,
        addressable: 10,
        bbox: null,
        replaces: null,
      }),
    ).rejects.toThrow(/must be stored as GeoJSON/);
    expect(await t.run((ctx) => ctx.db.system.get("_storage", bad))).toBeNull();
    expect(await t.run((ctx) => ctx.db.query("mapLayers").collect())).toEqual([]);
    if (!UPLOADS) return;

    const storageId = await store(t, streets.drawing);
    const layerId = await f.account_admin.as.action(api.mapData.createLayer, {
      storageId,
      kind: "streets",
      tigerLayer: "EDGES",
      name: "partial",
      fileName: "x.zip",
      nameField: null,
      features: 20,
      addressable: 20,
      bbox: null,
      replaces: null,
    });
    await f.account_admin.as.mutation(api.mapData.appendSegments, { layerId, segments: streets.rows.slice(0, 10) });
    await expect(f.account_admin.as.mutation(api.mapData.finish, { layerId })).rejects.toThrow(
      /Only 10 of 20 features arrived/,
    );
    await expect(
      f.account_admin.as.mutation(api.mapData.appendSegments, { layerId, segments: streets.rows.slice(10, 21) }),
    ).rejects.toThrow(/More segments arrived than the file holds/);
    const bent = { ...streets.rows[0], coords: [1, 2, 3] };
    await expect(
      f.account_admin.as.mutation(api.mapData.appendSegments, { layerId, segments: [bent] }),
    ).rejects.toThrow(/2 to 4,000 points/);
    const projected = { ...streets.rows[0], bbox: [500000, 4400000, 500100, 4400100] };
    await expect(
      f.account_admin.as.mutation(api.mapData.appendSegments, { layerId, segments: [projected] }),
    ).rejects.toThrow(/not longitude and latitude/);
    const { layers } = await f.viewer.as.query(api.mapData.overview, {});
    expect(layers[0]).toMatchObject({ status: "loading", stored: 10, url: null });
    // an unfinished layer is not used for geocoding
    expect(
      (
        await f.viewer.as.query(api.mapData.place, {
          address: writtenAddress(county.houses[0], county, seededRandom(1)),
        })
      ).quality,
    ).toBe("failed");
  });

  withUploads("a new streets layer replaces the old one; deleting a layer removes its rows and file", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    const first = await uploadStreets(t, f.account_admin);
    const firstFile = (await t.run((ctx) => ctx.db.get("mapLayers", first)))!.storageId!;
    const second = await uploadStreets(t, f.account_admin, streets.rows, first);
    await drain(t);
    const { layers } = await f.viewer.as.query(api.mapData.overview, {});
    expect(layers.map((l) => l.id)).toEqual([second]);
    const rows = await t.run((ctx) => ctx.db.query("streetSegments").collect());
    expect(new Set(rows.map((r) => r.layerId))).toEqual(new Set([second]));
    expect(await t.run((ctx) => ctx.db.system.get("_storage", firstFile))).toBeNull();
    await f.account_admin.as.mutation(api.mapData.remove, { layerId: second });
    await drain(t);
    expect(await t.run((ctx) => ctx.db.query("streetSegments").collect())).toEqual([]);
    expect(await t.run((ctx) => ctx.db.query("mapLayers").collect())).toEqual([]);
  });

  withUploads(
    "boundaries: precinct polygons stored with their names; a polygon that is not one is refused",
    async () => {
      const t = setupTest();
      const f = await roleFixture(t);
      const features = county.precincts.features as LayerFeature[];
      const detection = detectLayer(Object.keys(features[0].properties ?? {}));
      if ("error" in detection) throw new Error(detection.error);
      const layer = toBoundaries(features, detection);
      if ("error" in layer) throw new Error(layer.error);
      const storageId = await store(t, JSON.stringify(county.precincts));
      const layerId = await f.account_admin.as.action(api.mapData.createLayer, {
        storageId,
        kind: "boundaries",
        tigerLayer: "VTD",
        name: "Precincts",
        fileName: "tl_2020_17167_vtd20.zip",
        nameField: detection.nameField,
        features: layer.boundaries.length,
        addressable: 0,
        bbox: null,
        replaces: null,
      });
      const rows = layer.boundaries.map(boundaryRow);
      await expect(
        f.account_admin.as.mutation(api.mapData.appendBoundaries, {
          layerId,
          boundaries: [{ ...rows[0], geometry: JSON.stringify({ type: "LineString", coordinates: [] }) }],
        }),
      ).rejects.toThrow(/not a polygon/);
      await f.account_admin.as.mutation(api.mapData.appendBoundaries, { layerId, boundaries: rows });
      await f.account_admin.as.mutation(api.mapData.finish, { layerId });
      const stored = await t.run((ctx) => ctx.db.query("boundaries").collect());
      expect(stored.map((b) => b.name).sort()).toEqual(rows.map((r) => r.name).sort());
      expect(stored.every((b) => b.layer === "VTD")).toBe(true);
    },
  );

  /** A save of the tile source: each changed field with the value the admin started from. */
  const tileEdits = (from: { url: string; attribution: string }, to: { url: string; attribution: string }) =>
    [
      { field: "tileUrl", base: from.url, value: to.url },
      { field: "tileAttribution", base: from.attribution, value: to.attribution },
    ].filter((e) => e.base !== e.value);
  const none = { url: "", attribution: "" };

  test("tile source: a URL template with its attribution, or none", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    const admin = f.account_admin.as;
    await expect(
      admin.mutation(api.mapData.setTiles, {
        edits: tileEdits(none, { url: "https://tiles.example.org/tiles.png", attribution: "x" }),
      }),
    ).rejects.toThrow(/\{z\}, \{x\} and \{y\}/);
    await expect(
      admin.mutation(api.mapData.setTiles, {
        edits: tileEdits(none, { url: "https://tiles.example.org/{z}/{x}/{y}.png", attribution: " " }),
      }),
    ).rejects.toThrow(/attribution/);
    const example = { url: "https://tiles.example.org/{z}/{x}/{y}.png", attribution: "© Example" };
    await admin.mutation(api.mapData.setTiles, { edits: tileEdits(none, example) });
    expect((await f.volunteer.as.query(api.mapData.overview, {})).tiles).toEqual(example);
    expect(await admin.query(api.mapData.tileSettings, {})).toMatchObject({
      tileUrl: example.url,
      tileAttribution: example.attribution,
    });
    await admin.mutation(api.mapData.setTiles, { edits: tileEdits(example, none) });
    expect((await f.volunteer.as.query(api.mapData.overview, {})).tiles).toBeNull();
    // another organisation's admin sees and changes only their own
    expect(await f.outsider.as.query(api.mapData.tileSettings, {})).toMatchObject({ tileUrl: "", tileAttribution: "" });
  });

  test("tile source: two admins at once — other fields merge, the same field is refused naming the teammate", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    const grace = await createMember(t, ["account_admin"], { orgId: f.orgId, firstName: "Grace", lastName: "Hopper" });
    const start = { url: "https://a.example/{z}/{x}/{y}.png", attribution: "© A" };
    await f.account_admin.as.mutation(api.mapData.setTiles, { edits: tileEdits(none, start) });
    // both opened the form on `start`; Grace changes the attribution, the other admin the URL: both kept
    await grace.as.mutation(api.mapData.setTiles, { edits: tileEdits(start, { ...start, attribution: "© Grace" }) });
    await f.account_admin.as.mutation(api.mapData.setTiles, {
      edits: tileEdits(start, { ...start, url: "https://b.example/{z}/{x}/{y}.png" }),
    });
    expect((await f.viewer.as.query(api.mapData.overview, {})).tiles).toEqual({
      url: "https://b.example/{z}/{x}/{y}.png",
      attribution: "© Grace",
    });
    // the same field from a stale base: refused, naming Grace; nothing written
    await expect(
      f.account_admin.as.mutation(api.mapData.setTiles, {
        edits: tileEdits(start, { ...start, attribution: "© Mine" }),
      }),
    ).rejects.toThrow("The tile source was changed by Grace Hopper while you were editing: attribution");
    const settings = await f.account_admin.as.query(api.mapData.tileSettings, {});
    expect(settings.tileAttribution).toBe("© Grace");
    expect(settings.editState.fields.tileAttribution).toMatchObject({ name: "Grace Hopper" });
  });
});

describe("map data: geocoding", () => {
  withUploads("an address is placed on its street (place), within metres of the house", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    await uploadStreets(t, f.account_admin);
    const random = seededRandom(7);
    for (const house of county.houses.slice(0, 25)) {
      const r = await f.volunteer.as.query(api.mapData.place, { address: writtenAddress(house, county, random) });
      expect(r.quality).toBe("exact range");
      expect(haversine([r.lng!, r.lat!], [house.lng, house.lat])).toBeLessThan(30);
    }
    expect(
      (await f.volunteer.as.query(api.mapData.place, { address: "12 Nowhere Blvd, Elsewhere, ZZ 00000" })).quality,
    ).toBe("failed");
    // a sign placed by its address lands on its street (the offline geocoder before any provider)
    const house = county.houses[40];
    expect((await f.campaign_manager.as.query(api.signs.options, {})).geocoder).toBe(true);
    const hit = await f.campaign_manager.as.action(api.signs.geocode, {
      address: writtenAddress(house, county, random),
    });
    expect(hit?.street).toBe(house.fullName);
    expect(haversine([hit!.lng, hit!.lat], [house.lng, house.lat])).toBeLessThan(30);
    expect(
      await f.campaign_manager.as.action(api.signs.geocode, { address: "12 Nowhere Blvd, Elsewhere, ZZ 00000" }),
    ).toBeNull();
  });

  withUploads(
    "a new streets layer places the voter file in a chain; counts per quality; a changed address is placed again",
    async () => {
      const t = setupTest();
      const f = await roleFixture(t);
      const random = seededRandom(11);
      const sample = county.houses.filter((_, i) => i % 7 === 0).slice(0, 240);
      const voters = new Map<Id<"voters">, (typeof sample)[number]>();
      for (const h of sample) {
        // a voter file's street line: the written address up to its city
        const written = writtenAddress(h, county, random);
        const cut = written.includes(",")
          ? written.indexOf(",")
          : written.toUpperCase().indexOf(` ${county.city.toUpperCase()}`);
        const line = written.slice(0, cut).trim();
        voters.set(await addVoter(f.campaign_manager, line, h.zip), h);
      }
      await addVoter(f.campaign_manager, "", county.zips[0]);
      const offMap = await addVoter(f.campaign_manager, "77 Unmapped Way", county.zips[1]);
      await uploadStreets(t, f.account_admin);
      await drain(t);
      const { run } = await f.viewer.as.query(api.geocode.status, {});
      expect(run).toMatchObject({ status: "done", processed: 242 });
      expect(run!.counts.failed).toBe(1);
      expect(run!.counts.zipCentroid).toBe(1);
      const centre = streets.zips.find((z) => z.zip === county.zips[1])!;
      const offMapPlace = await t.run((ctx) =>
        ctx.db
          .query("voterPlaces")
          .withIndex("by_voter", (q) => q.eq("voterId", offMap))
          .unique(),
      );
      expect(offMapPlace).toMatchObject({ quality: "zip centroid", lat: centre.lat, lng: centre.lng });
      expect(run!.counts.exact + run!.counts.interpolated + run!.counts.streetOnly).toBe(240);
      const places = await t.run((ctx) => ctx.db.query("voterPlaces").collect());
      const errors = places
        .filter((p) => voters.has(p.voterId))
        .map((p) => haversine([p.lng!, p.lat!], [voters.get(p.voterId)!.lng, voters.get(p.voterId)!.lat]));
      errors.sort((a, b) => a - b);
      expect(errors).toHaveLength(240);
      expect(errors[Math.floor(errors.length / 2)]).toBeLessThan(30);

      // a re-run only counts the voters already placed from the same address
      await f.campaign_manager.as.mutation(api.geocode.run, {});
      await drain(t);
      const again = await t.run((ctx) => ctx.db.query("voterPlaces").collect());
      expect(again.map((p) => p.at)).toEqual(places.map((p) => p.at));

      // a member moves a voter: placed again at the new house
      const [voterId] = voters.keys();
      const target = county.houses[3];
      const voter = (await t.run((ctx) => ctx.db.get("voters", voterId)))!;
      await f.campaign_manager.as.mutation(api.voters.update, {
        id: voterId,
        edits: [
          { field: "address", base: voter.address ?? null, value: `${target.number} ${target.fullName}` },
          { field: "zip", base: voter.zip ?? null, value: target.zip },
        ],
      });
      await drain(t);
      const moved = await t.run((ctx) =>
        ctx.db
          .query("voterPlaces")
          .withIndex("by_voter", (q) => q.eq("voterId", voterId))
          .unique(),
      );
      expect(haversine([moved!.lng!, moved!.lat!], [target.lng, target.lat])).toBeLessThan(30);
    },
  );

  test("geocoding needs streets first, and voters.manage", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    await expect(f.campaign_manager.as.mutation(api.geocode.run, {})).rejects.toThrow(/Add a streets layer/);
    await expect(f.viewer.as.mutation(api.geocode.run, {})).rejects.toThrow(/permission/);
    expect(await f.viewer.as.query(api.geocode.status, {})).toEqual({ hasStreets: false, run: null });
  });

  withUploads(
    "a petition's county is checked on the map's COUNTY polygon when the voter file has no counties",
    async () => {
      const t = setupTest();
      const f = await roleFixture(t);
      const lngs = county.houses.map((h) => h.lng);
      const [west, east] = [Math.min(...lngs), Math.max(...lngs)];
      const lats = county.houses.map((h) => h.lat);
      const [south, north] = [Math.min(...lats) - 0.01, Math.max(...lats) + 0.01];
      const mid = (west + east) / 2;
      const inside = county.houses.find((h) => h.lng < mid - 0.002)!;
      const outside = county.houses.find((h) => h.lng > mid + 0.002)!;
      const cm = f.campaign_manager;
      await cm.as.mutation(api.voters.create, {
        fields: {
          first_name: "Ann",
          last_name: "Hughes",
          address: `${inside.number} ${inside.fullName}`,
          city: county.city,
          state: county.state,
          zip: inside.zip,
          status: "Active",
        },
      });
      await cm.as.mutation(api.voters.create, {
        fields: {
          first_name: "Rosa",
          last_name: "Delgado",
          address: `${outside.number} ${outside.fullName}`,
          city: county.city,
          state: county.state,
          zip: outside.zip,
          status: "Active",
        },
      });
      await uploadStreets(t, f.account_admin);
      // the county covers the west half of the streets
      const ring = [
        [west - 0.01, south],
        [mid, south],
        [mid, north],
        [west - 0.01, north],
        [west - 0.01, south],
      ];
      const storageId = await store(t, JSON.stringify({ type: "FeatureCollection", features: [] }));
      const layerId = await f.account_admin.as.action(api.mapData.createLayer, {
        storageId,
        kind: "boundaries",
        tigerLayer: "COUNTY",
        name: "Counties",
        fileName: "tl_2024_us_county.zip",
        nameField: "NAME",
        features: 1,
        addressable: 0,
        bbox: null,
        replaces: null,
      });
      await f.account_admin.as.mutation(api.mapData.appendBoundaries, {
        layerId,
        boundaries: [
          {
            name: "Sangamon",
            code: "17167",
            bbox: [west - 0.01, south, mid, north],
            geometry: JSON.stringify({ type: "Polygon", coordinates: [ring] }),
          },
        ],
      });
      await f.account_admin.as.mutation(api.mapData.finish, { layerId });
      await drain(t);
      const petitionId = await cm.as.mutation(api.petitions.create, {
        name: "Measure 36",
        signaturesNeeded: 10,
        deadline: null,
        state: county.state,
        county: "Sangamon County",
        mode: "full",
      });
      const pageId = await cm.as.mutation(api.petitions.addPage, { petitionId, fileId: null, fileName: "Sheet 1" });
      await cm.as.mutation(api.petitions.addLines, {
        pageId,
        lines: [
          {
            name: "Ann Hughes",
            address: `${inside.number} ${inside.fullName}, ${county.city}, ${county.state} ${inside.zip}`,
            signedOn: "2026-05-01",
          },
          {
            name: "Rosa Delgado",
            address: `${outside.number} ${outside.fullName}, ${county.city}, ${county.state} ${outside.zip}`,
            signedOn: "2026-05-01",
          },
        ],
      });
      await drain(t);
      const rows = (
        await cm.as.query(api.petitions.lines, {
          petitionId,
          status: null,
          paginationOpts: { numItems: 10, cursor: null },
        })
      ).page;
      expect(rows.find((r) => r.name === "Ann Hughes")).toMatchObject({ status: "verified" });
      const rosa = rows.find((r) => r.name === "Rosa Delgado")!;
      expect(rosa.status).not.toBe("verified");
      expect(rosa.reason).toBe("outside_jurisdiction");
      expect((await cm.as.query(api.petitions.list, {}))[0].countyNotice).toBeNull();
    },
  );
});
