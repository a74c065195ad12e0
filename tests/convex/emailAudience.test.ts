/**
 * Email lists and segments on both backends (issue 15): who may read and change them, the three
 * default lists, contacts (only voters with an email, no duplicates, counts kept), adding a group
 * through a chain of steps, segment refreshes over hundreds of voters (several steps, the latest
 * rules win, old generations deleted), edits merged or refused naming the teammate, deletions.
 */
import { ConvexError } from "convex/values";
import { describe, expect, test } from "vitest";
import { api, internal } from "@convex/_generated/api";
import type { Doc, Id } from "@convex/_generated/dataModel";
import { roleFixture, setupTest, type TestConvex } from "./setup";

const ROLES = ["super_admin", "account_admin", "campaign_manager", "volunteer", "viewer"] as const;
const CAN_VIEW = new Set(["super_admin", "campaign_manager", "viewer"]);
const CAN_MANAGE = new Set(["super_admin", "campaign_manager"]);
const page = { paginationOpts: { numItems: 50, cursor: null } };
const rulesText = (rules: { field: string; operator: string; value: string }[]) =>
  JSON.stringify(rules.map((r, i) => ({ id: `r${i}`, ...r })));
const DEMOCRATS = rulesText([{ field: "party", operator: "equals", value: "democrat" }]);

async function fixture() {
  const t = setupTest();
  const f = await roleFixture(t);
  const cm = f.campaign_manager.as;
  const mk = (first: string, email?: string, party?: string) =>
    cm.mutation(api.voters.create, {
      fields: {
        first_name: first,
        last_name: "Voter",
        ...(email ? { email } : {}),
        ...(party ? { party_affiliation: party } : {}),
      },
    });
  const voters = {
    ada: await mk("Ada", "Ada@Example.org", "Democrat"),
    bob: await mk("Bob", "bob@example.org", "Republican"),
    cy: await mk("Cy", "cy@example.org", "Democrat"),
    none: await mk("None", undefined, "Democrat"),
  };
  const groupId = await cm.mutation(api.groups.create, { name: "Canvassers" });
  await cm.mutation(api.groups.addMembers, { groupId, voterIds: Object.values(voters) });
  await cm.mutation(api.emailLists.ensureDefaults, {});
  const lists = await cm.query(api.emailLists.list, {});
  const newsletter = lists.find((l) => l.name === "Newsletter Subscribers")!.id;
  const allContacts = lists.find((l) => l.name === "All Contacts")!.id;
  return { t, f, cm, voters, groupId, newsletter, allContacts };
}

async function settle(t: TestConvex) {
  await t.finishAllScheduledFunctions(() => {}, 1000);
}

async function refusal(p: Promise<unknown>) {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(ConvexError);
    return (e as ConvexError<{ code: string; message: string; title?: string }>).data;
  }
  throw new Error("expected a refusal");
}

/** The list's stored count and its active contact rows. */
async function listState(t: TestConvex, listId: Id<"emailLists">) {
  return await t.run(async (ctx) => {
    const rows = await ctx.db
      .query("emailListContacts")
      .withIndex("by_list_status", (q) => q.eq("listId", listId).eq("status", "active"))
      .collect();
    const list = await ctx.db.get("emailLists", listId);
    return {
      count: list?.contactCount,
      rows: rows.length,
      voters: rows.map((r) => r.voterId).sort(),
      emails: rows.map((r) => r.email).sort(),
    };
  });
}

/** The segment and the voters of each member generation stored for it. */
async function segmentState(t: TestConvex, segmentId: Id<"emailSegments">) {
  return await t.run(async (ctx) => {
    const segment = await ctx.db.get("emailSegments", segmentId);
    const rows = await ctx.db
      .query("emailSegmentMembers")
      .withIndex("by_segment_gen", (q) => q.eq("segmentId", segmentId))
      .collect();
    const gens = [...new Set(rows.map((r) => r.gen))].sort();
    const current = rows
      .filter((r) => r.gen === segment?.gen)
      .map((r) => r.voterId as string)
      .sort();
    return { segment, gens, current, total: rows.length };
  });
}

/**
 * `n` voters written directly (the API adds one at a time): every third a Democrat, born 1950 +
 * i % 60 on 1 January, every fifth without an email.
 */
async function bulkVoters(t: TestConvex, orgId: Id<"organizations">, n: number) {
  return await t.run(async (ctx) => {
    const out: Doc<"voters">[] = [];
    for (let i = 0; i < n; i++) {
      const email = i % 5 === 0 ? undefined : `bulk${i}@example.org`;
      const doc = {
        orgId,
        first_name: `Bulk${i}`,
        last_name: "Voter",
        firstNameLower: `bulk${i}`,
        lastNameLower: "voter",
        searchText: `bulk${i} voter`,
        updatedAt: 0,
        party_affiliation: i % 3 === 0 ? "Democrat" : "Republican",
        date_of_birth: `${1950 + (i % 60)}-01-01`,
        ...(email ? { email, emailLower: email } : {}),
      };
      const id = await ctx.db.insert("voters", doc);
      out.push((await ctx.db.get("voters", id))!);
    }
    return out;
  });
}

