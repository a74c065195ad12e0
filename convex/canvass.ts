/**
 * Canvassing (issue 38): the canvasser's app syncs its outbox here (each action recorded once by
 * its client id, in the outbox's order, with its effects on the voter file in the same mutation),
 * claims doors near them, and caches a list for offline work; the organiser's dashboard reads
 * tallies and flags kept as results arrive. Recording and claiming need walk_lists.view on a list
 * the caller sees (a Volunteer: lists assigned to them; a Campaign Manager: any); the dashboard
 * needs campaigns.manage; a voter's canvass history needs voters.view. Logic: model/canvass.ts.
 */
import { v } from "convex/values";
import type { Id } from "./_generated/dataModel";
import { internalMutation, orgMutation, orgQuery } from "./functions";
import { appError } from "./lib/errors";
import {
  CHOICE_TYPES,
  contactRate,
  flagMessage,
  rateFlag,
  RESULT_CODES,
  RESULT_LABELS,
  sumAnswerCounts,
} from "./lib/canvass";
import { listProgress, listTallies, rollUp as rollUpList, syncEvents, visibleList, voterDoor } from "./model/canvass";
import { claimDoors, claimHolds, expireClaims as expireListClaims, releaseClaims } from "./model/canvassClaims";
import { canSeeVoters } from "./model/personalData";
import { displayName } from "./model/presence";
import { loadDoors } from "./model/turf";
import { DAY_MS, isOpen } from "./model/walkLists";
import { vAnswer, vSurveyPage } from "./tables/surveys";
import { vAnswerCounts, vCanvassEvent, vGps, vResultCode, vResultCounts } from "./tables/canvass";
import { vWalkListStatus } from "./tables/walkLists";

const vOutcome = v.object({
  clientId: v.string(),
  status: v.union(v.literal("recorded"), v.literal("duplicate"), v.literal("refused")),
  eventId: v.union(v.id("canvassEvents"), v.null()),
  /** refused: why; recorded or duplicate: what else to know (a voter edit kept a teammate's value) */
  message: v.union(v.string(), v.null()),
});

/**
 * Records up to 100 outbox actions on one list, in seq order, each once by client id (a replay is
 * "duplicate" with the first outcome); per action: recorded, duplicate, or refused with a sentence.
 */
export const sync = orgMutation("walk_lists.view")({
  args: { listId: v.id("walkLists"), events: v.array(vCanvassEvent) },
  returns: v.object({ outcomes: v.array(vOutcome) }),
  handler: async (ctx, { listId, events }) => ({
    outcomes: await syncEvents(ctx, ctx.viewer, listId, events),
  }),
});

/** Hands the caller up to `count` (≤ 25) unclaimed, unknocked doors of an Active list, nearest first, for an hour. */
export const claim = orgMutation("walk_lists.view")({
  args: {
    listId: v.id("walkLists"),
    near: v.object({ lat: v.number(), lng: v.number() }),
    count: v.number(),
  },
  returns: v.object({
    doors: v.array(v.object({ doorId: v.id("doors"), lat: v.number(), lng: v.number(), expiresAt: v.number() })),
    /** doors the caller now holds on the list */
    held: v.number(),
  }),
  handler: async (ctx, { listId, near, count }) => await claimDoors(ctx, ctx.viewer, listId, near, count),
});

/** Lets go of the caller's claims on a list (only these doors, when given). Returns how many. */
export const release = orgMutation("walk_lists.view")({
  args: { listId: v.id("walkLists"), doorIds: v.optional(v.array(v.id("doors"))) },
  returns: v.number(),
  handler: async (ctx, { listId, doorIds }) => await releaseClaims(ctx, ctx.viewer, listId, doorIds ?? null),
});

/** At a claim's expiry: the list's expired claims go. */
export const expireClaims = internalMutation({
  args: { listId: v.id("walkLists") },
  returns: v.null(),
  handler: async (ctx, { listId }) => {
    await expireListClaims(ctx, listId);
    return null;
  },
});

/** Shortly after syncs: a list's progress and its contacted doors' packed copy ("list:<id>"), a survey's count ("survey:<id>"). */
export const rollUp = internalMutation({
  args: { key: v.string() },
  returns: v.null(),
  handler: async (ctx, { key }) => {
    await rollUpList(ctx, key);
    return null;
  },
});

const vMyList = v.object({
  id: v.id("walkLists"),
  name: v.string(),
  status: vWalkListStatus,
  expiresAt: v.number(),
  surveyName: v.union(v.string(), v.null()),
  doors: v.number(),
  knocked: v.number(),
  contacts: v.number(),
});

