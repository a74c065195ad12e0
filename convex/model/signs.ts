/**
 * Sign rules (spec/3 §4, §5) and the bookkeeping behind the map: every write of a sign goes
 * through `writeSign` here, which keeps the per-tile counts (signCells) and the organisation's
 * timer in step with the sign.
 */
import type { Doc, Id } from "../_generated/dataModel";
import { internal } from "../_generated/api";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { appError } from "../lib/errors";
import { MAX_CELL_LEVEL, quadkey, validPoint } from "../lib/signs/geo";
import type { SignStatus } from "../tables/signs";
import { TEXTS } from "../lib/texts";

export const MAX_ADDRESS = 300;
export const MAX_NOTES = 2_000;
/** Signs moved along per run of the timer (more: it runs again at once). */
export const TIMER_BATCH = 200;

type Db = MutationCtx["db"];
type SignDoc = Doc<"signs">;
/** What a sign's bookkeeping depends on. */
type Placed = Pick<SignDoc, "orgId" | "status" | "latitude" | "longitude" | "quadkey">;

/** spec/3 §4: Scheduled while the placement is ahead, else Active; a removed sign stays Removed. */
export function statusAt(datePlaced: number, now: number, current: SignStatus | null): SignStatus {
  if (current === "Removed") return "Removed";
  return datePlaced > now ? "Scheduled" : "Active";
}

export function pickupDueAt(status: SignStatus, dateRemoval: number, now: number): boolean {
  return status === "Active" && dateRemoval <= now;
}

export function cleanAddress(address: string): string {
  const a = address.trim().replace(/\s+/g, " ");
  if (a.length > MAX_ADDRESS) throw appError("VALIDATION_ERROR", `An address is limited to ${MAX_ADDRESS} characters.`);
  return a;
}

export function cleanNotes(notes: string): string {
  const n = notes.trim();
  if (n.length > MAX_NOTES)
    throw appError("VALIDATION_ERROR", `Notes are limited to ${MAX_NOTES.toLocaleString("en-US")} characters.`);
  return n;
}

export function checkPoint(lat: number, lng: number) {
  if (!validPoint(lat, lng))
    throw appError(
      "VALIDATION_ERROR",
      "Latitude must be between -90 and 90 and longitude between -180 and 180.",
      "Invalid location",
    );
}

export function checkDates(datePlaced: number, dateRemoval: number) {
  if (!Number.isFinite(datePlaced) || !Number.isFinite(dateRemoval))
    throw appError("VALIDATION_ERROR", "Please enter valid dates.");
  if (dateRemoval <= datePlaced)
    throw appError("VALIDATION_ERROR", "The removal date must be after the placement date.", "Check the dates");
}

/** The campaign must be one of the organisation's (the org database only sees those). */
export async function checkCampaign(db: QueryCtx["db"], campaignId: Id<"campaigns">) {
  const c = await db.get("campaigns", campaignId);
  if (!c)
    throw appError(
      "VALIDATION_ERROR",
      "Please choose one of your organization's campaigns.",
      TEXTS.titles.requiredMissing,
    );
  return c;
}

/** A responsible user or assigner must be an active member of the organisation. */
export async function checkMember(db: QueryCtx["db"], orgId: Id<"organizations">, userId: Id<"users"> | null) {
  if (userId === null) return;
  const m = await db
    .query("memberships")
    .withIndex("by_org_user", (q) => q.eq("orgId", orgId).eq("userId", userId))
    .unique();
  if (!m || m.status !== "active") throw appError("VALIDATION_ERROR", "Please choose a member of your organization.");
}

type Delta = { count: number; lat: number; lng: number };