describe("emailLists: reading (campaigns.view)", () => {
  test.each(ROLES)("%s", async (role) => {
    const { f, cm, voters, newsletter } = await fixture();
    await cm.mutation(api.emailLists.addVoters, { listId: newsletter, voterIds: [voters.ada] });
    const as = f[role].as;
    if (CAN_VIEW.has(role)) {
      expect(await as.query(api.emailLists.list, {})).toMatchObject([
        { name: "All Contacts", subscriptionType: "all_voters", isActive: true, contactCount: 4 },
        { name: "Event Attendees", subscriptionType: "manual", contactCount: 0 },
        {
          name: "Newsletter Subscribers",
          subscriptionType: "manual",
          contactCount: 1,
          description: "Voters who subscribed to the newsletter",
        },
      ]);
      expect((await as.query(api.emailLists.contacts, { listId: newsletter, ...page })).page).toEqual([
        { voterId: voters.ada, name: "Ada Voter", email: "Ada@Example.org" },
      ]);
    } else {
      await expect(as.query(api.emailLists.list, {})).rejects.toThrow(/permission/);
      await expect(as.query(api.emailLists.contacts, { listId: newsletter, ...page })).rejects.toThrow(/permission/);
    }
  });

  test("All Contacts lists the voters with an email; other organisations and signed-out callers see nothing", async () => {
    const { t, f, allContacts, newsletter } = await fixture();
    const all = await f.viewer.as.query(api.emailLists.contacts, { listId: allContacts, ...page });
    expect(all.page.map((c) => c.email)).toEqual(["Ada@Example.org", "bob@example.org", "cy@example.org"]);
    const first = await f.viewer.as.query(api.emailLists.contacts, {
      listId: allContacts,
      paginationOpts: { numItems: 2, cursor: null },
    });
    expect(first.page).toHaveLength(2);
    const second = await f.viewer.as.query(api.emailLists.contacts, {
      listId: allContacts,
      paginationOpts: { numItems: 2, cursor: first.continueCursor },
    });
    expect(second.page.map((c) => c.name)).toEqual(["Cy Voter"]);
    expect(await f.outsider.as.query(api.emailLists.list, {})).toEqual([]);
    expect((await f.outsider.as.query(api.emailLists.contacts, { listId: newsletter, ...page })).page).toEqual([]);
    expect((await f.outsider.as.query(api.emailLists.contacts, { listId: allContacts, ...page })).page).toEqual([]);
    await expect(t.query(api.emailLists.list, {})).rejects.toThrow(/log in/);
    await expect(t.query(api.emailLists.contacts, { listId: newsletter, ...page })).rejects.toThrow(/log in/);
  });
});

