/**
 * A re-import where every row updates its voter reads more per row than a new voter does (the
 * voter's districts row, place, door and name keys): a full batch of 1,000 such rows passes
 * Convex's 4,096 index ranges a transaction. The server refuses it whole, storing nothing, and
 * smaller batches pass; the client's runner sends a refused batch again in halves
 * (tests/lib/import/runner.test.ts). On the embedded backend (vitest project convex-local) the
 * limit is Convex's; the convex-test fake counts no reads, and there the full batch passes.
 * A batch's lookups are planned before any work (lib/import/rows.ts plannedLookups), and one
 * planned past BATCH_LOOKUP_BUDGET is refused at once.
 */
import { expect, test } from "vitest";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { BATCH_LOOKUP_BUDGET, plannedLookups } from "@convex/lib/import/rows";
import { MAX_BATCH_ROWS } from "@convex/model/imports";
import { batchRefusal } from "@/lib/import/batchSizer";
import { createMember, setupTest, type Member } from "./setup";

const N = 1_000;
const COLUMNS = ["voter_id", "first_name", "last_name", "address", "zip", "status", "party_affiliation"];

const rowsOf = (changed: boolean, from = 0, to = N) =>
  Array.from({ length: to - from }, (_, k) => {
    const i = from + k;
    return {
      row: i + 1,
      line: i + 2,
      fields: {
        voter_id: `NC${100000 + i}`,
        first_name: `First${i}`,
        last_name: changed ? `Other${i}` : `Last${i}`,
        address: `${100 + i} Main St`,
        zip: "27701",
        status: changed ? "Inactive" : "Active",
        party_affiliation: changed ? "Republican" : "Democrat",
      } as never,
    };
  });

async function start(m: Member, updateExisting: boolean): Promise<Id<"importHistory">> {
  return await m.as.mutation(api.imports.start, {
    filename: "state.csv",
    totalRecords: N,
    bytesTotal: 1000,
    fieldMapping: COLUMNS.map((c) => ({ column: c, target: c })),
    newFields: [],
    fieldDetails: [],
    errorMode: "ignore",
    matchRule: "standard",
    updateExisting,
    attestation: { state: "NC", use: "campaign", useOther: null, attested: true },
  });
}

test("a batch where every row updates its voter can pass Convex's reads: refused whole, and its halves pass", async () => {
  const t = setupTest();
  const m = await createMember(t, ["campaign_manager"]);
  const first = await start(m, false);
  expect(
    await m.as.mutation(api.imports.appendBatch, { importId: first, startRow: 1, rows: rowsOf(false) }),
  ).toMatchObject({ imported: N });
  // the organisation keeps name keys, and its voters were placed on the map
  await t.run(async (ctx) => {
    await ctx.db.insert("voterNameKeyState", { orgId: m.orgId, backfilled: true, cursor: null });
    const voters = await ctx.db
      .query("voters")
      .withIndex("by_org", (q) => q.eq("orgId", m.orgId))
      .collect();
    for (const v of voters)
      await ctx.db.insert("voterPlaces", {
        orgId: m.orgId,
        voterId: v._id,
        address: `${v.address}, Durham, NC 27701`,
        quality: "exact range",
        lat: 36,
        lng: -78.9,
        layerId: null,
        at: Date.now(),
        voterAt: v._creationTime,
      });
  });

  const again = await start(m, true);
  const whole = m.as.mutation(api.imports.appendBatch, { importId: again, startRow: 1, rows: rowsOf(true) });
  // the embedded backend (it has setEnv) holds transactions to Convex's limits; convex-test does not
  if ("setEnv" in t) {
    const error = await whole.then(
      () => null,
      (e: Error) => e,
    );
    expect(error?.message).toMatch(/Too many reads in a single function execution \(limit: 4096\)/);
    // the runner's signal to send it again in halves
    expect(batchRefusal(error)).toBe("limit");
    // nothing of it was stored
    expect(await m.as.query(api.imports.get, { importId: again })).toMatchObject({ processed_records: 0 });
    for (const [from, to] of [
      [0, N / 2],
      [N / 2, N],
    ])
      await m.as.mutation(api.imports.appendBatch, {
        importId: again,
        startRow: from + 1,
        rows: rowsOf(true, from, to),
      });
  } else await whole;
  expect(await m.as.query(api.imports.get, { importId: again })).toMatchObject({
    processed_records: N,
    imported_records: 0,
    updated_records: N,
    failed_records: 0,
  });
  const moved = await t.run(async (ctx) =>
    ctx.db
      .query("voters")
      .withIndex("by_org_voterid", (q) => q.eq("orgId", m.orgId).eq("voter_id", "NC100999"))
      .unique(),
  );
  expect(moved).toMatchObject({ last_name: "Other999", status: "Inactive", party_affiliation: "Republican" });
});

/** A row matched by its name keys alone (no voter ID, no email): three index ranges. */
const nameKeyRows = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    row: i + 1,
    line: i + 2,
    fields: {
      first_name: `First${i}`,
      last_name: `Last${i}`,
      date_of_birth: "1970-01-01",
      zip: "27701",
      address: `${100 + i} Main St`,
    } as never,
  }));

test("a batch's planned lookups: past the budget it is refused before any work, at the budget it fits Convex's limits", async () => {
  const t = setupTest();
  const m = await createMember(t, ["campaign_manager"]);
  const id = await start(m, false);
  const perRow = plannedLookups(nameKeyRows(1)[0].fields, "standard", false);
  expect(perRow).toBe(3);
  const fits = Math.floor(BATCH_LOOKUP_BUDGET / perRow);
  await expect(
    m.as.mutation(api.imports.appendBatch, { importId: id, startRow: 1, rows: nameKeyRows(MAX_BATCH_ROWS + 1) }),
  ).rejects.toThrow(`At most ${MAX_BATCH_ROWS} rows per batch.`);
  const over = m.as.mutation(api.imports.appendBatch, { importId: id, startRow: 1, rows: nameKeyRows(fits + 1) });
  await expect(over).rejects.toThrow(
    `This batch would look up ${((fits + 1) * 3).toLocaleString("en-US")} voters; one batch may look up 3,000. Send fewer rows at a time.`,
  );
  expect(await m.as.query(api.imports.get, { importId: id })).toMatchObject({ processed_records: 0 });
  // every lookup reads an index range (none of these voters exists): within 4,096 on the embedded backend
  expect(
    await m.as.mutation(api.imports.appendBatch, { importId: id, startRow: 1, rows: nameKeyRows(fits) }),
  ).toMatchObject({ processed: fits, imported: fits });
});

test("plannedLookups: what each rule reads for a row", () => {
  const f = (o: Record<string, string>) => ({ first_name: "A", last_name: "B", ...o });
  expect(plannedLookups(f({ voter_id: " NC1 " }), "standard", false)).toBe(1);
  expect(plannedLookups(f({ email: "a@b.org", zip: "27701" }), "standard", false)).toBe(1);
  expect(plannedLookups(f({ zip: "27701", address: "1 Main" }), "standard", false)).toBe(2);
  expect(plannedLookups(f({ zip: "  " }), "standard", false)).toBe(0);
  expect(plannedLookups(f({}), "name", false)).toBe(1);
  expect(plannedLookups(f({ voter_id: "NC1" }), "standard", true)).toBe(2);
  expect(plannedLookups(f({}), "standard", true)).toBe(0);
});
