/**
 * Canvassing's claims (issue 38): "N doors near me" hands a canvasser the nearest doors of an open
 * list that nobody has knocked on or holds, for an hour; claims are let go or expire and return.
 */
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import { internal } from "../_generated/api";
import { CLAIM_MS, MAX_CLAIM, MAX_HELD_CLAIMS } from "../lib/canvass";
import { appError } from "../lib/errors";
import { TEXTS } from "../lib/texts";
import { metres } from "../lib/turf/geometry";
import { visibleList } from "./canvass";
import type { Viewer } from "./viewer";
import { isOpen } from "./walkLists";

/** Whether a claim holds its door now. */
export function claimHolds(c: Pick<Doc<"canvassClaims">, "expiresAt">, now = Date.now()) {
  return c.expiresAt > now;
}

/**
 * Hands the viewer the `count` nearest doors of an Active list that nobody has knocked on or holds.
 * Mutations run serialisably: of canvassers claiming at once, each door goes to one.
 */
export async function claimDoors(
  ctx: MutationCtx,
  viewer: Viewer,
  listId: Id<"walkLists">,
  near: { lat: number; lng: number },
  count: number,
) {
  if (!Number.isInteger(count) || count < 1 || count > MAX_CLAIM)
    throw appError("VALIDATION_ERROR", TEXTS.canvass.claimCount(MAX_CLAIM));
  const list = await visibleList(ctx.db, viewer, listId);
  const now = Date.now();
  if (list.status === "Completed") throw appError("VALIDATION_ERROR", TEXTS.canvass.listClosed);
  if (list.status !== "Active" || !isOpen(list.status, list.expiresAt, now))
    throw appError("VALIDATION_ERROR", TEXTS.canvass.notActive);
  const claims = await ctx.db
    .query("canvassClaims")
    .withIndex("by_list_door", (q) => q.eq("listId", listId))
    .collect();
  const claimOf = new Map(claims.map((c) => [c.doorId, c]));
  const held = claims.filter((c) => c.canvasserId === viewer.userId && claimHolds(c, now)).length;
  const room = Math.min(count, MAX_HELD_CLAIMS - held);
  if (room <= 0) throw appError("VALIDATION_ERROR", TEXTS.canvass.claimLimit(MAX_HELD_CLAIMS));
  const knocked = new Set(
    (
      await ctx.db
        .query("canvassDoors")
        .withIndex("by_list_door", (q) => q.eq("listId", listId))
        .collect()
    ).map((s) => s.doorId),
  );
  const candidates: Doc<"doors">[] = [];
  for (const id of list.doorIds) {
    if (knocked.has(id)) continue;
    const c = claimOf.get(id);
    if (c && claimHolds(c, now)) continue;
    const door = await ctx.db.get("doors", id);
    if (door) candidates.push(door);
  }
  const chosen = candidates
    .map((d) => ({ d, m: metres(near.lat, near.lng, d.lat, d.lng) }))
    .sort((a, b) => a.m - b.m)
    .slice(0, room)
    .map(({ d }) => d);
  const expiresAt = now + CLAIM_MS;
  for (const d of chosen) {
    const old = claimOf.get(d._id);
    if (old) await ctx.db.patch("canvassClaims", old._id, { canvasserId: viewer.userId, expiresAt });
    else
      await ctx.db.insert("canvassClaims", {
        orgId: viewer.orgId,
        listId,
        doorId: d._id,
        canvasserId: viewer.userId,
        expiresAt,
      });
  }
  if (chosen.length > 0) await ctx.scheduler.runAt(expiresAt, internal.canvass.expireClaims, { listId });
  return {
    doors: chosen.map((d) => ({ doorId: d._id, lat: d.lat, lng: d.lng, expiresAt })),
    held: held + chosen.length,
  };
}

/** Lets go of the viewer's claims on a list (those doors only, when given); returns how many were holding. */
export async function releaseClaims(
  ctx: MutationCtx,
  viewer: Viewer,
  listId: Id<"walkLists">,
  doorIds: Id<"doors">[] | null,
): Promise<number> {
  await visibleList(ctx.db, viewer, listId);
  const mine = await ctx.db
    .query("canvassClaims")
    .withIndex("by_list_canvasser", (q) => q.eq("listId", listId).eq("canvasserId", viewer.userId))
    .collect();
  const only = doorIds ? new Set<string>(doorIds) : null;
  const now = Date.now();
  let n = 0;
  for (const c of mine)
    if (!only || only.has(c.doorId)) {
      await ctx.db.delete("canvassClaims", c._id);
      // expired ones go too, uncounted
      if (claimHolds(c, now)) n++;
    }
  return n;
}

/** Expired claims of a list go (scheduled at a claim's expiry; claims are also treated as free once expired). */
export async function expireClaims(ctx: MutationCtx, listId: Id<"walkLists">) {
  const now = Date.now();
  const claims = await ctx.db
    .query("canvassClaims")
    .withIndex("by_list_door", (q) => q.eq("listId", listId))
    .take(4_000);
  for (const c of claims) if (!claimHolds(c, now)) await ctx.db.delete("canvassClaims", c._id);
}