describe("emailLists: defaults, create, remove (campaigns.manage)", () => {
  test.each(ROLES)("%s", async (role) => {
    const t = setupTest();
    const f = await roleFixture(t);
    const as = f[role].as;
    const names = async () => (await t.run((ctx) => ctx.db.query("emailLists").collect())).map((l) => l.name).sort();
    if (CAN_MANAGE.has(role)) {
      await as.mutation(api.emailLists.ensureDefaults, {});
      await as.mutation(api.emailLists.ensureDefaults, {});
      await f.campaign_manager.as.mutation(api.emailLists.ensureDefaults, {});
      expect(await names()).toEqual(["All Contacts", "Event Attendees", "Newsletter Subscribers"]);
      const id = await as.mutation(api.emailLists.create, { name: "  Donors ", description: "  Big givers " });
      expect((await f.viewer.as.query(api.emailLists.list, {})).find((l) => l.id === id)).toEqual({
        id,
        name: "Donors",
        description: "Big givers",
        subscriptionType: "manual",
        isActive: true,
        contactCount: 0,
      });
      await as.mutation(api.emailLists.remove, { id });
      expect(await names()).toEqual(["All Contacts", "Event Attendees", "Newsletter Subscribers"]);
    } else {
      await expect(as.mutation(api.emailLists.ensureDefaults, {})).rejects.toThrow(/permission/);
      await expect(as.mutation(api.emailLists.create, { name: "Donors", description: null })).rejects.toThrow(
        /permission/,
      );
      await f.campaign_manager.as.mutation(api.emailLists.ensureDefaults, {});
      const id = (await f.campaign_manager.as.query(api.emailLists.list, {}))[1].id;
      await expect(as.mutation(api.emailLists.remove, { id })).rejects.toThrow(/permission/);
      expect(await names()).toHaveLength(3);
    }
  });

  test("defaults only when the organisation has no list; each organisation its own", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    await f.campaign_manager.as.mutation(api.emailLists.create, { name: "Mine", description: null });
    await f.campaign_manager.as.mutation(api.emailLists.ensureDefaults, {});
    expect((await f.viewer.as.query(api.emailLists.list, {})).map((l) => l.name)).toEqual(["Mine"]);
    await f.outsider.as.mutation(api.emailLists.ensureDefaults, {});
    expect((await f.outsider.as.query(api.emailLists.list, {})).map((l) => l.name)).toEqual([
      "All Contacts",
      "Event Attendees",
      "Newsletter Subscribers",
    ]);
    expect((await f.viewer.as.query(api.emailLists.list, {})).map((l) => l.name)).toEqual(["Mine"]);
    await expect(t.mutation(api.emailLists.ensureDefaults, {})).rejects.toThrow(/log in/);
  });

  test("names: required, at most 120 characters, unique ignoring case; descriptions at most 500; at most 100 lists", async () => {
    const { t, f, cm, allContacts, newsletter } = await fixture();
    expect(await refusal(cm.mutation(api.emailLists.create, { name: "  ", description: null }))).toMatchObject({
      title: "Name required",
      message: "Please enter a list name.",
    });
    expect(
      (await refusal(cm.mutation(api.emailLists.create, { name: "x".repeat(121), description: null }))).message,
    ).toBe("A list name is limited to 120 characters.");
    expect(
      (await refusal(cm.mutation(api.emailLists.create, { name: "Donors", description: "x".repeat(501) }))).message,
    ).toBe("A description is limited to 500 characters.");
    expect(
      await refusal(cm.mutation(api.emailLists.create, { name: "newsletter SUBSCRIBERS", description: null })),
    ).toMatchObject({
      code: "DUPLICATE_ERROR",
      message: 'A list named "newsletter SUBSCRIBERS" already exists. Please choose another name.',
    });
    // another organisation may use the name
    await f.outsider.as.mutation(api.emailLists.create, { name: "Newsletter Subscribers", description: null });
    await cm.mutation(api.emailLists.create, { name: "x".repeat(120), description: "x".repeat(500) });
    await t.run(async (ctx) => {
      for (let i = 0; i < 96; i++) {
        await ctx.db.insert("emailLists", {
          orgId: f.orgId,
          name: `L${i}`,
          description: null,
          subscriptionType: "manual",
          isActive: true,
          contactCount: 0,
          createdBy: f.creator.userId,
          createdAt: 0,
          updatedAt: 0,
        });
      }
    });
    expect((await refusal(cm.mutation(api.emailLists.create, { name: "One more", description: null }))).message).toBe(
      "An organization can have at most 100 lists. Delete one first.",
    );
    expect(await refusal(cm.mutation(api.emailLists.remove, { id: allContacts }))).toMatchObject({
      message: "The All Contacts list cannot be deleted.",
    });
    await expect(f.outsider.as.mutation(api.emailLists.remove, { id: newsletter })).rejects.toThrow(
      /could not be found/,
    );
    await expect(t.mutation(api.emailLists.remove, { id: newsletter })).rejects.toThrow(/log in/);
    await cm.mutation(api.emailLists.remove, { id: newsletter });
    await expect(cm.mutation(api.emailLists.remove, { id: newsletter })).rejects.toThrow(/could not be found/);
  });
});

