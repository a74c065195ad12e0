/**
 * Client error reports (spec/1 §7, spec/3 §7): POST /api/errors from the global error handler.
 * A public endpoint: validated, size- and depth-capped, rate-limited per client address and
 * globally, and stored in bounded space (the oldest reports go first) for account admins to read.
 */
import { v } from "convex/values";
import { z } from "zod";
import { internal } from "./_generated/api";
import { defineRateLimits } from "convex-helpers/server/rateLimit";
import type { MutationCtx } from "./_generated/server";
import { httpAction, internalMutation, orgQuery } from "./functions";
import { clientAddress } from "./model/clientAddress";
import { jsonDepthExceeds } from "./model/jsonDepth";
import { loadViewer } from "./model/viewer";
import { coreTables } from "./tables/core";

export const MAX_REPORT_BYTES = 64 * 1024;
export const MAX_ERRORS_PER_REPORT = 25;
/** Errors accepted per client address per minute, and from everyone per minute. */
export const RATE_LIMIT_PER_MINUTE = 30;
export const GLOBAL_LIMIT_PER_MINUTE = 600;
/** Reports kept in all (ERROR_REPORTS_MAX_STORED overrides); past this the oldest are deleted. */
export const MAX_STORED_REPORTS = 10_000;
const maxStored = () => Number(process.env.ERROR_REPORTS_MAX_STORED) || MAX_STORED_REPORTS;
/** Deepest JSON nesting accepted (a report is a few levels deep; `context` gets some room). */
export const MAX_REPORT_DEPTH = 16;

const { rateLimit } = defineRateLimits({
  errorReportsPerAddress: {
    kind: "token bucket",
    rate: RATE_LIMIT_PER_MINUTE,
    period: 60_000,
    capacity: RATE_LIMIT_PER_MINUTE,
  },
  errorReportsGlobal: {
    kind: "token bucket",
    rate: GLOBAL_LIMIT_PER_MINUTE,
    period: 60_000,
    capacity: GLOBAL_LIMIT_PER_MINUTE,
    shards: 2,
  },
});

const str = (max: number) => z.string().max(max).optional();
const reportSchema = z.object({
  sessionId: z.string().min(1).max(100),
  timestamp: z.union([z.string(), z.number()]).optional(),
  errors: z
    .array(
      z.object({
        message: z.string().min(1).max(4000),
        stack: str(16000),
        componentStack: str(16000),
        errorId: str(100),
        code: str(50),
        url: str(2000),
        userAgent: str(1000),
        context: z.unknown().optional(),
      }),
    )
    .min(1)
    .max(MAX_ERRORS_PER_REPORT),
});

/** CORS is added by the router (convex/http.ts). */
export const reportErrors = httpAction(async (ctx, request) => {
  const headers = { "Content-Type": "application/json" };
  const reply = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers });
  const declared = Number(request.headers.get("Content-Length") ?? 0);
  if (declared > MAX_REPORT_BYTES) return reply(413, { error: "Error report too large." });
  const raw = await request.text();
  if (raw.length > MAX_REPORT_BYTES) return reply(413, { error: "Error report too large." });
  if (jsonDepthExceeds(raw, MAX_REPORT_DEPTH)) return reply(400, { error: "Invalid error report: nested too deeply." });
  let parsed: z.infer<typeof reportSchema>;
  try {
    parsed = reportSchema.parse(JSON.parse(raw));
  } catch {
    return reply(400, { error: "Invalid error report." });
  }
  const result = await ctx.runMutation(internal.errorReports.store, {
    address: clientAddress(request),
    sessionId: parsed.sessionId,
    errors: parsed.errors.map((e) => ({
      message: e.message,
      stack: e.stack,
      componentStack: e.componentStack,
      errorId: e.errorId,
      code: e.code,
      url: e.url,
      userAgent: e.userAgent ?? request.headers.get("User-Agent") ?? undefined,
      context: e.context === undefined ? undefined : JSON.stringify(e.context).slice(0, 4000),
    })),
  });
  if (result === "rate_limited") return reply(429, { error: "Too many requests. Please wait a moment and try again." });
  return reply(200, { stored: result });
});

export const store = internalMutation({
  args: {
    address: v.string(),
    sessionId: v.string(),
    errors: v.array(
      v.object({
        message: v.string(),
        stack: v.optional(v.string()),
        componentStack: v.optional(v.string()),
        errorId: v.optional(v.string()),
        code: v.optional(v.string()),
        url: v.optional(v.string()),
        userAgent: v.optional(v.string()),
        context: v.optional(v.string()),
      }),
    ),
  },
  handler: async (ctx, { address, sessionId, errors }) => {
    const count = errors.length;
    if (!(await rateLimit(ctx, { name: "errorReportsPerAddress", key: address, count })).ok)
      return "rate_limited" as const;
    if (!(await rateLimit(ctx, { name: "errorReportsGlobal", count })).ok) return "rate_limited" as const;
    const now = Date.now();
    const viewer = await loadViewer(ctx);
    for (const e of errors) {
      await ctx.db.insert("errorReports", {
        ...e,
        sessionId,
        reportedAt: now,
        orgId: viewer?.orgId,
        userId: viewer?.userId,
      });
    }
    await keepBounded(ctx, count);
    return count;
  },
});

/** Counts the reports just stored and deletes the oldest beyond the cap. */
async function keepBounded(ctx: MutationCtx, added: number) {
  const tally = await ctx.db.query("errorReportTally").first();
  let stored = (tally?.stored ?? 0) + added;
  const max = maxStored();
  if (stored > max) {
    const oldest = await ctx.db
      .query("errorReports")
      .withIndex("by_reported_at")
      .order("asc")
      .take(stored - max);
    for (const r of oldest) await ctx.db.delete("errorReports", r._id);
    stored -= oldest.length;
  }
  if (tally) await ctx.db.patch("errorReportTally", tally._id, { stored });
  else await ctx.db.insert("errorReportTally", { stored });
}

/** Recent client errors of the organisation, for account admins. */
export const listRecent = orgQuery("account.manage")({
  args: {},
  returns: v.array(
    coreTables.errorReports.validator
      .pick("message", "reportedAt")
      .extend({ id: v.id("errorReports"), errorId: v.union(v.string(), v.null()), url: v.union(v.string(), v.null()) }),
  ),
  handler: async (ctx) => {
    const reports = await ctx.db
      .query("errorReports")
      .withIndex("by_org", (q) => q.eq("orgId", ctx.viewer.orgId))
      .order("desc")
      .take(100);
    return reports.map((r) => ({
      id: r._id,
      message: r.message,
      errorId: r.errorId ?? null,
      url: r.url ?? null,
      reportedAt: r.reportedAt,
    }));
  },
});
