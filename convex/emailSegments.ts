/**
 * Email segments (spec/2 §3 email_segments, segment_members): saved rules over the voter file and
 * their members, refreshed in the background. campaigns.view reads; campaigns.manage changes.
 */
import { v } from "convex/values";
import { appError, internalMutation, orgMutation, orgQuery } from "./functions";
import { audit, fieldChanges } from "./model/audit";
import { loadEditState, markDeleted, markEdited, mergeEdits, missingRecord, withEdits } from "./model/collab";
import {
  checkAudienceName,
  cleanAudienceDescription,
  cleanAudienceName,
  cleanSegmentRules,
  MAX_SEGMENTS,
  purgeSegmentMembers,
  segmentRefreshStep,
  segmentRules,
  startSegmentRefresh,
} from "./model/emailAudience";
import { vEditState, vFieldEdit } from "./tables/collab";
import { vEmailRule } from "./tables/emailAudience";

const vSegment = v.object({
  id: v.id("emailSegments"),
  name: v.string(),
  description: v.union(v.string(), v.null()),
  rules: v.array(vEmailRule),
  cachedCount: v.number(),
  lastRefreshedAt: v.union(v.number(), v.null()),
  refreshing: v.boolean(),
});

/** The organisation's segments, by name, with the count of their latest refresh. */
export const list = orgQuery("campaigns.view")({
  args: {},
  returns: v.array(vSegment),
  handler: async (ctx) => {
    const rows = await ctx.db
      .query("emailSegments")
      .withIndex("by_org_name", (q) => q.eq("orgId", ctx.viewer.orgId))
      .take(MAX_SEGMENTS + 10);
    return rows.map((s) => ({
      id: s._id,
      name: s.name,
      description: s.description,
      rules: segmentRules(s),
      cachedCount: s.cachedCount,
      lastRefreshedAt: s.lastRefreshedAt,
      refreshing: s.refreshing,
    }));
  },
});

/** Creates a segment from its rules (JSON text of EmailRule[]) and starts computing its members. */
export const create = orgMutation("campaigns.manage")({
  args: { name: v.string(), description: v.union(v.string(), v.null()), rules: v.string() },
  returns: v.id("emailSegments"),
  handler: async (ctx, args) => {
    const name = cleanAudienceName(args.name, "emailSegments");
    const description = cleanAudienceDescription(args.description);
    const rules = cleanSegmentRules(args.rules);
    await checkAudienceName(ctx.db, "emailSegments", ctx.viewer.orgId, name);
    const now = Date.now();
    const id = await ctx.db.insert("emailSegments", {
      orgId: ctx.viewer.orgId,
      name,
      description,
      rules,
      cachedCount: 0,
      lastRefreshedAt: null,
      gen: 0,
      refreshing: false,
      createdBy: ctx.viewer.userId,
      createdAt: now,
      updatedAt: now,
    });
    await startSegmentRefresh(ctx, (await ctx.db.get("emailSegments", id))!);
    await audit(ctx, ctx.viewer, {
      action: "segment.create",
      target: { table: "emailSegments", id, label: name },
      summary: `Created segment ${name}.`,
      changes: fieldChanges(null, { name, description, rules }, AUDITED_SEGMENT_FIELDS),
    });
    return id;
  },
});

const AUDITED_SEGMENT_FIELDS = ["name", "description", "rules"] as const;

const LABELS: Record<string, string> = { name: "name", description: "description", rules: "conditions" };

/** Saves the changed name, description and rules, each with its base (no lost updates); new rules start a refresh. */
export const update = orgMutation("campaigns.manage")({
  args: { id: v.id("emailSegments"), edits: v.array(vFieldEdit) },
  returns: v.null(),
  handler: async (ctx, { id, edits }) => {
    const segment = await ctx.db.get("emailSegments", id);
    if (!segment) throw await missingRecord(ctx, ctx.viewer, id, "segment");
    const current = { name: segment.name, description: segment.description, rules: segment.rules };
    const apply = await mergeEdits(ctx, ctx.viewer, id, current, edits, {
      title: `The segment "${segment.name}"`,
      editable: (f) => Object.hasOwn(LABELS, f),
      label: (f) => LABELS[f] ?? f,
    });
    if (apply.length === 0) return null;
    for (const e of apply) if (e.value !== null && typeof e.value !== "string") throw appError("VALIDATION_ERROR");
    const next = withEdits(current, apply);
    const name = cleanAudienceName(String(next.name ?? ""), "emailSegments");
    if (name !== segment.name) await checkAudienceName(ctx.db, "emailSegments", segment.orgId, name, id);
    const rules = cleanSegmentRules(next.rules ?? "[]");
    const description = cleanAudienceDescription(next.description);
    await ctx.db.patch("emailSegments", id, { name, description, rules, updatedAt: Date.now() });
    await audit(ctx, ctx.viewer, {
      action: "segment.update",
      target: { table: "emailSegments", id, label: name },
      summary: `Changed segment ${name}.`,
      changes: fieldChanges(current, { name, description, rules }, AUDITED_SEGMENT_FIELDS),
    });
    await markEdited(
      ctx,
      ctx.viewer,
      id,
      apply.map((e) => e.field),
    );
    if (rules !== segment.rules) await startSegmentRefresh(ctx, (await ctx.db.get("emailSegments", id))!);
    return null;
  },
});

/** Who last saved each field of the segment, and who deleted it. */
export const editState = orgQuery("campaigns.view")({
  args: { id: v.string() },
  returns: vEditState,
  handler: async (ctx, { id }) => {
    const segmentId = ctx.db.normalizeId("emailSegments", id);
    return segmentId ? await loadEditState(ctx, segmentId) : { fields: {}, deleted: null };
  },
});

/** Deletes a segment; its members go in batches. */
export const remove = orgMutation("campaigns.manage")({
  args: { id: v.id("emailSegments") },
  returns: v.null(),
  handler: async (ctx, { id }) => {
    const segment = await ctx.db.get("emailSegments", id);
    if (!segment) throw appError("NOT_FOUND");
    await ctx.db.delete("emailSegments", id);
    await markDeleted(ctx, ctx.viewer, id);
    await purgeSegmentMembers(ctx, id, null);
    await audit(ctx, ctx.viewer, {
      action: "segment.delete",
      target: { table: "emailSegments", id, label: segment.name },
      summary: `Deleted segment ${segment.name}.`,
      changes: fieldChanges(segment, null, AUDITED_SEGMENT_FIELDS),
    });
    return null;
  },
});

/** Recomputes a segment's members from the voter file as it is now. */
export const refresh = orgMutation("campaigns.manage")({
  args: { id: v.id("emailSegments") },
  returns: v.null(),
  handler: async (ctx, { id }) => {
    const segment = await ctx.db.get("emailSegments", id);
    if (!segment) throw appError("NOT_FOUND");
    await startSegmentRefresh(ctx, segment);
    return null;
  },
});

export const refreshStep = internalMutation({
  args: { segmentId: v.id("emailSegments"), gen: v.number(), cursor: v.union(v.string(), v.null()), count: v.number() },
  returns: v.null(),
  handler: async (ctx, args) => {
    await segmentRefreshStep(ctx, args);
    return null;
  },
});

export const purgeMembers = internalMutation({
  args: { segmentId: v.id("emailSegments"), belowGen: v.union(v.number(), v.null()) },
  returns: v.null(),
  handler: async (ctx, { segmentId, belowGen }) => {
    await purgeSegmentMembers(ctx, segmentId, belowGen);
    return null;
  },
});