describe("emailLists: contacts (campaigns.manage)", () => {
  test.each(ROLES)("%s", async (role) => {
    const { t, f, voters, newsletter, groupId } = await fixture();
    const as = f[role].as;
    if (CAN_MANAGE.has(role)) {
      expect(
        await as.mutation(api.emailLists.addVoters, {
          listId: newsletter,
          voterIds: [voters.ada, voters.none, voters.ada],
        }),
      ).toEqual({ added: 1, duplicates: 1, noEmail: 1 });
      expect(
        await as.mutation(api.emailLists.addVoters, { listId: newsletter, voterIds: [voters.ada, voters.bob] }),
      ).toEqual({ added: 1, duplicates: 1, noEmail: 0 });
      expect(await listState(t, newsletter)).toMatchObject({
        count: 2,
        rows: 2,
        emails: ["ada@example.org", "bob@example.org"],
      });
      await as.mutation(api.emailLists.addGroup, { listId: newsletter, groupId });
      await settle(t);
      expect(await listState(t, newsletter)).toMatchObject({
        count: 3,
        rows: 3,
        voters: [voters.ada, voters.bob, voters.cy].sort(),
      });
      await as.mutation(api.emailLists.removeContact, { listId: newsletter, voterId: voters.bob });
      expect(await listState(t, newsletter)).toMatchObject({ count: 2, rows: 2 });
      expect((await f.viewer.as.query(api.emailLists.list, {})).find((l) => l.id === newsletter)?.contactCount).toBe(2);
      // a removed contact comes back once
      expect(
        await as.mutation(api.emailLists.addVoters, { listId: newsletter, voterIds: [voters.bob, voters.bob] }),
      ).toEqual({ added: 1, duplicates: 1, noEmail: 0 });
      expect(await listState(t, newsletter)).toMatchObject({ count: 3, rows: 3 });
    } else {
      await expect(
        as.mutation(api.emailLists.addVoters, { listId: newsletter, voterIds: [voters.ada] }),
      ).rejects.toThrow(/permission/);
      await expect(as.mutation(api.emailLists.addGroup, { listId: newsletter, groupId })).rejects.toThrow(/permission/);
      await f.campaign_manager.as.mutation(api.emailLists.addVoters, { listId: newsletter, voterIds: [voters.ada] });
      await expect(
        as.mutation(api.emailLists.removeContact, { listId: newsletter, voterId: voters.ada }),
      ).rejects.toThrow(/permission/);
      expect(await listState(t, newsletter)).toMatchObject({ count: 1, rows: 1 });
    }
  });

  test("refusals: All Contacts takes no contacts, at most 500 voters a call, unknown contact; other organisations and signed out", async () => {
    const { t, f, cm, voters, newsletter, allContacts, groupId } = await fixture();
    expect(
      await refusal(cm.mutation(api.emailLists.addVoters, { listId: allContacts, voterIds: [voters.ada] })),
    ).toMatchObject({
      title: "Contacts cannot be added",
      message: "All Contacts already includes every voter with an email address.",
    });
    await expect(cm.mutation(api.emailLists.addGroup, { listId: allContacts, groupId })).rejects.toThrow(
      /already includes every voter/,
    );
    expect(
      await refusal(cm.mutation(api.emailLists.removeContact, { listId: allContacts, voterId: voters.ada })),
    ).toMatchObject({ title: "Contacts cannot be removed" });
    await expect(
      cm.mutation(api.emailLists.addVoters, { listId: newsletter, voterIds: Array(501).fill(voters.ada) }),
    ).rejects.toThrow(/At most 500 voters/);
    await expect(
      cm.mutation(api.emailLists.removeContact, { listId: newsletter, voterId: voters.ada }),
    ).rejects.toThrow(/could not be found/);
    // the outsider cannot touch the list, and its own list cannot take this organisation's voters or group
    const theirs = await f.outsider.as.mutation(api.emailLists.create, { name: "Theirs", description: null });
    await expect(
      f.outsider.as.mutation(api.emailLists.addVoters, { listId: newsletter, voterIds: [voters.ada] }),
    ).rejects.toThrow(/could not be found/);
    expect(
      await f.outsider.as.mutation(api.emailLists.addVoters, { listId: theirs, voterIds: [voters.ada, voters.bob] }),
    ).toEqual({ added: 0, duplicates: 0, noEmail: 0 });
    await expect(f.outsider.as.mutation(api.emailLists.addGroup, { listId: theirs, groupId })).rejects.toThrow(
      /could not be found/,
    );
    await expect(f.outsider.as.mutation(api.emailLists.addGroup, { listId: newsletter, groupId })).rejects.toThrow(
      /could not be found/,
    );
    await cm.mutation(api.emailLists.addVoters, { listId: newsletter, voterIds: [voters.ada] });
    await expect(
      f.outsider.as.mutation(api.emailLists.removeContact, { listId: newsletter, voterId: voters.ada }),
    ).rejects.toThrow(/could not be found/);
    await expect(t.mutation(api.emailLists.addVoters, { listId: newsletter, voterIds: [voters.ada] })).rejects.toThrow(
      /log in/,
    );
    await expect(t.mutation(api.emailLists.addGroup, { listId: newsletter, groupId })).rejects.toThrow(/log in/);
    await expect(t.mutation(api.emailLists.removeContact, { listId: newsletter, voterId: voters.ada })).rejects.toThrow(
      /log in/,
    );
    await settle(t);
    expect(await listState(t, newsletter)).toMatchObject({ count: 1, rows: 1 });
    expect(await listState(t, theirs)).toMatchObject({ count: 0, rows: 0 });
  });

  test("a large group is added in steps of 500 (only members with an email), and a deleted list's contacts go in batches", async () => {
    const { t, f, cm, newsletter, voters } = await fixture();
    const bulk = await bulkVoters(t, f.orgId, 1100);
    const groupId = await cm.mutation(api.groups.create, { name: "Everyone" });
    await t.run(async (ctx) => {
      for (const v of bulk) await ctx.db.insert("voterGroupMembers", { orgId: f.orgId, groupId, voterId: v._id });
      await ctx.db.patch("voterGroups", groupId, { memberCount: bulk.length });
    });
    await cm.mutation(api.emailLists.addVoters, { listId: newsletter, voterIds: [voters.ada, bulk[1]._id] });
    await cm.mutation(api.emailLists.addGroup, { listId: newsletter, groupId });
    // the first step ran in the call
    expect((await listState(t, newsletter)).rows).toBeGreaterThanOrEqual(400);
    await settle(t);
    const withEmail = bulk.filter((v) => v.emailLower).length;
    expect(withEmail).toBe(880);
    expect(await listState(t, newsletter)).toMatchObject({ count: withEmail + 1, rows: withEmail + 1 });
    await cm.mutation(api.emailLists.remove, { id: newsletter });
    await settle(t);
    const left = await t.run(
      async (ctx) =>
        await ctx.db
          .query("emailListContacts")
          .withIndex("by_list_status", (q) => q.eq("listId", newsletter))
          .collect(),
    );
    expect(left.length).toBe(0);
  });
});

