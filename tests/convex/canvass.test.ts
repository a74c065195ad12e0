/**
 * Canvassing (convex/canvass.ts, issue 38) on a synthetic county's houses: the outbox's results
 * recorded exactly once and in order, each result's effects on the voter file, claims under 50
 * canvassers at once, who may record where, a voter's canvass history, and the dashboard's figures
 * and flags equal to what was recorded.
 */
import type { FunctionArgs } from "convex/server";
import { ConvexError } from "convex/values";
import { describe, expect, test } from "vitest";
import { api, internal } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { FAR_METRES, RESULT_CODES, type ResultCode } from "@convex/lib/canvass";
import { optedOut } from "@convex/model/doors";
import { isSuppressed } from "@convex/model/emailEvents";
import { optOutOf } from "@convex/model/smsShared";
import { syntheticCounty, type SyntheticHouse } from "../support/syntheticCounty";
import { seedVoters } from "../support/turfSeed";
import { createMember, roleFixture, setupTest, type TestConvex } from "./setup";

const county = syntheticCounty(38);
type Fixture = Awaited<ReturnType<typeof roleFixture<TestConvex>>>;
const centre = county.houses[Math.floor(county.houses.length / 2)];
/** The houses nearest the county's middle. */
const HOUSES: SyntheticHouse[] = county.houses
  .map((h) => ({ h, d: (h.lat - centre.lat) ** 2 + ((h.lng - centre.lng) * 0.77) ** 2 }))
  .sort((a, b) => a.d - b.d)
  .slice(0, 120)
  .map(({ h }) => h);

async function rejection(p: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(ConvexError);
    return (e as ConvexError<any>).data;
  }
  throw new Error("expected the call to be refused");
}

const PAGES = [
  {
    id: "p1",
    title: "Page 1",
    condition: null,
    fields: [
      {
        id: "support",
        type: "radio" as const,
        label: "Will you support Lee?",
        placeholder: null,
        description: null,
        required: true,
        options: ["Yes", "No", "Undecided"],
        maxRating: null,
        ratingType: null,
        min: null,
        max: null,
        step: null,
        condition: null,
      },
      {
        id: "issues",
        type: "checkbox" as const,
        label: "Issues",
        placeholder: null,
        description: null,
        required: false,
        options: ["Schools", "Roads", "Taxes"],
        maxRating: null,
        ratingType: null,
        min: null,
        max: null,
        step: null,
        condition: null,
      },
    ],
  },
];

/**
 * Voters at `houses` houses (two at the first), their doors, a script survey and an Active walk
 * list over them assigned to the fixture's volunteer (and `extra` canvassers).
 */
