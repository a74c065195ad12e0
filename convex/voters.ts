/**
 * Voters: server-paged list and search, detail, create/update/delete with validation, quick
 * search, the voter's groups and the per-organisation form layout. voters.view reads;
 * voters.update edits; only voters.manage creates, deletes and reorders the form, and exporting
 * the whole file takes voters.export (which comes with voters.manage).
 */
import { validate } from "convex-helpers/validators";
import { paginationOptsValidator, paginationResultValidator } from "convex/server";
import { v } from "convex/values";
import type { Doc } from "./_generated/dataModel";
import { appError, orgMutation, orgQuery } from "./functions";
import schema from "./schema";
import {
  assertValidVoter,
  cleanVoterFields,
  loadVoter,
  deleteVoter,
  editableVoterFields,
  filteredVoters,
  insertVoter,
  MAX_LIST_PAGE,
  MAX_PAGE,
  updateVoter,
  voterMergeRules,
} from "./model/voters";
import { loadEditState, markDeleted, markEdited, mergeEdits, missingRecord, withEdits } from "./model/collab";
import { vEditState, vFieldEdit } from "./tables/collab";
import { moveSection, orderSections, vVoterFields, vVoterFilter } from "./tables/voters";

function clampPage<T extends { numItems: number }>(opts: T): T {
  return { ...opts, numItems: Math.max(1, Math.min(MAX_LIST_PAGE, Math.floor(opts.numItems))) };
}

/** The voter list: one page of the filter/search, newest first (search: by relevance). */
/** A page of voter documents: the list's and the export's contract with the browser. */
const vVoterPage = paginationResultValidator(schema.doc("voters"));

export const list = orgQuery("voters.view")({
  args: { paginationOpts: paginationOptsValidator, ...vVoterFilter },
  returns: vVoterPage,
  handler: async (ctx, { paginationOpts, ...filter }) => {
    return await filteredVoters(ctx.db, ctx.viewer.orgId, filter).paginate(clampPage(paginationOpts));
  },
});

/** One page of the export (the list's filter/search, 1,000 rows a call): needs voters.export. */
export const exportPage = orgQuery("voters.export")({
  args: { paginationOpts: paginationOptsValidator, ...vVoterFilter },
  returns: vVoterPage,
  handler: async (ctx, { paginationOpts, ...filter }) => {
    const numItems = Math.max(1, Math.min(MAX_PAGE, Math.floor(paginationOpts.numItems)));
    return await filteredVoters(ctx.db, ctx.viewer.orgId, filter).paginate({ ...paginationOpts, numItems });
  },
});

/** One voter, or null when the id is malformed, unknown or of another organisation. */
export const get = orgQuery("voters.view")({
  args: { id: v.string() },
  returns: v.union(schema.doc("voters"), v.null()),
  handler: async (ctx, { id }) => {
    const voterId = ctx.db.normalizeId("voters", id);
    return voterId ? await ctx.db.get(voterId) : null;
  },
});

/** The four suggested voters on the not-found page (the first four voters). */
export const suggestions = orgQuery("voters.view")({
  args: {},
  handler: async (ctx) => {
    const rows = await ctx.db
      .query("voters")
      .withIndex("by_org", (q) => q.eq("orgId", ctx.viewer.orgId))
      .take(4);
    return rows.map((r) => ({ _id: r._id, first_name: r.first_name, last_name: r.last_name, email: r.email }));
  },
});

/** Quick search (groups, pickers): ≥ 2 characters, 10 results. */
export const quickSearch = orgQuery("voters.view")({
  args: { term: v.string() },
  handler: async (ctx, { term }) => {
    const t = term.trim().toLowerCase();
    if (t.length < 2) return [];
    const rows = await ctx.db
      .query("voters")
      .withSearchIndex("search_text", (q) => q.search("searchText", t).eq("orgId", ctx.viewer.orgId))
      .take(10);
    return rows.map((r) => ({ _id: r._id, first_name: r.first_name, last_name: r.last_name, email: r.email, phone: r.phone }));
  },
});

