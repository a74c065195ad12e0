/**
 * Email lists and segments (tables/emailAudience.ts): naming rules, list contacts, the cursor
 * chains that add a group to a list, refresh a segment and delete rows in batches, and what the
 * send path reads (counts, a list's or segment's recipients).
 */
import type { GenericDatabaseReader } from "convex/server";
import { internal } from "../_generated/api";
import type { DataModel, Doc, Id } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import { appError } from "../lib/errors";
import {
  isDistrictRule,
  parseRules,
  ruleComplete,
  RulesError,
  serializeRules,
  voterMatches,
  type EmailRule,
  type RuleVoter,
} from "../lib/email/rules";
import { TEXTS } from "../lib/texts";
import { districtFiltersOf } from "./districts";

type Reader = GenericDatabaseReader<DataModel>;

export const MAX_AUDIENCE_NAME = 120;
export const MAX_AUDIENCE_DESCRIPTION = 500;
export const MAX_LISTS = 100;
export const MAX_SEGMENTS = 100;
/** Voter ids in one emailLists.addVoters call. */
export const MAX_ADD_VOTERS = 500;
/** Group members or voters handled by one step of a chain. */
export const AUDIENCE_STEP = 500;
/** Rows deleted by one step of a purge chain. */
export const PURGE_BATCH = 1000;

/** The lists every organisation starts with (spec/2 §3 email_lists). */
export const DEFAULT_LISTS = [
  { name: "All Contacts", description: "Every voter with an email address", subscriptionType: "all_voters" },
  {
    name: "Newsletter Subscribers",
    description: "Voters who subscribed to the newsletter",
    subscriptionType: "manual",
  },
  { name: "Event Attendees", description: "Voters who attended an event", subscriptionType: "manual" },
] as const;

type AudienceTable = "emailLists" | "emailSegments";
const NOUN: Record<AudienceTable, string> = { emailLists: "list", emailSegments: "segment" };

/** A trimmed, required name of at most 120 characters. */
export function cleanAudienceName(name: string, table: AudienceTable): string {
  const n = name.trim();
  const noun = NOUN[table];
  if (!n) throw appError("VALIDATION_ERROR", `Please enter a ${noun} name.`, "Name required");
  if (n.length > MAX_AUDIENCE_NAME)
    throw appError("VALIDATION_ERROR", `A ${noun} name is limited to ${MAX_AUDIENCE_NAME} characters.`);
  return n;
}

/** A trimmed description of at most 500 characters; empty is none. */
export function cleanAudienceDescription(description: string | null | undefined): string | null {
  const d = (description ?? "").trim();
  if (d.length > MAX_AUDIENCE_DESCRIPTION)
    throw appError("VALIDATION_ERROR", `A description is limited to ${MAX_AUDIENCE_DESCRIPTION} characters.`);
  return d === "" ? null : d;
}

/**
 * Refuses a name another list (segment) of the organisation has, ignoring case; when creating
 * (no `exceptId`), also refuses beyond the per-organisation cap.
 */
export async function checkAudienceName(
  db: Reader,
  table: AudienceTable,
  orgId: Id<"organizations">,
  name: string,
  exceptId?: Id<AudienceTable>,
) {
  const cap = table === "emailLists" ? MAX_LISTS : MAX_SEGMENTS;
  const rows = await db
    .query(table)
    .withIndex("by_org_name", (q) => q.eq("orgId", orgId))
    .take(cap + 1);
  const noun = NOUN[table];
  if (exceptId === undefined && rows.length >= cap)
    throw appError("VALIDATION_ERROR", `An organization can have at most ${cap} ${noun}s. Delete one first.`);
  const lower = name.toLowerCase();
  if (rows.some((r) => r._id !== exceptId && r.name.toLowerCase() === lower)) {
    throw appError(
      "DUPLICATE_ERROR",
      `A ${noun} named "${name}" already exists. Please choose another name.`,
      "Name already used",
    );
  }
}

/** The organisation's voter count (the voters counter, model/counters.ts). */
export async function orgVoterCount(db: Reader, orgId: Id<"organizations">): Promise<number> {
  const row = await db
    .query("orgCounters")
    .withIndex("by_org_name", (q) => q.eq("orgId", orgId).eq("name", "voters"))
    .unique();
  return row?.value ?? 0;
}

/**
 * How many recipients a list stands for: a manual list's active contacts; for All Contacts the
 * organisation's voter count (an upper bound: voters without an email are skipped at send).
 */