/** Adds `sign`'s contribution (sign = +1 or -1) to the per-tile counts, merged into `deltas`. */
function addDeltas(deltas: Map<string, Map<SignStatus, Delta>>, s: Placed, sign: 1 | -1) {
  for (let level = 0; level <= MAX_CELL_LEVEL; level++) {
    const key = s.quadkey.slice(0, level);
    const id = `${level}:${key}`;
    const per = deltas.get(id) ?? new Map<SignStatus, Delta>();
    const d = per.get(s.status) ?? { count: 0, lat: 0, lng: 0 };
    d.count += sign;
    d.lat += sign * s.latitude;
    d.lng += sign * s.longitude;
    per.set(s.status, d);
    deltas.set(id, per);
  }
}

/** Applies the per-tile changes of a batch of sign writes (one read and write per touched tile). */
export async function applyCellDeltas(
  db: Db,
  orgId: Id<"organizations">,
  changes: { before: Placed | null; after: Placed | null }[],
) {
  const deltas = new Map<string, Map<SignStatus, Delta>>();
  for (const { before, after } of changes) {
    if (before) addDeltas(deltas, before, -1);
    if (after) addDeltas(deltas, after, 1);
  }
  for (const [id, per] of deltas) {
    if ([...per.values()].every((d) => d.count === 0)) continue;
    const colon = id.indexOf(":");
    const level = Number(id.slice(0, colon));
    const key = id.slice(colon + 1);
    const cell = await db
      .query("signCells")
      .withIndex("by_org_level_key", (q) => q.eq("orgId", orgId).eq("level", level).eq("key", key))
      .unique();
    const zero = { Active: 0, Scheduled: 0, Removed: 0 };
    const count = { ...(cell?.count ?? zero) };
    const latSum = { ...(cell?.latSum ?? zero) };
    const lngSum = { ...(cell?.lngSum ?? zero) };
    for (const [status, d] of per) {
      count[status] += d.count;
      latSum[status] = count[status] === 0 ? 0 : latSum[status] + d.lat;
      lngSum[status] = count[status] === 0 ? 0 : lngSum[status] + d.lng;
    }
    const empty = count.Active + count.Scheduled + count.Removed === 0;
    if (cell && empty) await db.delete("signCells", cell._id);
    else if (cell) await db.patch("signCells", cell._id, { count, latSum, lngSum });
    else if (!empty) await db.insert("signCells", { orgId, level, key, count, latSum, lngSum });
  }
}

/** The next moment one of the sign's states changes on its own, if any. */
function nextTransition(s: Pick<SignDoc, "status" | "datePlaced" | "dateRemoval" | "pickupDue">): number | null {
  if (s.status === "Scheduled") return s.datePlaced;
  if (s.status === "Active" && !s.pickupDue) return s.dateRemoval;
  return null;
}

/** Makes sure the organisation's timer fires no later than `at`. */
export async function armTimer(ctx: Pick<MutationCtx, "db" | "scheduler">, orgId: Id<"organizations">, at: number) {
  const timer = await ctx.db
    .query("signTimers")
    .withIndex("by_org", (q) => q.eq("orgId", orgId))
    .unique();
  if (timer && timer.nextAt <= at) return;
  if (timer) await ctx.scheduler.cancel(timer.jobId);
  const jobId = await ctx.scheduler.runAt(at, internal.signs.advance, { orgId, at });
  if (timer) await ctx.db.patch("signTimers", timer._id, { nextAt: at, jobId });
  else await ctx.db.insert("signTimers", { orgId, nextAt: at, jobId });
}

export type SignFields = Omit<
  SignDoc,
  "_id" | "_creationTime" | "orgId" | "quadkey" | "status" | "pickupDue" | "updatedAt"
>;

/**
 * Inserts or replaces signs (status and pickup flag from time; counts and timer kept in step).
 * `status` "Removed" is kept; otherwise the status follows the placement date.
 */
