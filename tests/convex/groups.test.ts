import { describe, expect, test } from "vitest";
import { api, internal } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { SEARCH_RESULT_LIMIT } from "@convex/model/voterSearch";
import { roleFixture, setupTest, type TestConvex } from "./setup";

const ROLES = ["super_admin", "account_admin", "campaign_manager", "volunteer", "viewer"] as const;
const CAN_VIEW = new Set(["super_admin", "campaign_manager", "volunteer", "viewer"]);
const CAN_UPDATE = new Set(["super_admin", "campaign_manager", "volunteer"]);
const CAN_MANAGE = new Set(["super_admin", "campaign_manager"]);
const page = { paginationOpts: { numItems: 50, cursor: null } };

async function fixture() {
  const t = setupTest();
  const f = await roleFixture(t);
  const cm = f.campaign_manager.as;
  const voterIds: Id<"voters">[] = [];
  for (const [first, party] of [
    ["Ada", "Democrat"],
    ["Grace", "Republican"],
    ["Alan", "Democrat"],
  ] as const) {
    voterIds.push(
      await cm.mutation(api.voters.create, {
        fields: { first_name: first, last_name: "Test", party_affiliation: party },
      }),
    );
  }
  const groupId = await cm.mutation(api.groups.create, { name: "  Canvassers ", description: "" });
  return { t, f, voterIds, groupId };
}

async function memberCount(t: TestConvex, groupId: Id<"voterGroups">) {
  return await t.run(async (ctx) => {
    const rows = await ctx.db
      .query("voterGroupMembers")
      .withIndex("by_group", (q) => q.eq("groupId", groupId))
      .collect();
    const g = await ctx.db.get("voterGroups", groupId);
    return { rows: rows.length, stored: g?.memberCount };
  });
}

describe("groups.list / members (voters.view)", () => {
  test.each(ROLES)("%s", async (role) => {
    const { f, groupId, voterIds } = await fixture();
    await f.campaign_manager.as.mutation(api.groups.addMember, { groupId, voterId: voterIds[0] });
    const as = f[role].as;
    if (CAN_VIEW.has(role)) {
      expect(await as.query(api.groups.list, {})).toMatchObject([
        { name: "Canvassers", description: null, memberCount: 1 },
      ]);
      expect((await as.query(api.groups.members, { groupId, ...page })).page).toMatchObject([
        { voterId: voterIds[0], first_name: "Ada" },
      ]);
    } else {
      await expect(as.query(api.groups.list, {})).rejects.toThrow(/permission/);
      await expect(as.query(api.groups.members, { groupId, ...page })).rejects.toThrow(/permission/);
    }
  });
  test("other organisation and signed out", async () => {
    const { t, f, groupId, voterIds } = await fixture();
    await f.campaign_manager.as.mutation(api.groups.addMember, { groupId, voterId: voterIds[0] });
    expect(await f.outsider.as.query(api.groups.list, {})).toEqual([]);
    expect((await f.outsider.as.query(api.groups.members, { groupId, ...page })).page).toEqual([]);
    await expect(t.query(api.groups.list, {})).rejects.toThrow(/log in/);
    await expect(f.viewer.as.query(api.groups.members, { groupId: "x" as never, ...page })).rejects.toThrow();
  });
});

describe("groups.create / update / remove (voters.manage)", () => {
  test.each(ROLES)("%s", async (role) => {
    const { t, f, groupId, voterIds } = await fixture();
    const as = f[role].as;
    const create = as.mutation(api.groups.create, { name: "Donors", description: "Big" });
    const update = as.mutation(api.groups.update, {
      id: groupId,
      edits: [
        { field: "name", base: "Canvassers", value: "Walkers" },
        { field: "description", base: null, value: "Door knockers" },
      ],
    });
    if (CAN_MANAGE.has(role)) {
      await create;
      await update;
      expect((await f.viewer.as.query(api.groups.list, {})).map((g) => [g.name, g.description])).toEqual([
        ["Donors", "Big"],
        ["Walkers", "Door knockers"],
      ]);
      await f.campaign_manager.as.mutation(api.groups.addMember, { groupId, voterId: voterIds[0] });
      const campaignId = await t.run((ctx) =>
        ctx.db.insert("campaigns", {
          orgId: f.orgId,
          name: "C",
          description: null,
          campaign_type: "sms",
          status: "draft",
          updatedAt: 0,
        }),
      );
      await t.run((ctx) => ctx.db.insert("campaignTargets", { orgId: f.orgId, campaignId, groupId }));
      await as.mutation(api.groups.remove, { id: groupId });
      expect((await f.viewer.as.query(api.groups.list, {})).map((g) => g.name)).toEqual(["Donors"]);
      const left = await t.run(async (ctx) => ({
        members: (
          await ctx.db
            .query("voterGroupMembers")
            .withIndex("by_group", (q) => q.eq("groupId", groupId))
            .collect()
        ).length,
        targets: (
          await ctx.db
            .query("campaignTargets")
            .withIndex("by_group", (q) => q.eq("groupId", groupId))
            .collect()
        ).length,
        counter: (
          await ctx.db
            .query("orgCounters")
            .withIndex("by_org_name", (q) => q.eq("orgId", f.orgId).eq("name", "voterGroups"))
            .unique()
        )?.value,
      }));
      expect(left).toEqual({ members: 0, targets: 0, counter: 1 });
      expect(await f.viewer.as.query(api.voters.groupsOf, { voterId: voterIds[0] })).toEqual([]);
    } else {
      await expect(create).rejects.toThrow(/permission/);
      await expect(update).rejects.toThrow(/permission/);
      await expect(as.mutation(api.groups.remove, { id: groupId })).rejects.toThrow(/permission/);
      expect((await f.campaign_manager.as.query(api.groups.list, {})).map((g) => g.name)).toEqual(["Canvassers"]);
    }
  });
  test("name required, other organisation, signed out", async () => {
    const { t, f, groupId } = await fixture();
    await expect(f.campaign_manager.as.mutation(api.groups.create, { name: "   " })).rejects.toThrow(
      /Please enter a group name/,
    );
    await expect(
      f.campaign_manager.as.mutation(api.groups.update, {
        id: groupId,
        edits: [{ field: "name", base: "Canvassers", value: "" }],
      }),
    ).rejects.toThrow(/Please enter a group name/);
    await expect(
      f.outsider.as.mutation(api.groups.update, {
        id: groupId,
        edits: [{ field: "name", base: "Canvassers", value: "Mine" }],
      }),
    ).rejects.toThrow(/could not be found/);
    await expect(f.outsider.as.mutation(api.groups.remove, { id: groupId })).rejects.toThrow(/could not be found/);
    await expect(t.mutation(api.groups.create, { name: "X" })).rejects.toThrow(/log in/);
  });
});

