/**
 * What the organiser's live canvass dashboard and the voter file read about canvassing (issue 38),
 * beside convex/canvass.ts: a list's doors and turf for the dashboard's map (campaigns.manage), a
 * voter's canvass flags (voters.view), and how many of a survey's latest submissions were recorded
 * at a door (surveys.view).
 */
import { v } from "convex/values";
import { orgQuery } from "./functions";
import { appError } from "./lib/errors";
import { canSeeVoters } from "./model/personalData";
import { displayName } from "./model/presence";
import { loadDoors } from "./model/turf";
import { vVoterFlagKind } from "./tables/canvass";

/** The survey summary's sample (surveySubmissions.SUMMARY_SAMPLE: a public module imports no other). */
export const CANVASS_SAMPLE = 2_000;

/**
 * A list's doors in walking order (positions; addresses for members who may see voters) and its
 * turf's outline, for the dashboard's map; null when the list does not exist. Nothing here changes
 * as results arrive (the doors' results come live from canvass.doorStatesOf), unlike walkLists.get,
 * which is read again with the list's progress.
 */
export const listMap = orgQuery("campaigns.manage")({
  args: { listId: v.id("walkLists") },
  returns: v.union(
    v.object({
      /** the turf's drawn or boundary area (GeoJSON text; null: cut from a group or segment, or no turf) */
      turfArea: v.union(v.string(), v.null()),
      doors: v.array(
        v.object({
          id: v.id("doors"),
          order: v.number(),
          lat: v.number(),
          lng: v.number(),
          address: v.union(v.string(), v.null()),
        }),
      ),
    }),
    v.null(),
  ),
  handler: async (ctx, { listId }) => {
    const list = await ctx.db.get("walkLists", listId);
    // null: the list is gone (deleted while the dashboard is open), so the page says so instead of failing
    if (!list) return null;
    const seeVoters = canSeeVoters(ctx.viewer);
    const turf = await ctx.db.get("turfs", list.turfId);
    let order = 0;
    const doors = (await loadDoors(ctx.db, list.doorIds)).map((d) => ({
      id: d._id,
      order: ++order,
      lat: d.lat,
      lng: d.lng,
      address: seeVoters ? `${d.number} ${d.street}${d.unit ? ` #${d.unit}` : ""}` : null,
    }));
    return { turfArea: turf?.area ?? null, doors };
  },
});

/** A voter's canvass flags (moved, wrong address, deceased, do not contact, added at a door): when, by whom, on which list. */
export const voterFlags = orgQuery("voters.view")({
  args: { voterId: v.id("voters") },
  returns: v.array(
    v.object({
      id: v.id("voterFlags"),
      kind: vVoterFlagKind,
      at: v.number(),
      byName: v.string(),
      listName: v.union(v.string(), v.null()),
    }),
  ),
  handler: async (ctx, { voterId }) => {
    if (!(await ctx.db.get("voters", voterId))) throw appError("NOT_FOUND");
    // one row per kind at most (model/canvass.ts flagVoter)
    const rows = await ctx.db
      .query("voterFlags")
      .withIndex("by_voter", (q) => q.eq("voterId", voterId))
      .take(20);
    const out = [];
    for (const f of rows.sort((a, b) => b.at - a.at)) {
      const by = await ctx.db.get("users", f.by);
      const event = f.eventId ? await ctx.db.get("canvassEvents", f.eventId) : null;
      const list = event ? await ctx.db.get("walkLists", event.listId) : null;
      out.push({
        id: f._id,
        kind: f.kind,
        at: f.at,
        byName: by ? displayName(by) : "A former member",
        listName: list?.name ?? null,
      });
    }
    return out;
  },
});

/**
 * How many of a survey's latest submissions (the same sample as the summary's) were recorded at a
 * door by canvassers; `sampled` when the survey has more submissions than the sample.
 */
export const surveyCanvass = orgQuery("surveys.view")({
  args: { surveyId: v.id("surveys") },
  returns: v.object({ canvass: v.number(), sampled: v.boolean() }),
  handler: async (ctx, { surveyId }) => {
    const survey = await ctx.db.get("surveys", surveyId);
    if (!survey) throw appError("NOT_FOUND");
    const rows = await ctx.db
      .query("surveySubmissions")
      .withIndex("by_survey", (q) => q.eq("surveyId", surveyId))
      .order("desc")
      .take(CANVASS_SAMPLE);
    return {
      canvass: rows.filter((r) => r.source === "canvass").length,
      sampled: survey.submissionCount > rows.length,
    };
  },
});
