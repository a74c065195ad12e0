/**
 * Presence: who is viewing or editing a record (a "room", model/rooms.ts). Members holding the
 * room's view permission join, beat, share a small awareness state and leave; the room's list is
 * one live query that re-runs only when someone joins, leaves or changes their state.
 */
import { v } from "convex/values";
import { internalMutation, orgMutation, orgQuery } from "./functions";
import * as presence from "./model/presence";
import { findRoom, openRoom } from "./model/rooms";
import { vPresenceEntry } from "./tables/collab";

const vRoomSession = { room: v.string(), sessionId: v.string() };

/**
 * Joins or renews. False, writing nothing, when the room's record is not (or no longer) in the
 * viewer's organisation: a teammate deleting a record while others have it open is not an error
 * for the beats and cursor updates still in flight from their tabs.
 */
export const heartbeat = orgMutation(null)({
  args: { ...vRoomSession, state: v.optional(v.any()) },
  returns: v.boolean(),
  handler: async (ctx, { room, sessionId, state }) => {
    presence.checkSessionId(sessionId);
    presence.checkState(state);
    if (!(await findRoom(ctx.db, ctx.viewer, room, "view"))) return false;
    await presence.heartbeat(ctx, ctx.viewer, room, sessionId, state);
    return true;
  },
});

/** Shares this tab's state; false, writing nothing, as heartbeat. */
export const setState = orgMutation(null)({
  args: { ...vRoomSession, state: v.any() },
  returns: v.boolean(),
  handler: async (ctx, { room, sessionId, state }) => {
    presence.checkSessionId(sessionId);
    presence.checkState(state);
    if (!(await findRoom(ctx.db, ctx.viewer, room, "view"))) return false;
    await presence.setState(ctx, ctx.viewer, room, sessionId, state);
    return true;
  },
});

export const leave = orgMutation(null)({
  args: vRoomSession,
  returns: v.null(),
  handler: async (ctx, { room, sessionId }) => {
    presence.checkSessionId(sessionId);
    await presence.leave(ctx, ctx.viewer, room, sessionId);
    return null;
  },
});

/** Everyone in the room (one entry per tab), oldest first. */
export const list = orgQuery(null)({
  args: { room: v.string() },
  returns: v.array(vPresenceEntry),
  handler: async (ctx, { room }) => {
    await openRoom(ctx.db, ctx.viewer, room, "view");
    const rows = await ctx.db
      .query("presence")
      .withIndex("by_room", (q) => q.eq("room", room))
      .take(100);
    return rows.map((r) => ({
      sessionId: r.sessionId,
      userId: r.userId,
      name: r.name,
      image: r.image,
      color: r.color,
      state: r.state,
    }));
  },
});

export const expire = internalMutation({
  args: { presenceId: v.id("presence") },
  returns: v.null(),
  handler: async (ctx, { presenceId }) => {
    await presence.expire(ctx, presenceId);
    return null;
  },
});
