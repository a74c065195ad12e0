/**
 * What the organiser's dashboard and the voter file read about canvassing (convex/canvassDashboard.ts,
 * issue 38): a list's doors and turf for the map, a voter's canvass flags with who and when, and a
 * survey's submissions recorded at a door; each refused to the wrong role, another organisation and
 * a caller who is signed out.
 */
import { ConvexError } from "convex/values";
import { describe, expect, test } from "vitest";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { CANVASS_SAMPLE } from "@convex/canvassDashboard";
import { SUMMARY_SAMPLE } from "@convex/surveySubmissions";
import { syntheticCounty } from "../support/syntheticCounty";
import { seedVoters } from "../support/turfSeed";
import { roleFixture, setupTest, type TestConvex } from "./setup";

const county = syntheticCounty(381);
const HOUSES = county.houses.slice(0, 6);

async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(ConvexError);
    return (e as ConvexError<{ code: string }>).data.code;
  }
  throw new Error("expected the call to be refused");
}

const FIELD = {
  id: "support",
  type: "radio" as const,
  label: "Will you support Lee?",
  placeholder: null,
  description: null,
  required: false,
  options: ["Yes", "No"],
  maxRating: null,
  ratingType: null,
  min: null,
  max: null,
  step: null,
  condition: null,
};

/** Voters at six houses, a script survey, and an Active list over their doors assigned to the volunteer. */
async function field(t: TestConvex) {
  const f = await roleFixture(t);
  const voters = await t.run((ctx) =>
    seedVoters(
      ctx,
      f.orgId,
      HOUSES.map((house, i) => ({ house, first: `V${i}` })),
    ),
  );
  await t.finishAllScheduledFunctions(() => {}, 100);
  const { surveyId, turfId } = await t.run(async (ctx) => {
    const doorIds = (await ctx.db.query("doors").collect()).map((d) => d._id);
    const surveyId = await ctx.db.insert("surveys", {
      orgId: f.orgId,
      name: "Doorstep script",
      description: null,
      recipient: null,
      pages: [{ id: "p1", title: "Page 1", condition: null, fields: [FIELD] }],
      settings: { allowMultipleSubmissions: true, showProgressBar: false },
      version: 1,
      submissionCount: 0,
      createdBy: f.campaign_manager.userId,
      updatedAt: Date.now(),
      updatedBy: f.campaign_manager.userId,
    });
    const turfId = await ctx.db.insert("turfs", {
      orgId: f.orgId,
      name: "Six houses",
      doorIds,
      doors: doorIds.length,
      voters: doorIds.length,
      source: "drawn",
      sourceLabel: "drawn",
      area: '{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}',
      filters: {},
      bbox: [0, 0, 1, 1],
      archived: false,
      createdBy: f.campaign_manager.userId,
      createdByName: "CM",
      createdAt: Date.now(),
    });
    return { surveyId, turfId };
  });
  const list = await f.campaign_manager.as.mutation(api.walkLists.create, {
    name: "Six houses walk",
    turfId,
    surveyId,
    status: "Active",
    assignees: [f.volunteer.userId],
  });
  const doors = await t.run(async (ctx) => {
    const l = (await ctx.db.get("walkLists", list.id))!;
    return Promise.all(l.doorIds.map(async (id) => (await ctx.db.get("doors", id))!));
  });
  return { f, voters, doors, surveyId, listId: list.id };
}

let n = 0;
function ev(
  door: { _id: Id<"doors">; voterIds: Id<"voters">[] },
  result: "contacted" | "moved" | "not_home",
  extra = {},
) {
  n += 1;
  return {
    clientId: `d-${n}-${Math.random().toString(36).slice(2, 8)}`,
    seq: n,
    doorId: door._id,
    voterId: door.voterIds[0] ?? null,
    result,
    answers: null,
    notes: null,
    at: Date.now() - 3_600_000 + n * 60_000,
    ...extra,
  };
}

