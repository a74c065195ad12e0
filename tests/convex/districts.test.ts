/**
 * Districts (convex/districts.ts, model/districts.ts; issue 37) on both backends: voters in
 * districts by their voter-file codes and, placed on the map, by the boundary polygon they lie in;
 * code and polygon disagreeing is counted; tallies live as a voter changes party, moves, is
 * deleted; a deleted layer takes its districts' outlines; a group of a district's voters; the
 * voter list filtered by district; and who may see and do what.
 */
import { describe, expect, test } from "vitest";
import { api, internal } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { areaKey } from "@convex/lib/geo/areas";
import { districtFilter } from "@convex/lib/districts";
import { gridLayer, pointIn, type GridLayer } from "../support/districtLayers";
import { roleFixture, setupTest, type Member, type TestConvex } from "./setup";

async function drain(t: TestConvex) {
  await t.finishAllScheduledFunctions(() => {}, 1000);
}

/** A boundaries layer as Map data stores it (rows already sent), made ready by an admin's `finish`. */
async function addLayer(t: TestConvex, admin: Member, layer: GridLayer): Promise<Id<"mapLayers">> {
  const layerId = await t.run(async (ctx) => {
    const now = Date.now();
    const id = await ctx.db.insert("mapLayers", {
      orgId: admin.orgId,
      kind: "boundaries",
      tigerLayer: layer.tigerLayer,
      name: layer.name,
      fileName: `${layer.name}.geojson`,
      nameField: "NAME",
      status: "loading",
      storageId: null,
      size: 0,
      stored: layer.boundaries.length,
      features: layer.boundaries.length,
      addressable: 0,
      bbox: null,
      replaces: null,
      createdBy: admin.userId,
      createdByName: "Admin",
      createdAt: now,
      updatedAt: now,
    });
    for (const b of layer.boundaries)
      await ctx.db.insert("boundaries", {
        orgId: admin.orgId,
        layerId: id,
        layer: layer.tigerLayer,
        name: b.name,
        key: areaKey(b.name),
        code: b.code,
        bbox: b.bbox,
        geometry: b.geometry,
      });
    return id;
  });
  await admin.as.mutation(api.mapData.finish, { layerId });
  await drain(t);
  return layerId;
}

/** Places a voter on the map (what the geocoder writes). */
async function place(
  t: TestConvex,
  voterId: Id<"voters">,
  at: { lng: number; lat: number },
  on: { layerId: Id<"mapLayers"> | null; address: string } = { layerId: null, address: "x" },
) {
  await t.run(async (ctx) => {
    const voter = (await ctx.db.get("voters", voterId))!;
    const row = await ctx.db
      .query("voterPlaces")
      .withIndex("by_voter", (q) => q.eq("voterId", voterId))
      .unique();
    const fields = { ...on, quality: "exact range" as const, lat: at.lat, lng: at.lng, at: 1 };
    if (row) await ctx.db.patch("voterPlaces", row._id, fields);
    else await ctx.db.insert("voterPlaces", { orgId: voter.orgId, voterId, voterAt: voter._creationTime, ...fields });
  });
}

type NewVoter = {
  party?: string;
  status?: string;
  precinct?: string;
  custom?: Record<string, string>;
  voted?: string[];
};

async function addVoter(member: Member, n: number, v: NewVoter = {}) {
  return await member.as.mutation(api.voters.create, {
    fields: {
      first_name: `Pat${n}`,
      last_name: "Doe",
      party_affiliation: v.party,
      status: v.status,
      precinct: v.precinct,
      custom_fields: v.custom,
      vote_history: v.voted?.map((election) => ({ election })),
    },
  });
}

async function districtsOf(member: Member, kind: "precinct" | "house" | "senate" | "congress" | "county" | "ward") {
  return (await member.as.query(api.districts.list, { kind })).districts;
}

const vtd = gridLayer("VTD");
const cd = gridLayer("CD");