describe("a deleted voter leaves the lists and segments it was on", () => {
  test("its contact rows and memberships go and the counts follow, also during a refresh", async () => {
    const { t, f, cm, voters, newsletter } = await fixture();
    await cm.mutation(api.emailLists.addVoters, { listId: newsletter, voterIds: [voters.ada, voters.bob, voters.cy] });
    await cm.mutation(api.emailLists.removeContact, { listId: newsletter, voterId: voters.cy });
    const democrats = await cm.mutation(api.emailSegments.create, {
      name: "Democrats",
      description: null,
      rules: DEMOCRATS,
    });
    await settle(t);
    expect(await listState(t, newsletter)).toMatchObject({ count: 2, rows: 2 });
    expect(await segmentState(t, democrats)).toMatchObject({
      current: [voters.ada, voters.cy].sort(),
      segment: { cachedCount: 2 },
    });

    await cm.mutation(api.voters.remove, { id: voters.ada });
    expect(await listState(t, newsletter)).toMatchObject({ count: 1, rows: 1, voters: [voters.bob] });
    expect(await segmentState(t, democrats)).toMatchObject({
      current: [voters.cy],
      total: 1,
      segment: { cachedCount: 1 },
    });
    // a removed contact's row goes too, without touching the count
    await cm.mutation(api.voters.remove, { id: voters.cy });
    expect(await listState(t, newsletter)).toMatchObject({ count: 1, rows: 1 });
    const rowsOf = (voterId: Id<"voters">) =>
      t.run(async (ctx) => ({
        contacts: (
          await ctx.db
            .query("emailListContacts")
            .withIndex("by_voter", (q) => q.eq("voterId", voterId))
            .collect()
        ).length,
        members: (
          await ctx.db
            .query("emailSegmentMembers")
            .withIndex("by_voter", (q) => q.eq("voterId", voterId))
            .collect()
        ).length,
      }));
    expect(await rowsOf(voters.ada)).toEqual({ contacts: 0, members: 0 });
    expect(await rowsOf(voters.cy)).toEqual({ contacts: 0, members: 0 });
    expect((await cm.query(api.emailSegments.list, {})).find((s) => s.id === democrats)).toMatchObject({
      cachedCount: 0,
    });

    // a voter deleted after a refresh's first step wrote it: the finished count leaves it out
    const bulk = await bulkVoters(t, f.orgId, 700);
    const everyone = await cm.mutation(api.emailSegments.create, { name: "Everyone", description: null, rules: "[]" });
    await settle(t);
    const gen = (await segmentState(t, everyone)).segment!.gen;
    await t.run((ctx) =>
      ctx.db.patch("emailSegments", everyone, { refreshing: true, refreshGen: gen + 1, refreshDropped: 0 }),
    );
    await t.mutation(internal.emailSegments.refreshStep, { segmentId: everyone, gen: gen + 1, cursor: null, count: 0 });
    const early = bulk.find((v) => v.emailLower)!;
    expect(await rowsOf(early._id)).toEqual({ contacts: 0, members: 2 });
    await cm.mutation(api.voters.remove, { id: early._id });
    await settle(t);
    const after = await segmentState(t, everyone);
    expect(after.segment).toMatchObject({ gen: gen + 1, refreshing: false, refreshDropped: 0 });
    expect(after.current).not.toContain(early._id);
    expect(after.segment!.cachedCount).toBe(after.current.length);
    // the bulk voters with an email but the deleted one, and Bob
    expect(after.current.length).toBe(bulk.filter((v) => v.emailLower).length - 1 + 1);
  });
});

