/**
 * A re-import where every row updates its voter reads more per row than a new voter does (the
 * voter's districts row, place, door and name keys): a full batch of 1,000 such rows passes
 * Convex's 4,096 index ranges a transaction. The server refuses it whole, storing nothing, and
 * smaller batches pass; the client's runner sends a refused batch again in halves
 * (tests/lib/import/runner.test.ts). On the embedded backend (vitest project convex-local) the
 * limit is Convex's; the convex-test fake counts no reads, and there the full batch passes.
 */
import { expect, test } from "vitest";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
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
