/**
 * Organisation-wide custom voter fields (shared by all staff). voters.view lists them;
 * voters.manage adds and deletes definitions.
 */
import { v } from "convex/values";
import { appError, orgMutation, orgQuery } from "./functions";
import { vCustomFieldType } from "./tables/voters";

export const list = orgQuery("voters.view")({
  args: {},
  handler: async (ctx) => {
    const rows = await ctx.db
      .query("customFieldDefs")
      .withIndex("by_org_key", (q) => q.eq("orgId", ctx.viewer.orgId))
      .take(500);
    return rows
      .sort((a, b) => a.createdAt - b.createdAt)
      .map((r) => ({ _id: r._id, key: r.key, label: r.label, type: r.type, required: r.required, options: r.options }));
  },
});

/** Splits the Add Field modal's comma-separated dropdown options. */
export function splitOptions(text: string): string[] {
  return text.split(",").map((s) => s.trim()).filter((s) => s.length > 0);
}

export const create = orgMutation("voters.manage")({
  args: { label: v.string(), type: vCustomFieldType, required: v.boolean(), options: v.optional(v.array(v.string())) },
  handler: async (ctx, args) => {
    const label = args.label.trim();
    if (!label || label.length > 100) throw appError("VALIDATION_ERROR", "Please check your input and try again.", "Missing information");
    const options = args.type === "dropdown" ? (args.options ?? []).map((o) => o.trim()).filter(Boolean) : undefined;
    if (args.type === "dropdown" && options!.length === 0) throw appError("VALIDATION_ERROR", "Please enter at least one option.", "Missing information");
    // custom_ plus a timestamp (spec/1 §3), made unique within the organisation.
    let stamp = Date.now();
    for (;;) {
      const key = `custom_${stamp}`;
      const clash = await ctx.db
        .query("customFieldDefs")
        .withIndex("by_org_key", (q) => q.eq("orgId", ctx.viewer.orgId).eq("key", key))
        .first();
      if (!clash) break;
      stamp += 1;
    }
    const key = `custom_${stamp}`;
    await ctx.db.insert("customFieldDefs", {
      orgId: ctx.viewer.orgId,
      key,
      label,
      type: args.type,
      required: args.required,
      options,
      createdAt: Date.now(),
    });
    return key;
  },
});

/** Deletes a definition; values stored on voters stay (shown with a label derived from the key). */
export const remove = orgMutation("voters.manage")({
  args: { id: v.id("customFieldDefs") },
  handler: async (ctx, { id }) => {
    const row = await ctx.db.get(id);
    if (!row) throw appError("NOT_FOUND");
    await ctx.db.delete(id);
  },
});
