/**
 * Geocoding the voter file (model/geocode.ts): every member sees where the newest run stands and
 * how many voters each quality holds; a member who manages voters starts a run again (after an
 * import, say). The steps are internal, a chain of mutations.
 */
import { v } from "convex/values";
import { appError, internalMutation, orgMutation, orgQuery } from "./functions";
import { assignVoter } from "./model/districts";
import { geocodeStep, placeVoter, startGeocodeRun } from "./model/geocode";
import { readyLayer } from "./model/mapData";
import { geoTables } from "./tables/geo";

const runRow = geoTables.geocodeRuns.validator.pick(
  "status",
  "reason",
  "processed",
  "total",
  "counts",
  "startedAt",
  "finishedAt",
);

/** The newest run (null: none yet) and whether the organisation has streets to place voters on. */
export const status = orgQuery(null)({
  args: {},
  returns: v.object({
    hasStreets: v.boolean(),
    run: v.union(runRow.extend({ id: v.id("geocodeRuns") }), v.null()),
  }),
  handler: async (ctx) => {
    const run = await ctx.db
      .query("geocodeRuns")
      .withIndex("by_org", (q) => q.eq("orgId", ctx.viewer.orgId))
      .order("desc")
      .first();
    const streets = await readyLayer(ctx.db, ctx.viewer.orgId, "streets");
    return {
      hasStreets: streets !== null,
      run: run
        ? {
            id: run._id,
            status: run.status,
            reason: run.reason,
            processed: run.processed,
            total: run.total,
            counts: run.counts,
            startedAt: run.startedAt,
            finishedAt: run.finishedAt,
          }
        : null,
    };
  },
});

/** Places the organisation's voters again (those already placed from the same address are only counted). */
export const run = orgMutation("voters.manage")({
  args: {},
  returns: v.id("geocodeRuns"),
  handler: async (ctx) => {
    const streets = await readyLayer(ctx.db, ctx.viewer.orgId, "streets");
    if (!streets)
      throw appError(
        "VALIDATION_ERROR",
        "Add a streets layer under Account Settings → Map data first.",
        "No street map yet",
      );
    return await startGeocodeRun(ctx, ctx.viewer.orgId, "requested by a member", streets._id);
  },
});

export const step = internalMutation({
  args: { runId: v.id("geocodeRuns") },
  returns: v.null(),
  handler: async (ctx, { runId }) => {
    await geocodeStep(ctx, runId);
    return null;
  },
});

/** Places one voter whose address changed (scheduled by the voter's save). */
export const placeOne = internalMutation({
  args: { voterId: v.id("voters") },
  returns: v.null(),
  handler: async (ctx, { voterId }) => {
    const voter = await ctx.db.get("voters", voterId);
    if (!voter) return null;
    const streets = await readyLayer(ctx.db, voter.orgId, "streets");
    if (streets) await placeVoter(ctx, voter, streets, new Map());
    // its districts by outline follow its new place
    await assignVoter(ctx, voterId);
    return null;
  },
});
