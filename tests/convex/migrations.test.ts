/** Operator migrations: the voter tally rebuilt from the voters themselves. */
import { expect, test } from "vitest";
import { internal } from "../../convex/_generated/api";
import { createMember, setupTest } from "./setup";

test("recountVoterTally rebuilds each organisation's tally from its voters, replacing stale rows", async () => {
  const t = setupTest();
  const a = await createMember(t, ["campaign_manager"]);
  const b = await createMember(t, ["campaign_manager"]);
  await t.run(async (ctx) => {
    const base = { searchText: "x", firstNameLower: "x", lastNameLower: "y", first_name: "X", last_name: "Y", updatedAt: 0 };
    // voters stored before the tally existed (written directly, as older releases left them)
    for (let i = 0; i < 2500; i++) await ctx.db.insert("voters", { ...base, orgId: a.orgId, party_affiliation: i % 5 === 0 ? "Green Party" : "Democrat", status: i % 2 ? "Active" : undefined });
    await ctx.db.insert("voters", { ...base, orgId: b.orgId, status: "Pending" });
    await ctx.db.insert("voterTally", { orgId: a.orgId, party: "Republican", status: "Active", count: 99 });
  });
  await t.mutation(internal.migrations.recountVoterTally, {});
  await t.finishAllScheduledFunctions(() => {});
  const tally = await t.run(async (ctx) => ctx.db.query("voterTally").collect());
  const of = (orgId: string) => Object.fromEntries(tally.filter((r) => r.orgId === orgId).map((r) => [`${r.party}/${r.status}`, r.count]));
  expect(of(a.orgId)).toEqual({ "Democrat/Active": 1000, "Democrat/": 1000, "Green Party/Active": 250, "Green Party/": 250 });
  expect(of(b.orgId)).toEqual({ "/Pending": 1 });
});
