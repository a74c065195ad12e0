/**
 * Survey submissions (spec/3 §2.11, §7): the Submissions tab (live, details, delete), CSV export
 * pages, the per-question summary, the preview's submission, and the public endpoint.
 *
 * The public path: POST /api/surveys/start → a signed fill token; POST /api/survey-submissions
 * {surveyId, responses, email, token, website, submittedAt, timestamp}. CORS answers any origin
 * (without credentials) so a campaign's own site can post; everything else is as for forms
 * (model/publicSubmit.ts): size cap, strict shape, rate limits, token, honeypot and minimum fill
 * time, then the answers are checked against the published pages with skip logic.
 */
import { v } from "convex/values";
import { z } from "zod";
import { internal } from "./_generated/api";
import type { Doc } from "./_generated/dataModel";
import { httpAction, internalMutation, orgMutation, orgQuery } from "./functions";
import { appError } from "./lib/errors";
import { MAX_SURVEY_BODY_BYTES } from "./lib/surveys/rules";
import { clientAddress } from "./model/clientAddress";
import { openExportRun, quoted, requireExportRun } from "./model/exports";
import { issueFillToken, json, judgeFill, readJsonBody } from "./model/publicSubmit";
import { recordSurveySubmission } from "./model/surveys";
import { surveyTables, vAnswer } from "./tables/surveys";

const MAX_LISTED = 500;
const EXPORT_PAGE = 500;
export const SUMMARY_SAMPLE = 2_000;

const vRow = surveyTables.surveySubmissions.validator
  .pick("responses", "email", "source", "userAgent")
  .extend({ id: v.id("surveySubmissions"), submittedAt: v.number() });
const row = (s: Doc<"surveySubmissions">) => ({
  id: s._id,
  responses: s.responses,
  email: s.email,
  source: s.source,
  userAgent: s.userAgent,
  submittedAt: s._creationTime,
});

/** The Submissions tab: newest first, live. */
export const list = orgQuery("surveys.view")({
  args: { surveyId: v.id("surveys"), limit: v.number() },
  returns: v.object({ rows: v.array(vRow), total: v.number() }),
  handler: async (ctx, { surveyId, limit }) => {
    const survey = await ctx.db.get("surveys", surveyId);
    if (!survey) throw appError("NOT_FOUND");
    const rows = await ctx.db
      .query("surveySubmissions")
      .withIndex("by_survey", (q) => q.eq("surveyId", surveyId))
      .order("desc")
      .take(Math.max(1, Math.min(MAX_LISTED, Math.floor(limit))));
    return { rows: rows.map(row), total: survey.submissionCount };
  },
});

/** Starts a CSV export of a survey's submissions (model/exports.ts); its pages are read with the id returned. */
export const startExport = orgMutation("surveys.view")({
  args: { surveyId: v.id("surveys") },
  returns: v.id("exportRuns"),
  handler: async (ctx, { surveyId }) => {
    const survey = await ctx.db.get("surveys", surveyId);
    if (!survey) throw appError("NOT_FOUND");
    return await openExportRun(ctx, ctx.viewer, {
      kind: "surveySubmissions",
      filter: { surveyId },
      filterSummary: "all submissions",
      format: "csv",
      label: `submissions of survey ${quoted(survey.name)}`,
      source: { table: "surveys", id: surveyId },
    });
  },
});

/** One page of the CSV export, older than `before` (null: the newest), for a run started by surveySubmissions.startExport. */
export const exportPage = orgQuery("surveys.view")({
  args: { exportId: v.id("exportRuns"), surveyId: v.id("surveys"), before: v.union(v.number(), v.null()) },
  returns: v.object({ rows: v.array(vRow), nextBefore: v.union(v.number(), v.null()) }),
  handler: async (ctx, { exportId, surveyId, before }) => {
    await requireExportRun(ctx, ctx.viewer, exportId, "surveySubmissions", { surveyId });
    if (!(await ctx.db.get("surveys", surveyId))) throw appError("NOT_FOUND");
    const rows = await ctx.db
      .query("surveySubmissions")
      .withIndex("by_survey", (q) =>
        before === null ? q.eq("surveyId", surveyId) : q.eq("surveyId", surveyId).lt("_creationTime", before),
      )
      .order("desc")
      .take(EXPORT_PAGE);
    return {
      rows: rows.map(row),
      nextBefore: rows.length === EXPORT_PAGE ? rows[rows.length - 1]._creationTime : null,
    };
  },
});

/** The latest submissions' answers for the per-question summary (at most SUMMARY_SAMPLE; `sampled` when there are more). */
export const summarySample = orgQuery("surveys.view")({
  args: { surveyId: v.id("surveys") },
  returns: v.object({ responses: v.array(v.record(v.string(), vAnswer)), sampled: v.boolean() }),
  handler: async (ctx, { surveyId }) => {
    const survey = await ctx.db.get("surveys", surveyId);
    if (!survey) throw appError("NOT_FOUND");
    const rows = await ctx.db
      .query("surveySubmissions")
      .withIndex("by_survey", (q) => q.eq("surveyId", surveyId))
      .order("desc")
      .take(SUMMARY_SAMPLE);
    return { responses: rows.map((r) => r.responses), sampled: survey.submissionCount > rows.length };
  },
});

export const remove = orgMutation("surveys.manage")({
  args: { id: v.id("surveySubmissions") },
  returns: v.null(),
  handler: async (ctx, { id }) => {
    const s = await ctx.db.get("surveySubmissions", id);
    if (!s) throw appError("NOT_FOUND");
    await ctx.db.delete("surveySubmissions", id);
    const survey = await ctx.db.get("surveys", s.surveyId);
    if (survey) await ctx.db.patch("surveys", survey._id, { submissionCount: Math.max(0, survey.submissionCount - 1) });
    return null;
  },
});

