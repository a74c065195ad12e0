/**
 * Voters: server-paged list and search with the exact count of what matches, detail, change
 * history, create/update/delete with validation, quick search, the voter's groups and the
 * per-organisation form layout. voters.view reads;
 * voters.update edits; only voters.manage creates, deletes and reorders the form, and exporting
 * the whole file takes voters.export (which comes with voters.manage).
 */
import { placeWhenMoved } from "./model/geocode";
import { validate } from "convex-helpers/validators";
import { paginationOptsValidator, paginationResultValidator } from "convex/server";
import { v } from "convex/values";
import type { Doc, Id } from "./_generated/dataModel";
import { appError, orgMutation, orgQuery } from "./functions";
import schema from "./schema";
import {
  assertValidVoter,
  cleanVoterFields,
  loadVoter,
  deleteVoter,
  editableVoterFields,
  insertVoter,
  NO_FIELDS,
  updateVoter,
  voterChanges,
  voterMergeRules,
  voterTarget,
} from "./model/voters";
import {
  countMatching,
  filteredVoters,
  MAX_LIST_PAGE,
  MAX_PAGE,
  pageAllMatching,
  statusCodesPresent,
} from "./model/voterSearch";
import { loadEditState, markDeleted, markEdited, mergeEdits, missingRecord, withEdits } from "./model/collab";
import { vEditState, vFieldEdit } from "./tables/collab";
import { moveSection, orderSections, vVoterFields, vVoterFilter, voterTables, type VoterFilter } from "./tables/voters";
import { audit } from "./model/audit";
import { openExportRun, quoted, requireExportRun } from "./model/exports";
import { attestedStates } from "./model/imports";
import { vExportFormat } from "./tables/exports";

function clampPage<T extends { numItems: number }>(opts: T): T {
  return { ...opts, numItems: Math.max(1, Math.min(MAX_LIST_PAGE, Math.floor(opts.numItems))) };
}

/** A page of voter documents: the list's and the export's contract with the browser. */
const vVoterPage = paginationResultValidator(schema.doc("voters"));
/** A voter as pickers and suggestions show it. */
const vVoterBrief = voterTables.voters.validator
  .pick("first_name", "last_name", "email")
  .extend({ _id: v.id("voters") });

/** The voter list: one page of the filter/search, newest first (search: by relevance). */
export const list = orgQuery("voters.view")({
  args: { paginationOpts: paginationOptsValidator, ...vVoterFilter },
  returns: vVoterPage,
  handler: async (ctx, { paginationOpts, ...filter }) => {
    return await filteredVoters(ctx.db, ctx.viewer.orgId, filter).paginate(clampPage(paginationOpts));
  },
});

/**
 * How many voters match the list's filter/search, one bounded page per call (page: one entry with
 * the page's count): the browser follows `continueCursor` until `isDone` and adds the pages up
 * (usePaginatedQuery, so each page stays live). `capped`: the search reached Convex's limit of
 * 1,024 results, so more voters may match than it can count.
 */
export const count = orgQuery("voters.view")({
  args: { paginationOpts: paginationOptsValidator, ...vVoterFilter },
  returns: paginationResultValidator(v.object({ count: v.number(), capped: v.boolean() })),
  handler: async (ctx, { paginationOpts, ...filter }) => {
    return await countMatching(ctx.db, ctx.viewer.orgId, filter, paginationOpts);
  },
});

/** The state status codes present among the organisation's voters (the list's status code filter). */
export const statusCodes = orgQuery("voters.view")({
  args: {},
  returns: v.array(v.string()),
  handler: async (ctx) => await statusCodesPresent(ctx.db, ctx.viewer.orgId),
});

/** The voter filter as an export's audit entry states it. */
function voterFilterSummary(filter: VoterFilter): string {
  const parts = [
    filter.search?.trim() ? `search ${quoted(filter.search)}` : null,
    filter.party ? `party ${quoted(filter.party)}` : null,
    filter.status ? `status ${quoted(filter.status)}` : null,
    filter.statusCode?.trim() ? `status code ${quoted(filter.statusCode)}` : null,
    filter.district ? `district ${quoted(filter.district)}` : null,
  ].filter((p) => p !== null);
  return parts.length > 0 ? parts.join(", ") : "all voters";
}