describe("districts: membership", () => {
  test("by code: the voter file's precinct and district columns (NC names), with tallies by party, status and turnout", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    const nc = { cong_dist_abbrv: "2", nc_house_abbrv: "034", nc_senate_abbrv: "16", county_desc: "WAKE" };
    await addVoter(f.campaign_manager, 1, {
      party: "Democrat",
      status: "Active",
      precinct: "01-07",
      custom: nc,
      voted: ["2024 General", "2022 General"],
    });
    await addVoter(f.campaign_manager, 2, {
      party: "Republican",
      status: "Active",
      precinct: "01-07",
      custom: nc,
      voted: ["2024 General"],
    });
    await addVoter(f.campaign_manager, 3, {
      party: "Democrat",
      status: "Inactive",
      precinct: "02-01",
      custom: { ...nc, nc_house_abbrv: "35" },
    });
    await addVoter(f.campaign_manager, 4, {});
    await drain(t);

    const precincts = await districtsOf(f.viewer, "precinct");
    expect(precincts.map((d) => [d.name, d.voters])).toEqual([
      ["01-07", 2],
      ["02-01", 1],
    ]);
    const house = await districtsOf(f.volunteer, "house");
    // "034" and "34" are one district
    expect(house.map((d) => [d.key, d.voters])).toEqual([
      ["34", 2],
      ["35", 1],
    ]);
    expect((await districtsOf(f.viewer, "county")).map((d) => [d.name, d.voters])).toEqual([["WAKE", 3]]);
    const one = (await f.viewer.as.query(api.districts.get, { id: precincts[0].id }))!;
    expect(one.cells).toEqual([
      { party: "Democrat", status: "Active", count: 1 },
      { party: "Republican", status: "Active", count: 1 },
    ]);
    expect(one.turnout).toEqual([
      { election: "2022 General", voted: 1 },
      { election: "2024 General", voted: 2 },
    ]);
    expect(one).toMatchObject({ voters: 2, mappedElsewhere: 0, codedElsewhere: 0, hasOutline: false });

    // the voter list filtered by the district: its voters, and its count from the tally
    const page = await f.viewer.as.query(api.voters.list, {
      paginationOpts: { cursor: null, numItems: 50 },
      district: precincts[0].filter,
    });
    expect(page.page.map((v) => v.first_name).sort()).toEqual(["Pat1", "Pat2"]);
    const withParty = await f.viewer.as.query(api.voters.list, {
      paginationOpts: { cursor: null, numItems: 50 },
      district: precincts[0].filter,
      party: "Republican",
    });
    expect(withParty.page.map((v) => v.first_name)).toEqual(["Pat2"]);
    const count = await f.viewer.as.query(api.voters.count, {
      paginationOpts: { cursor: null, numItems: 1 },
      district: precincts[0].filter,
      party: "Democrat",
    });
    expect(count.page[0].count).toBe(1);
    // a search within the district counts its matches, page by page (not the organisation's tally)
    const searched = await f.viewer.as.query(api.voters.count, {
      paginationOpts: { cursor: null, numItems: 1 },
      district: precincts[0].filter,
      search: "pat2",
    });
    expect(searched.page[0].count).toBe(1);
  });

  test("an import's voters are assigned when it finishes (a bulk write assigns no one voter at a time)", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    const m = f.campaign_manager;
    const mapping = [
      { column: "First", target: "first_name" },
      { column: "Last", target: "last_name" },
      { column: "Precinct", target: "precinct" },
      { column: "cong_dist_abbrv", target: "cong_dist_abbrv" },
    ];
    const importId = await m.as.mutation(api.imports.start, {
      filename: "nc.csv",
      totalRecords: null,
      bytesTotal: 100,
      fieldMapping: mapping,
      newFields: [{ key: "cong_dist_abbrv", label: "cong_dist_abbrv", type: "text" }],
      fieldDetails: mapping.map((x) => ({
        column: x.column,
        target: x.target,
        fieldType: x.target === "cong_dist_abbrv" ? ("new" as const) : ("existing" as const),
        sample: ["a"],
      })),
      errorMode: "ask",
      attestation: { state: "NC", use: "campaign", useOther: null, attested: true },
    });
    const rows = [1, 2, 3].map((n) => ({
      row: n,
      fields: {
        first_name: `Imp${n}`,
        last_name: "Doe",
        precinct: n < 3 ? "01-07" : "02-01",
        custom_fields: { cong_dist_abbrv: "2" },
      },
    }));
    await m.as.mutation(api.imports.appendBatch, { importId, startRow: 1, rows });
    expect(await t.run((ctx) => ctx.db.query("voterDistricts").collect())).toEqual([]);
    await m.as.mutation(api.imports.finish, { importId, totalRecords: 3, columnStats: [] });
    await drain(t);
    expect((await districtsOf(f.viewer, "precinct")).map((d) => [d.name, d.voters])).toEqual([
      ["01-07", 2],
      ["02-01", 1],
    ]);
    expect((await districtsOf(f.viewer, "congress")).map((d) => [d.name, d.voters])).toEqual([["2", 3]]);
  });

  test("by polygon: a placed voter without codes is in the outlines that hold it; a district without voters is listed", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    const a = await addVoter(f.campaign_manager, 1, { party: "Democrat" });
    const b = await addVoter(f.campaign_manager, 2, { party: "Green Party" });
    const c = await addVoter(f.campaign_manager, 3, { party: "Democrat" });
    await place(t, a, pointIn(vtd.boundaries[0], 0.2, 0.3));
    await place(t, b, pointIn(vtd.boundaries[0], 0.8, 0.7));
    await place(t, c, pointIn(vtd.boundaries[29]));
    await drain(t);
    await addLayer(t, f.account_admin, vtd);
    await addLayer(t, f.account_admin, cd);

    const precincts = await districtsOf(f.viewer, "precinct");
    expect(precincts).toHaveLength(30);
    const byName = new Map(precincts.map((d) => [d.name, d]));
    expect(byName.get("Springfield 1")).toMatchObject({ voters: 2, hasOutline: true });
    expect(byName.get("Springfield 1")!.parties).toEqual([
      { party: "Democrat", count: 1 },
      { party: "Green Party", count: 1 },
    ]);
    expect(byName.get("Springfield 30")).toMatchObject({ voters: 1 });
    expect(byName.get("Springfield 2")).toMatchObject({ voters: 0, hasOutline: true });
    const congress = await districtsOf(f.viewer, "congress");
    expect(congress.map((d) => [d.name, d.voters])).toEqual([
      ["Congressional District 13", 2],
      ["Congressional District 14", 1],
    ]);
    const { outlines } = await f.viewer.as.query(api.districts.outlines, { kind: "precinct" });
    expect(outlines).toHaveLength(30);
    expect(JSON.parse(outlines[0].geometry).type).toBe("Polygon");
    // each outline names its district (the map shades it from the list's tallies)
    expect(new Set(outlines.map((o) => o.id))).toEqual(new Set(precincts.map((d) => d.id)));
    const overview = await f.viewer.as.query(api.districts.overview, {});
    expect(overview.kinds).toEqual([
      { kind: "precinct", outlines: true },
      { kind: "congress", outlines: true },
    ]);
    expect(overview.boundaryLayers).toBe(2);
    expect(overview.run).toMatchObject({ status: "done" });

    // a voter moving across the map follows (its place changes: assigned again)
    await place(t, c, pointIn(vtd.boundaries[1]));
    await t.mutation(internal.districts.assignOne, { voterId: c });
    const after = new Map((await districtsOf(f.viewer, "precinct")).map((d) => [d.name, d.voters]));
    expect([after.get("Springfield 2"), after.get("Springfield 30")]).toEqual([1, 0]);
  });

  test("the end of a geocoding run assigns the voters again when there are outlines", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    await addLayer(t, f.account_admin, vtd);
    const v = await addVoter(f.campaign_manager, 1, {});
    await drain(t);
    // a streets layer and a run over the voters (the geocoder writes their places)
    const { runId, layerId } = await t.run(async (ctx) => {
      const now = Date.now();
      const layerId = await ctx.db.insert("mapLayers", {
        orgId: f.orgId,
        kind: "streets",
        tigerLayer: "EDGES",
        name: "streets",
        fileName: "s.zip",
        nameField: null,
        status: "ready",
        storageId: null,
        size: 0,
        stored: 0,
        features: 0,
        addressable: 0,
        bbox: null,
        replaces: null,
        createdBy: f.account_admin.userId,
        createdByName: "Admin",
        createdAt: now,
        updatedAt: now,
      });
      const runId = await ctx.db.insert("geocodeRuns", {
        orgId: f.orgId,
        status: "running",
        reason: "test",
        layerId,
        cursor: null,
        processed: 0,
        total: 1,
        counts: { exact: 0, interpolated: 0, streetOnly: 0, zipCentroid: 0, failed: 0 },
        startedAt: now,
        finishedAt: null,
      });
      return { runId, layerId };
    });
    // the run has placed the voter on these streets (as the geocoder would) when its last step ends
    await place(t, v, pointIn(vtd.boundaries[4]), { layerId, address: "" });
    await t.mutation(internal.geocode.step, { runId });
    await drain(t);
    const overview = await f.viewer.as.query(api.districts.overview, {});
    expect(overview.run).toMatchObject({ status: "done", reason: "voters placed on the map", changed: 1 });
    const byName = new Map((await districtsOf(f.viewer, "precinct")).map((d) => [d.name, d.voters]));
    expect(byName.get("Springfield 5")).toBe(1);
  });

  test("code and polygon disagreeing is counted on both districts; the code decides membership", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    await addLayer(t, f.account_admin, vtd);
    // coded precinct 10 (GEOID 17167000010, "Springfield 1") but placed in Springfield 2
    const v = await addVoter(f.campaign_manager, 1, { precinct: "10", party: "Democrat" });
    await place(t, v, pointIn(vtd.boundaries[1]));
    await t.mutation(internal.districts.assignOne, { voterId: v });
    // one agreeing voter: by name
    const w = await addVoter(f.campaign_manager, 2, { precinct: "SPRINGFIELD 2" });
    await place(t, w, pointIn(vtd.boundaries[1]));
    await drain(t);
    await t.mutation(internal.districts.assignOne, { voterId: w });
    const byName = new Map((await districtsOf(f.viewer, "precinct")).map((d) => [d.name, d]));
    expect(byName.get("Springfield 1")).toMatchObject({ voters: 1, mappedElsewhere: 1, codedElsewhere: 0 });
    expect(byName.get("Springfield 2")).toMatchObject({ voters: 1, mappedElsewhere: 0, codedElsewhere: 1 });
  });
});