export async function listSourceCount(db: Reader, list: Doc<"emailLists">): Promise<number> {
  return list.subscriptionType === "all_voters" ? await orgVoterCount(db, list.orgId) : list.contactCount;
}

/** The organisation's voters that have an email (All Contacts), by address; paginate it. */
export function votersWithEmail(db: Reader, orgId: Id<"organizations">) {
  return db.query("voters").withIndex("by_org_email", (q) => q.eq("orgId", orgId).gt("emailLower", ""));
}

/** A manual list's active contacts (oldest first); paginate it. */
export function activeListContacts(db: Reader, listId: Id<"emailLists">) {
  return db
    .query("emailListContacts")
    .withIndex("by_list_status", (q) => q.eq("listId", listId).eq("status", "active"));
}

/** The members of a segment's current generation; paginate it. */
export function currentSegmentMembers(db: Reader, segment: Pick<Doc<"emailSegments">, "_id" | "gen">) {
  return db
    .query("emailSegmentMembers")
    .withIndex("by_segment_gen", (q) => q.eq("segmentId", segment._id).eq("gen", segment.gen));
}

/** The voter's address for email, lowercased, or null. */
export function voterEmail(voter: Pick<Doc<"voters">, "emailLower">): string | null {
  return voter.emailLower ? voter.emailLower : null;
}

/** A segment's stored rules (an unreadable text reads as none). */
export function segmentRules(segment: Pick<Doc<"emailSegments">, "rules">): EmailRule[] {
  try {
    return parseRules(segment.rules);
  } catch {
    return [];
  }
}

/** Rules a client sent for a segment, checked and complete, as stored text. */
export function cleanSegmentRules(raw: unknown): string {
  let rules: EmailRule[];
  try {
    rules = parseRules(raw);
  } catch (e) {
    if (e instanceof RulesError) throw appError("VALIDATION_ERROR", e.message, "Invalid conditions");
    throw e;
  }
  if (!rules.every(ruleComplete))
    throw appError("VALIDATION_ERROR", TEXTS.email.segmentIncomplete.message, TEXTS.email.segmentIncomplete.title);
  return serializeRules(rules);
}

/** The manual list, or the refusal for a list whose contacts cannot be added or removed (All Contacts). */
export async function loadManualList(
  db: Reader,
  listId: Id<"emailLists">,
  change: "add" | "remove",
): Promise<Doc<"emailLists">> {
  const list = await db.get("emailLists", listId);
  if (!list) throw appError("NOT_FOUND");
  if (list.subscriptionType !== "manual") {
    throw change === "add"
      ? appError(
          "VALIDATION_ERROR",
          "All Contacts already includes every voter with an email address.",
          "Contacts cannot be added",
        )
      : appError(
          "VALIDATION_ERROR",
          "All Contacts includes every voter with an email address: remove the voter's email instead.",
          "Contacts cannot be removed",
        );
  }
  return list;
}

/**
 * Adds voters (loaded, of the list's organisation) to a manual list: voters without an email and
 * those already on it are skipped, a removed contact comes back; contactCount follows.
 */
export async function addVotersToList(
  ctx: Pick<MutationCtx, "db">,
  list: Doc<"emailLists">,
  voters: Doc<"voters">[],
): Promise<{ added: number; duplicates: number; noEmail: number }> {
  let added = 0;
  let duplicates = 0;
  let noEmail = 0;
  const seen = new Set<string>();
  const now = Date.now();
  for (const voter of voters) {
    if (voter.orgId !== list.orgId) continue;
    const email = voterEmail(voter);
    if (email === null) {
      noEmail += 1;
      continue;
    }
    if (seen.has(voter._id)) {
      duplicates += 1;
      continue;
    }
    seen.add(voter._id);
    const row = await ctx.db
      .query("emailListContacts")
      .withIndex("by_list_voter", (q) => q.eq("listId", list._id).eq("voterId", voter._id))
      .first();
    if (row?.status === "active") {
      duplicates += 1;
      continue;
    }
    if (row) await ctx.db.patch("emailListContacts", row._id, { status: "active", email, addedAt: now });
    else
      await ctx.db.insert("emailListContacts", {
        orgId: list.orgId,
        listId: list._id,
        voterId: voter._id,
        email,
        status: "active",
        addedAt: now,
      });
    added += 1;
  }
  if (added > 0)
    await ctx.db.patch("emailLists", list._id, { contactCount: list.contactCount + added, updatedAt: now });
  return { added, duplicates, noEmail };
}

