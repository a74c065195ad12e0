/**
 * The canvasser's offline app's own read (convex/canvassApp.ts, issue 38): the phone and email of
 * a list's voters, the base of a correction at the door. Who may read them (an assigned Volunteer
 * and a Campaign Manager; not a Viewer, a Volunteer of another list or another organisation), and
 * the contract with canvass.sync: a correction made with the value read here applies, one made
 * after a teammate's change keeps the teammate's value and says so.
 */
import { ConvexError } from "convex/values";
import { describe, expect, test } from "vitest";
import { api } from "@convex/_generated/api";
import { syntheticCounty } from "../support/syntheticCounty";
import { seedVoters } from "../support/turfSeed";
import { createMember, roleFixture, setupTest, type TestConvex } from "./setup";

const county = syntheticCounty(381);
const HOUSES = county.houses.slice(0, 4);

async function rejection(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(ConvexError);
    return (e as ConvexError<{ code: string }>).data.code;
  }
  throw new Error("expected the call to be refused");
}

/** Voters at four houses (Ann with a phone at the first), a turf of their doors and a list for the volunteer. */
async function field(t: TestConvex) {
  const f = await roleFixture(t);
  const voters = await t.run((ctx) =>
    seedVoters(ctx, f.orgId, [
      { house: HOUSES[0], first: "Ann", phone: "+12175550100" },
      ...HOUSES.map((house, i) => ({ house, first: `V${i}` })),
    ]),
  );
  const turfId = await t.run(async (ctx) => {
    const doors = await ctx.db.query("doors").collect();
    return await ctx.db.insert("turfs", {
      orgId: f.orgId,
      name: "Block",
      doorIds: doors.map((d) => d._id),
      doors: doors.length,
      voters: doors.reduce((n, d) => n + d.voterIds.length, 0),
      source: "drawn",
      sourceLabel: "drawn",
      area: null,
      filters: {},
      bbox: [0, 0, 0, 0],
      archived: false,
      createdBy: f.campaign_manager.userId,
      createdByName: "CM",
      createdAt: Date.now(),
    });
  });
  const list = await f.campaign_manager.as.mutation(api.walkLists.create, {
    name: "Block walk",
    turfId,
    surveyId: null,
    status: "Active",
    assignees: [f.volunteer.userId],
  });
  const doors = await t.run(async (ctx) => {
    const l = (await ctx.db.get("walkLists", list.id))!;
    return Promise.all(l.doorIds.map(async (id) => (await ctx.db.get("doors", id))!));
  });
  return { f, voters, doors, listId: list.id };
}

describe("canvassApp.contacts", () => {
  test("an assigned Volunteer and a Campaign Manager read the list's voters' phone and email", async () => {
    const t = setupTest();
    const { f, voters, listId } = await field(t);
    const mine = await f.volunteer.as.query(api.canvassApp.contacts, { listId });
    expect(mine.map((c) => c.voterId).sort()).toEqual([...voters].sort());
    expect(mine.find((c) => c.voterId === voters[0])).toEqual({
      voterId: voters[0],
      phone: "+12175550100",
      email: null,
    });
    const managers = await f.campaign_manager.as.query(api.canvassApp.contacts, { listId });
    expect(managers).toEqual(mine);
  });

  test("a Viewer, a Volunteer not on the list and another organisation are refused", async () => {
    const t = setupTest();
    const { f, listId } = await field(t);
    expect(await rejection(f.viewer.as.query(api.canvassApp.contacts, { listId }))).toBe("FORBIDDEN");
    const other = await createMember(t, ["volunteer"], { orgId: f.orgId });
    expect(await rejection(other.as.query(api.canvassApp.contacts, { listId }))).toBe("NOT_FOUND");
    expect(await rejection(f.outsider.as.query(api.canvassApp.contacts, { listId }))).toBe("NOT_FOUND");
  });

  test("a correction at the door made from the value read here applies; after a teammate's change it keeps theirs", async () => {
    const t = setupTest();
    const { f, voters, doors, listId } = await field(t);
    const ann = voters[0];
    const door = doors.find((d) => d.voterIds.includes(ann))!;
    const base = (await f.volunteer.as.query(api.canvassApp.contacts, { listId })).find((c) => c.voterId === ann)!;
    const event = (clientId: string, seq: number, value: string, from: string | null) => ({
      clientId,
      seq,
      doorId: door._id,
      voterId: ann,
      result: "contacted" as const,
      answers: null,
      notes: null,
      edits: [{ field: "phone", base: from, value }],
      at: Date.now() - 60_000,
    });
    const applied = await f.volunteer.as.mutation(api.canvass.sync, {
      listId,
      events: [event("door-1", 1, "217-555-0111", base.phone)],
    });
    expect(applied.outcomes[0]).toMatchObject({ status: "recorded", message: null });
    const now = (await f.volunteer.as.query(api.canvassApp.contacts, { listId })).find((c) => c.voterId === ann)!;
    expect(now.phone).toBe("(217) 555-0111");
    // a second canvasser's copy still holds the first value: their correction keeps the teammate's
    const stale = await f.campaign_manager.as.mutation(api.canvass.sync, {
      listId,
      events: [event("door-2", 1, "217-555-0122", base.phone)],
    });
    expect(stale.outcomes[0].status).toBe("recorded");
    expect(stale.outcomes[0].message).toMatch(/^The result was recorded, but the voter's details were not changed: /);
    expect((await t.run((ctx) => ctx.db.get("voters", ann)))!.phone).toBe("(217) 555-0111");
  });
});
