/**
 * Organisation-wide custom voter fields (shared by all staff). voters.view lists them;
 * voters.manage adds and deletes definitions and counts the voters holding a value first.
 */
import { paginationOptsValidator, paginationResultValidator } from "convex/server";
import { v } from "convex/values";
import { appError, orgMutation, orgQuery } from "./functions";
import { audit } from "./model/audit";
import { COUNT_PAGE } from "./model/voterSearch";
import { vCustomFieldType, voterTables } from "./tables/voters";

/** Refusal of a second field with the same label (trimmed, any case). */
export const DUPLICATE_LABEL = "A field with this label already exists";

/** Definitions an organisation may have (the list shows them all). */
const MAX_FIELDS = 500;

/** A definition as the voter form and Settings show it. */
const vFieldDef = voterTables.customFieldDefs.validator
  .pick("key", "label", "type", "required", "options")
  .extend({ _id: v.id("customFieldDefs") });

export const list = orgQuery("voters.view")({
  args: {},
  returns: v.array(vFieldDef),
  handler: async (ctx) => {
    const rows = await ctx.db
      .query("customFieldDefs")
      .withIndex("by_org_key", (q) => q.eq("orgId", ctx.viewer.orgId))
      .take(MAX_FIELDS);
    return rows
      .sort((a, b) => a.createdAt - b.createdAt)
      .map((r) => ({ _id: r._id, key: r.key, label: r.label, type: r.type, required: r.required, options: r.options }));
  },
});

/** Splits the Add Field modal's comma-separated dropdown options. */
export function splitOptions(text: string): string[] {
  return text
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

export const create = orgMutation("voters.manage")({
  args: { label: v.string(), type: vCustomFieldType, required: v.boolean(), options: v.optional(v.array(v.string())) },
  /** the new field's key (custom_<timestamp>) */
  returns: v.string(),
  handler: async (ctx, args) => {
    const label = args.label.trim();
    if (!label || label.length > 100)
      throw appError("VALIDATION_ERROR", "Please check your input and try again.", "Missing information");
    const options = args.type === "dropdown" ? (args.options ?? []).map((o) => o.trim()).filter(Boolean) : undefined;
    if (args.type === "dropdown" && options!.length === 0)
      throw appError("VALIDATION_ERROR", "Please enter at least one option.", "Missing information");
    const existing = await ctx.db
      .query("customFieldDefs")
      .withIndex("by_org_key", (q) => q.eq("orgId", ctx.viewer.orgId))
      .take(MAX_FIELDS);
    if (existing.some((d) => d.label.trim().toLowerCase() === label.toLowerCase()))
      throw appError("DUPLICATE_ERROR", DUPLICATE_LABEL, "Duplicate field");
    if (existing.length >= MAX_FIELDS)
      throw appError("VALIDATION_ERROR", `An organization can have at most ${MAX_FIELDS} custom fields.`);
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
    await audit(ctx, ctx.viewer, {
      action: "settings.update",
      target: { table: "customFieldDefs", id: key, label },
      summary: `Added the custom voter field "${label}" (${args.type}${args.required ? ", required" : ""}).`,
    });
    return key;
  },
});

/**
 * How many voters hold a value for a field, one bounded page of voters per call (page: one entry
 * with the page's count): the delete confirmation follows `continueCursor` until `isDone` and
 * adds the pages up. There is no index by custom field, so this reads the voters in pages.
 */
export const countValues = orgQuery("voters.manage")({
  args: { id: v.id("customFieldDefs"), paginationOpts: paginationOptsValidator },
  returns: paginationResultValidator(v.object({ count: v.number() })),
  handler: async (ctx, { id, paginationOpts }) => {
    const def = await ctx.db.get("customFieldDefs", id);
    if (!def) throw appError("NOT_FOUND");
    const result = await ctx.db
      .query("voters")
      .withIndex("by_org", (q) => q.eq("orgId", ctx.viewer.orgId))
      .paginate({ ...paginationOpts, numItems: COUNT_PAGE });
    const count = result.page.reduce((n, voter) => n + ((voter.custom_fields?.[def.key] ?? "") !== "" ? 1 : 0), 0);
    return { ...result, page: [{ count }] };
  },
});

/** Deletes a definition; values stored on voters stay (shown with a label derived from the key). */
export const remove = orgMutation("voters.manage")({
  args: { id: v.id("customFieldDefs") },
  returns: v.null(),
  handler: async (ctx, { id }) => {
    const row = await ctx.db.get("customFieldDefs", id);
    if (!row) throw appError("NOT_FOUND");
    await ctx.db.delete("customFieldDefs", id);
    await audit(ctx, ctx.viewer, {
      action: "settings.update",
      target: { table: "customFieldDefs", id: row.key, label: row.label },
      summary: `Deleted the custom voter field "${row.label}" (the values voters hold stay).`,
    });
    return null;
  },
});
