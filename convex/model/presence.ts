/**
 * Presence: who is in a room. A browser tab joins with a heartbeat, keeps beating every
 * PRESENCE_HEARTBEAT_MS and is gone PRESENCE_TIMEOUT_MS after its last beat (an expiry check
 * scheduled per row, re-armed from the last beat), or at once when it leaves.
 */
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import { internal } from "../_generated/api";
import { appError } from "../lib/errors";
import { PRESENCE_TIMEOUT_MS } from "../tables/collab";
import type { Viewer } from "./viewer";

/** Awareness state (cursor, selection, field in focus) is small: at most this much JSON. */
export const MAX_PRESENCE_STATE_CHARS = 2_000;
export const MAX_SESSION_ID_LENGTH = 64;

/** Radix colour scales, one per user (stable across rooms and sessions). */
export const PRESENCE_COLORS = [
  "tomato",
  "crimson",
  "plum",
  "violet",
  "indigo",
  "blue",
  "cyan",
  "teal",
  "jade",
  "grass",
  "orange",
  "brown",
] as const;

export function presenceColor(userId: string): string {
  let h = 0;
  for (let i = 0; i < userId.length; i++) h = (Math.imul(h, 31) + userId.charCodeAt(i)) | 0;
  return PRESENCE_COLORS[Math.abs(h) % PRESENCE_COLORS.length];
}

export function displayName(user: Doc<"users">): string {
  const full = [user.firstName, user.lastName].filter(Boolean).join(" ").trim();
  return user.name?.trim() || full || user.email || "A teammate";
}

export function checkSessionId(sessionId: string) {
  if (sessionId.length === 0 || sessionId.length > MAX_SESSION_ID_LENGTH || !/^[\w-]+$/.test(sessionId)) {
    throw appError("VALIDATION_ERROR", "Invalid presence session.");
  }
}

export function checkState(state: unknown) {
  if (state === undefined) return;
  const size = JSON.stringify(state)?.length ?? 0;
  if (size > MAX_PRESENCE_STATE_CHARS)
    throw appError("VALIDATION_ERROR", `Presence state is limited to ${MAX_PRESENCE_STATE_CHARS} characters.`);
}

async function findRow(ctx: Pick<MutationCtx, "db">, sessionId: string, room: string) {
  return await ctx.db
    .query("presence")
    .withIndex("by_session_room", (q) => q.eq("sessionId", sessionId).eq("room", room))
    .unique();
}

async function beatOf(ctx: Pick<MutationCtx, "db">, presenceId: Id<"presence">) {
  return await ctx.db
    .query("presenceBeats")
    .withIndex("by_presence", (q) => q.eq("presenceId", presenceId))
    .unique();
}

/**
 * Joins or keeps the viewer's tab in the room. A beat writes only `presenceBeats` (which no list
 * reads); `state`, when given and changed, updates the row the room's list shows.
 */
export async function heartbeat(ctx: MutationCtx, viewer: Viewer, room: string, sessionId: string, state: unknown) {
  const now = Date.now();
  const row = await findRow(ctx, sessionId, room);
  if (row && row.userId !== viewer.userId) throw appError("FORBIDDEN");
  if (row) {
    const beat = await beatOf(ctx, row._id);
    if (beat) await ctx.db.patch("presenceBeats", beat._id, { lastSeen: now });
    if (state !== undefined && JSON.stringify(state) !== JSON.stringify(row.state))
      await ctx.db.patch("presence", row._id, { state });
    return;
  }
  const presenceId = await ctx.db.insert("presence", {
    orgId: viewer.orgId,
    room,
    sessionId,
    userId: viewer.userId,
    name: displayName(viewer.user),
    image: viewer.user.image,
    color: presenceColor(viewer.userId),
    state,
    joinedAt: now,
  });
  const expiry = await ctx.scheduler.runAfter(PRESENCE_TIMEOUT_MS, internal.presence.expire, { presenceId });
  await ctx.db.insert("presenceBeats", { orgId: viewer.orgId, presenceId, lastSeen: now, expiry });
}

export async function setState(ctx: MutationCtx, viewer: Viewer, room: string, sessionId: string, state: unknown) {
  const row = await findRow(ctx, sessionId, room);
  if (!row) return heartbeat(ctx, viewer, room, sessionId, state);
  if (row.userId !== viewer.userId) throw appError("FORBIDDEN");
  if (JSON.stringify(state) !== JSON.stringify(row.state)) await ctx.db.patch("presence", row._id, { state });
}

export async function leave(ctx: MutationCtx, viewer: Viewer, room: string, sessionId: string) {
  const row = await findRow(ctx, sessionId, room);
  if (!row || row.userId !== viewer.userId) return;
  await removeRow(ctx, row._id);
}

async function removeRow(ctx: MutationCtx, presenceId: Id<"presence">) {
  const beat = await beatOf(ctx, presenceId);
  if (beat) {
    if (beat.expiry) {
      const job = await ctx.db.system.get("_scheduled_functions", beat.expiry);
      if (job && job.state.kind === "pending") await ctx.scheduler.cancel(beat.expiry);
    }
    await ctx.db.delete("presenceBeats", beat._id);
  }
  await ctx.db.delete("presence", presenceId);
}

/** The scheduled check: gone when the last beat is older than the timeout, else check again later. */
export async function expire(ctx: MutationCtx, presenceId: Id<"presence">) {
  const beat = await beatOf(ctx, presenceId);
  if (!beat) {
    if (await ctx.db.get("presence", presenceId)) await ctx.db.delete("presence", presenceId);
    return;
  }
  const due = beat.lastSeen + PRESENCE_TIMEOUT_MS;
  if (Date.now() >= due) {
    await ctx.db.delete("presenceBeats", beat._id);
    if (await ctx.db.get("presence", presenceId)) await ctx.db.delete("presence", presenceId);
    return;
  }
  const expiry = await ctx.scheduler.runAt(due, internal.presence.expire, { presenceId });
  await ctx.db.patch("presenceBeats", beat._id, { expiry });
}
