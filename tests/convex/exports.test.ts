/**
 * Audited exports (issue 39, model/exports.ts): every export kind is started by a mutation that
 * records a run, its pages are served only against the caller's own run of that kind and filter,
 * and one export writes exactly one audit entry (at finish with the rows, or at expiry). Denied
 * callers cannot start one. Imports record the voter-file use the admin attested, and the voter
 * export records the attested states.
 */
import { describe, expect, test } from "vitest";
import { api, internal } from "@convex/_generated/api";
import type { Doc, Id } from "@convex/_generated/dataModel";
import { STATE_FILE_USE } from "@convex/lib/voters/fileUse";
import { roleFixture, setupTest, type TestConvex } from "./setup";

type Entry = Pick<Doc<"auditLog">, "action" | "actorId" | "target" | "summary" | "impersonatedRole">;

/** The organisation's entries, sealed (chain order) then pending (creation order). */
async function entries(t: TestConvex, orgId: Id<"organizations">): Promise<Entry[]> {
  return await t.run(async (ctx) => {
    const sealed = (await ctx.db.query("auditLog").collect()).filter((e) => e.orgId === orgId);
    const pending = (await ctx.db.query("auditPending").collect()).filter((e) => e.orgId === orgId);
    return [...sealed.sort((a, b) => a.seq - b.seq), ...pending.sort((a, b) => a._creationTime - b._creationTime)];
  });
}

/** Runs `call` and returns the entries it wrote. */
async function written(t: TestConvex, orgId: Id<"organizations">, call: () => Promise<unknown>) {
  const before = (await entries(t, orgId)).length;
  await call();
  return (await entries(t, orgId)).slice(before);
}

const ATTESTED = { state: "NC", use: "campaign" as const, useOther: null, attested: true };
const MAPPING = [
  { column: "First", target: "first_name" },
  { column: "Last", target: "last_name" },
];
function importArgs(attestation: Record<string, unknown>) {
  return {
    filename: "state.csv",
    totalRecords: null,
    bytesTotal: 100,
    fieldMapping: MAPPING,
    newFields: [],
    fieldDetails: [],
    errorMode: "ask" as const,
    attestation: attestation as typeof ATTESTED,
  };
}

async function seedVoters(t: TestConvex, orgId: Id<"organizations">, n: number) {
  const voters = Array.from({ length: n }, (_, i) => ({ first_name: `V${i}`, last_name: i % 2 ? "Smith" : "Jones" }));
  await t.mutation(internal.seed.insertVoters, { orgId, voters });
}

