/**
 * Surveys (spec/3 §2.11, §3.4): multi-page surveys with skip logic, the organisation's survey
 * settings, and submissions. While a survey is edited its draft is the co-edited Yjs document
 * "survey:<id>" (lib/surveys/draft.ts); Save or auto-save publishes it into `pages` here.
 */
import { defineTable } from "convex/server";
import { v } from "convex/values";
import { CONDITION_OPS, RATING_TYPES, SURVEY_FIELD_TYPES } from "../lib/surveys/rules";

export const vCondition = v.object({
  fieldId: v.string(),
  op: v.union(...CONDITION_OPS.map((o) => v.literal(o))),
  value: v.string(),
});
export const vSurveyField = v.object({
  id: v.string(),
  type: v.union(...SURVEY_FIELD_TYPES.map((t) => v.literal(t))),
  label: v.string(),
  placeholder: v.union(v.string(), v.null()),
  description: v.union(v.string(), v.null()),
  required: v.boolean(),
  options: v.array(v.string()),
  maxRating: v.union(v.number(), v.null()),
  ratingType: v.union(...RATING_TYPES.map((t) => v.literal(t)), v.null()),
  min: v.union(v.number(), v.null()),
  max: v.union(v.number(), v.null()),
  step: v.union(v.number(), v.null()),
  condition: v.union(vCondition, v.null()),
});
export const vSurveyPage = v.object({
  id: v.string(),
  title: v.string(),
  condition: v.union(vCondition, v.null()),
  fields: v.array(vSurveyField),
});
export const vSurveySettings = v.object({ allowMultipleSubmissions: v.boolean(), showProgressBar: v.boolean() });
export const vOrgSurveySettings = v.object({
  emailNotifications: v.boolean(),
  defaultRecipient: v.union(v.string(), v.null()),
  autoSave: v.boolean(),
  allowAnonymous: v.boolean(),
});
export const vAnswer = v.union(v.string(), v.number(), v.boolean(), v.array(v.string()));

export const surveyTables = {
  surveys: defineTable({
    orgId: v.id("organizations"),
    name: v.string(),
    description: v.union(v.string(), v.null()),
    /** who is emailed on each submission (the organisation's default recipient when null) */
    recipient: v.union(v.string(), v.null()),
    pages: v.array(vSurveyPage),
    settings: vSurveySettings,
    version: v.number(),
    submissionCount: v.number(),
    createdBy: v.id("users"),
    updatedAt: v.number(),
    updatedBy: v.id("users"),
  }).index("by_org", ["orgId"]),

  surveySettings: defineTable({ orgId: v.id("organizations"), settings: vOrgSurveySettings }).index("by_org", [
    "orgId",
  ]),

  surveySubmissions: defineTable({
    orgId: v.id("organizations"),
    surveyId: v.id("surveys"),
    responses: v.record(v.string(), vAnswer),
    /** the respondent's email (null: anonymous) */
    email: v.union(v.string(), v.null()),
    emailLower: v.union(v.string(), v.null()),
    userAgent: v.union(v.string(), v.null()),
    submitterIp: v.union(v.string(), v.null()),
    /** "canvass": answers recorded at a door (issue 38) */
    source: v.union(v.literal("public"), v.literal("preview"), v.literal("canvass")),
    /** the voter who answered at the door (canvass submissions) */
    voterId: v.optional(v.id("voters")),
  })
    // by_survey lists newest first; by_survey_email finds a respondent's earlier submission
    // eslint-disable-next-line @convex-dev/no-duplicate-indexes
    .index("by_survey", ["surveyId"])
    .index("by_survey_email", ["surveyId", "emailLower"]),
};
