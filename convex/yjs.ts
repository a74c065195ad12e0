/**
 * Co-edited Yjs documents (DESIGN.md §5), relayed and stored through Convex. A document is a room
 * ("campaign:<id>", model/rooms.ts): members holding the room kind's view permission pull and
 * acknowledge, those holding its edit permission push. Compaction is internal, scheduled by push.
 */
import { v } from "convex/values";
import { internalMutation, orgMutation, orgQuery } from "./functions";
import { openRoom } from "./model/rooms";
import * as yjs from "./model/yjs";
import { vYjsAckArgs, vYjsPullArgs, vYjsPullResult, vYjsPushArgs, vYjsPushResult } from "./tables/yjs";

/** What the client lacks after `after` (subscribe, and re-subscribe from `upTo`). */
export const pull = orgQuery(null)({
  args: vYjsPullArgs,
  returns: vYjsPullResult,
  handler: async (ctx, { docId, after, sessionId }) => {
    const room = await openRoom(ctx.db, ctx.viewer, docId, "view");
    return await yjs.pull(ctx.db, ctx.viewer.orgId, room.name, after, sessionId);
  },
});

/** Stores one update; returns its sequence number (a retried push is stored once). */
export const push = orgMutation(null)({
  args: vYjsPushArgs,
  returns: vYjsPushResult,
  handler: async (ctx, { docId, sessionId, clientSeq, update }) => {
    const room = await openRoom(ctx.db, ctx.viewer, docId, "edit");
    return await yjs.push(ctx, ctx.viewer, room.name, sessionId, clientSeq, update);
  },
});

/** The client applied everything up to `seq` and is connected: compaction keeps what it lacks. */
export const ack = orgMutation(null)({
  args: vYjsAckArgs,
  returns: v.null(),
  handler: async (ctx, { docId, sessionId, seq }) => {
    const room = await openRoom(ctx.db, ctx.viewer, docId, "view");
    await yjs.ack(ctx.db, ctx.viewer, room.name, sessionId, seq);
    return null;
  },
});

/** One compaction step (model/yjs.ts compactStep); schedules the next when work is left. */
export const compact = internalMutation({
  args: { docRef: v.id("yDocs") },
  returns: v.union(
    v.null(),
    v.object({
      folded: v.number(),
      deleted: v.number(),
      snapshotSeq: v.number(),
      snapshotBytes: v.number(),
      deletedThrough: v.number(),
      next: v.union(v.literal("now"), v.literal("later"), v.literal("none")),
    }),
  ),
  handler: async (ctx, { docRef }) => await yjs.compactStep(ctx, docRef),
});