export const create = orgMutation("voters.manage")({
  args: { fields: vVoterFields },
  handler: async (ctx, { fields }) => {
    const clean = cleanVoterFields(fields);
    await assertValidVoter(ctx.db, ctx.viewer.orgId, clean);
    return await insertVoter(ctx, ctx.viewer.orgId, clean);
  },
});

/**
 * Saves the fields the editor changed, each with the value they started from: merged with
 * teammates' changes to other fields, refused with CONFLICT naming the teammate when one of them
 * changed the same field, refused naming who deleted the voter (model/collab.ts).
 */
export const update = orgMutation("voters.update")({
  args: { id: v.id("voters"), edits: v.array(vFieldEdit) },
  returns: v.id("voters"),
  handler: async (ctx, { id, edits }) => {
    const voter = await ctx.db.get(id);
    if (!voter) throw await missingRecord(ctx, ctx.viewer, id, "voter");
    const customDefs = await ctx.db
      .query("customFieldDefs")
      .withIndex("by_org_key", (q) => q.eq("orgId", ctx.viewer.orgId))
      .collect();
    const apply = await mergeEdits(ctx, ctx.viewer, id, voter, edits, voterMergeRules(voter, customDefs));
    if (apply.length === 0) return id;
    const fields = cleanVoterFields(withEdits(editableVoterFields(voter), apply));
    await assertValidVoter(ctx.db, ctx.viewer.orgId, fields);
    if (!validate(vVoterFields, fields)) throw appError("VALIDATION_ERROR");
    await updateVoter(ctx, voter, fields);
    await markEdited(ctx, ctx.viewer, id, apply.map((e) => e.field));
    return id;
  },
});

/** Who last saved each field of the voter, and who deleted it: an open form names them. */
export const editState = orgQuery("voters.view")({
  args: { id: v.string() },
  returns: vEditState,
  handler: async (ctx, { id }) => {
    const voterId = ctx.db.normalizeId("voters", id);
    return voterId ? await loadEditState(ctx, voterId) : { fields: {}, deleted: null };
  },
});

export const remove = orgMutation("voters.manage")({
  args: { id: v.id("voters") },
  handler: async (ctx, { id }) => {
    const voter = await loadVoter(ctx.db, id);
    await deleteVoter(ctx, voter);
    await markDeleted(ctx, ctx.viewer, id);
  },
});

/** The groups a voter belongs to, by name. */
export const groupsOf = orgQuery("voters.view")({
  args: { voterId: v.id("voters") },
  handler: async (ctx, { voterId }) => {
    const memberships = await ctx.db
      .query("voterGroupMembers")
      .withIndex("by_voter", (q) => q.eq("voterId", voterId))
      .take(500);
    const groups = await Promise.all(memberships.map((m) => ctx.db.get(m.groupId)));
    return groups
      .filter((g): g is Doc<"voterGroups"> => g !== null)
      .map((g) => ({ _id: g._id, name: g.name, description: g.description }))
      .sort((a, b) => a.name.localeCompare(b.name));
  },
});

/** The organisation's saved order of form fields (null: default order). */
export const formLayout = orgQuery("voters.view")({
  args: {},
  handler: async (ctx) => {
    const row = await ctx.db
      .query("voterFormLayouts")
      .withIndex("by_org", (q) => q.eq("orgId", ctx.viewer.orgId))
      .unique();
    return row ? row.order : null;
  },
});

/**
 * Moves one section of the organisation-wide voter form onto another's place (voters.manage),
 * applied to the stored order so teammates' concurrent moves all stay.
 */
export const moveFormSection = orgMutation("voters.manage")({
  args: { section: v.string(), over: v.string() },
  returns: v.null(),
  handler: async (ctx, { section, over }) => {
    const row = await ctx.db
      .query("voterFormLayouts")
      .withIndex("by_org", (q) => q.eq("orgId", ctx.viewer.orgId))
      .unique();
    const order = moveSection(orderSections(row?.order), section, over);
    if (!order) throw appError("VALIDATION_ERROR", "Unknown form section.");
    if (row) await ctx.db.patch(row._id, { order, updatedAt: Date.now() });
    else await ctx.db.insert("voterFormLayouts", { orgId: ctx.viewer.orgId, order, updatedAt: Date.now() });
    return null;
  },
});