/**
 * One step of adding a group's members to a list: up to AUDIENCE_STEP members from `cursor`,
 * then the next step is scheduled. Stops when the list or group is gone.
 */
export async function addGroupToListStep(
  ctx: MutationCtx,
  listId: Id<"emailLists">,
  groupId: Id<"voterGroups">,
  cursor: string | null,
): Promise<void> {
  const list = await ctx.db.get("emailLists", listId);
  const group = await ctx.db.get("voterGroups", groupId);
  if (!list || !group || list.orgId !== group.orgId || list.subscriptionType !== "manual") return;
  const page = await ctx.db
    .query("voterGroupMembers")
    .withIndex("by_group", (q) => q.eq("groupId", groupId))
    .paginate({ cursor, numItems: AUDIENCE_STEP });
  const voters = await Promise.all(page.page.map((m) => ctx.db.get("voters", m.voterId)));
  await addVotersToList(
    ctx,
    list,
    voters.filter((x): x is Doc<"voters"> => x !== null),
  );
  if (!page.isDone)
    await ctx.scheduler.runAfter(0, internal.emailLists.addGroupStep, { listId, groupId, cursor: page.continueCursor });
}

/**
 * What voter deletions take off lists' and segments' counts, written once per list and segment:
 * a bulk deletion (an import's) passes one for all its voters and flushes it at the end.
 */
export class AudienceDrops {
  private lists = new Map<Id<"emailLists">, number>();
  /** per segment: members of its current generation, and of the generation a running refresh writes */
  private segments = new Map<Id<"emailSegments">, { current: number; refresh: number }>();

  list(listId: Id<"emailLists">) {
    this.lists.set(listId, (this.lists.get(listId) ?? 0) + 1);
  }

  segment(segmentId: Id<"emailSegments">, which: "current" | "refresh") {
    const d = this.segments.get(segmentId) ?? { current: 0, refresh: 0 };
    d[which] += 1;
    this.segments.set(segmentId, d);
  }

  async flush(ctx: Pick<MutationCtx, "db">) {
    for (const [listId, n] of this.lists) {
      const list = await ctx.db.get("emailLists", listId);
      if (list) await ctx.db.patch("emailLists", list._id, { contactCount: Math.max(0, list.contactCount - n) });
    }
    for (const [segmentId, d] of this.segments) {
      const segment = await ctx.db.get("emailSegments", segmentId);
      if (!segment) continue;
      await ctx.db.patch("emailSegments", segment._id, {
        cachedCount: Math.max(0, segment.cachedCount - d.current),
        ...(d.refresh > 0 ? { refreshDropped: (segment.refreshDropped ?? 0) + d.refresh } : {}),
      });
    }
    this.lists.clear();
    this.segments.clear();
  }
}

/**
 * A deleted voter leaves the lists and segments it was on: its contact rows and segment
 * memberships go, and `drops` notes what that takes off their counts (an active contact, a
 * member of the current generation or of the one a running refresh writes).
 */
export async function removeVoterFromAudiences(
  ctx: Pick<MutationCtx, "db">,
  voterId: Id<"voters">,
  drops: AudienceDrops,
): Promise<void> {
  for (const row of await ctx.db
    .query("emailListContacts")
    .withIndex("by_voter", (q) => q.eq("voterId", voterId))
    .collect()) {
    await ctx.db.delete("emailListContacts", row._id);
    if (row.status === "active") drops.list(row.listId);
  }
  for (const row of await ctx.db
    .query("emailSegmentMembers")
    .withIndex("by_voter", (q) => q.eq("voterId", voterId))
    .collect()) {
    await ctx.db.delete("emailSegmentMembers", row._id);
    const segment = await ctx.db.get("emailSegments", row.segmentId);
    if (!segment) continue;
    if (row.gen === segment.gen) drops.segment(segment._id, "current");
    else if (segment.refreshing && row.gen === segment.refreshGen) drops.segment(segment._id, "refresh");
  }
}

/** One step of deleting a deleted list's contacts; schedules the next while rows remain. */
export async function purgeListContacts(ctx: MutationCtx, listId: Id<"emailLists">): Promise<void> {
  const rows = await ctx.db
    .query("emailListContacts")
    .withIndex("by_list_status", (q) => q.eq("listId", listId))
    .take(PURGE_BATCH);
  for (const r of rows) await ctx.db.delete("emailListContacts", r._id);
  if (rows.length === PURGE_BATCH) await ctx.scheduler.runAfter(0, internal.emailLists.purgeContacts, { listId });
}