const vResult = v.union(
  v.object({ ok: v.literal(true), id: v.id("surveySubmissions") }),
  v.object({ ok: v.literal(false), errors: v.record(v.string(), v.string()), message: v.optional(v.string()) }),
);

/** The editor's Preview: a staffer answers the survey (recorded as a preview submission). */
export const submitPreview = orgMutation("surveys.view")({
  args: { surveyId: v.id("surveys"), responses: v.record(v.string(), vAnswer), email: v.union(v.string(), v.null()) },
  returns: vResult,
  handler: async (ctx, { surveyId, responses, email }) => {
    const survey = await ctx.db.get("surveys", surveyId);
    if (!survey) throw appError("NOT_FOUND");
    if (JSON.stringify(responses).length > MAX_SURVEY_BODY_BYTES)
      throw appError("VALIDATION_ERROR", "This submission is too large.");
    return await recordSurveySubmission(ctx, survey, responses, {
      email: email ?? ctx.viewer.user.email ?? null,
      userAgent: null,
      submitterIp: null,
      source: "preview",
    });
  },
});

// ---- the public endpoint ----

export const submitPublic = internalMutation({
  args: {
    surveyId: v.string(),
    responses: v.record(v.string(), vAnswer),
    email: v.union(v.string(), v.null()),
    userAgent: v.union(v.string(), v.null()),
    address: v.string(),
  },
  returns: v.union(vResult, v.object({ ok: v.literal(false), notFound: v.literal(true) })),
  handler: async (ctx, args) => {
    const id = ctx.db.normalizeId("surveys", args.surveyId);
    const survey = id ? await ctx.db.get("surveys", id) : null;
    if (!survey) return { ok: false as const, notFound: true as const };
    return await recordSurveySubmission(ctx, survey, args.responses, {
      email: args.email,
      userAgent: args.userAgent,
      submitterIp: args.address === "unknown" ? null : args.address,
      source: "public",
    });
  },
});

/** Any site may post (no credentials); the browser reads these answers. */
const OPEN_CORS = { "Access-Control-Allow-Origin": "*", Vary: "Origin" };
export const surveyPreflight = httpAction(
  async () =>
    new Response(null, {
      status: 204,
      headers: {
        ...OPEN_CORS,
        "Access-Control-Allow-Methods": "POST, OPTIONS",
        "Access-Control-Allow-Headers": "Content-Type",
        "Access-Control-Max-Age": "86400",
      },
    }),
);

const surveyIdSchema = z.string().min(1).max(64);
const startSchema = z.object({ surveyId: surveyIdSchema }).strict();
const answerSchema = z.union([z.string().max(10_000), z.number(), z.boolean(), z.array(z.string().max(200)).max(50)]);
const submitSchema = z
  .object({
    surveyId: surveyIdSchema,
    token: z.string().max(512),
    website: z.string().max(200).optional(),
    email: z.string().max(254).nullable().optional(),
    responses: z.record(z.string().max(100), answerSchema).refine((r) => Object.keys(r).length <= 200),
    submittedAt: z.string().max(40).optional(),
    timestamp: z.number().optional(),
  })
  .strict();

/** POST /api/surveys/start {surveyId} → {token}. */
export const startSurvey = httpAction(async (ctx, request) => {
  const body = await readJsonBody(request, MAX_SURVEY_BODY_BYTES);
  if (body instanceof Response) return withCors(body);
  const parsed = startSchema.safeParse(body.value);
  if (!parsed.success) return json(400, { error: "Invalid request." }, OPEN_CORS);
  const address = clientAddress(request);
  if (
    !(await ctx.runMutation(internal.publicSubmit.admit, {
      kind: "survey",
      target: parsed.data.surveyId,
      address,
      phase: "start",
    }))
  ) {
    return json(429, { error: "Too many requests. Please wait a moment and try again." }, OPEN_CORS);
  }
  return json(200, { token: await issueFillToken("survey", parsed.data.surveyId, address) }, OPEN_CORS);
});

function withCors(r: Response): Response {
  for (const [k, val] of Object.entries(OPEN_CORS)) r.headers.set(k, val);
  return r;
}

/** POST /api/survey-submissions: a respondent's answers. */
export const submitSurvey = httpAction(async (ctx, request) => {
  const body = await readJsonBody(request, MAX_SURVEY_BODY_BYTES);
  if (body instanceof Response) return withCors(body);
  const parsed = submitSchema.safeParse(body.value);
  if (!parsed.success) return json(400, { error: "Invalid submission." }, OPEN_CORS);
  const { surveyId, token, website, email, responses } = parsed.data;
  const address = clientAddress(request);
  if (
    !(await ctx.runMutation(internal.publicSubmit.admit, {
      kind: "survey",
      target: surveyId,
      address,
      phase: "submit",
    }))
  ) {
    return json(429, { error: "Too many submissions. Please wait a moment and try again." }, OPEN_CORS);
  }
  const verdict = await judgeFill("survey", surveyId, address, token, website);
  if (verdict === "invalid")
    return json(403, { error: "This survey page has expired. Please reload it and try again." }, OPEN_CORS);
  if (verdict === "spam") return json(200, { ok: true }, OPEN_CORS);
  const result = await ctx.runMutation(internal.surveySubmissions.submitPublic, {
    surveyId,
    responses,
    email: email ?? null,
    userAgent: request.headers.get("User-Agent"),
    address,
  });
  if ("notFound" in result) return json(404, { error: "This survey could not be found." }, OPEN_CORS);
  if (!result.ok)
    return json(422, { errors: result.errors, ...(result.message ? { error: result.message } : {}) }, OPEN_CORS);
  return json(200, { ok: true }, OPEN_CORS);
});