describe("districts: which voters disagree", () => {
  const list = (member: Member, id: string, direction: "mappedElsewhere" | "codedElsewhere") =>
    member.as
      .query(api.districts.disagreements, { id, direction, paginationOpts: { cursor: null, numItems: 50 } })
      .then((p) => p.page);

  test("a voter coded to one precinct and placed in another is listed by both, until it moves, is recoded or is deleted", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    await addLayer(t, f.account_admin, vtd);
    // coded precinct 10 (GEOID 17167000010, "Springfield 1") but placed in Springfield 2
    const v = await f.campaign_manager.as.mutation(api.voters.create, {
      fields: { first_name: "Pat", last_name: "Doe", precinct: "10", address: "1 Main St", city: "Springfield" },
    });
    await addVoter(f.campaign_manager, 2, { precinct: "10" }); // agrees: placed nowhere
    await place(t, v, pointIn(vtd.boundaries[1]));
    await drain(t);
    await t.mutation(internal.districts.assignOne, { voterId: v });
    const byName = new Map((await districtsOf(f.viewer, "precinct")).map((d) => [d.name, d.id]));
    const [a, b, c] = ["Springfield 1", "Springfield 2", "Springfield 3"].map((n) => byName.get(n)!);
    const row = { voterId: v, name: "Pat Doe", address: "1 Main St, Springfield" };
    // a Viewer reads both directions: coded to A, placed in B
    expect(await list(f.viewer, a, "mappedElsewhere")).toEqual([
      { ...row, codedName: "Springfield 1", mappedName: "Springfield 2" },
    ]);
    expect(await list(f.viewer, b, "codedElsewhere")).toEqual([
      { ...row, codedName: "Springfield 1", mappedName: "Springfield 2" },
    ]);
    expect(await list(f.viewer, a, "codedElsewhere")).toEqual([]);
    expect(await list(f.viewer, b, "mappedElsewhere")).toEqual([]);

    // moved into its coded precinct on the map: no disagreement left
    await place(t, v, pointIn(vtd.boundaries[0]));
    await t.mutation(internal.districts.assignOne, { voterId: v });
    expect(await list(f.viewer, a, "mappedElsewhere")).toEqual([]);
    expect(await list(f.viewer, b, "codedElsewhere")).toEqual([]);
    // moved to a third precinct: listed there
    await place(t, v, pointIn(vtd.boundaries[2]));
    await t.mutation(internal.districts.assignOne, { voterId: v });
    expect((await list(f.volunteer, c, "codedElsewhere")).map((x) => x.voterId)).toEqual([v]);

    // recoded to where the map places it: gone from both lists
    await f.volunteer.as.mutation(api.voters.update, {
      id: v,
      edits: [{ field: "precinct", base: "10", value: "SPRINGFIELD 3" }],
    });
    await drain(t);
    expect(await list(f.viewer, a, "mappedElsewhere")).toEqual([]);
    expect(await list(f.viewer, c, "codedElsewhere")).toEqual([]);

    // recoded away again, then deleted: listed, then gone (with its rows)
    await f.volunteer.as.mutation(api.voters.update, {
      id: v,
      edits: [{ field: "precinct", base: "SPRINGFIELD 3", value: "SPRINGFIELD 2" }],
    });
    await drain(t);
    expect(await list(f.viewer, b, "mappedElsewhere")).toEqual([
      { ...row, codedName: "Springfield 2", mappedName: "Springfield 3" },
    ]);
    expect((await list(f.viewer, c, "codedElsewhere")).map((x) => x.voterId)).toEqual([v]);
    await f.campaign_manager.as.mutation(api.voters.remove, { id: v });
    expect(await list(f.viewer, b, "mappedElsewhere")).toEqual([]);
    expect(await list(f.viewer, c, "codedElsewhere")).toEqual([]);
    expect(await t.run((ctx) => ctx.db.query("districtDisagreements").collect())).toEqual([]);
  });

  test("the counts and the lists agree; an outsider and the signed-out read none of it", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    await addLayer(t, f.account_admin, vtd);
    const ids = [];
    for (let i = 0; i < 3; i++) {
      const id = await addVoter(f.campaign_manager, i, { precinct: "10" });
      await place(t, id, pointIn(vtd.boundaries[1 + (i % 2)]));
      ids.push(id);
    }
    await f.campaign_manager.as.mutation(api.districts.run, {});
    await drain(t);
    const a = (await districtsOf(f.viewer, "precinct")).find((d) => d.name === "Springfield 1")!;
    expect(a.mappedElsewhere).toBe(3);
    // a page at a time
    const first = await f.viewer.as.query(api.districts.disagreements, {
      id: a.id,
      direction: "mappedElsewhere",
      paginationOpts: { cursor: null, numItems: 2 },
    });
    expect(first.page).toHaveLength(2);
    const rest = await f.viewer.as.query(api.districts.disagreements, {
      id: a.id,
      direction: "mappedElsewhere",
      paginationOpts: { cursor: first.continueCursor, numItems: 2 },
    });
    expect([...first.page, ...rest.page].map((x) => x.voterId).sort()).toEqual([...ids].sort());
    expect(rest.isDone).toBe(true);
    // an assignment run again changes nothing
    await f.campaign_manager.as.mutation(api.districts.run, {});
    await drain(t);
    expect(await t.run((ctx) => ctx.db.query("districtDisagreements").collect())).toHaveLength(3);

    expect(await list(f.outsider, a.id, "mappedElsewhere")).toEqual([]);
    await expect(list(f.account_admin, a.id, "mappedElsewhere")).rejects.toThrow(/permission/);
    await expect(
      t.query(api.districts.disagreements, {
        id: a.id,
        direction: "mappedElsewhere",
        paginationOpts: { cursor: null, numItems: 10 },
      }),
    ).rejects.toThrow();
  });
});