export async function writeSigns(
  ctx: Pick<MutationCtx, "db" | "scheduler">,
  orgId: Id<"organizations">,
  writes: { id: Id<"signs"> | null; fields: SignFields; removed: boolean }[],
): Promise<Id<"signs">[]> {
  const now = Date.now();
  const changes: { before: Placed | null; after: Placed | null }[] = [];
  const ids: Id<"signs">[] = [];
  let earliest = Infinity;
  for (const { id, fields, removed } of writes) {
    const before = id ? await ctx.db.get("signs", id) : null;
    if (id && !before) throw appError("NOT_FOUND");
    const status = removed ? "Removed" : statusAt(fields.datePlaced, now, null);
    const doc = {
      ...fields,
      orgId,
      quadkey: quadkey(fields.latitude, fields.longitude),
      status,
      pickupDue: pickupDueAt(status, fields.dateRemoval, now),
      updatedAt: now,
    };
    if (before) await ctx.db.replace("signs", before._id, doc);
    const newId = before ? before._id : await ctx.db.insert("signs", doc);
    ids.push(newId);
    changes.push({ before, after: doc });
    const next = nextTransition(doc);
    if (next !== null) earliest = Math.min(earliest, next);
  }
  await applyCellDeltas(ctx.db, orgId, changes);
  if (earliest < Infinity) await armTimer(ctx, orgId, earliest);
  return ids;
}

export async function deleteSign(ctx: Pick<MutationCtx, "db">, sign: SignDoc) {
  await ctx.db.delete("signs", sign._id);
  await applyCellDeltas(ctx.db, sign.orgId, [{ before: sign, after: null }]);
}

/**
 * The timer's run: Scheduled signs whose placement time came become Active; Active signs past
 * their removal date are flagged for pickup. Then the timer is set for the next transition.
 */
export async function advanceSigns(
  ctx: Pick<MutationCtx, "db" | "scheduler">,
  orgId: Id<"organizations">,
  firedAt: number,
) {
  const now = Date.now();
  const placed = await ctx.db
    .query("signs")
    .withIndex("by_org_status_placed", (q) => q.eq("orgId", orgId).eq("status", "Scheduled").lte("datePlaced", now))
    .take(TIMER_BATCH);
  const changes: { before: Placed | null; after: Placed | null }[] = [];
  for (const s of placed) {
    const pickupDue = pickupDueAt("Active", s.dateRemoval, now);
    await ctx.db.patch("signs", s._id, { status: "Active", pickupDue });
    changes.push({ before: s, after: { ...s, status: "Active" } });
  }
  await applyCellDeltas(ctx.db, orgId, changes);
  const due = await ctx.db
    .query("signs")
    .withIndex("by_org_pickup", (q) =>
      q.eq("orgId", orgId).eq("pickupDue", false).eq("status", "Active").lte("dateRemoval", now),
    )
    .take(TIMER_BATCH);
  for (const s of due) await ctx.db.patch("signs", s._id, { pickupDue: true });

  const timer = await ctx.db
    .query("signTimers")
    .withIndex("by_org", (q) => q.eq("orgId", orgId))
    .unique();
  // a run that is not the armed one (it was replaced by an earlier one) leaves the timer alone
  if (timer && timer.nextAt !== firedAt && timer.nextAt > now) return;
  let next: number | null = placed.length === TIMER_BATCH || due.length === TIMER_BATCH ? now : null;
  if (next === null) {
    const s = await ctx.db
      .query("signs")
      .withIndex("by_org_status_placed", (q) => q.eq("orgId", orgId).eq("status", "Scheduled").gt("datePlaced", now))
      .first();
    const r = await ctx.db
      .query("signs")
      .withIndex("by_org_pickup", (q) =>
        q.eq("orgId", orgId).eq("pickupDue", false).eq("status", "Active").gt("dateRemoval", now),
      )
      .first();
    const candidates = [s?.datePlaced, r?.dateRemoval].filter((x): x is number => x !== undefined);
    next = candidates.length ? Math.min(...candidates) : null;
  }
  if (next === null) {
    if (timer) await ctx.db.delete("signTimers", timer._id);
    return;
  }
  const jobId = await ctx.scheduler.runAt(next, internal.signs.advance, { orgId, at: next });
  if (timer) await ctx.db.patch("signTimers", timer._id, { nextAt: next, jobId });
  else await ctx.db.insert("signTimers", { orgId, nextAt: next, jobId });
}
