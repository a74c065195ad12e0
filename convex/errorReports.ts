/**
 * Client error reports (spec/1 §7, spec/3 §7): POST /api/errors from the global error handler.
 * Validated, size-capped and rate-limited per session; stored for account admins to read.
 */
import { v } from "convex/values";
import { z } from "zod";
import { internal } from "./_generated/api";
import { httpAction, internalMutation, orgQuery } from "./functions";
import { loadViewer } from "./model/viewer";

export const MAX_REPORT_BYTES = 64 * 1024;
export const MAX_ERRORS_PER_REPORT = 25;
export const RATE_LIMIT_PER_MINUTE = 30;

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

function corsHeaders(request: Request): Record<string, string> {
  return {
    "Access-Control-Allow-Origin": request.headers.get("Origin") ?? "*",
    "Access-Control-Allow-Methods": "POST, OPTIONS",
    "Access-Control-Allow-Headers": "Content-Type, Authorization, X-Error-Report",
    "Access-Control-Max-Age": "86400",
    Vary: "Origin",
  };
}

export const errorReportOptions = httpAction(async (_ctx, request) => new Response(null, { status: 204, headers: corsHeaders(request) }));

export const reportErrors = httpAction(async (ctx, request) => {
  const headers = { ...corsHeaders(request), "Content-Type": "application/json" };
  const reply = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers });
  const raw = await request.text();
  if (raw.length > MAX_REPORT_BYTES) return reply(413, { error: "Error report too large." });
  let parsed: z.infer<typeof reportSchema>;
  try {
    parsed = reportSchema.parse(JSON.parse(raw));
  } catch {
    return reply(400, { error: "Invalid error report." });
  }
  const result = await ctx.runMutation(internal.errorReports.store, {
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
  handler: async (ctx, { sessionId, errors }) => {
    const now = Date.now();
    const recent = await ctx.db
      .query("errorReports")
      .withIndex("by_session", (q) => q.eq("sessionId", sessionId))
      .order("desc")
      .take(RATE_LIMIT_PER_MINUTE);
    const inLastMinute = recent.filter((r) => r.reportedAt > now - 60_000).length;
    if (inLastMinute + errors.length > RATE_LIMIT_PER_MINUTE) return "rate_limited" as const;
    const viewer = await loadViewer(ctx);
    for (const e of errors) {
      await ctx.db.insert("errorReports", { ...e, sessionId, reportedAt: now, orgId: viewer?.orgId, userId: viewer?.userId });
    }
    return errors.length;
  },
});

/** Recent client errors of the organisation, for account admins. */
export const listRecent = orgQuery("account.manage")({
  args: {},
  handler: async (ctx) => {
    const reports = await ctx.db
      .query("errorReports")
      .withIndex("by_org", (q) => q.eq("orgId", ctx.viewer.orgId))
      .order("desc")
      .take(100);
    return reports.map((r) => ({ id: r._id, message: r.message, errorId: r.errorId ?? null, url: r.url ?? null, reportedAt: r.reportedAt }));
  },
});
