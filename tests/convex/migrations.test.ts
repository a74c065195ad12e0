/** Operator migrations: the voter tally rebuilt from the voters themselves; owners for files stored before uploads were owned. */
import { expect, test } from "vitest";
import { api, internal } from "@convex/_generated/api";
import { syntheticCounty } from "../support/syntheticCounty";
import { seedVoters } from "../support/turfSeed";
import { createMember, roleFixture, setupTest } from "./setup";

test("recountVoterTally rebuilds each organisation's tally from its voters, replacing stale rows", async () => {
  const t = setupTest();
  const a = await createMember(t, ["campaign_manager"]);
  const b = await createMember(t, ["campaign_manager"]);
  await t.run(async (ctx) => {
    const base = {
      searchText: "x",
      firstNameLower: "x",
      lastNameLower: "y",
      first_name: "X",
      last_name: "Y",
      updatedAt: 0,
    };
    // voters stored before the tally existed (written directly, as older releases left them)
    for (let i = 0; i < 2500; i++)
      await ctx.db.insert("voters", {
        ...base,
        orgId: a.orgId,
        party_affiliation: i % 5 === 0 ? "Green Party" : "Democrat",
        status: i % 2 ? "Active" : undefined,
      });
    await ctx.db.insert("voters", { ...base, orgId: b.orgId, status: "Pending" });
    await ctx.db.insert("voterTally", { orgId: a.orgId, party: "Republican", status: "Active", count: 99 });
  });
  await t.mutation(internal.migrations.recountVoterTally, {});
  await t.finishAllScheduledFunctions(() => {});
  const tally = await t.run(async (ctx) => ctx.db.query("voterTally").collect());
  const of = (orgId: string) =>
    Object.fromEntries(tally.filter((r) => r.orgId === orgId).map((r) => [`${r.party}/${r.status}`, r.count]));
  expect(of(a.orgId)).toEqual({
    "Democrat/Active": 1000,
    "Democrat/": 1000,
    "Green Party/Active": 250,
    "Green Party/": 250,
  });
  expect(of(b.orgId)).toEqual({ "/Pending": 1 });
});

test("ownStoredFiles gives each file stored before uploads were owned to the organisation whose image or page uses it", async () => {
  const t = setupTest();
  const a = await createMember(t, ["campaign_manager"]);
  const b = await createMember(t, ["campaign_manager"]);
  const petitionId = await b.as.mutation(api.petitions.create, {
    name: "P",
    signaturesNeeded: 1,
    deadline: "2027-01-01",
    state: "OR",
    county: null,
    mode: "full",
  });
  const ids = await t.run(async (ctx) => {
    const image = await ctx.storage.store(new Blob(["a-image"]));
    const scan = await ctx.storage.store(new Blob(["b-scan"]));
    await ctx.db.insert("images", {
      orgId: a.orgId,
      purpose: "cta",
      storageId: image,
      url: "https://x/1",
      contentType: "image/png",
      size: 7,
      createdBy: a.userId,
      createdAt: 1,
    });
    // B's page naming A's image (a reference the old code accepted) does not make it B's
    await ctx.db.insert("petitionPages", {
      orgId: b.orgId,
      petitionId,
      pageNumber: 1,
      fileId: image,
      fileName: "x",
      contentType: "image/png",
      status: "completed",
      lineCount: 0,
      pendingCount: 0,
    });
    await ctx.db.insert("petitionPages", {
      orgId: b.orgId,
      petitionId,
      pageNumber: 2,
      fileId: scan,
      fileName: "y",
      contentType: "image/png",
      status: "completed",
      lineCount: 0,
      pendingCount: 0,
    });
    return { image, scan };
  });
  await t.mutation(internal.migrations.ownStoredFiles, {});
  await t.finishAllScheduledFunctions(() => {});
  const files = await t.run(async (ctx) => ctx.db.query("files").collect());
  expect(files.map((f) => [f.storageId, f.orgId, f.purpose, f.attachedAt !== null]).sort()).toEqual(
    [
      [ids.image, a.orgId, "image", true],
      [ids.scan, b.orgId, "petitionPage", true],
    ].sort(),
  );
});

test("repackDoorCells gives cells packed before the turf filters' fields their filter data", async () => {
  const t = setupTest();
  const f = await roleFixture(t);
  const houses = syntheticCounty(37).houses.slice(0, 40);
  await t.run((ctx) =>
    seedVoters(
      ctx,
      f.orgId,
      houses.map((house, i) => ({ house, party: i % 4 === 0 ? "Democrat" : "Republican" })),
    ),
  );
  await t.finishAllScheduledFunctions(() => {}, 100);
  // as an older release left them: no held flags, no filter companions
  await t.run(async (ctx) => {
    for (const c of await ctx.db.query("doorCellVoters").collect()) await ctx.db.delete("doorCellVoters", c._id);
    for (const c of await ctx.db.query("doorCells").collect()) {
      const { _id, _creationTime, held, ...rest } = c;
      void _creationTime;
      void held;
      await ctx.db.replace("doorCells", _id, rest);
    }
  });
  const lats = houses.map((h) => h.lat);
  const lngs = houses.map((h) => h.lng);
  const [w, s, e, n] = [
    Math.min(...lngs) - 0.01,
    Math.min(...lats) - 0.01,
    Math.max(...lngs) + 0.01,
    Math.max(...lats) + 0.01,
  ];
  const points = [
    [w, s],
    [e, s],
    [e, n],
    [w, n],
  ];
  const democrats = () =>
    f.campaign_manager.as.query(api.turfs.countArea, { points, filters: { parties: ["Democrat"] } });
  // unpacked: every voter counts
  expect((await democrats()).doors).toBe(40);
  await t.mutation(internal.migrations.repackDoorCells, {});
  await t.finishAllScheduledFunctions(() => {}, 100);
  expect(await democrats()).toEqual({ doors: 10, voters: 10, held: 0 });
});