/** The open lists the caller is assigned to (the canvasser's start screen), newest first. */
export const myLists = orgQuery("walk_lists.view")({
  args: {},
  returns: v.array(vMyList),
  handler: async (ctx) => {
    const rows = await ctx.db
      .query("walkLists")
      .withIndex("by_org", (q) => q.eq("orgId", ctx.viewer.orgId))
      .order("desc")
      .take(500);
    const out = [];
    for (const l of rows) {
      if (!l.assignees.includes(ctx.viewer.userId) || !isOpen(l.status, l.expiresAt)) continue;
      const survey = l.surveyId ? await ctx.db.get("surveys", l.surveyId) : null;
      const progress = await listProgress(ctx.db, l);
      out.push({
        id: l._id,
        name: l.name,
        status: l.status,
        expiresAt: l.expiresAt,
        surveyName: survey?.name ?? null,
        doors: l.doors,
        knocked: progress.knocked,
        contacts: progress.contacts,
      });
    }
    return out;
  },
});

const vDoorState = v.object({
  doorId: v.id("doors"),
  lastResult: vResultCode,
  lastAt: v.number(),
  attempts: v.number(),
});

async function doorStates(ctx: { db: Parameters<typeof visibleList>[0] }, listId: Id<"walkLists">) {
  const rows = await ctx.db
    .query("canvassDoors")
    .withIndex("by_list_door", (q) => q.eq("listId", listId))
    .collect();
  return rows.map((r) => ({ doorId: r.doorId, lastResult: r.lastResult, lastAt: r.lastAt, attempts: r.attempts }));
}

/**
 * Everything the offline app caches for a list: its doors in walking order with their voters (for
 * members who may see voters), the script survey, door states and the caller's claims.
 */
export const bundle = orgQuery("walk_lists.view")({
  args: { listId: v.id("walkLists") },
  returns: v.object({
    list: v.object({
      id: v.id("walkLists"),
      name: v.string(),
      status: vWalkListStatus,
      expiresAt: v.number(),
      open: v.boolean(),
    }),
    survey: v.union(v.object({ id: v.id("surveys"), name: v.string(), pages: v.array(vSurveyPage) }), v.null()),
    doors: v.array(
      v.object({
        order: v.number(),
        id: v.id("doors"),
        lat: v.number(),
        lng: v.number(),
        address: v.union(v.string(), v.null()),
        unit: v.union(v.string(), v.null()),
        voters: v.array(
          v.object({
            id: v.id("voters"),
            name: v.string(),
            age: v.union(v.number(), v.null()),
            party: v.union(v.string(), v.null()),
          }),
        ),
        voterCount: v.number(),
        /** claimed by the caller, by someone else, or nobody (an expired claim is nobody's) */
        claim: v.union(v.literal("mine"), v.literal("other"), v.null()),
      }),
    ),
    states: v.array(vDoorState),
    myClaims: v.array(v.object({ doorId: v.id("doors"), expiresAt: v.number() })),
  }),
  handler: async (ctx, { listId }) => {
    const l = await visibleList(ctx.db, ctx.viewer, listId);
    const seeVoters = canSeeVoters(ctx.viewer);
    const now = Date.now();
    const claims = (
      await ctx.db
        .query("canvassClaims")
        .withIndex("by_list_door", (q) => q.eq("listId", listId))
        .collect()
    ).filter((c) => claimHolds(c, now));
    const claimOf = new Map(claims.map((c) => [c.doorId, c]));
    const doors = [];
    let order = 0;
    for (const d of await loadDoors(ctx.db, l.doorIds)) {
      order++;
      const voters = [];
      if (seeVoters)
        for (const vid of d.voterIds) {
          const voter = await ctx.db.get("voters", vid);
          if (!voter) continue;
          const born = voter.date_of_birth ? new Date(voter.date_of_birth) : null;
          const age =
            born && !Number.isNaN(born.getTime()) ? Math.floor((now - born.getTime()) / (365.25 * DAY_MS)) : null;
          voters.push({
            id: voter._id,
            name: [voter.first_name, voter.last_name].filter(Boolean).join(" ") || "Unnamed voter",
            age,
            party: voter.party_affiliation ?? null,
          });
        }
      const c = claimOf.get(d._id);
      doors.push({
        order,
        id: d._id,
        lat: d.lat,
        lng: d.lng,
        address: seeVoters ? `${d.number} ${d.street}` : null,
        unit: seeVoters ? d.unit : null,
        voters,
        voterCount: d.voterIds.length,
        claim: c ? (c.canvasserId === ctx.viewer.userId ? ("mine" as const) : ("other" as const)) : null,
      });
    }
    const survey = l.surveyId ? await ctx.db.get("surveys", l.surveyId) : null;
    return {
      list: { id: l._id, name: l.name, status: l.status, expiresAt: l.expiresAt, open: isOpen(l.status, l.expiresAt) },
      survey: survey ? { id: survey._id, name: survey.name, pages: survey.pages } : null,
      doors,
      states: await doorStates(ctx, listId),
      myClaims: claims
        .filter((c) => c.canvasserId === ctx.viewer.userId)
        .map((c) => ({ doorId: c.doorId, expiresAt: c.expiresAt })),
    };
  },
});

