/**
 * Upkeep of edit marks (model/collab.ts): the mark of a deleted record tells editors who deleted
 * it while their form is open; after EDIT_MARK_TOMBSTONE_DAYS nobody can still be editing it.
 */
import { v } from "convex/values";
import { internal } from "./_generated/api";
import { internalMutation } from "./functions";

export const EDIT_MARK_TOMBSTONE_DAYS = 30;
const BATCH = 500;

/** Deletes marks of records deleted more than 30 days ago, a batch per transaction. */
export const purgeDeleted = internalMutation({
  args: {},
  returns: v.number(),
  handler: async (ctx) => {
    const cutoff = Date.now() - EDIT_MARK_TOMBSTONE_DAYS * 86_400_000;
    const rows = await ctx.db
      .query("editMarks")
      .withIndex("by_deleted_at", (q) => q.gte("deleted.at", 0).lt("deleted.at", cutoff))
      .take(BATCH);
    for (const r of rows) await ctx.db.delete("editMarks", r._id);
    if (rows.length === BATCH) await ctx.scheduler.runAfter(0, internal.editMarks.purgeDeleted, {});
    return rows.length;
  },
});