describe("groups membership (voters.update)", () => {
  test.each(ROLES)("%s", async (role) => {
    const { t, f, groupId, voterIds } = await fixture();
    const as = f[role].as;
    if (CAN_UPDATE.has(role)) {
      expect(await as.mutation(api.groups.addMember, { groupId, voterId: voterIds[0] })).toEqual({ status: "added" });
      expect(await as.mutation(api.groups.addMember, { groupId, voterId: voterIds[0] })).toEqual({
        status: "duplicate",
      });
      expect(
        await as.mutation(api.groups.addMembers, { groupId, voterIds: [voterIds[0], voterIds[1], voterIds[1]] }),
      ).toEqual({ added: 1, duplicates: 2, failed: 0 });
      expect(await memberCount(t, groupId)).toEqual({ rows: 2, stored: 2 });
      await as.mutation(api.groups.removeMember, { groupId, voterId: voterIds[0] });
      expect(await memberCount(t, groupId)).toEqual({ rows: 1, stored: 1 });
      const r = await as.mutation(api.groups.addMatching, { groupId, party: "Democrat", cursor: null, numItems: 1 });
      expect(r).toMatchObject({ added: 1, duplicates: 0, processed: 1, isDone: false });
      expect(await memberCount(t, groupId)).toEqual({ rows: 2, stored: 2 });
    } else {
      await expect(as.mutation(api.groups.addMember, { groupId, voterId: voterIds[0] })).rejects.toThrow(/permission/);
      await expect(as.mutation(api.groups.addMembers, { groupId, voterIds })).rejects.toThrow(/permission/);
      await expect(as.mutation(api.groups.addMatching, { groupId, cursor: null })).rejects.toThrow(/permission/);
      await f.campaign_manager.as.mutation(api.groups.addMember, { groupId, voterId: voterIds[0] });
      await expect(as.mutation(api.groups.removeMember, { groupId, voterId: voterIds[0] })).rejects.toThrow(
        /permission/,
      );
      expect(await memberCount(t, groupId)).toEqual({ rows: 1, stored: 1 });
    }
  });

  test("addMatching pages through the whole filter with duplicates skipped and counted", async () => {
    const { t, f, groupId, voterIds } = await fixture();
    const as = f.campaign_manager.as;
    await as.mutation(api.groups.addMember, { groupId, voterId: voterIds[1] });
    let cursor: string | null = null;
    let added = 0,
      duplicates = 0,
      processed = 0,
      calls = 0;
    for (;;) {
      const r: { added: number; duplicates: number; processed: number; isDone: boolean; continueCursor: string } =
        await as.mutation(api.groups.addMatching, { groupId, cursor, numItems: 2 });
      added += r.added;
      duplicates += r.duplicates;
      processed += r.processed;
      calls += 1;
      if (r.isDone) break;
      cursor = r.continueCursor;
    }
    expect({ added, duplicates, processed }).toEqual({ added: 2, duplicates: 1, processed: 3 });
    expect(calls).toBeGreaterThan(1);
    expect(await memberCount(t, groupId)).toEqual({ rows: 3, stored: 3 });
    const searched = await as.mutation(api.groups.addMatching, { groupId, search: "grace", cursor: null });
    expect(searched).toMatchObject({ added: 0, duplicates: 1 });
  });

  test("addMatching with a search reaches every match past Convex's 1,024 search results; so does the export", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    const n = SEARCH_RESULT_LIMIT + 76;
    const smiths = Array.from({ length: n }, (_, i) => ({
      first_name: `Person${i}`,
      last_name: "Smith",
      party_affiliation: i % 2 ? "Democrat" : "Republican",
    }));
    const others = Array.from({ length: 30 }, (_, i) => ({
      first_name: `Other${i}`,
      last_name: "Jones",
      party_affiliation: "Democrat",
    }));
    const ids: Id<"voters">[] = [];
    for (const batch of [smiths.slice(0, 550), smiths.slice(550), others])
      ids.push(...(await t.mutation(internal.seed.insertVoters, { orgId: f.orgId, voters: batch })));
    const cm = f.campaign_manager.as;
    const groupId = await cm.mutation(api.groups.create, { name: "Smiths" });
    await cm.mutation(api.groups.addMember, { groupId, voterId: ids[0] });
    const addAll = async (filter: { search?: string; party?: string }) => {
      let cursor: string | null = null;
      const sum = { added: 0, duplicates: 0, processed: 0, calls: 0 };
      for (;;) {
        const r: { added: number; duplicates: number; processed: number; isDone: boolean; continueCursor: string } =
          await cm.mutation(api.groups.addMatching, { groupId, ...filter, cursor, numItems: 500 });
        sum.added += r.added;
        sum.duplicates += r.duplicates;
        sum.processed += r.processed;
        sum.calls += 1;
        if (r.isDone) return sum;
        cursor = r.continueCursor;
      }
    };
    const all = await addAll({ search: "smith" });
    expect({ added: all.added, duplicates: all.duplicates, processed: all.processed }).toEqual({
      added: n - 1,
      duplicates: 1,
      processed: n,
    });
    expect(await memberCount(t, groupId)).toEqual({ rows: n, stored: n });
    // a search with a filter field, and one within the search's limit (answered in one call)
    const g2 = await cm.mutation(api.groups.create, { name: "Democrats named Jones or Smith" });
    let cursor: string | null = null;
    let added = 0;
    for (;;) {
      const r: { added: number; isDone: boolean; continueCursor: string } = await cm.mutation(api.groups.addMatching, {
        groupId: g2,
        search: "smith",
        party: "Democrat",
        cursor,
        numItems: 500,
      });
      added += r.added;
      if (r.isDone) break;
      cursor = r.continueCursor;
    }
    expect(added).toBe(n / 2);
    expect(
      await cm.mutation(api.groups.addMatching, { groupId: g2, search: "jones", cursor: null, numItems: 500 }),
    ).toMatchObject({ added: 30, processed: 30, isDone: true });
    // the export of a search pages through every match as well, each once
    const exported = new Set<string>();
    let exportCursor: string | null = null;
    const exportId = await cm.mutation(api.voters.startExport, { search: "smith", format: "csv" });
    for (;;) {
      const r: { page: { _id: string; last_name: string }[]; isDone: boolean; continueCursor: string } = await cm.query(
        api.voters.exportPage,
        { exportId, search: "smith", paginationOpts: { numItems: 1000, cursor: exportCursor } },
      );
      for (const v of r.page) {
        expect(v.last_name).toBe("Smith");
        exported.add(v._id);
      }
      if (r.isDone) break;
      exportCursor = r.continueCursor;
    }
    expect(exported.size).toBe(n);
  }, 240_000);

  test("other organisation, signed out, bad input", async () => {
    const { t, f, groupId, voterIds } = await fixture();
    const outsiderVoter = await f.outsider.as.mutation(api.voters.create, {
      fields: { first_name: "O", last_name: "S" },
    });
    await expect(f.outsider.as.mutation(api.groups.addMember, { groupId, voterId: outsiderVoter })).rejects.toThrow(
      /could not be found/,
    );
    await expect(
      f.campaign_manager.as.mutation(api.groups.addMember, { groupId, voterId: outsiderVoter }),
    ).rejects.toThrow(/could not be found/);
    expect(await f.campaign_manager.as.mutation(api.groups.addMembers, { groupId, voterIds: [outsiderVoter] })).toEqual(
      { added: 0, duplicates: 0, failed: 1 },
    );
    await expect(f.outsider.as.mutation(api.groups.addMatching, { groupId, cursor: null })).rejects.toThrow(
      /could not be found/,
    );
    await expect(f.outsider.as.mutation(api.groups.removeMember, { groupId, voterId: voterIds[0] })).rejects.toThrow(
      /could not be found/,
    );
    await expect(t.mutation(api.groups.addMember, { groupId, voterId: voterIds[0] })).rejects.toThrow(/log in/);
    await expect(f.campaign_manager.as.mutation(api.groups.addMembers, { groupId, voterIds: [] })).rejects.toThrow(
      /select at least one voter/,
    );
    await expect(
      f.campaign_manager.as.mutation(api.groups.removeMember, { groupId, voterId: voterIds[0] }),
    ).rejects.toThrow(/could not be found/);
    expect(await memberCount(t, groupId)).toEqual({ rows: 0, stored: 0 });
  });
});