/** The list's doors that have results: last result, when, attempts (the map's colours, live). */
export const doorStatesOf = orgQuery("walk_lists.view")({
  args: { listId: v.id("walkLists") },
  returns: v.array(vDoorState),
  handler: async (ctx, { listId }) => {
    await visibleList(ctx.db, ctx.viewer, listId);
    return await doorStates(ctx, listId);
  },
});

const vFigures = v.object({
  attempts: v.number(),
  doors: v.number(),
  contacts: v.number(),
  contactRate: v.number(),
  results: vResultCounts,
  lastAt: v.union(v.number(), v.null()),
  flags: v.number(),
});

/** Flags listed on the dashboard (the newest). */
const FLAGS_SHOWN = 100;

/**
 * The organiser's live dashboard of one list, from tallies: its figures, each canvasser's (with a
 * flag when their contact rate is far above the list's), answers to the script's choice questions,
 * and the newest data-quality flags in words.
 */
export const dashboard = orgQuery("campaigns.manage")({
  args: { listId: v.id("walkLists") },
  returns: v.object({
    list: vFigures.extend({ id: v.id("walkLists"), name: v.string(), doorsTotal: v.number() }),
    canvassers: v.array(
      vFigures.extend({ id: v.id("users"), name: v.string(), rateFlag: v.boolean(), rateTimes: v.number() }),
    ),
    questions: v.array(
      v.object({
        field: v.string(),
        label: v.string(),
        options: v.array(v.object({ option: v.string(), count: v.number() })),
      }),
    ),
    flags: v.array(
      v.object({
        kind: v.union(v.literal("far"), v.literal("fast"), v.literal("rate")),
        canvasserId: v.id("users"),
        /** null: a canvasser's contact rate (no one door) */
        doorId: v.union(v.id("doors"), v.null()),
        at: v.number(),
        message: v.string(),
      }),
    ),
    answerCounts: vAnswerCounts,
  }),
  handler: async (ctx, { listId }) => {
    const l = await ctx.db.get("walkLists", listId);
    if (!l) throw appError("NOT_FOUND");
    const tallies = await listTallies(ctx.db, listId);
    const names = new Map<string, string>();
    const nameOf = async (id: Id<"users">) => {
      if (!names.has(id)) {
        const u = await ctx.db.get("users", id);
        names.set(id, u ? displayName(u) : "A former member");
      }
      return names.get(id)!;
    };
    const figures = (t: (typeof tallies)[number] | undefined) => ({
      attempts: t?.attempts ?? 0,
      doors: t?.doors ?? 0,
      contacts: t?.contacts ?? 0,
      contactRate: contactRate(t?.contacts ?? 0, t?.attempts ?? 0),
      results: t?.results ?? {
        not_home: 0,
        contacted: 0,
        refused: 0,
        moved: 0,
        deceased: 0,
        inaccessible: 0,
        come_back: 0,
      },
      lastAt: t?.lastAt ?? null,
      flags: t?.flags ?? 0,
    });
    // the list's figures: its canvassers' summed
    const whole = {
      attempts: 0,
      doors: 0,
      contacts: 0,
      results: { not_home: 0, contacted: 0, refused: 0, moved: 0, deceased: 0, inaccessible: 0, come_back: 0 },
      lastAt: null as number | null,
      flags: 0,
    };
    for (const t of tallies) {
      whole.attempts += t.attempts;
      whole.doors += t.firstKnocks;
      whole.contacts += t.contacts;
      for (const r of RESULT_CODES) whole.results[r] += t.results[r];
      whole.lastAt = Math.max(whole.lastAt ?? 0, t.lastAt ?? 0) || null;
      whole.flags += t.flags;
    }
    const listFigures = { ...whole, contactRate: contactRate(whole.contacts, whole.attempts) };
    const canvassers = [];
    for (const t of tallies) {
      const f = figures(t);
      const flagged = rateFlag(f, listFigures);
      canvassers.push({
        ...f,
        id: t.canvasserId,
        name: await nameOf(t.canvasserId),
        rateFlag: flagged,
        rateTimes: listFigures.contactRate > 0 ? f.contactRate / listFigures.contactRate : 0,
      });
    }
    canvassers.sort((a, b) => (b.lastAt ?? 0) - (a.lastAt ?? 0));
    const survey = l.surveyId ? await ctx.db.get("surveys", l.surveyId) : null;
    const counts = sumAnswerCounts(tallies.map((t) => t.answers));
    const questions = (survey?.pages ?? [])
      .flatMap((p) => p.fields)
      .filter((f) => CHOICE_TYPES.has(f.type))
      .map((f) => ({
        field: f.id,
        label: f.label,
        options: [
          ...f.options.map((o) => ({
            option: o,
            count: counts.find((c) => c.field === f.id && c.option === o)?.n ?? 0,
          })),
          // answers to options the survey no longer offers still count
          ...counts
            .filter((c) => c.field === f.id && !f.options.includes(c.option))
            .map((c) => ({ option: c.option, count: c.n })),
        ],
      }));
    const flagRows = await ctx.db
      .query("canvassFlags")
      .withIndex("by_list", (q) => q.eq("listId", listId))
      .order("desc")
      .take(FLAGS_SHOWN);
    const flags: {
      kind: "far" | "fast" | "rate";
      canvasserId: Id<"users">;
      doorId: Id<"doors"> | null;
      at: number;
      message: string;
    }[] = [];
    // a contact rate far above the list's, from the tallies (it moves with every result of the list)
    for (const c of canvassers)
      if (c.rateFlag)
        flags.push({
          kind: "rate",
          canvasserId: c.id,
          doorId: null,
          at: c.lastAt ?? 0,
          message: flagMessage("rate", c.name, c.rateTimes),
        });
    for (const f of flagRows)
      flags.push({
        kind: f.kind,
        canvasserId: f.canvasserId,
        doorId: f.doorId,
        at: f.at,
        message: flagMessage(f.kind, await nameOf(f.canvasserId), f.amount),
      });
    return {
      list: { ...listFigures, id: l._id, name: l.name, doorsTotal: l.doors },
      canvassers,
      questions,
      flags,
      answerCounts: counts,
    };
  },
});