describe("listMap", () => {
  test("a list's doors in walking order with addresses, and its turf; organisers only", async () => {
    const t = setupTest();
    const { f, listId } = await field(t);
    const map = (await f.campaign_manager.as.query(api.canvassDashboard.listMap, { listId }))!;
    const detail = await f.campaign_manager.as.query(api.walkLists.get, { id: listId });
    expect(map.doors).toEqual(
      detail.doors.map((d) => ({ id: d.id, order: d.order, lat: d.lat, lng: d.lng, address: d.address })),
    );
    expect(map.doors).toHaveLength(HOUSES.length);
    expect(map.doors[0].address).toMatch(/^\d+ /);
    expect(map.turfArea).toContain("Polygon");
    // the assigned volunteer (walk_lists.view, not campaigns.manage), another role, another organisation, signed out
    expect(await code(f.volunteer.as.query(api.canvassDashboard.listMap, { listId }))).toBe("FORBIDDEN");
    expect(await code(f.viewer.as.query(api.canvassDashboard.listMap, { listId }))).toBe("FORBIDDEN");
    // another organisation's list does not exist for them (the page says the list is gone)
    expect(await f.outsider.as.query(api.canvassDashboard.listMap, { listId })).toBeNull();
    await expect(t.query(api.canvassDashboard.listMap, { listId })).rejects.toThrow(/log in/i);
    // a deleted list: null
    await f.campaign_manager.as.mutation(api.walkLists.remove, { id: listId });
    expect(await f.campaign_manager.as.query(api.canvassDashboard.listMap, { listId })).toBeNull();
  });
});

describe("voterFlags", () => {
  test("what canvassing learnt about a voter, with when, who and which list; voters.view only", async () => {
    const t = setupTest();
    const { f, doors, voters, listId } = await field(t);
    const door = doors.find((d) => d.voterIds.includes(voters[0]))!;
    const moved = ev(door, "moved", { voterId: voters[0] });
    const dnc = ev(door, "not_home", { voterId: voters[0], doNotContact: true });
    await f.volunteer.as.mutation(api.canvass.sync, { listId, events: [moved, dnc] });
    const flags = await f.viewer.as.query(api.canvassDashboard.voterFlags, { voterId: voters[0] });
    const volunteer = await t.run(async (ctx) => (await ctx.db.get("users", f.volunteer.userId))!.name);
    expect(flags.map((x) => [x.kind, x.at, x.byName, x.listName])).toEqual([
      ["do_not_contact", dnc.at, volunteer, "Six houses walk"],
      ["moved", moved.at, volunteer, "Six houses walk"],
    ]);
    // a voter nobody flagged
    expect(await f.viewer.as.query(api.canvassDashboard.voterFlags, { voterId: voters[1] })).toEqual([]);
    expect(await code(f.account_admin.as.query(api.canvassDashboard.voterFlags, { voterId: voters[0] }))).toBe(
      "FORBIDDEN",
    );
    expect(await code(f.outsider.as.query(api.canvassDashboard.voterFlags, { voterId: voters[0] }))).toBe("NOT_FOUND");
    await expect(t.query(api.canvassDashboard.voterFlags, { voterId: voters[0] })).rejects.toThrow(/log in/i);
  });
});

describe("surveyCanvass", () => {
  test("counts the survey's submissions recorded at a door among its latest; surveys.view only", async () => {
    const t = setupTest();
    const { f, doors, listId, surveyId } = await field(t);
    expect(CANVASS_SAMPLE).toBe(SUMMARY_SAMPLE);
    await t.run(async (ctx) => {
      await ctx.db.insert("surveySubmissions", {
        orgId: f.orgId,
        surveyId,
        responses: { support: "No" },
        email: null,
        emailLower: null,
        userAgent: null,
        submitterIp: null,
        source: "public",
      });
    });
    await f.volunteer.as.mutation(api.canvass.sync, {
      listId,
      events: [
        ev(doors[0], "contacted", { answers: { support: "Yes" } }),
        ev(doors[1], "contacted", { answers: { support: "No" } }),
        ev(doors[2], "not_home"),
      ],
    });
    expect(await f.campaign_manager.as.query(api.canvassDashboard.surveyCanvass, { surveyId })).toEqual({
      canvass: 2,
      sampled: false,
    });
    expect(await code(f.volunteer.as.query(api.canvassDashboard.surveyCanvass, { surveyId }))).toBe("FORBIDDEN");
    expect(await code(f.outsider.as.query(api.canvassDashboard.surveyCanvass, { surveyId }))).toBe("NOT_FOUND");
    await expect(t.query(api.canvassDashboard.surveyCanvass, { surveyId })).rejects.toThrow(/log in/i);
  });
});
