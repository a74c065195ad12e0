/**
 * Voter groups and their members. voters.view reads; voters.update adds and removes members
 * (like editing a voter); voters.manage creates, renames and deletes groups.
 */
import { paginationOptsValidator, paginationResultValidator, type GenericDatabaseReader } from "convex/server";
import { v } from "convex/values";
import { internal } from "./_generated/api";
import type { DataModel, Doc, Id } from "./_generated/dataModel";
import type { MutationCtx } from "./_generated/server";
import { appError, internalMutation, orgMutation, orgQuery } from "./functions";
import schema from "./schema";
import { loadEditState, markDeleted, markEdited, mergeEdits, missingRecord, withEdits } from "./model/collab";
import { adjustCounter } from "./model/counters";
import { addVoters, cleanGroupInput } from "./model/groups";
import { MAX_PAGE, pageAllMatching } from "./model/voterSearch";
import { vEditState, vFieldEdit } from "./tables/collab";
import { vVoterFilter, voterTables } from "./tables/voters";
import { TEXTS } from "./lib/texts";
import { audit, fieldChanges } from "./model/audit";
import type { Viewer } from "./model/viewer";

/** The audit log's entry for a change of a group's members: one per call, whatever its size. */
async function auditMembers(ctx: MutationCtx & { viewer: Viewer }, group: Doc<"voterGroups">, summary: string) {
  await audit(ctx, ctx.viewer, {
    action: "group.update",
    target: { table: "voterGroups", id: group._id, label: group.name },
    summary,
  });
}

function countVoters(n: number) {
  return n === 1 ? "1 voter" : `${n} voters`;
}

/** How many of the voters were added, and how many were members already. */
const vAddCounts = { added: v.number(), duplicates: v.number() };

/** Members deleted inline when a group is deleted; the rest go in scheduled batches. */
const PURGE_BATCH = 1000;

async function loadGroup(db: GenericDatabaseReader<DataModel>, id: Id<"voterGroups">): Promise<Doc<"voterGroups">> {
  const g = await db.get("voterGroups", id);
  if (!g) throw appError("NOT_FOUND");
  return g;
}

/** All groups of the organisation, ordered by name. */
export const list = orgQuery("voters.view")({
  args: {},
  returns: v.array(schema.doc("voterGroups").omit("orgId")),
  handler: async (ctx) => {
    const rows = await ctx.db
      .query("voterGroups")
      .withIndex("by_org_name", (q) => q.eq("orgId", ctx.viewer.orgId))
      .take(2000);
    return rows.map((g) => ({
      _id: g._id,
      name: g.name,
      description: g.description,
      memberCount: g.memberCount,
      _creationTime: g._creationTime,
      updatedAt: g.updatedAt,
    }));
  },
});

export const create = orgMutation("voters.manage")({
  args: { name: v.string(), description: v.optional(v.union(v.string(), v.null())) },
  returns: v.id("voterGroups"),
  handler: async (ctx, args) => {
    const clean = cleanGroupInput(args.name, args.description);
    const id = await ctx.db.insert("voterGroups", {
      orgId: ctx.viewer.orgId,
      ...clean,
      memberCount: 0,
      updatedAt: Date.now(),
    });
    await adjustCounter(ctx, ctx.viewer.orgId, "voterGroups", 1);
    await audit(ctx, ctx.viewer, {
      action: "group.create",
      target: { table: "voterGroups", id, label: clean.name },
      summary: `Created group ${clean.name}.`,
      changes: fieldChanges(null, clean, ["name", "description"]),
    });
    return id;
  },
});

