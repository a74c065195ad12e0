/**
 * What the canvasser's offline app (issue 38) reads beyond convex/canvass.ts: the phone and email
 * of a list's voters, cached with the list, so that a correction made at the door offline carries
 * the value it started from (the collaboration layer's base: a teammate's change meanwhile is kept
 * and named, never overwritten). Needs walk_lists.view on a list the caller sees (a Volunteer: one
 * assigned to them); without voters.view the list's voters are not shown, so neither are these.
 */
import { v } from "convex/values";
import { orgQuery } from "./functions";
import { visibleList } from "./model/canvass";
import { canSeeVoters } from "./model/personalData";
import { loadDoors } from "./model/turf";

export const contacts = orgQuery("walk_lists.view")({
  args: { listId: v.id("walkLists") },
  returns: v.array(
    v.object({
      voterId: v.id("voters"),
      phone: v.union(v.string(), v.null()),
      email: v.union(v.string(), v.null()),
    }),
  ),
  handler: async (ctx, { listId }) => {
    const list = await visibleList(ctx.db, ctx.viewer, listId);
    if (!canSeeVoters(ctx.viewer)) return [];
    const out = [];
    for (const door of await loadDoors(ctx.db, list.doorIds))
      for (const voterId of door.voterIds) {
        const voter = await ctx.db.get("voters", voterId);
        if (voter) out.push({ voterId, phone: voter.phone ?? null, email: voter.email ?? null });
      }
    return out;
  },
});