describe("exports are audited and served only against a run", () => {
  test("the voter export: one entry with who, filter, rows, format; the pages need the caller's own run", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    await seedVoters(t, f.orgId, 30);
    const cm = f.campaign_manager;
    const page = { paginationOpts: { numItems: 1000, cursor: null } };
    let exportId: Id<"exportRuns"> | null = null;
    // starting writes nothing yet: the entry comes with the row count
    expect(
      await written(t, f.orgId, async () => {
        exportId = await cm.as.mutation(api.voters.startExport, { search: "smith", format: "xlsx" });
      }),
    ).toEqual([]);
    const id = exportId!;
    const rows = (await cm.as.query(api.voters.exportPage, { ...page, exportId: id, search: "smith" })).page;
    expect(rows).toHaveLength(15);

    // another filter, another kind, another member's run, a foreign organisation's: refused
    await expect(cm.as.query(api.voters.exportPage, { ...page, exportId: id })).rejects.toThrow(/not the one/);
    await expect(cm.as.query(api.voters.exportPage, { ...page, exportId: id, search: "jones" })).rejects.toThrow(
      /not the one/,
    );
    await expect(f.creator.as.query(api.voters.exportPage, { ...page, exportId: id, search: "smith" })).rejects.toThrow(
      /not started by you/,
    );
    await expect(
      f.outsider.as.query(api.voters.exportPage, { ...page, exportId: id, search: "smith" }),
    ).rejects.toThrow(/not started by you/);
    const surveyId = await cm.as.mutation(api.surveys.create, { name: "Intake", description: null, recipient: null });
    await expect(
      cm.as.query(api.surveySubmissions.exportPage, { exportId: id, surveyId, before: null }),
    ).rejects.toThrow(/not started by you/);

    const wrote = await written(t, f.orgId, () => cm.as.mutation(api.exports.finish, { exportId: id, rows: 15 }));
    expect(wrote).toHaveLength(1);
    expect(wrote[0]).toMatchObject({
      action: "export",
      actorId: cm.userId,
      target: { table: "exportRuns", id, label: "the voter file" },
    });
    expect(wrote[0].summary).toBe("Exported the voter file as XLSX (search “smith”): 15 rows.");
    // ended: no more pages, and finishing again writes nothing
    await expect(cm.as.query(api.voters.exportPage, { ...page, exportId: id, search: "smith" })).rejects.toThrow(
      /has ended/,
    );
    expect(await written(t, f.orgId, () => cm.as.mutation(api.exports.finish, { exportId: id, rows: 99 }))).toEqual([]);
    // only the member who started it may finish it
    const other = await cm.as.mutation(api.voters.startExport, { format: "csv" });
    await expect(f.creator.as.mutation(api.exports.finish, { exportId: other, rows: 1 })).rejects.toThrow(
      /not started by you/,
    );
    await expect(cm.as.mutation(api.exports.finish, { exportId: other, rows: -1 })).rejects.toThrow(/not valid/);
    const run = await t.run((ctx) => ctx.db.get("exportRuns", id));
    expect(run).toMatchObject({ kind: "voters", format: "xlsx", rows: 15, userId: cm.userId });
    expect(run!.finishedAt).not.toBeNull();
  });

  test("an export never finished is recorded once, at its expiry, rows not known", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    const cm = f.campaign_manager;
    const exportId = await cm.as.mutation(api.voters.startExport, { party: "DEM", format: "csv" });
    const wrote = await written(t, f.orgId, () => t.mutation(internal.exports.expire, { exportId }));
    expect(wrote).toHaveLength(1);
    expect(wrote[0]).toMatchObject({ action: "export", actorId: cm.userId });
    expect(wrote[0].summary).toBe(
      "Started exporting the voter file as CSV (party “DEM”); the export never reported its end, so how many rows left is not known.",
    );
    // expired: no pages; a late finish or a second expiry writes nothing more
    await expect(
      cm.as.query(api.voters.exportPage, { exportId, party: "DEM", paginationOpts: { numItems: 10, cursor: null } }),
    ).rejects.toThrow(/has ended/);
    expect(
      await written(t, f.orgId, async () => {
        await cm.as.mutation(api.exports.finish, { exportId, rows: 3 });
        await t.mutation(internal.exports.expire, { exportId });
      }),
    ).toEqual([]);
  });

  test("survey, form and petition exports each write exactly one entry", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    const cm = f.campaign_manager;

    const surveyId = await cm.as.mutation(api.surveys.create, { name: "Intake", description: null, recipient: null });
    const surveyRun = await cm.as.mutation(api.surveySubmissions.startExport, { surveyId });
    const s = await cm.as.query(api.surveySubmissions.exportPage, { exportId: surveyRun, surveyId, before: null });
    expect(s.rows).toEqual([]);
    let wrote = await written(t, f.orgId, () => cm.as.mutation(api.exports.finish, { exportId: surveyRun, rows: 0 }));
    expect(wrote).toHaveLength(1);
    expect(wrote[0]).toMatchObject({ action: "export", target: { table: "surveys", id: surveyId } });
    expect(wrote[0].summary).toBe("Exported submissions of survey “Intake” as CSV (all submissions): 0 rows.");

    const { id: formId } = await cm.as.mutation(api.forms.create, { name: "Sign up", description: null, fields: [] });
    const filter = { formId, from: Date.UTC(2026, 0, 1), to: null, email: "alpha" };
    const formRun = await cm.as.mutation(api.formSubmissions.startExport, filter);
    await cm.as.query(api.formSubmissions.exportPage, { ...filter, exportId: formRun, before: null });
    await expect(
      cm.as.query(api.formSubmissions.exportPage, { ...filter, email: "", exportId: formRun, before: null }),
    ).rejects.toThrow(/not the one/);
    wrote = await written(t, f.orgId, () => cm.as.mutation(api.exports.finish, { exportId: formRun, rows: 2 }));
    expect(wrote).toHaveLength(1);
    expect(wrote[0]).toMatchObject({ action: "export", target: { table: "forms", id: formId } });
    expect(wrote[0].summary).toBe(
      "Exported submissions of form “Sign up” as CSV (from 2026-01-01, email containing “alpha”): 2 rows.",
    );

    const petitionId = await cm.as.mutation(api.petitions.create, {
      name: "Ballot access",
      signaturesNeeded: 100,
      deadline: null,
      state: null,
      county: null,
      mode: "full",
    });
    const petitionRun = await cm.as.mutation(api.petitions.startExport, { petitionId });
    const p = await cm.as.query(api.petitions.exportPage, {
      exportId: petitionRun,
      petitionId,
      paginationOpts: { numItems: 100, cursor: null },
    });
    expect(p.page).toEqual([]);
    // a run of another kind does not serve these pages
    await expect(
      cm.as.query(api.petitions.exportPage, {
        exportId: surveyRun,
        petitionId,
        paginationOpts: { numItems: 100, cursor: null },
      }),
    ).rejects.toThrow(/not started by you/);
    wrote = await written(t, f.orgId, () => cm.as.mutation(api.exports.finish, { exportId: petitionRun, rows: 1 }));
    expect(wrote).toHaveLength(1);
    expect(wrote[0].summary).toBe("Exported lines of petition “Ballot access” as CSV (all lines): 1 row.");
  });

  test("denied callers cannot start an export: wrong role, other organisation, signed out", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    const surveyId = await f.campaign_manager.as.mutation(api.surveys.create, {
      name: "Intake",
      description: null,
      recipient: null,
    });
    // voters.export: not volunteers, viewers or account admins alone
    for (const who of [f.volunteer, f.viewer, f.account_admin])
      await expect(who.as.mutation(api.voters.startExport, { format: "csv" })).rejects.toThrow(/permission/);
    await expect(t.mutation(api.voters.startExport, { format: "csv" })).rejects.toThrow(/log in/);
    await expect(t.mutation(api.surveySubmissions.startExport, { surveyId })).rejects.toThrow(/log in/);
    await expect(
      t.mutation(api.formSubmissions.startExport, { formId: null, from: null, to: null, email: "" }),
    ).rejects.toThrow(/log in/);
    const managersRun = await f.campaign_manager.as.mutation(api.surveySubmissions.startExport, { surveyId });
    await expect(t.mutation(api.exports.finish, { exportId: managersRun, rows: 1 })).rejects.toThrow(/log in/);
    await expect(
      t.query(api.surveySubmissions.exportPage, { exportId: managersRun, surveyId, before: null }),
    ).rejects.toThrow(/log in/);
    // another organisation's survey is not found; its runs are its own
    await expect(f.outsider.as.mutation(api.surveySubmissions.startExport, { surveyId })).rejects.toThrow(
      /could not be found/,
    );
    // the others take the permission their pages take: account admins hold none of them
    const petitionId = await f.campaign_manager.as.mutation(api.petitions.create, {
      name: "Ballot access",
      signaturesNeeded: 100,
      deadline: null,
      state: null,
      county: null,
      mode: "full",
    });
    await expect(f.account_admin.as.mutation(api.surveySubmissions.startExport, { surveyId })).rejects.toThrow(
      /permission/,
    );
    await expect(f.volunteer.as.mutation(api.surveySubmissions.startExport, { surveyId })).rejects.toThrow(
      /permission/,
    );
    await expect(
      f.account_admin.as.mutation(api.formSubmissions.startExport, { formId: null, from: null, to: null, email: "" }),
    ).rejects.toThrow(/permission/);
    await expect(f.account_admin.as.mutation(api.petitions.startExport, { petitionId })).rejects.toThrow(/permission/);
    await expect(t.mutation(api.petitions.startExport, { petitionId })).rejects.toThrow(/log in/);
    await expect(f.outsider.as.mutation(api.petitions.startExport, { petitionId })).rejects.toThrow(
      /could not be found/,
    );
    // nothing was recorded by the refused calls: the manager's run is the only one
    expect(await t.run(async (ctx) => (await ctx.db.query("exportRuns").collect()).map((r) => r._id))).toEqual([
      managersRun,
    ]);
  });
});