describe("emailSegments: reading (campaigns.view)", () => {
  test.each(ROLES)("%s", async (role) => {
    const { t, f, cm } = await fixture();
    const id = await cm.mutation(api.emailSegments.create, { name: "Democrats", description: null, rules: DEMOCRATS });
    await settle(t);
    const as = f[role].as;
    if (CAN_VIEW.has(role)) {
      const [s] = await as.query(api.emailSegments.list, {});
      expect(s).toMatchObject({
        id,
        name: "Democrats",
        description: null,
        rules: [{ id: "r0", field: "party", operator: "equals", value: "democrat" }],
        cachedCount: 2,
        refreshing: false,
      });
      expect(s.lastRefreshedAt).toEqual(expect.any(Number));
      expect((await as.query(api.emailSegments.editState, { id })).deleted).toBeNull();
    } else {
      await expect(as.query(api.emailSegments.list, {})).rejects.toThrow(/permission/);
      await expect(as.query(api.emailSegments.editState, { id })).rejects.toThrow(/permission/);
    }
  });

  test("other organisations and signed-out callers see nothing", async () => {
    const { t, f, cm } = await fixture();
    const id = await cm.mutation(api.emailSegments.create, { name: "Democrats", description: null, rules: DEMOCRATS });
    await cm.mutation(api.emailSegments.update, { id, edits: [{ field: "name", base: "Democrats", value: "Dems" }] });
    expect(await f.outsider.as.query(api.emailSegments.list, {})).toEqual([]);
    expect(await f.outsider.as.query(api.emailSegments.editState, { id })).toEqual({ fields: {}, deleted: null });
    expect(Object.keys((await f.viewer.as.query(api.emailSegments.editState, { id })).fields)).toEqual(["name"]);
    expect(await f.viewer.as.query(api.emailSegments.editState, { id: "not an id" })).toEqual({
      fields: {},
      deleted: null,
    });
    await expect(t.query(api.emailSegments.list, {})).rejects.toThrow(/log in/);
    await expect(t.query(api.emailSegments.editState, { id })).rejects.toThrow(/log in/);
    await settle(t);
  });
});

