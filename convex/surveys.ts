/**
 * Surveys (spec/3 §2.11): the survey maker's list, create, publish (Save / auto-save), delete,
 * the organisation's survey settings, and the public read of a survey. surveys.view reads,
 * surveys.manage writes. While a survey is edited its draft is the co-edited Yjs document
 * "survey:<id>" (seeded here on create); saving publishes the draft.
 */
import { v } from "convex/values";
import { internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { internalMutation, orgMutation, orgQuery, publicQuery } from "./functions";
import { appError } from "./lib/errors";
import { DEFAULT_SURVEY_SETTINGS, newPageId } from "./lib/surveys/rules";
import { adjustCounter } from "./model/counters";
import { displayName } from "./model/presence";
import { checkSurveyLimit, cleanEmail, cleanSurvey, orgSurveySettings, seedSurveyDraft } from "./model/surveys";
import { surveyTables, vOrgSurveySettings } from "./tables/surveys";
import { TEXTS } from "./lib/texts";

const DELETE_BATCH = 500;

const surveyFields = surveyTables.surveys.validator;

const vSurveyRow = surveyFields
  .pick("name", "description", "recipient", "pages", "settings", "version", "submissionCount", "updatedAt")
  .extend({ id: v.id("surveys"), createdAt: v.number(), updatedByName: v.string() });

/** The organisation's surveys, newest first. */
export const list = orgQuery("surveys.view")({
  args: {},
  returns: v.array(vSurveyRow),
  handler: async (ctx) => {
    const rows = await ctx.db
      .query("surveys")
      .withIndex("by_org", (q) => q.eq("orgId", ctx.viewer.orgId))
      .order("desc")
      .take(500);
    const names = new Map<Id<"users">, string>();
    const out = [];
    for (const s of rows) {
      if (!names.has(s.updatedBy)) {
        const u = await ctx.db.get("users", s.updatedBy);
        names.set(s.updatedBy, u ? displayName(u) : "A former member");
      }
      out.push({
        id: s._id,
        name: s.name,
        description: s.description,
        recipient: s.recipient,
        pages: s.pages,
        settings: s.settings,
        version: s.version,
        submissionCount: s.submissionCount,
        createdAt: s._creationTime,
        updatedAt: s.updatedAt,
        updatedByName: names.get(s.updatedBy)!,
      });
    }
    return out;
  },
});

/** The create modal: a survey with one empty page; its co-edited draft is seeded. */
export const create = orgMutation("surveys.manage")({
  args: { name: v.string(), description: v.union(v.string(), v.null()), recipient: v.union(v.string(), v.null()) },
  returns: v.id("surveys"),
  handler: async (ctx, args) => {
    if (!args.name.trim()) throw appError("VALIDATION_ERROR", "Survey name required", "Survey name required");
    await checkSurveyLimit(ctx, ctx.viewer);
    const settings = await orgSurveySettings(ctx.db, ctx.viewer.orgId);
    const recipient = cleanEmail(args.recipient, "Recipient email") ?? settings.defaultRecipient;
    const def = cleanSurvey({
      name: args.name,
      description: args.description,
      pages: [{ id: newPageId(), title: "Page 1", condition: null, fields: [] }],
    });
    const now = Date.now();
    const id = await ctx.db.insert("surveys", {
      orgId: ctx.viewer.orgId,
      ...def,
      recipient,
      settings: DEFAULT_SURVEY_SETTINGS,
      version: 1,
      submissionCount: 0,
      createdBy: ctx.viewer.userId,
      updatedAt: now,
      updatedBy: ctx.viewer.userId,
    });
    await seedSurveyDraft(ctx, ctx.viewer, id, { ...def, recipient, settings: DEFAULT_SURVEY_SETTINGS });
    await adjustCounter(ctx, ctx.viewer.orgId, "surveys", 1);
    return id;
  },
});

/** Save: publishes the draft (what respondents get from now on). */
export const save = orgMutation("surveys.manage")({
  args: { id: v.id("surveys"), ...surveyFields.pick("name", "description", "recipient", "pages", "settings").fields },
  returns: v.object({ version: v.number() }),
  handler: async (ctx, args) => {
    const survey = await ctx.db.get("surveys", args.id);
    if (!survey) throw appError("NOT_FOUND", "This survey was deleted by a teammate.", TEXTS.titles.surveySaveFailed);
    const def = cleanSurvey(args);
    const version = survey.version + 1;
    await ctx.db.patch("surveys", args.id, {
      ...def,
      recipient: cleanEmail(args.recipient, "Recipient email"),
      settings: args.settings,
      version,
      updatedAt: Date.now(),
      updatedBy: ctx.viewer.userId,
    });
    return { version };
  },
});

/** Deletes a survey; its submissions are deleted after it, in batches. */
export const remove = orgMutation("surveys.manage")({
  args: { id: v.id("surveys") },
  returns: v.null(),
  handler: async (ctx, { id }) => {
    if (!(await ctx.db.get("surveys", id))) throw appError("NOT_FOUND");
    await ctx.db.delete("surveys", id);
    await adjustCounter(ctx, ctx.viewer.orgId, "surveys", -1);
    await ctx.scheduler.runAfter(0, internal.surveys.deleteSubmissionsStep, { surveyId: id });
    return null;
  },
});

export const deleteSubmissionsStep = internalMutation({
  args: { surveyId: v.id("surveys") },
  returns: v.null(),
  handler: async (ctx, { surveyId }) => {
    const batch = await ctx.db
      .query("surveySubmissions")
      .withIndex("by_survey", (q) => q.eq("surveyId", surveyId))
      .take(DELETE_BATCH);
    for (const s of batch) await ctx.db.delete("surveySubmissions", s._id);
    if (batch.length === DELETE_BATCH)
      await ctx.scheduler.runAfter(0, internal.surveys.deleteSubmissionsStep, { surveyId });
    return null;
  },
});

/** The organisation's survey settings (notifications, default recipient, auto-save, anonymous). */
export const settings = orgQuery("surveys.view")({
  args: {},
  returns: vOrgSurveySettings,
  handler: async (ctx) => await orgSurveySettings(ctx.db, ctx.viewer.orgId),
});

export const updateSettings = orgMutation("surveys.manage")({
  args: { settings: vOrgSurveySettings },
  returns: v.null(),
  handler: async (ctx, { settings }) => {
    const clean = { ...settings, defaultRecipient: cleanEmail(settings.defaultRecipient, "Default recipient") };
    const row = await ctx.db
      .query("surveySettings")
      .withIndex("by_org", (q) => q.eq("orgId", ctx.viewer.orgId))
      .unique();
    if (row) await ctx.db.patch("surveySettings", row._id, { settings: clean });
    else await ctx.db.insert("surveySettings", { orgId: ctx.viewer.orgId, settings: clean });
    return null;
  },
});

/** A survey's public content for the hosted page and embeds; null when it does not exist. */
export const publicSurvey = publicQuery({
  args: { id: v.string() },
  returns: v.union(
    surveyFields
      .pick("name", "description", "pages", "settings")
      .extend({ id: v.string(), allowAnonymous: v.boolean() }),
    v.null(),
  ),
  handler: async (ctx, { id }) => {
    const surveyId = ctx.db.normalizeId("surveys", id);
    const s = surveyId ? await ctx.db.get("surveys", surveyId) : null;
    if (!s) return null;
    const org = await orgSurveySettings(ctx.db, s.orgId);
    return {
      id: s._id,
      name: s.name,
      description: s.description,
      pages: s.pages,
      settings: s.settings,
      allowAnonymous: org.allowAnonymous,
    };
  },
});