describe("districts: live tallies", () => {
  test("counts follow a voter who changes party, moves to another precinct, and is deleted", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    const id = await addVoter(f.campaign_manager, 1, {
      party: "Democrat",
      status: "Active",
      precinct: "P1",
      voted: ["2024 General"],
    });
    await addVoter(f.campaign_manager, 2, { party: "Democrat", status: "Active", precinct: "P1" });
    await drain(t);
    const p1 = () => districtsOf(f.viewer, "precinct").then((ds) => ds.find((d) => d.key === "P1")!);
    expect((await p1()).parties).toEqual([{ party: "Democrat", count: 2 }]);

    // party: at once, in the save's own transaction
    await f.volunteer.as.mutation(api.voters.update, {
      id,
      edits: [{ field: "party_affiliation", base: "Democrat", value: "Republican" }],
    });
    expect((await p1()).parties).toEqual([
      { party: "Democrat", count: 1 },
      { party: "Republican", count: 1 },
    ]);
    expect((await p1()).turnout).toEqual([{ election: "2024 General", voted: 1 }]);

    // moves: a changed precinct assigns the voter again
    await f.volunteer.as.mutation(api.voters.update, { id, edits: [{ field: "precinct", base: "P1", value: "P2" }] });
    await drain(t);
    const names = (await districtsOf(f.viewer, "precinct")).map((d) => [d.key, d.voters, d.turnout]);
    expect(names).toEqual([
      ["P1", 1, []],
      ["P2", 1, [{ election: "2024 General", voted: 1 }]],
    ]);

    // deleted: its district of codes alone goes with its last voter
    await f.campaign_manager.as.mutation(api.voters.remove, { id });
    expect((await districtsOf(f.viewer, "precinct")).map((d) => d.key)).toEqual(["P1"]);
    expect(await t.run((ctx) => ctx.db.query("voterDistricts").collect())).toHaveLength(1);
  });

  test("a deleted boundaries layer removes its districts; voters keep their districts by code", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    const layerId = await addLayer(t, f.account_admin, vtd);
    const a = await addVoter(f.campaign_manager, 1, {});
    const b = await addVoter(f.campaign_manager, 2, { precinct: "20" });
    await place(t, a, pointIn(vtd.boundaries[0]));
    await f.campaign_manager.as.mutation(api.districts.run, {});
    await drain(t);
    expect((await districtsOf(f.viewer, "precinct")).filter((d) => d.voters > 0).map((d) => d.name)).toEqual([
      "Springfield 1",
      "Springfield 2",
    ]);
    expect(b).toBeDefined();

    await f.account_admin.as.mutation(api.mapData.remove, { layerId });
    await drain(t);
    const left = await districtsOf(f.viewer, "precinct");
    // the coded voter keeps a district of its code alone; the placed one has none; the outlines' districts are gone
    expect(left.map((d) => [d.name, d.voters, d.hasOutline])).toEqual([["20", 1, false]]);
    expect((await f.viewer.as.query(api.districts.overview, {})).boundaryLayers).toBe(0);
    expect(await t.run((ctx) => ctx.db.query("districtShapes").collect())).toEqual([]);
  });
});