/** Saves the changed name and/or description, each with its base (model/collab.ts: no lost updates). */
export const update = orgMutation("voters.manage")({
  args: { id: v.id("voterGroups"), edits: v.array(vFieldEdit) },
  returns: v.null(),
  handler: async (ctx, { id, edits }) => {
    const group = await ctx.db.get("voterGroups", id);
    if (!group) throw await missingRecord(ctx, ctx.viewer, id, "group");
    const apply = await mergeEdits(ctx, ctx.viewer, id, group, edits, {
      title: `The group ${group.name}`,
      editable: (f) => f === "name" || f === "description",
      label: (f) => f,
    });
    if (apply.length === 0) return null;
    const next = withEdits({ name: group.name, description: group.description }, apply);
    for (const e of apply) if (e.value !== null && typeof e.value !== "string") throw appError("VALIDATION_ERROR");
    const clean = cleanGroupInput(String(next.name ?? ""), next.description);
    await ctx.db.patch("voterGroups", id, { ...clean, updatedAt: Date.now() });
    await audit(ctx, ctx.viewer, {
      action: "group.update",
      target: { table: "voterGroups", id, label: clean.name },
      summary: `Changed group ${clean.name}.`,
      changes: fieldChanges(group, clean, ["name", "description"]),
    });
    await markEdited(
      ctx,
      ctx.viewer,
      id,
      apply.map((e) => e.field),
    );
    return null;
  },
});

/** Who last saved the group's name and description, and who deleted it. */
export const editState = orgQuery("voters.view")({
  args: { id: v.string() },
  returns: vEditState,
  handler: async (ctx, { id }) => {
    const groupId = ctx.db.normalizeId("voterGroups", id);
    return groupId ? await loadEditState(ctx, groupId) : { fields: {}, deleted: null };
  },
});

async function purgeGroupRows(ctx: MutationCtx, groupId: Id<"voterGroups">): Promise<boolean> {
  const members = await ctx.db
    .query("voterGroupMembers")
    .withIndex("by_group", (q) => q.eq("groupId", groupId))
    .take(PURGE_BATCH);
  for (const m of members) await ctx.db.delete("voterGroupMembers", m._id);
  const targets = await ctx.db
    .query("campaignTargets")
    .withIndex("by_group", (q) => q.eq("groupId", groupId))
    .take(PURGE_BATCH);
  for (const t of targets) await ctx.db.delete("campaignTargets", t._id);
  return members.length < PURGE_BATCH && targets.length < PURGE_BATCH;
}

/** Deletes a group with its memberships and campaign targets (large groups finish in the background). */
export const remove = orgMutation("voters.manage")({
  args: { id: v.id("voterGroups") },
  returns: v.null(),
  handler: async (ctx, { id }) => {
    const group = await loadGroup(ctx.db, id);
    await ctx.db.delete("voterGroups", group._id);
    await markDeleted(ctx, ctx.viewer, id);
    await adjustCounter(ctx, ctx.viewer.orgId, "voterGroups", -1);
    const done = await purgeGroupRows(ctx, id);
    if (!done) await ctx.scheduler.runAfter(0, internal.groups.purgeMembers, { groupId: id });
    await audit(ctx, ctx.viewer, {
      action: "group.delete",
      target: { table: "voterGroups", id, label: group.name },
      summary: `Deleted group ${group.name} (${countVoters(group.memberCount)}).`,
      changes: fieldChanges(group, null, ["name", "description"]),
    });
    return null;
  },
});

export const purgeMembers = internalMutation({
  args: { groupId: v.id("voterGroups") },
  handler: async (ctx, { groupId }) => {
    const done = await purgeGroupRows(ctx, groupId);
    if (!done) await ctx.scheduler.runAfter(0, internal.groups.purgeMembers, { groupId });
  },
});

/** One page of a group's members with their voter data. */
export const members = orgQuery("voters.view")({
  args: { groupId: v.id("voterGroups"), paginationOpts: paginationOptsValidator },
  returns: paginationResultValidator(
    voterTables.voters.validator
      .pick("first_name", "last_name", "email", "phone")
      .extend({ _id: v.id("voterGroupMembers"), voterId: v.id("voters") }),
  ),
  handler: async (ctx, { groupId, paginationOpts }) => {
    const page = await ctx.db
      .query("voterGroupMembers")
      .withIndex("by_group", (q) => q.eq("groupId", groupId))
      .order("desc")
      .paginate({ ...paginationOpts, numItems: Math.min(200, paginationOpts.numItems) });
    const voters = await Promise.all(page.page.map((m) => ctx.db.get("voters", m.voterId)));
    return {
      ...page,
      page: page.page.flatMap((m, i) => {
        const voter = voters[i];
        return voter
          ? [
              {
                _id: m._id,
                voterId: voter._id,
                first_name: voter.first_name,
                last_name: voter.last_name,
                email: voter.email,
                phone: voter.phone,
              },
            ]
          : [];
      }),
    };
  },
});

