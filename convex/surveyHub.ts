/**
 * The Polls & Surveys hub (/polls-surveys): the organisation's surveys at a glance, live. Each
 * survey's response count is its stored counter (kept exact by submit and delete), its last
 * response one index read (the newest on `by_survey`). surveys.view.
 */
import { v } from "convex/values";
import { orgQuery } from "./functions";
import { surveyTables } from "./tables/surveys";

const MAX_SURVEYS = 500;

const vHubRow = surveyTables.surveys.validator.pick("name", "description", "updatedAt").extend({
  id: v.id("surveys"),
  /** "live": has questions, its link takes responses; "draft": no question yet */
  status: v.union(v.literal("live"), v.literal("draft")),
  pages: v.number(),
  questions: v.number(),
  responses: v.number(),
  lastResponseAt: v.union(v.number(), v.null()),
});

/** Every survey of the organisation (most recent activity first) and the totals. */
export const overview = orgQuery("surveys.view")({
  args: {},
  returns: v.object({
    surveys: v.array(vHubRow),
    totalResponses: v.number(),
    lastResponseAt: v.union(v.number(), v.null()),
  }),
  handler: async (ctx) => {
    const surveys = await ctx.db
      .query("surveys")
      .withIndex("by_org", (q) => q.eq("orgId", ctx.viewer.orgId))
      .order("desc")
      .take(MAX_SURVEYS);
    const rows = [];
    for (const s of surveys) {
      const newest = await ctx.db
        .query("surveySubmissions")
        .withIndex("by_survey", (q) => q.eq("surveyId", s._id))
        .order("desc")
        .first();
      const questions = s.pages.reduce((n, p) => n + p.fields.length, 0);
      rows.push({
        id: s._id,
        name: s.name,
        description: s.description,
        status: questions > 0 ? ("live" as const) : ("draft" as const),
        pages: s.pages.length,
        questions,
        responses: s.submissionCount,
        lastResponseAt: newest?._creationTime ?? null,
        updatedAt: s.updatedAt,
      });
    }
    rows.sort((a, b) => Math.max(b.lastResponseAt ?? 0, b.updatedAt) - Math.max(a.lastResponseAt ?? 0, a.updatedAt));
    const last = rows.reduce<number | null>(
      (m, r) => (r.lastResponseAt !== null && (m === null || r.lastResponseAt > m) ? r.lastResponseAt : m),
      null,
    );
    return { surveys: rows, totalResponses: rows.reduce((n, r) => n + r.responses, 0), lastResponseAt: last };
  },
});