/**
 * Starts an export of the list's filter/search (model/exports.ts): needs voters.export. The pages
 * are then read with the id returned, and exports.finish records the rows in the audit log.
 */
export const startExport = orgMutation("voters.export")({
  args: { ...vVoterFilter, format: vExportFormat },
  returns: v.id("exportRuns"),
  handler: async (ctx, { format, ...filter }) =>
    await openExportRun(ctx, ctx.viewer, {
      kind: "voters",
      filter,
      filterSummary: voterFilterSummary(filter),
      format,
      label: "the voter file",
      states: await attestedStates(ctx.db, ctx.viewer.orgId),
    }),
});

/**
 * The states whose voter-file use restrictions the export shows before it starts (USPS codes): those
 * the organisation's imports were attested for (lib/voters/fileUse.ts has each state's text).
 */
export const exportStates = orgQuery("voters.export")({
  args: {},
  returns: v.array(v.string()),
  handler: async (ctx) => await attestedStates(ctx.db, ctx.viewer.orgId),
});

/**
 * One page of the export (the list's filter/search, every match, 1,000 rows a call): needs
 * voters.export and a run of the caller's own started with the same filter (voters.startExport).
 */
export const exportPage = orgQuery("voters.export")({
  args: { exportId: v.id("exportRuns"), paginationOpts: paginationOptsValidator, ...vVoterFilter },
  returns: vVoterPage,
  handler: async (ctx, { exportId, paginationOpts, ...filter }) => {
    await requireExportRun(ctx, ctx.viewer, exportId, "voters", filter);
    const numItems = Math.max(1, Math.min(MAX_PAGE, Math.floor(paginationOpts.numItems)));
    return await pageAllMatching(ctx.db, ctx.viewer.orgId, filter, { cursor: paginationOpts.cursor, numItems });
  },
});

/** One voter, or null when the id is malformed, unknown or of another organisation. */
export const get = orgQuery("voters.view")({
  args: { id: v.string() },
  returns: v.union(schema.doc("voters"), v.null()),
  handler: async (ctx, { id }) => {
    const voterId = ctx.db.normalizeId("voters", id);
    return voterId ? await ctx.db.get("voters", voterId) : null;
  },
});

/** The four suggested voters on the not-found page (the first four voters). */
export const suggestions = orgQuery("voters.view")({
  args: {},
  returns: v.array(vVoterBrief),
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
  returns: v.array(vVoterBrief.extend(voterTables.voters.validator.pick("phone").fields)),
  handler: async (ctx, { term }) => {
    if (term.trim().length < 2) return [];
    const rows = await filteredVoters(ctx.db, ctx.viewer.orgId, { search: term }).take(10);
    return rows.map((r) => ({
      _id: r._id,
      first_name: r.first_name,
      last_name: r.last_name,
      email: r.email,
      phone: r.phone,
    }));
  },
});