/** Adds one voter; an existing membership is reported, not an error ("Already a member"). */
export const addMember = orgMutation("voters.update")({
  args: { groupId: v.id("voterGroups"), voterId: v.id("voters") },
  returns: v.object({ status: v.union(v.literal("added"), v.literal("duplicate")) }),
  handler: async (ctx, { groupId, voterId }) => {
    const group = await loadGroup(ctx.db, groupId);
    const voter = await ctx.db.get("voters", voterId);
    if (!voter) throw appError("NOT_FOUND");
    const { added } = await addVoters(ctx, group, [voter]);
    if (added === 1) {
      const name = `${voter.first_name} ${voter.last_name}`.trim() || voter._id;
      await auditMembers(ctx, group, `Added ${name} to group ${group.name}.`);
    }
    return { status: added === 1 ? ("added" as const) : ("duplicate" as const) };
  },
});

export const removeMember = orgMutation("voters.update")({
  args: { groupId: v.id("voterGroups"), voterId: v.id("voters") },
  returns: v.null(),
  handler: async (ctx, { groupId, voterId }) => {
    const group = await loadGroup(ctx.db, groupId);
    const row = await ctx.db
      .query("voterGroupMembers")
      .withIndex("by_group_voter", (q) => q.eq("groupId", groupId).eq("voterId", voterId))
      .first();
    if (!row) throw appError("NOT_FOUND");
    await ctx.db.delete("voterGroupMembers", row._id);
    await ctx.db.patch("voterGroups", group._id, {
      memberCount: Math.max(0, group.memberCount - 1),
      updatedAt: Date.now(),
    });
    await auditMembers(ctx, group, `Removed voter ${voterId} from group ${group.name}.`);
    return null;
  },
});

/** Adds an explicit selection (one batch of the dialog's progress loop). */
export const addMembers = orgMutation("voters.update")({
  args: { groupId: v.id("voterGroups"), voterIds: v.array(v.id("voters")) },
  returns: v.object({ ...vAddCounts, failed: v.number() }),
  handler: async (ctx, { groupId, voterIds }) => {
    if (voterIds.length === 0) throw appError("VALIDATION_ERROR", TEXTS.groups.selectVoters, "No Voters Selected");
    if (voterIds.length > MAX_PAGE) throw appError("VALIDATION_ERROR");
    const group = await loadGroup(ctx.db, groupId);
    const voters = await Promise.all(voterIds.map((id) => ctx.db.get("voters", id)));
    const valid = voters.filter((v) => v !== null);
    const result = await addVoters(ctx, group, valid);
    if (result.added > 0) await auditMembers(ctx, group, `Added ${countVoters(result.added)} to group ${group.name}.`);
    return { ...result, failed: voterIds.length - valid.length };
  },
});

/**
 * "Select all matching": adds one page of the filter/search per call and returns the cursor for
 * the next. The browser calls it until isDone, showing progress; it never holds the voters. Every
 * match is reached, also past Convex's 1,024 search results (model/voterSearch.ts
 * pageAllMatching); a page may process none.
 */
export const addMatching = orgMutation("voters.update")({
  args: {
    groupId: v.id("voterGroups"),
    ...vVoterFilter,
    cursor: v.union(v.string(), v.null()),
    numItems: v.optional(v.number()),
  },
  returns: v.object({ ...vAddCounts, processed: v.number(), isDone: v.boolean(), continueCursor: v.string() }),
  handler: async (ctx, { groupId, cursor, numItems, ...filter }) => {
    const group = await loadGroup(ctx.db, groupId);
    const n = Math.max(1, Math.min(MAX_PAGE, Math.floor(numItems ?? 500)));
    const page = await pageAllMatching(ctx.db, ctx.viewer.orgId, filter, { cursor, numItems: n });
    const result = await addVoters(ctx, group, page.page);
    if (result.added > 0)
      await auditMembers(ctx, group, `Added ${countVoters(result.added)} matching a filter to group ${group.name}.`);
    return { ...result, processed: page.page.length, isDone: page.isDone, continueCursor: page.continueCursor };
  },
});