describe("districts: actions and permissions", () => {
  test("a group of a district's voters; the district filter is the voter list's", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    for (let i = 0; i < 5; i++) await addVoter(f.campaign_manager, i, { precinct: i < 3 ? "A" : "B" });
    await drain(t);
    const [a] = await districtsOf(f.viewer, "precinct");
    expect(a.filter).toBe(districtFilter("precinct", "A"));
    const groupId = await f.campaign_manager.as.mutation(api.districts.makeGroup, { id: a.id, name: "Precinct A" });
    await drain(t);
    const groups = await f.viewer.as.query(api.groups.list, {});
    expect(groups.find((g) => g._id === groupId)).toMatchObject({ name: "Precinct A", memberCount: 3 });
    await expect(f.campaign_manager.as.mutation(api.districts.makeGroup, { id: a.id, name: " " })).rejects.toThrow(
      /group name/,
    );
  });

  test("an email segment of a district: its voters with an email, following one who moves out", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    const cm = f.campaign_manager.as;
    const withEmail = (n: number, precinct: string) =>
      cm.mutation(api.voters.create, {
        fields: { first_name: `Em${n}`, last_name: "Doe", email: `em${n}@example.org`, precinct },
      });
    const mover = await withEmail(1, "A");
    await withEmail(2, "A");
    await withEmail(3, "B");
    await addVoter(f.campaign_manager, 4, { precinct: "A" }); // no email: never a segment member
    await drain(t);
    const a = (await districtsOf(f.viewer, "precinct")).find((d) => d.key === "A")!;
    const segmentId = await cm.mutation(api.districts.makeEmailSegment, { id: a.id, name: "Precinct A" });
    await drain(t);
    const segment = async () => (await f.viewer.as.query(api.emailSegments.list, {})).find((s) => s.id === segmentId)!;
    expect(await segment()).toMatchObject({ name: "Precinct A", cachedCount: 2 });
    expect((await segment()).rules).toEqual([
      { id: "district", field: "district", operator: "equals", value: districtFilter("precinct", "A") },
    ]);
    // the voter moves to B; the segment's next refresh follows
    await f.volunteer.as.mutation(api.voters.update, {
      id: mover,
      edits: [{ field: "precinct", base: "A", value: "B" }],
    });
    await drain(t);
    await cm.mutation(api.emailSegments.refresh, { id: segmentId });
    await drain(t);
    expect((await segment()).cachedCount).toBe(1);
    // a second segment of the same name is refused like any other
    await expect(cm.mutation(api.districts.makeEmailSegment, { id: a.id, name: "Precinct A" })).rejects.toThrow();
    for (const role of ["volunteer", "viewer"] as const)
      await expect(f[role].as.mutation(api.districts.makeEmailSegment, { id: a.id, name: "x" })).rejects.toThrow(
        /permission/,
      );
  });

  test("who may: voters.view sees, voters.manage assigns and makes groups; outsiders and the signed-out reach nothing", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    await addVoter(f.campaign_manager, 1, { precinct: "A" });
    await drain(t);
    // an account administrator manages the organisation, not its voters
    await expect(districtsOf(f.account_admin, "precinct")).rejects.toThrow(/permission/);
    for (const role of ["campaign_manager", "volunteer", "viewer"] as const) {
      expect(await districtsOf(f[role], "precinct")).toHaveLength(1);
      expect((await f[role].as.query(api.districts.overview, {})).kinds).toHaveLength(1);
    }
    const [a] = await districtsOf(f.viewer, "precinct");
    for (const role of ["volunteer", "viewer"] as const) {
      await expect(f[role].as.mutation(api.districts.makeGroup, { id: a.id, name: "x" })).rejects.toThrow(/permission/);
      await expect(f[role].as.mutation(api.districts.run, {})).rejects.toThrow(/permission/);
    }
    // another organisation sees none of it
    expect(await districtsOf(f.outsider, "precinct")).toEqual([]);
    expect(await f.outsider.as.query(api.districts.get, { id: a.id })).toBeNull();
    expect((await f.outsider.as.query(api.districts.outlines, { kind: "precinct" })).outlines).toEqual([]);
    const outsiderVoters = await f.outsider.as.query(api.voters.list, {
      paginationOpts: { cursor: null, numItems: 10 },
      district: a.filter,
    });
    expect(outsiderVoters.page).toEqual([]);
    await expect(f.outsider.as.mutation(api.districts.makeGroup, { id: a.id, name: "x" })).rejects.toThrow();
    expect(await t.run((ctx) => ctx.db.query("voterGroups").collect())).toEqual([]);
    // signed out
    await expect(t.query(api.districts.list, { kind: "precinct" })).rejects.toThrow();
    await expect(t.query(api.districts.overview, {})).rejects.toThrow();
  });
});