async function field(t: TestConvex, houses = 12, extra: Id<"users">[] = []) {
  const f = await roleFixture(t);
  const voters = await t.run((ctx) =>
    seedVoters(ctx, f.orgId, [
      { house: HOUSES[0], first: "Ann", phone: "+12175550100" },
      ...HOUSES.slice(0, houses).map((house, i) => ({ house, first: `V${i}` })),
    ]),
  );
  await t.finishAllScheduledFunctions(() => {}, 100);
  const { doorIds, surveyId, turfId } = await t.run(async (ctx) => {
    const doors = await ctx.db.query("doors").collect();
    const doorIds = doors.map((d) => d._id);
    const surveyId = await ctx.db.insert("surveys", {
      orgId: f.orgId,
      name: "Doorstep script",
      description: null,
      recipient: null,
      pages: PAGES,
      settings: { allowMultipleSubmissions: false, showProgressBar: false },
      version: 1,
      submissionCount: 0,
      createdBy: f.campaign_manager.userId,
      updatedAt: Date.now(),
      updatedBy: f.campaign_manager.userId,
    });
    const turfId = await ctx.db.insert("turfs", {
      orgId: f.orgId,
      name: "Centre",
      doorIds,
      doors: doorIds.length,
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
    return { doorIds, surveyId, turfId };
  });
  const list = await f.campaign_manager.as.mutation(api.walkLists.create, {
    name: "Centre walk",
    turfId,
    surveyId,
    status: "Active",
    assignees: [f.volunteer.userId, ...extra],
  });
  const doors = await t.run(async (ctx) => {
    const l = (await ctx.db.get("walkLists", list.id))!;
    return Promise.all(l.doorIds.map(async (id) => (await ctx.db.get("doors", id))!));
  });
  return { f, voters, doorIds, doors, surveyId, listId: list.id };
}

let n = 0;
function ev(
  door: { _id: Id<"doors">; voterIds: Id<"voters">[] },
  result: ResultCode,
  extra: Partial<FunctionArgs<typeof api.canvass.sync>["events"][number]> = {},
) {
  n += 1;
  return {
    clientId: `c-${n}-${Math.random().toString(36).slice(2, 8)}`,
    seq: n,
    doorId: door._id,
    voterId: door.voterIds[0] ?? null,
    result,
    answers: null,
    notes: null,
    at: Date.now() - 86_400_000 + n * 1_000,
    ...extra,
  };
}

/** What the scheduled rollups do shortly after syncs: the list's progress and packed contacts, the survey's count. */
async function rollUp(t: TestConvex, listId: Id<"walkLists">) {
  await t.mutation(internal.canvass.rollUp, { key: `list:${listId}` });
  const surveyId = (await t.run((ctx) => ctx.db.get("walkLists", listId)))!.surveyId;
  if (surveyId) await t.mutation(internal.canvass.rollUp, { key: `survey:${surveyId}` });
}

/** The list's progress as the walk-list pages show it. */
async function progress(t: TestConvex, as: Fixture["campaign_manager"]["as"], listId: Id<"walkLists">) {
  const row = (await as.query(api.walkLists.list, {})).find((l) => l.id === listId)!;
  return [row.knocked, row.contacts];
}

async function events(t: TestConvex) {
  return t.run((ctx) => ctx.db.query("canvassEvents").collect());
}

/** The audit entries (sealed or not yet) a canvass sync wrote about a voter: action, actor, changes. */
async function canvassAudit(t: TestConvex, voterId: string) {
  return await t.run(async (ctx) =>
    [...(await ctx.db.query("auditPending").collect()), ...(await ctx.db.query("auditLog").collect())]
      .filter((e) => e.target.id === voterId && e.summary.endsWith("(canvass)."))
      .map((e) => ({
        action: e.action,
        actorId: e.actorId,
        changes: e.action === "voter.update" ? e.changes : undefined,
      }))
      .map(({ changes, ...rest }) => (changes === undefined ? rest : { ...rest, changes })),
  );
}

describe("sync", () => {
  test("a list's rollups run as one chain: a sync starts it, later syncs join it, the first run finding nothing ends it", async () => {
    const t = setupTest();
    const { f, doors, listId } = await field(t);
    const key = `list:${listId}`;
    const running = async () =>
      (await t.run((ctx) => ctx.db.query("canvassRollupMarks").collect())).find((m) => m.key === key)?.running ?? false;
    const pendingRollups = async () =>
      (await t.run((c) => c.db.system.query("_scheduled_functions").collect())).filter(
        (j) => j.name.includes("rollUp") && j.args[0]?.key === key && j.state.kind === "pending",
      ).length;
    await f.volunteer.as.mutation(api.canvass.sync, { listId, events: [ev(doors[0], "contacted")] });
    await f.volunteer.as.mutation(api.canvass.sync, { listId, events: [ev(doors[1], "not_home")] });
    await f.campaign_manager.as.mutation(api.canvass.sync, { listId, events: [ev(doors[2], "refused")] });
    expect(await running()).toBe(true);
    // three syncs by two canvassers, one rollup waiting
    expect(await pendingRollups()).toBe(1);
    // the chain's runs are a bucket (250 ms) apart: wait for them in real time
    const settle = async () => {
      for (let i = 0; i < 40 && (await running()); i++) {
        await new Promise((r) => setTimeout(r, 100));
        await t.finishAllScheduledFunctions(() => {}, 100);
      }
    };
    await settle();
    expect(await progress(t, f.campaign_manager.as, listId)).toEqual([3, 1]);
    expect(await running()).toBe(false);
    expect(await pendingRollups()).toBe(0);
    // the next sync starts a new chain
    await f.volunteer.as.mutation(api.canvass.sync, { listId, events: [ev(doors[3], "contacted")] });
    expect(await running()).toBe(true);
    expect(await pendingRollups()).toBe(1);
    await settle();
    expect(await progress(t, f.campaign_manager.as, listId)).toEqual([4, 2]);
    expect(await running()).toBe(false);
  });

  test("the same outbox replayed three times records once, with the first outcomes", async () => {
    const t = setupTest();
    const { f, doors, listId } = await field(t);
    const outbox = [ev(doors[0], "contacted"), ev(doors[1], "not_home"), ev(doors[2], "refused")];
    const first = await f.volunteer.as.mutation(api.canvass.sync, { listId, events: outbox });
    expect(first.outcomes.map((o) => o.status)).toEqual(["recorded", "recorded", "recorded"]);
    for (let i = 0; i < 3; i++) {
      const again = await f.volunteer.as.mutation(api.canvass.sync, { listId, events: outbox });
      expect(again.outcomes.map((o) => o.status)).toEqual(["duplicate", "duplicate", "duplicate"]);
      expect(again.outcomes.map((o) => o.eventId)).toEqual(first.outcomes.map((o) => o.eventId));
    }
    // the same action twice in one call is also recorded once
    const twice = ev(doors[3], "come_back");
    const both = await f.volunteer.as.mutation(api.canvass.sync, { listId, events: [twice, twice] });
    expect(both.outcomes.map((o) => o.status)).toEqual(["recorded", "duplicate"]);
    expect(await events(t)).toHaveLength(4);
    await rollUp(t, listId);
    expect(await progress(t, f.campaign_manager.as, listId)).toEqual([4, 1]);
    const board = await f.campaign_manager.as.query(api.canvass.dashboard, { listId });
    expect(board.list.attempts).toBe(4);
  });

  test("applied in the outbox's order whatever the order sent: a door's last result is the latest", async () => {
    const t = setupTest();
    const { f, doors, listId } = await field(t);
    const a = ev(doors[0], "not_home");
    const b = ev(doors[0], "come_back");
    const c = ev(doors[0], "contacted");
    const out = await f.volunteer.as.mutation(api.canvass.sync, { listId, events: [c, a, b] });
    expect(out.outcomes.map((o) => o.clientId)).toEqual([c.clientId, a.clientId, b.clientId]);
    const recorded = (await events(t)).sort((x, y) => x._creationTime - y._creationTime).map((e) => e.seq);
    expect(recorded).toEqual([a.seq, b.seq, c.seq]);
    const states = await f.volunteer.as.query(api.canvass.doorStatesOf, { listId });
    expect(states).toEqual([{ doorId: doors[0]._id, lastResult: "contacted", lastAt: c.at, attempts: 3 }]);
    const board = await f.campaign_manager.as.query(api.canvass.dashboard, { listId });
    expect(board.list.doors).toBe(1);
    expect(board.list.attempts).toBe(3);
  });

  test("a refused action says why, records nothing, and is checked again when sent again", async () => {
    const t = setupTest();
    const { f, doors, listId, voters } = await field(t);
    const stranger = doors.find((d) => !d.voterIds.includes(voters[0]))!;
    const out = await f.volunteer.as.mutation(api.canvass.sync, {
      listId,
      events: [
        ev(stranger, "contacted", { voterId: voters[0] }),
        ev(doors[0], "contacted", { answers: { support: "Maybe" } }),
        ev(doors[0], "deceased", { voterId: null }),
        ev(doors[0], "contacted", { notes: "x".repeat(2_001) }),
      ],
    });
    expect(out.outcomes.map((o) => o.status)).toEqual(["refused", "refused", "refused", "refused"]);
    expect(out.outcomes[0].message).toBe("This voter is not registered at this door.");
    expect(out.outcomes[1].message).toMatch(/^The survey answers could not be recorded: Will you support Lee\?/);
    expect(out.outcomes[2].message).toBe("Choose the voter this result is about.");
    expect(out.outcomes[3].message).toBe("Notes are at most 2,000 characters.");
    expect(await events(t)).toHaveLength(0);
    await expect(
      f.volunteer.as.mutation(api.canvass.sync, {
        listId,
        events: Array.from({ length: 101 }, () => ev(doors[0], "not_home")),
      }),
    ).rejects.toThrow(/At most 100 results/);
  });
});

describe("effects of each result", () => {
  test("contacted, moved, deceased, do not contact, wrong address, added person, answers", async () => {
    const t = setupTest();
    const { f, doors, listId, surveyId } = await field(t);
    const home = doors.find((d) => d.voterIds.length === 2)!;
    const [ann, other] = home.voterIds;
    await t.run(async (ctx) => {
      await ctx.db.patch("voters", ann, { email: "ann@example.org", emailLower: "ann@example.org" });
    });
    const plain = doors.filter((d) => d.voterIds.length === 1);
    const contacted = ev(home, "contacted", {
      voterId: other,
      answers: { support: "Yes", issues: ["Schools", "Roads"] },
      notes: "Wants a yard sign",
    });
    const out = await f.volunteer.as.mutation(api.canvass.sync, {
      listId,
      events: [
        contacted,
        ev(plain[0], "moved", { voterId: null }),
        ev(home, "deceased", { voterId: ann }),
        ev(plain[1], "refused", { doNotContact: true }),
        ev(plain[2], "not_home", { wrongAddress: true }),
        ev(plain[3], "contacted", {
          voterId: null,
          addPerson: { firstName: "Nia", lastName: "Door", phone: null, email: "nia@example.org" },
          answers: { support: "Undecided" },
        }),
        ev(plain[4], "inaccessible"),
        ev(plain[5], "come_back"),
        ev(plain[6], "not_home"),
      ],
    });
    expect(out.outcomes.every((o) => o.status === "recorded")).toBe(true);
    await rollUp(t, listId);
    const state = await t.run(async (ctx) => ({
      home: (await ctx.db.get("doors", home._id))!,
      flags: await ctx.db.query("voterFlags").collect(),
      optOuts: await ctx.db.query("smsOptOuts").collect(),
      suppressions: await ctx.db.query("emailSuppressions").collect(),
      submissions: await ctx.db.query("surveySubmissions").collect(),
      survey: (await ctx.db.get("surveys", surveyId))!,
      added: (await ctx.db.query("voters").collect()).find((x) => x.first_name === "Nia") ?? null,
    }));
    // Contacted: the door's last contact, its cell packed again for "not contacted since"
    expect(state.home.lastContactAt).toBe(contacted.at);
    const packed = await t.run(async (ctx) => {
      const cellDoc = (await ctx.db
        .query("doorCells")
        .withIndex("by_org_cell", (q) => q.eq("orgId", f.orgId).eq("cell", home.cell))
        .first())!;
      const filters = await ctx.db
        .query("doorCellVoters")
        .withIndex("by_cell_doc", (q) => q.eq("cellDoc", cellDoc._id))
        .unique();
      return filters!.contacted[cellDoc.ids.indexOf(home._id)];
    });
    expect(packed).toBe(contacted.at);
    const flagsOf = (kind: string) => state.flags.filter((x) => x.kind === kind).map((x) => x.voterId);
    // Moved without a voter: everyone at the door
    expect(flagsOf("moved")).toEqual(plain[0].voterIds);
    // Deceased and do-not-contact: flagged and suppressed from texts and email
    expect(flagsOf("deceased")).toEqual([ann]);
    expect(flagsOf("do_not_contact")).toEqual(plain[1].voterIds);
    expect(state.optOuts).toEqual([expect.objectContaining({ phone: "+12175550100", source: "canvass" })]);
    expect(state.suppressions).toEqual([
      expect.objectContaining({ email: "ann@example.org", reason: "do_not_contact" }),
    ]);
    // …which the send paths and the turf filters honour
    const honoured = await t.run(async (ctx) => ({
      email: await isSuppressed(
        ctx.db,
        { orgId: f.orgId, exclude: { bounced: false, complained: false } },
        "ann@example.org",
      ),
      sms: (await optOutOf(ctx.db, f.orgId, "+12175550100")) !== null,
      turf: await optedOut(ctx.db, f.orgId, (await ctx.db.get("voters", ann))!),
    }));
    expect(honoured).toEqual({ email: true, sms: true, turf: true });
    expect(flagsOf("wrong_address")).toEqual(plain[2].voterIds);
    // a person added at the door: a voter on that door, flagged canvass-added, their answers theirs
    expect(state.added).not.toBeNull();
    expect(flagsOf("canvass_added")).toEqual([state.added!._id]);
    expect((await canvassAudit(t, state.added!._id)).map((e) => e.action)).toEqual(["voter.create"]);
    const plain3 = await t.run((ctx) => ctx.db.get("doors", plain[3]._id));
    expect(plain3!.voterIds).toContain(state.added!._id);
    // answers: submissions of the script survey, counted in its summary
    expect(state.submissions.map((s) => [s.source, s.voterId, s.responses])).toEqual([
      ["canvass", other, { support: "Yes", issues: ["Schools", "Roads"] }],
      ["canvass", state.added!._id, { support: "Undecided" }],
    ]);
    expect(state.survey.submissionCount).toBe(2);
    const summary = await f.campaign_manager.as.query(api.surveySubmissions.summarySample, { surveyId });
    expect(summary.responses).toHaveLength(2);
    // the other results change nothing but the counts
    const board = await f.campaign_manager.as.query(api.canvass.dashboard, { listId });
    expect(board.list.results).toEqual({
      not_home: 2,
      contacted: 2,
      refused: 1,
      moved: 1,
      deceased: 1,
      inaccessible: 1,
      come_back: 1,
    });
    expect(board.questions[0]).toEqual({
      field: "support",
      label: "Will you support Lee?",
      options: [
        { option: "Yes", count: 1 },
        { option: "No", count: 0 },
        { option: "Undecided", count: 1 },
      ],
    });
    expect(board.questions[1].options).toEqual([
      { option: "Schools", count: 1 },
      { option: "Roads", count: 1 },
      { option: "Taxes", count: 0 },
    ]);
    for (const r of RESULT_CODES) expect(board.list.results[r]).toBeGreaterThan(0);
  });

  test("a voter edit at the door keeps a teammate's change to the same field, naming them", async () => {
    const t = setupTest();
    const { f, doors, listId } = await field(t);
    const home = doors.find((d) => d.voterIds.length === 2)!;
    const ann = home.voterIds[0];
    const annPhone = (await t.run((ctx) => ctx.db.get("voters", ann)))!.phone ?? null;
    await f.campaign_manager.as.mutation(api.voters.update, {
      id: ann,
      edits: [{ field: "phone", base: annPhone, value: "217-555-0199" }],
    });
    const out = await f.volunteer.as.mutation(api.canvass.sync, {
      listId,
      events: [
        ev(home, "contacted", {
          voterId: ann,
          edits: [
            { field: "phone", base: annPhone, value: "217-555-0111" },
            { field: "email", base: null, value: "ann@example.org" },
          ],
        }),
      ],
    });
    expect(out.outcomes[0].status).toBe("recorded");
    expect(out.outcomes[0].message).toMatch(
      /^The result was recorded, but the voter's details were not changed: .* was changed by .* while you were editing: phone$/,
    );
    const voter = await t.run((ctx) => ctx.db.get("voters", ann));
    expect(voter!.phone).toBe("(217) 555-0199");
    expect(voter!.email).toBeUndefined();
    // without a conflict the edit applies
    const ok = await f.volunteer.as.mutation(api.canvass.sync, {
      listId,
      events: [
        ev(home, "contacted", { voterId: ann, edits: [{ field: "email", base: null, value: "ann@example.org" }] }),
      ],
    });
    expect(ok.outcomes[0].message).toBeNull();
    expect((await t.run((ctx) => ctx.db.get("voters", ann)))!.email).toBe("ann@example.org");
    // the applied edit, and only it, is in the audit log under the canvasser's name
    expect(await canvassAudit(t, ann)).toEqual([
      {
        action: "voter.update",
        actorId: f.volunteer.userId,
        changes: [{ field: "email", from: null, to: "ann@example.org" }],
      },
    ]);
  });
});

describe("claims", () => {
  test("50 canvassers claiming at once never get one door twice; claims expire and return", async () => {
    const t = setupTest();
    const { f, listId, doors } = await field(t, 60);
    const canvassers = [f.volunteer];
    for (let i = 0; i < 49; i++) canvassers.push(await createMember(t, ["volunteer"], { orgId: f.orgId }));
    await f.campaign_manager.as.mutation(api.walkLists.update, {
      id: listId,
      edits: [{ field: "assignees", base: [f.volunteer.userId], value: canvassers.map((c) => c.userId) }],
    });
    const near = { lat: doors[0].lat, lng: doors[0].lng };
    const results = await Promise.all(
      canvassers.map((c) => c.as.mutation(api.canvass.claim, { listId, near, count: 2 })),
    );
    const claimed = results.flatMap((r) => r.doors.map((d) => d.doorId));
    expect(new Set(claimed).size).toBe(claimed.length);
    expect(claimed.length).toBe(Math.min(doors.length, 100));
    const rows = await t.run((ctx) => ctx.db.query("canvassClaims").collect());
    expect(new Set(rows.map((r) => r.doorId)).size).toBe(rows.length);
    // nothing left for a 51st claim while they hold
    const more = await f.volunteer.as.mutation(api.canvass.claim, { listId, near, count: 25 });
    expect(more.doors.length).toBe(Math.max(0, doors.length - claimed.length));
    // expired claims return
    await t.run(async (ctx) => {
      for (const r of await ctx.db.query("canvassClaims").collect())
        await ctx.db.patch("canvassClaims", r._id, { expiresAt: Date.now() - 1 });
    });
    const again = await canvassers[7].as.mutation(api.canvass.claim, { listId, near, count: 25 });
    expect(again.doors).toHaveLength(25);
    // a knocked door is not handed out again; release lets go
    await canvassers[7].as.mutation(api.canvass.sync, {
      listId,
      events: [
        ev(
          doors.find((d) => d._id === again.doors[0].doorId)!,
          "not_home",
        ),
      ],
    });
    expect(await canvassers[7].as.mutation(api.canvass.release, { listId })).toBe(24);
    const bundle = await canvassers[7].as.query(api.canvass.bundle, { listId });
    expect(bundle.myClaims).toEqual([]);
    const next = await canvassers[8].as.mutation(api.canvass.claim, { listId, near, count: 25 });
    expect(next.doors.map((d) => d.doorId)).not.toContain(again.doors[0].doorId);
    await expect(canvassers[8].as.mutation(api.canvass.claim, { listId, near, count: 26 })).rejects.toThrow(
      /between 1 and 25/,
    );
  });
});

describe("who may record", () => {
  test("a Volunteer records only on lists assigned to them; a Viewer, another organisation and a closed list are refused", async () => {
    const t = setupTest();
    const { f, doors, listId } = await field(t);
    const other = await createMember(t, ["volunteer"], { orgId: f.orgId });
    const events = [ev(doors[0], "not_home")];
    expect((await rejection(other.as.mutation(api.canvass.sync, { listId, events }))).code).toBe("NOT_FOUND");
    expect(
      (await rejection(other.as.mutation(api.canvass.claim, { listId, near: { lat: 0, lng: 0 }, count: 1 }))).code,
    ).toBe("NOT_FOUND");
    expect((await rejection(other.as.query(api.canvass.bundle, { listId }))).code).toBe("NOT_FOUND");
    expect(await other.as.query(api.canvass.myLists, {})).toEqual([]);
    expect((await rejection(f.viewer.as.mutation(api.canvass.sync, { listId, events }))).code).toBe("FORBIDDEN");
    expect((await rejection(f.outsider.as.mutation(api.canvass.sync, { listId, events }))).code).toBe("NOT_FOUND");
    expect((await rejection(f.volunteer.as.query(api.canvass.dashboard, { listId }))).code).toBe("FORBIDDEN");
    // the assigned volunteer and any campaign manager record
    const mine = await f.volunteer.as.query(api.canvass.myLists, {});
    expect(mine.map((l) => l.id)).toEqual([listId]);
    expect((await f.volunteer.as.mutation(api.canvass.sync, { listId, events })).outcomes[0].status).toBe("recorded");
    expect(
      (await f.campaign_manager.as.mutation(api.canvass.sync, { listId, events: [ev(doors[1], "not_home")] }))
        .outcomes[0].status,
    ).toBe("recorded");
    // a volunteer may not add people without voters.update… they have it; a Completed list refuses results
    await f.campaign_manager.as.mutation(api.walkLists.update, {
      id: listId,
      edits: [{ field: "status", base: "Active", value: "Completed" }],
    });
    const closed = await f.volunteer.as.mutation(api.canvass.sync, { listId, events: [ev(doors[2], "not_home")] });
    expect(closed.outcomes[0]).toMatchObject({ status: "refused", message: expect.stringMatching(/completed/) });
    expect(await f.volunteer.as.query(api.canvass.myLists, {})).toEqual([]);
  });
});

describe("history and dashboard", () => {
  test("a voter's history shows their results and their door's; the dashboard's figures and flags match what was recorded", async () => {
    const t = setupTest();
    const { f, doors, listId, voters } = await field(t, 60);
    const cm = f.campaign_manager;
    const home = doors.find((d) => d.voterIds.includes(voters[0]))!;
    const others = doors.filter((d) => d._id !== home._id);
    const start = Date.now() - 4 * 3_600_000;
    // the volunteer: at doors 10 s apart at first (a "fast" flag), one result far from its door
    const far = { lat: others[1].lat + (FAR_METRES * 2) / 111_320, lng: others[1].lng, accuracy: 10 };
    const vol = [
      ev(home, "contacted", { voterId: voters[0], at: start, answers: { support: "No" }, notes: "Busy" }),
      ev(others[0], "not_home", { at: start + 10_000 }),
      ev(others[1], "not_home", { at: start + 120_000, gps: far }),
      ev(home, "come_back", { voterId: null, at: start + 300_000 }),
    ];
    await f.volunteer.as.mutation(api.canvass.sync, { listId, events: vol });
    // the manager: 20 attempts, most of them contacts, at doors a minute apart
    const cmEvents = others
      .slice(2, 22)
      .map((d, i) => ev(d, i < 18 ? "contacted" : "refused", { at: start + 600_000 + i * 60_000 }));
    await cm.as.mutation(api.canvass.sync, { listId, events: cmEvents });
    // and the volunteer's thirty more doors, none contacted
    const more = others.slice(22, 52).map((d, i) => ev(d, "not_home", { at: start + 2_000_000 + i * 60_000 }));
    await f.volunteer.as.mutation(api.canvass.sync, { listId, events: more });

    const history = await f.viewer.as.query(api.canvass.voterHistory, { voterId: voters[0] });
    expect(history.map((h) => [h.resultLabel, h.door, h.listName])).toEqual([
      ["Come Back", true, "Centre walk"],
      ["Contacted", false, "Centre walk"],
    ]);
    expect(history[1]).toMatchObject({ notes: "Busy", answers: { support: "No" } });

    const board = await cm.as.query(api.canvass.dashboard, { listId });
    const all = [...vol, ...cmEvents, ...more];
    expect(board.list.attempts).toBe(all.length);
    expect(board.list.contacts).toBe(19);
    expect(board.list.doors).toBe(new Set(all.map((e) => e.doorId)).size);
    expect(board.list.contactRate).toBeCloseTo(19 / all.length);
    await rollUp(t, listId);
    expect(await progress(t, cm.as, listId)).toEqual([board.list.doors, 19]);
    const byId = new Map(board.canvassers.map((c) => [c.id, c]));
    expect(byId.get(f.volunteer.userId)).toMatchObject({ attempts: 34, doors: 33, contacts: 1, rateFlag: false });
    expect(byId.get(cm.userId)).toMatchObject({ attempts: 20, doors: 20, contacts: 18, rateFlag: true });
    expect(board.flags.map((x) => x.kind).sort()).toEqual(["far", "fast", "rate"]);
    expect(board.flags.find((x) => x.kind === "fast")!.message).toMatch(/two doors 10 s apart/);
    expect(board.flags.find((x) => x.kind === "far")!.message).toMatch(/ 3\d\d m from its door/);
    // the map's colours
    const states = await cm.as.query(api.canvass.doorStatesOf, { listId });
    expect(states.find((s) => s.doorId === home._id)).toMatchObject({ lastResult: "come_back", attempts: 2 });
  });
});