/**
 * Starts refreshing a segment: a new generation is written by a chain of refreshStep; any
 * refresh still running is abandoned at its next step.
 */
export async function startSegmentRefresh(
  ctx: Pick<MutationCtx, "db" | "scheduler">,
  segment: Doc<"emailSegments">,
): Promise<void> {
  const gen = Math.max(segment.gen, segment.refreshGen ?? 0) + 1;
  await ctx.db.patch("emailSegments", segment._id, {
    refreshing: true,
    refreshGen: gen,
    refreshCursor: null,
    refreshDropped: 0,
  });
  await ctx.scheduler.runAfter(0, internal.emailSegments.refreshStep, {
    segmentId: segment._id,
    gen,
    cursor: null,
    count: 0,
  });
}

/**
 * How email rules see a page of voters (in creation order, or a single voter): with their
 * districts ("kind:key", their memberships read in one index range) when a rule is a district
 * rule, as they are otherwise. Every evaluation of stored rules goes through it: a segment's
 * refresh, a blast's extra filter, an automation's rules (model/emailAutomation.ts).
 */
export async function ruleSubjects(
  db: Reader,
  orgId: Id<"organizations">,
  voters: Doc<"voters">[],
  rules: EmailRule[],
): Promise<(voter: Doc<"voters">) => RuleVoter> {
  if (!rules.some(isDistrictRule)) return (voter) => voter;
  const districts = await districtFiltersOf(db, orgId, voters);
  return (voter) => ({ ...voter, districts: districts.get(voter._id) ?? [] });
}

/**
 * One step of a refresh: up to AUDIENCE_STEP of the organisation's voters from `cursor`; those
 * with an email matching the rules become members of generation `gen`. The last step makes `gen`
 * current and schedules deleting the older generations.
 */
export async function segmentRefreshStep(
  ctx: MutationCtx,
  args: { segmentId: Id<"emailSegments">; gen: number; cursor: string | null; count: number },
): Promise<void> {
  const segment = await ctx.db.get("emailSegments", args.segmentId);
  if (!segment || !segment.refreshing || segment.refreshGen !== args.gen) return;
  const rules = segmentRules(segment);
  const now = Date.now();
  const page = await ctx.db
    .query("voters")
    .withIndex("by_org", (q) => q.eq("orgId", segment.orgId))
    .paginate({ cursor: args.cursor, numItems: AUDIENCE_STEP });
  let count = args.count;
  const subject = await ruleSubjects(ctx.db, segment.orgId, page.page, rules);
  for (const voter of page.page) {
    if (voterEmail(voter) === null || !voterMatches(subject(voter), rules, now)) continue;
    await ctx.db.insert("emailSegmentMembers", {
      orgId: segment.orgId,
      segmentId: segment._id,
      voterId: voter._id,
      gen: args.gen,
    });
    count += 1;
  }
  if (!page.isDone) {
    // the segment is not written per step: its readers' queries re-run only when the refresh ends
    await ctx.scheduler.runAfter(0, internal.emailSegments.refreshStep, {
      segmentId: segment._id,
      gen: args.gen,
      cursor: page.continueCursor,
      count,
    });
    return;
  }
  const cachedCount = Math.max(0, count - (segment.refreshDropped ?? 0));
  await ctx.db.patch("emailSegments", segment._id, {
    gen: args.gen,
    cachedCount,
    lastRefreshedAt: now,
    refreshing: false,
    refreshCursor: null,
    refreshDropped: 0,
  });
  await ctx.scheduler.runAfter(0, internal.emailSegments.purgeMembers, { segmentId: segment._id, belowGen: args.gen });
}

/**
 * One step of deleting a segment's members: those of generations below `belowGen` (after a
 * refresh), or all of them (`belowGen` null: the segment was deleted).
 */
export async function purgeSegmentMembers(
  ctx: MutationCtx,
  segmentId: Id<"emailSegments">,
  belowGen: number | null,
): Promise<void> {
  const rows = await ctx.db
    .query("emailSegmentMembers")
    .withIndex("by_segment_gen", (q) =>
      belowGen === null ? q.eq("segmentId", segmentId) : q.eq("segmentId", segmentId).lt("gen", belowGen),
    )
    .take(PURGE_BATCH);
  for (const r of rows) await ctx.db.delete("emailSegmentMembers", r._id);
  if (rows.length === PURGE_BATCH)
    await ctx.scheduler.runAfter(0, internal.emailSegments.purgeMembers, { segmentId, belowGen });
}
