/**
 * Forms (spec/2 §2.4, §2.5): the builder's list, create, publish (Save / Update Form), status,
 * options and delete; the public page's read of an active form. forms.view reads, forms.manage
 * writes. While a form is edited its draft is the co-edited Yjs document "form:<id>" (seeded here
 * on create); saving publishes the draft's content into the form.
 */
import { v } from "convex/values";
import { internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { internalMutation, orgMutation, orgQuery, publicQuery } from "./functions";
import { appError } from "./lib/errors";
import { planOrStarter } from "./lib/plans";
import { normalizePhone } from "./lib/sms/rules";
import { adjustCounter } from "./model/counters";
import { checkActiveLimit, cleanDefinition, seedDraft } from "./model/forms";
import { displayName } from "./model/presence";
import { vFormField, vFormStatus } from "./tables/forms";
import { TEXTS } from "./lib/texts";

export const MAX_FORMS_LISTED = 500;
const DELETE_BATCH = 500;

const vFormRow = v.object({
  id: v.id("forms"),
  name: v.string(),
  description: v.union(v.string(), v.null()),
  fields: v.array(vFormField),
  status: vFormStatus,
  matchVoters: v.boolean(),
  createContacts: v.boolean(),
  version: v.number(),
  submissionCount: v.number(),
  createdAt: v.number(),
  updatedAt: v.number(),
  updatedByName: v.string(),
});

/** The organisation's forms, newest first, with the plan's active-form limit. */
export const list = orgQuery("forms.view")({
  args: {},
  returns: v.object({ forms: v.array(vFormRow), activeLimit: v.number(), planName: v.string() }),
  handler: async (ctx) => {
    const rows = await ctx.db
      .query("forms")
      .withIndex("by_org", (q) => q.eq("orgId", ctx.viewer.orgId))
      .order("desc")
      .take(MAX_FORMS_LISTED);
    const names = new Map<Id<"users">, string>();
    const forms = [];
    for (const f of rows) {
      if (!names.has(f.updatedBy)) {
        const u = await ctx.db.get("users", f.updatedBy);
        names.set(f.updatedBy, u ? displayName(u) : "A former member");
      }
      forms.push({
        id: f._id,
        name: f.name,
        description: f.description,
        fields: f.fields,
        status: f.status,
        matchVoters: f.matchVoters,
        createContacts: f.createContacts ?? false,
        version: f.version,
        submissionCount: f.submissionCount,
        createdAt: f._creationTime,
        updatedAt: f.updatedAt,
        updatedByName: names.get(f.updatedBy)!,
      });
    }
    const plan = planOrStarter(ctx.viewer.org.subscription.tier);
    return { forms, activeLimit: plan.limits.activeForms, planName: plan.name };
  },
});

/** Creates a form (active unless the plan's active-form limit is reached) and seeds its co-edited draft. */
export const create = orgMutation("forms.manage")({
  args: { name: v.string(), description: v.union(v.string(), v.null()), fields: v.array(vFormField) },
  returns: v.object({ id: v.id("forms"), status: vFormStatus }),
  handler: async (ctx, args) => {
    const def = cleanDefinition(args.name, args.description, args.fields);
    let status: "active" | "inactive" = "active";
    try {
      await checkActiveLimit(ctx.db, ctx.viewer);
    } catch {
      status = "inactive";
    }
    const now = Date.now();
    const id = await ctx.db.insert("forms", {
      orgId: ctx.viewer.orgId,
      ...def,
      status,
      matchVoters: false,
      version: 1,
      submissionCount: 0,
      createdBy: ctx.viewer.userId,
      updatedAt: now,
      updatedBy: ctx.viewer.userId,
    });
    await seedDraft(ctx, ctx.viewer, id, def);
    await adjustCounter(ctx, ctx.viewer.orgId, "forms", 1);
    return { id, status };
  },
});

/** Update Form: publishes the draft's content (what respondents get from now on). */
export const save = orgMutation("forms.manage")({
  args: {
    id: v.id("forms"),
    name: v.string(),
    description: v.union(v.string(), v.null()),
    fields: v.array(vFormField),
  },
  returns: v.object({ version: v.number() }),
  handler: async (ctx, args) => {
    const form = await ctx.db.get("forms", args.id);
    if (!form) throw appError("NOT_FOUND", "This form was deleted by a teammate.", TEXTS.titles.formSaveFailed);
    const def = cleanDefinition(args.name, args.description, args.fields);
    const version = form.version + 1;
    await ctx.db.patch("forms", args.id, { ...def, version, updatedAt: Date.now(), updatedBy: ctx.viewer.userId });
    return { version };
  },
});

/** Active / inactive; activating counts against the plan's active-form limit. */
export const setStatus = orgMutation("forms.manage")({
  args: { id: v.id("forms"), status: vFormStatus },
  returns: v.null(),
  handler: async (ctx, { id, status }) => {
    const form = await ctx.db.get("forms", id);
    if (!form) throw appError("NOT_FOUND");
    if (form.status === status) return null;
    if (status === "active") await checkActiveLimit(ctx.db, ctx.viewer);
    await ctx.db.patch("forms", id, { status, updatedAt: Date.now(), updatedBy: ctx.viewer.userId });
    return null;
  },
});

/** Whether submissions are linked to the voter with the same email or phone, and whether one that matches nobody becomes a contact. */
export const setOptions = orgMutation("forms.manage")({
  args: { id: v.id("forms"), matchVoters: v.boolean(), createContacts: v.boolean() },
  returns: v.null(),
  handler: async (ctx, { id, matchVoters, createContacts }) => {
    const form = await ctx.db.get("forms", id);
    if (!form) throw appError("NOT_FOUND");
    if (createContacts && !ctx.viewer.can("voters.manage"))
      throw appError("FORBIDDEN", "Creating contacts from submissions needs permission to manage voters.");
    await ctx.db.patch("forms", id, {
      matchVoters,
      createContacts: matchVoters && createContacts,
      updatedAt: Date.now(),
      updatedBy: ctx.viewer.userId,
    });
    // voters stored before phone matching existed get their phone key, so they can be matched too
    if (matchVoters && !form.matchVoters)
      await ctx.scheduler.runAfter(0, internal.forms.phoneKeysStep, { orgId: ctx.viewer.orgId, cursor: null });
    return null;
  },
});

/** One step (500 voters) of giving an organisation's voters their phone key; schedules the next. */
export const phoneKeysStep = internalMutation({
  args: { orgId: v.id("organizations"), cursor: v.union(v.string(), v.null()) },
  returns: v.null(),
  handler: async (ctx, { orgId, cursor }) => {
    const page = await ctx.db
      .query("voters")
      .withIndex("by_org", (q) => q.eq("orgId", orgId))
      .paginate({ numItems: 500, cursor });
    for (const voter of page.page) {
      const key = voter.phone ? (normalizePhone(voter.phone) ?? undefined) : undefined;
      if (voter.phoneKey !== key) await ctx.db.patch("voters", voter._id, { phoneKey: key });
    }
    if (!page.isDone)
      await ctx.scheduler.runAfter(0, internal.forms.phoneKeysStep, { orgId, cursor: page.continueCursor });
    return null;
  },
});

/** Deletes a form; its submissions are deleted after it, in batches (a form can have many). */
export const remove = orgMutation("forms.manage")({
  args: { id: v.id("forms") },
  returns: v.null(),
  handler: async (ctx, { id }) => {
    const form = await ctx.db.get("forms", id);
    if (!form) throw appError("NOT_FOUND");
    await ctx.db.delete("forms", id);
    await adjustCounter(ctx, ctx.viewer.orgId, "forms", -1);
    await ctx.scheduler.runAfter(0, internal.forms.deleteSubmissionsStep, { formId: id });
    return null;
  },
});

/** One step of deleting a deleted form's submissions; schedules the next while any remain. */
export const deleteSubmissionsStep = internalMutation({
  args: { formId: v.id("forms") },
  returns: v.null(),
  handler: async (ctx, { formId }) => {
    const batch = await ctx.db
      .query("formSubmissions")
      .withIndex("by_form", (q) => q.eq("formId", formId))
      .take(DELETE_BATCH);
    for (const s of batch) await ctx.db.delete("formSubmissions", s._id);
    if (batch.length > 0) await adjustCounter(ctx, batch[0].orgId, "formSubmissions", -batch.length);
    if (batch.length === DELETE_BATCH)
      await ctx.scheduler.runAfter(0, internal.forms.deleteSubmissionsStep, { formId });
    return null;
  },
});

/** An active form's public content, for the public page and embeds; null when gone or inactive. */
export const publicForm = publicQuery({
  args: { id: v.string() },
  returns: v.union(
    v.object({
      id: v.string(),
      name: v.string(),
      description: v.union(v.string(), v.null()),
      fields: v.array(vFormField),
    }),
    v.null(),
  ),
  handler: async (ctx, { id }) => {
    const formId = ctx.db.normalizeId("forms", id);
    const form = formId ? await ctx.db.get("forms", formId) : null;
    if (!form || form.status !== "active") return null;
    return { id: form._id, name: form.name, description: form.description, fields: form.fields };
  },
});