describe("emailSegments: changes (campaigns.manage)", () => {
  test.each(ROLES)("%s", async (role) => {
    const { t, f, voters } = await fixture();
    const as = f[role].as;
    if (CAN_MANAGE.has(role)) {
      const id = await as.mutation(api.emailSegments.create, {
        name: " Democrats ",
        description: " Blue ",
        rules: DEMOCRATS,
      });
      await settle(t);
      expect((await segmentState(t, id)).current).toEqual([voters.ada, voters.cy].sort());
      await as.mutation(api.emailSegments.update, {
        id,
        edits: [
          { field: "name", base: "Democrats", value: "Dems" },
          { field: "description", base: "Blue", value: null },
        ],
      });
      await as.mutation(api.emailSegments.refresh, { id });
      await settle(t);
      expect(await f.viewer.as.query(api.emailSegments.list, {})).toMatchObject([
        { name: "Dems", description: null, cachedCount: 2 },
      ]);
      await as.mutation(api.emailSegments.remove, { id });
      await settle(t);
      expect(await f.viewer.as.query(api.emailSegments.list, {})).toEqual([]);
      expect((await segmentState(t, id)).total).toBe(0);
      expect((await f.viewer.as.query(api.emailSegments.editState, { id })).deleted?.name).toEqual(expect.any(String));
    } else {
      await expect(
        as.mutation(api.emailSegments.create, { name: "Democrats", description: null, rules: DEMOCRATS }),
      ).rejects.toThrow(/permission/);
      const id = await f.campaign_manager.as.mutation(api.emailSegments.create, {
        name: "Democrats",
        description: null,
        rules: DEMOCRATS,
      });
      await expect(
        as.mutation(api.emailSegments.update, { id, edits: [{ field: "name", base: "Democrats", value: "Dems" }] }),
      ).rejects.toThrow(/permission/);
      await expect(as.mutation(api.emailSegments.refresh, { id })).rejects.toThrow(/permission/);
      await expect(as.mutation(api.emailSegments.remove, { id })).rejects.toThrow(/permission/);
      await settle(t);
      expect(await f.campaign_manager.as.query(api.emailSegments.list, {})).toMatchObject([
        { name: "Democrats", cachedCount: 2 },
      ]);
    }
  });

  test("refusals: names, descriptions, conditions, caps; other organisations and signed out", async () => {
    const { t, f, cm } = await fixture();
    expect(
      await refusal(cm.mutation(api.emailSegments.create, { name: "", description: null, rules: "[]" })),
    ).toMatchObject({ message: "Please enter a segment name." });
    expect(
      (await refusal(cm.mutation(api.emailSegments.create, { name: "x".repeat(121), description: null, rules: "[]" })))
        .message,
    ).toBe("A segment name is limited to 120 characters.");
    expect(
      (await refusal(cm.mutation(api.emailSegments.create, { name: "S", description: "x".repeat(501), rules: "[]" })))
        .message,
    ).toBe("A description is limited to 500 characters.");
    expect(
      await refusal(cm.mutation(api.emailSegments.create, { name: "S", description: null, rules: "{" })),
    ).toMatchObject({ title: "Invalid conditions", message: "The conditions could not be read." });
    expect(
      (
        await refusal(
          cm.mutation(api.emailSegments.create, {
            name: "S",
            description: null,
            rules: rulesText([{ field: "zip", operator: "equals", value: "1" }]),
          }),
        )
      ).message,
    ).toBe("Condition 1 uses an unknown field.");
    expect(
      await refusal(
        cm.mutation(api.emailSegments.create, {
          name: "S",
          description: null,
          rules: rulesText([{ field: "city", operator: "equals", value: " " }]),
        }),
      ),
    ).toMatchObject({
      title: "Segment conditions incomplete",
      message: "Please complete all segment conditions.",
    });
    const id = await cm.mutation(api.emailSegments.create, { name: "Democrats", description: null, rules: DEMOCRATS });
    expect(
      await refusal(cm.mutation(api.emailSegments.create, { name: "DEMOCRATS", description: null, rules: "[]" })),
    ).toMatchObject({ code: "DUPLICATE_ERROR" });
    const other = await cm.mutation(api.emailSegments.create, { name: "Everyone", description: null, rules: "[]" });
    await expect(
      cm.mutation(api.emailSegments.update, {
        id: other,
        edits: [{ field: "name", base: "Everyone", value: "democrats" }],
      }),
    ).rejects.toThrow(/already exists/);
    await expect(
      cm.mutation(api.emailSegments.update, { id: other, edits: [{ field: "rules", base: "[]", value: "[1]" }] }),
    ).rejects.toThrow(/Condition 1 could not be read/);
    await expect(
      cm.mutation(api.emailSegments.update, { id: other, edits: [{ field: "gen", base: 0, value: 5 }] }),
    ).rejects.toThrow(/cannot be edited/);
    await expect(
      cm.mutation(api.emailSegments.update, { id: other, edits: [{ field: "name", base: "Everyone", value: 5 }] }),
    ).rejects.toThrow(/check your input/);
    await t.run(async (ctx) => {
      for (let i = 0; i < 98; i++) {
        await ctx.db.insert("emailSegments", {
          orgId: f.orgId,
          name: `S${i}`,
          description: null,
          rules: "[]",
          cachedCount: 0,
          lastRefreshedAt: null,
          gen: 0,
          refreshing: false,
          createdBy: f.creator.userId,
          createdAt: 0,
          updatedAt: 0,
        });
      }
    });
    expect(
      (await refusal(cm.mutation(api.emailSegments.create, { name: "One more", description: null, rules: "[]" })))
        .message,
    ).toBe("An organization can have at most 100 segments. Delete one first.");
    await expect(
      f.outsider.as.mutation(api.emailSegments.update, {
        id,
        edits: [{ field: "name", base: "Democrats", value: "Mine" }],
      }),
    ).rejects.toThrow(/could not be found/);
    await expect(f.outsider.as.mutation(api.emailSegments.refresh, { id })).rejects.toThrow(/could not be found/);
    await expect(f.outsider.as.mutation(api.emailSegments.remove, { id })).rejects.toThrow(/could not be found/);
    await expect(t.mutation(api.emailSegments.create, { name: "S", description: null, rules: "[]" })).rejects.toThrow(
      /log in/,
    );
    await expect(t.mutation(api.emailSegments.update, { id, edits: [] })).rejects.toThrow(/log in/);
    await expect(t.mutation(api.emailSegments.refresh, { id })).rejects.toThrow(/log in/);
    await expect(t.mutation(api.emailSegments.remove, { id })).rejects.toThrow(/log in/);
    await settle(t);
    expect((await cm.query(api.emailSegments.list, {})).find((s) => s.id === id)).toMatchObject({
      name: "Democrats",
      cachedCount: 2,
    });
  });

  test("a refresh over a thousand voters takes several steps; new rules refresh it, and only the latest generation stays", async () => {
    const { t, f, cm, voters } = await fixture();
    const bulk = await bulkVoters(t, f.orgId, 1100);
    const year = new Date().getUTCFullYear();
    const expected = (minAge: number) =>
      bulk
        .filter(
          (v) =>
            v.party_affiliation === "Democrat" && v.emailLower && year - Number(v.date_of_birth!.slice(0, 4)) > minAge,
        )
        .map((v) => v._id as string)
        .sort();
    const older = (minAge: number) =>
      rulesText([
        { field: "party", operator: "equals", value: "Democrat" },
        { field: "age", operator: "greater_than", value: String(minAge) },
      ]);
    const id = await cm.mutation(api.emailSegments.create, {
      name: "Older Democrats",
      description: null,
      rules: older(40),
    });
    expect((await cm.query(api.emailSegments.list, {}))[0]).toMatchObject({
      refreshing: true,
      cachedCount: 0,
      lastRefreshedAt: null,
    });
    await settle(t);
    let state = await segmentState(t, id);
    expect(state.current).toEqual(expected(40));
    expect(state.current.length).toBeGreaterThan(100);
    expect(state.segment).toMatchObject({
      cachedCount: expected(40).length,
      refreshing: false,
      refreshCursor: null,
      gen: 1,
    });
    expect(state.gens).toEqual([1]);

    // teammates' rule changes in quick succession: the latest wins, older generations are deleted
    const base = state.segment!.rules;
    await cm.mutation(api.emailSegments.update, { id, edits: [{ field: "rules", base, value: older(60) }] });
    await cm.mutation(api.emailSegments.update, { id, edits: [{ field: "rules", base: older(60), value: older(20) }] });
    await settle(t);
    state = await segmentState(t, id);
    expect(state.current).toEqual(expected(20));
    expect(state.segment).toMatchObject({ cachedCount: expected(20).length, refreshing: false });
    expect(state.gens).toEqual([state.segment!.gen]);
    expect(state.total).toBe(expected(20).length);

    // a refresh sees voters changed since; a name change alone does not refresh
    await cm.mutation(api.voters.update, {
      id: voters.bob,
      edits: [{ field: "party_affiliation", base: "Republican", value: "Democrat" }],
    });
    await t.run((ctx) => ctx.db.patch("voters", voters.bob, { date_of_birth: "1950-05-05" }));
    const gen = state.segment!.gen;
    await cm.mutation(api.emailSegments.update, {
      id,
      edits: [{ field: "name", base: "Older Democrats", value: "Seniors" }],
    });
    await settle(t);
    expect((await segmentState(t, id)).segment).toMatchObject({ gen, refreshing: false });
    await cm.mutation(api.emailSegments.refresh, { id });
    await settle(t);
    state = await segmentState(t, id);
    expect(state.current).toEqual([...expected(20), voters.bob].sort());
    expect(state.gens).toEqual([gen + 1]);

    // deleting a segment with more members than one batch
    const everyone = await cm.mutation(api.emailSegments.create, { name: "Everyone", description: null, rules: "[]" });
    await settle(t);
    expect((await segmentState(t, everyone)).segment?.cachedCount).toBe(880 + 3);
    await cm.mutation(api.emailSegments.remove, { id: everyone });
    await settle(t);
    expect((await segmentState(t, everyone)).total).toBe(0);
  });

  test("a step of an abandoned or finished refresh writes nothing", async () => {
    const { t, cm, voters } = await fixture();
    const id = await cm.mutation(api.emailSegments.create, { name: "Democrats", description: null, rules: DEMOCRATS });
    await settle(t);
    const done = await segmentState(t, id);
    expect(done.current).toEqual([voters.ada, voters.cy].sort());
    const gen = done.segment!.gen;
    // the finished generation's step run again
    await t.mutation(internal.emailSegments.refreshStep, { segmentId: id, gen, cursor: null, count: 0 });
    // a refresh abandoned for a newer one (gen + 2 runs)
    await t.run((ctx) => ctx.db.patch("emailSegments", id, { refreshing: true, refreshGen: gen + 2 }));
    await t.mutation(internal.emailSegments.refreshStep, { segmentId: id, gen: gen + 1, cursor: null, count: 0 });
    await settle(t);
    expect(await segmentState(t, id)).toMatchObject({ gens: [gen], total: 2, segment: { gen, cachedCount: 2 } });
    // the running one finishes
    await t.mutation(internal.emailSegments.refreshStep, { segmentId: id, gen: gen + 2, cursor: null, count: 0 });
    await settle(t);
    expect(await segmentState(t, id)).toMatchObject({
      gens: [gen + 2],
      total: 2,
      segment: { gen: gen + 2, cachedCount: 2, refreshing: false },
    });
  });

  test("the same field changed by a teammate is refused naming them; other fields merge", async () => {
    const { t, f, cm } = await fixture();
    const admin = f.super_admin.as;
    const id = await cm.mutation(api.emailSegments.create, { name: "Democrats", description: null, rules: DEMOCRATS });
    await admin.mutation(api.emailSegments.update, {
      id,
      edits: [{ field: "name", base: "Democrats", value: "Blue voters" }],
    });
    const adminName = await t.run(async (ctx) => (await ctx.db.get("users", f.super_admin.userId))!.name!);
    const conflict = await refusal(
      cm.mutation(api.emailSegments.update, { id, edits: [{ field: "name", base: "Democrats", value: "Dems" }] }),
    );
    expect(conflict).toMatchObject({
      code: "CONFLICT",
      title: "Edit conflict",
      conflicts: [{ field: "name", theirs: "Blue voters", by: adminName }],
    });
    expect(conflict.message).toBe(`The segment "Blue voters" was changed by ${adminName} while you were editing: name`);
    // a change to another field from the same stale form merges
    await cm.mutation(api.emailSegments.update, {
      id,
      edits: [{ field: "description", base: null, value: "Party members" }],
    });
    expect(await cm.query(api.emailSegments.list, {})).toMatchObject([
      { name: "Blue voters", description: "Party members" },
    ]);
    // deleted by a teammate
    await admin.mutation(api.emailSegments.remove, { id });
    expect(
      await refusal(
        cm.mutation(api.emailSegments.update, { id, edits: [{ field: "name", base: "Blue voters", value: "X" }] }),
      ),
    ).toMatchObject({
      message: `This segment was deleted by ${adminName}.`,
    });
    await settle(t);
  });
});