describe("voter-file use: attested imports, restricted exports", () => {
  test("the state table lists all 50 states and DC, each with its restriction", () => {
    expect(STATE_FILE_USE).toHaveLength(51);
    expect(new Set(STATE_FILE_USE.map((s) => s.code)).size).toBe(51);
    expect(STATE_FILE_USE.map((s) => s.code)).toContain("DC");
    for (const s of STATE_FILE_USE) {
      expect(s.code).toMatch(/^[A-Z]{2}$/);
      expect(s.use.length).toBeGreaterThan(20);
    }
    expect(STATE_FILE_USE.filter((s) => s.crime).length).toBeGreaterThan(3);
  });

  test("an import stores the attested state and use; its entry states them; it is refused without", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    const cm = f.campaign_manager;
    await expect(cm.as.mutation(api.imports.start, importArgs({ ...ATTESTED, attested: false }))).rejects.toThrow(
      /Confirm that this voter file will be used only as its state permits/,
    );
    await expect(cm.as.mutation(api.imports.start, importArgs({ ...ATTESTED, state: "ZZ" }))).rejects.toThrow(
      /Choose the state/,
    );
    await expect(
      cm.as.mutation(api.imports.start, importArgs({ ...ATTESTED, use: "other", useOther: "  " })),
    ).rejects.toThrow(/Describe the permitted use/);
    await expect(
      cm.as.mutation(api.imports.start, importArgs({ ...ATTESTED, use: "other", useOther: "x".repeat(201) })),
    ).rejects.toThrow(/too long/);
    await expect(cm.as.mutation(api.imports.start, importArgs({ ...ATTESTED, use: "resale" }))).rejects.toThrow();
    await expect(
      cm.as.mutation(api.imports.start, { ...importArgs(ATTESTED), attestation: undefined as never }),
    ).rejects.toThrow();
    expect(await t.run(async (ctx) => (await ctx.db.query("importHistory").collect()).length)).toBe(0);

    const importId = await cm.as.mutation(
      api.imports.start,
      importArgs({ state: "ca", use: "other", useOther: " Voter registration drive ", attested: true }),
    );
    const doc = await t.run((ctx) => ctx.db.get("importHistory", importId));
    expect(doc!.attestation).toMatchObject({ state: "CA", use: "other", useOther: "Voter registration drive" });
    await cm.as.mutation(api.imports.appendBatch, {
      importId,
      startRow: 1,
      rows: [{ row: 1, fields: { first_name: "Ann", last_name: "Lee" } }],
    });
    const wrote = await written(t, f.orgId, () =>
      cm.as.mutation(api.imports.finish, { importId, totalRecords: 1, columnStats: [] }),
    );
    expect(wrote).toHaveLength(1);
    expect(wrote[0].summary).toContain(
      "Voter file from California; permitted use attested: Other: Voter registration drive.",
    );
  });

  test("the voter export shows and records the attested states (deleted imports left out)", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    const cm = f.campaign_manager;
    expect(await cm.as.query(api.voters.exportStates, {})).toEqual([]);
    await cm.as.mutation(api.imports.start, importArgs({ ...ATTESTED, state: "TX" }));
    await cm.as.mutation(api.imports.start, importArgs(ATTESTED));
    const gone = await cm.as.mutation(api.imports.start, importArgs({ ...ATTESTED, state: "OH" }));
    await t.run((ctx) => ctx.db.patch("importHistory", gone, { status: "deleted" }));
    expect(await cm.as.query(api.voters.exportStates, {})).toEqual(["NC", "TX"]);
    await expect(f.viewer.as.query(api.voters.exportStates, {})).rejects.toThrow(/permission/);
    expect(await f.outsider.as.query(api.voters.exportStates, {})).toEqual([]);

    const exportId = await cm.as.mutation(api.voters.startExport, { format: "csv" });
    const wrote = await written(t, f.orgId, () => cm.as.mutation(api.exports.finish, { exportId, rows: 0 }));
    expect(wrote).toHaveLength(1);
    expect(wrote[0].summary).toBe(
      "Exported the voter file as CSV (all voters): 0 rows. Voter-file use restricted by North Carolina, Texas.",
    );
  });

  test("the wizard's default state is the organisation's, when its address names one", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    expect(await f.campaign_manager.as.query(api.imports.defaultState, {})).toBeNull();
    await t.run((ctx) =>
      ctx.db.patch("organizations", f.orgId, {
        address: {
          street: "1 Main St",
          city: "Raleigh",
          state: "North Carolina",
          zipCode: "27601",
          country: "United States",
        },
      }),
    );
    expect(await f.campaign_manager.as.query(api.imports.defaultState, {})).toBe("NC");
    await expect(f.viewer.as.query(api.imports.defaultState, {})).rejects.toThrow(/permission/);
  });
});