/** A voter's canvass history, newest first: their own results and the results at their door as a whole. */
export const voterHistory = orgQuery("voters.view")({
  args: { voterId: v.id("voters") },
  returns: v.array(
    v.object({
      id: v.id("canvassEvents"),
      at: v.number(),
      result: vResultCode,
      resultLabel: v.string(),
      listId: v.id("walkLists"),
      listName: v.union(v.string(), v.null()),
      canvasserName: v.string(),
      /** true: recorded for the whole door */
      door: v.boolean(),
      notes: v.union(v.string(), v.null()),
      answers: v.union(v.record(v.string(), vAnswer), v.null()),
      doNotContact: v.boolean(),
      wrongAddress: v.boolean(),
      gps: v.optional(vGps),
    }),
  ),
  handler: async (ctx, { voterId }) => {
    const voter = await ctx.db.get("voters", voterId);
    if (!voter) throw appError("NOT_FOUND");
    const own = await ctx.db
      .query("canvassEvents")
      .withIndex("by_voter", (q) => q.eq("voterId", voterId))
      .order("desc")
      .take(100);
    const door = await voterDoor(ctx.db, ctx.viewer.orgId, voterId);
    const atDoor = door
      ? (
          await ctx.db
            .query("canvassEvents")
            .withIndex("by_door", (q) => q.eq("doorId", door._id))
            .order("desc")
            .take(100)
        ).filter((e) => e.voterId === null)
      : [];
    const names = new Map<string, string | null>();
    const out = [];
    for (const e of [...own, ...atDoor].sort((a, b) => b.at - a.at).slice(0, 100)) {
      if (!names.has(e.listId)) names.set(e.listId, (await ctx.db.get("walkLists", e.listId))?.name ?? null);
      if (!names.has(e.canvasserId)) {
        const u = await ctx.db.get("users", e.canvasserId);
        names.set(e.canvasserId, u ? displayName(u) : "A former member");
      }
      const submission = e.submissionId ? await ctx.db.get("surveySubmissions", e.submissionId) : null;
      out.push({
        id: e._id,
        at: e.at,
        result: e.result,
        resultLabel: RESULT_LABELS[e.result],
        listId: e.listId,
        listName: names.get(e.listId) ?? null,
        canvasserName: names.get(e.canvasserId) ?? "A former member",
        door: e.voterId === null,
        notes: e.notes,
        answers: submission?.responses ?? null,
        doNotContact: e.doNotContact,
        wrongAddress: e.wrongAddress,
        ...(e.gps ? { gps: e.gps } : {}),
      });
    }
    return out;
  },
});