export const create = orgMutation("voters.manage")({
  args: { fields: vVoterFields },
  returns: v.id("voters"),
  handler: async (ctx, { fields }) => {
    const clean = cleanVoterFields(fields);
    await assertValidVoter(ctx.db, ctx.viewer.orgId, clean);
    const id = await insertVoter(ctx, ctx.viewer.orgId, clean);
    await placeWhenMoved(ctx, id, null, clean);
    const target = voterTarget(id, clean);
    await audit(ctx, ctx.viewer, {
      action: "voter.create",
      target,
      summary: `Created voter ${target.label}.`,
      changes: voterChanges(NO_FIELDS, clean),
    });
    return id;
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
    const voter = await ctx.db.get("voters", id);
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
    await placeWhenMoved(ctx, id, voter, fields);
    const changes = voterChanges(editableVoterFields(voter), fields);
    if (changes.length > 0)
      await ctx.db.insert("voterChanges", {
        orgId: ctx.viewer.orgId,
        voterId: id,
        at: Date.now(),
        userId: ctx.viewer.userId,
        changes,
      });
    if (changes.length > 0) {
      const target = voterTarget(id, fields);
      await audit(ctx, ctx.viewer, {
        action: "voter.update",
        target,
        summary: `Changed ${changes.length === 1 ? "1 field" : `${changes.length} fields`} of voter ${target.label}.`,
        changes,
      });
    }
    await markEdited(
      ctx,
      ctx.viewer,
      id,
      apply.map((e) => e.field),
    );
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
  returns: v.null(),
  handler: async (ctx, { id }) => {
    const voter = await loadVoter(ctx.db, id);
    await deleteVoter(ctx, voter);
    await markDeleted(ctx, ctx.viewer, id);
    const target = voterTarget(id, voter);
    await audit(ctx, ctx.viewer, {
      action: "voter.delete",
      target,
      summary: `Deleted voter ${target.label}.`,
      changes: voterChanges(editableVoterFields(voter), NO_FIELDS),
    });
    return null;
  },
});

/** Entries of a voter's change history the detail page shows (the newest). */
export const MAX_CHANGES_SHOWN = 50;

const vChangeAuthor = v.union(
  v.object({ kind: v.literal("user"), name: v.union(v.string(), v.null()) }),
  v.object({ kind: v.literal("import"), importId: v.id("importHistory"), filename: v.union(v.string(), v.null()) }),
  v.null(),
);

/**
 * The voter's change history, newest first (at most 50): when, who saved it (a member's name; null
 * when they have left the organisation) or which import file changed it, and each field's old and
 * new value.
 */
export const changes = orgQuery("voters.view")({
  args: { voterId: v.id("voters") },
  returns: v.array(
    v.object({
      _id: v.id("voterChanges"),
      at: v.number(),
      by: vChangeAuthor,
      changes: v.array(
        v.object({ field: v.string(), from: v.union(v.string(), v.null()), to: v.union(v.string(), v.null()) }),
      ),
    }),
  ),
  handler: async (ctx, { voterId }) => {
    const rows = await ctx.db
      .query("voterChanges")
      .withIndex("by_voter", (q) => q.eq("voterId", voterId))
      .order("desc")
      .take(MAX_CHANGES_SHOWN);
    const names = new Map<Id<"users">, string | null>();
    const files = new Map<Id<"importHistory">, string | null>();
    // each author read once; a user who left the organisation is not readable (null)
    for (const r of rows) {
      if (r.importId) {
        if (!files.has(r.importId))
          files.set(r.importId, (await ctx.db.get("importHistory", r.importId))?.filename ?? null);
      } else if (r.userId && !names.has(r.userId)) {
        const u = await ctx.db.get("users", r.userId);
        const full = [u?.firstName, u?.lastName].filter(Boolean).join(" ");
        names.set(r.userId, u ? full || u.name || u.email || null : null);
      }
    }
    return rows.map((r) => ({
      _id: r._id,
      at: r.at,
      by: r.importId
        ? { kind: "import" as const, importId: r.importId, filename: files.get(r.importId) ?? null }
        : r.userId
          ? { kind: "user" as const, name: names.get(r.userId) ?? null }
          : null,
      changes: r.changes,
    }));
  },
});

/** The groups a voter belongs to, by name. */
export const groupsOf = orgQuery("voters.view")({
  args: { voterId: v.id("voters") },
  returns: v.array(voterTables.voterGroups.validator.pick("name", "description").extend({ _id: v.id("voterGroups") })),
  handler: async (ctx, { voterId }) => {
    const memberships = await ctx.db
      .query("voterGroupMembers")
      .withIndex("by_voter", (q) => q.eq("voterId", voterId))
      .take(500);
    const groups = await Promise.all(memberships.map((m) => ctx.db.get("voterGroups", m.groupId)));
    return groups
      .filter((g): g is Doc<"voterGroups"> => g !== null)
      .map((g) => ({ _id: g._id, name: g.name, description: g.description }))
      .sort((a, b) => a.name.localeCompare(b.name));
  },
});

/** The organisation's saved order of form fields (null: default order). */
export const formLayout = orgQuery("voters.view")({
  args: {},
  returns: v.union(voterTables.voterFormLayouts.validator.fields.order, v.null()),
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
    if (row) await ctx.db.patch("voterFormLayouts", row._id, { order, updatedAt: Date.now() });
    else await ctx.db.insert("voterFormLayouts", { orgId: ctx.viewer.orgId, order, updatedAt: Date.now() });
    return null;
  },
});
