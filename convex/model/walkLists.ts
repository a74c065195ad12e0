/**
 * Walk lists (issue 37): a turf's doors in walking order with a script, canvassers, a status and an
 * expiry. A list is open while it is not Completed and has not expired; an open list holds its
 * doors (doors.listId), and a door is held by at most one list. Holding is checked and written in
 * the same mutation, and Convex runs mutations serialisably: of organisers cutting the same doors at
 * once, one holds them and the others are told which lists hold how many.
 *
 * Choices: Scheduled and Paused lists stay open (they keep their doors: a paused list resumes where
 * it stopped, a scheduled one goes out as planned); Completed and expired lists let go of their
 * doors (they stay readable, with their progress). Reopening one holds its doors again, refused if
 * another list took them meanwhile. Extending an expired list's expiry reopens it the same way.
 */
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { internal } from "../_generated/api";
import { appError } from "../lib/errors";
import { TEXTS } from "../lib/texts";
import { walkOrder } from "../lib/turf/walkOrder";
import { markCell } from "./doors";
import type { WalkListStatus } from "../tables/walkLists";
import type { Viewer } from "./viewer";

type Db = QueryCtx["db"];

export const DEFAULT_EXPIRY_DAYS = 30;
export const DAY_MS = 86_400_000;
/** Most walk lists listed. */
export const MAX_LISTS = 500;

/** Whether a list with this status and expiry holds its doors now. */
export function isOpen(status: WalkListStatus, expiresAt: number, now = Date.now()): boolean {
  return status !== "Completed" && expiresAt > now;
}

/** Whether the viewer sees a list: managers see all; other holders of walk_lists.view only lists they are assigned to. */
export function canSeeList(viewer: Pick<Viewer, "userId" | "can">, list: Pick<Doc<"walkLists">, "assignees">): boolean {
  return viewer.can("campaigns.manage") || list.assignees.includes(viewer.userId);
}

export function cleanListName(name: string): string {
  const n = name.trim();
  if (!n) throw appError("VALIDATION_ERROR", TEXTS.walkLists.nameRequired, "Name required");
  if (n.length > 120) throw appError("VALIDATION_ERROR", "A walk list's name has at most 120 characters.");
  return n;
}

export async function checkAssignees(db: Db, orgId: Id<"organizations">, ids: Id<"users">[]) {
  if (ids.length > 50) throw appError("VALIDATION_ERROR", "A walk list has at most 50 canvassers.");
  for (const userId of ids) {
    const m = await db
      .query("memberships")
      .withIndex("by_org_user", (q) => q.eq("orgId", orgId).eq("userId", userId))
      .unique();
    if (!m || m.status !== "active") throw appError("VALIDATION_ERROR", TEXTS.walkLists.notMember);
  }
}

export async function checkSurvey(db: Db, surveyId: Id<"surveys"> | null) {
  if (surveyId !== null && !(await db.get("surveys", surveyId)))
    throw appError("VALIDATION_ERROR", "Please choose one of your surveys as the script.");
}

export function checkExpiry(expiresAt: number, now = Date.now()) {
  if (!Number.isFinite(expiresAt) || expiresAt <= now) throw appError("VALIDATION_ERROR", TEXTS.walkLists.expiryPast);
}

/**
 * Holds doors for a list. `leaveOutTaken`: doors another open list holds are left out; otherwise
 * the whole hold is refused naming how many doors which lists hold. Returns the doors held.
 */
export async function holdDoors(
  ctx: Pick<MutationCtx, "db" | "scheduler">,
  listId: Id<"walkLists">,
  doors: Doc<"doors">[],
  leaveOutTaken: boolean,
): Promise<Doc<"doors">[]> {
  const now = Date.now();
  const free: Doc<"doors">[] = [];
  const taken = new Map<Id<"walkLists">, number>();
  const holders = new Map<Id<"walkLists">, Doc<"walkLists"> | null>();
  for (const door of doors) {
    if (door.listId && door.listId !== listId) {
      if (!holders.has(door.listId)) holders.set(door.listId, await ctx.db.get("walkLists", door.listId));
      const holder = holders.get(door.listId);
      // a holder that is gone or no longer open has let go (its release may still be under way)
      if (holder && holder.holds && isOpen(holder.status, holder.expiresAt, now)) {
        taken.set(holder._id, (taken.get(holder._id) ?? 0) + 1);
        continue;
      }
    }
    free.push(door);
  }
  if (taken.size > 0 && !leaveOutTaken) {
    const parts = [...taken].map(([id, n]) => {
      const name = holders.get(id)!.name;
      return `${n.toLocaleString("en-US")} ${n === 1 ? "door is" : "doors are"} already in the walk list "${name}"`;
    });
    throw appError("CONFLICT", TEXTS.walkLists.doorsTaken(parts), "Doors already assigned");
  }
  for (const door of free)
    if (door.listId !== listId) {
      await ctx.db.patch("doors", door._id, { listId });
      await markCell(ctx, door.orgId, door.cell);
    }
  return free;
}

/** Lets go of a list's doors (those it still holds). */
export async function releaseDoors(ctx: Pick<MutationCtx, "db" | "scheduler">, list: Doc<"walkLists">) {
  for (const id of list.doorIds) {
    const door = await ctx.db.get("doors", id);
    if (door && door.listId === list._id) {
      await ctx.db.patch("doors", id, { listId: null });
      await markCell(ctx, door.orgId, door.cell);
    }
  }
}

/** The doors (ids) in walking order. */
export function orderDoors(doors: Doc<"doors">[]): Id<"doors">[] {
  return walkOrder(doors).map((i) => doors[i]._id);
}

/** Schedules the release of the list's doors at its expiry. */
export async function scheduleExpiry(ctx: MutationCtx, list: Pick<Doc<"walkLists">, "_id" | "expiresAt">) {
  await ctx.scheduler.runAt(list.expiresAt, internal.walkLists.expire, { listId: list._id });
}

/** At (or after) its expiry an open list lets go of its doors. */
export async function expireList(ctx: MutationCtx, listId: Id<"walkLists">) {
  const list = await ctx.db.get("walkLists", listId);
  if (!list || !list.holds || list.expiresAt > Date.now()) return;
  await releaseDoors(ctx, list);
  await ctx.db.patch("walkLists", listId, { holds: false });
}

/**
 * After a list's status or expiry changed: holds its doors when it became open (refused if others
 * took them), lets go when it closed.
 */
export async function applyOpenness(
  ctx: MutationCtx,
  list: Doc<"walkLists">,
  next: { status: WalkListStatus; expiresAt: number },
) {
  const open = isOpen(next.status, next.expiresAt);
  if (open && !list.holds) {
    const doors = (await Promise.all(list.doorIds.map((id) => ctx.db.get("doors", id)))).filter(
      (d): d is Doc<"doors"> => d !== null,
    );
    await holdDoors(ctx, list._id, doors, false);
    await ctx.db.patch("walkLists", list._id, { holds: true });
  } else if (!open && list.holds) {
    await releaseDoors(ctx, list);
    await ctx.db.patch("walkLists", list._id, { holds: false });
  }
  // a list that opens again (or whose expiry moved) lets go at its expiry: an earlier timer only acts when due
  if (open && (!list.holds || next.expiresAt !== list.expiresAt))
    await scheduleExpiry(ctx, { _id: list._id, expiresAt: next.expiresAt });
}
