/**
 * Form submissions (spec/2 §2.5, §2.6, §3): the public endpoint respondents post to, the View
 * dialog's in-app submission, the Form Submissions page's filtered list and CSV export pages, and
 * a voter's submissions. The voter a submission was matched to is sent only to holders of
 * voters.view (model/personalData.ts); what the respondent typed is the form's data (forms.view).
 *
 * The public path is two http actions (rules shared with surveys in publicSubmit.ts). POST
 * /api/forms/start hands the page a signed fill token (form, client address, time); POST
 * /api/forms/submit takes {formId, token, data, website}: the body is size-capped, rate-limited
 * per client address, per form and globally, the honeypot (`website`, hidden from people) must be
 * empty and the token at least MIN_FILL_MS old (no third-party captcha), and the values are
 * checked field by field like the page checks them.
 */
import { v } from "convex/values";
import { z } from "zod";
import { internal } from "./_generated/api";
import type { GenericDatabaseReader } from "convex/server";
import type { DataModel, Doc, Id } from "./_generated/dataModel";
import { httpAction, internalMutation, orgMutation, orgQuery } from "./functions";
import { appError } from "./lib/errors";
import { MAX_SUBMISSION_BYTES } from "./lib/forms/rules";
import { clientAddress } from "./model/clientAddress";
import { openExportRun, quoted, requireExportRun } from "./model/exports";
import { recordSubmission } from "./model/forms";
import { canSeeVoters } from "./model/personalData";
import { issueFillToken, json, judgeFill, readJsonBody } from "./model/publicSubmit";
import { vSubmissionValue } from "./tables/forms";

const MAX_PAGE = 500;
const SCAN_BUDGET = 4_000;

const vRow = v.object({
  id: v.id("formSubmissions"),
  formId: v.id("forms"),
  formName: v.string(),
  data: v.record(v.string(), vSubmissionValue),
  submitterEmail: v.union(v.string(), v.null()),
  submitterIp: v.union(v.string(), v.null()),
  source: v.union(v.literal("public"), v.literal("app")),
  voterId: v.union(v.id("voters"), v.null()),
  createdAt: v.number(),
});

const vFilters = {
  formId: v.union(v.id("forms"), v.null()),
  /** created_at range, ms since epoch: from inclusive, to exclusive */
  from: v.union(v.number(), v.null()),
  to: v.union(v.number(), v.null()),
  email: v.string(),
};

/**
 * Up to `limit` submissions matching the filters, newest first, older than `before` when given;
 * `nextBefore` continues the scan (null: nothing older). At most SCAN_BUDGET submissions are read
 * per call, so a page may come back short with a `nextBefore` when the email filter is selective.
 * The matched voter's id only when `seeVoters`.
 */
async function page(
  ctx: { db: GenericDatabaseReader<DataModel> },
  orgId: Id<"organizations">,
  args: {
    formId: Id<"forms"> | null;
    from: number | null;
    to: number | null;
    email: string;
    before: number | null;
    limit: number;
  },
  seeVoters: boolean,
) {
  const limit = Math.max(1, Math.min(MAX_PAGE, Math.floor(args.limit)));
  const upper = Math.min(args.before ?? Infinity, args.to ?? Infinity);
  const lower = args.from ?? 0;
  const needle = args.email.trim().toLowerCase();
  if (needle.length > 254) throw appError("VALIDATION_ERROR");
  const q = args.formId
    ? ctx.db.query("formSubmissions").withIndex("by_form", (r) => {
        const b = r.eq("formId", args.formId!).gte("_creationTime", lower);
        return upper === Infinity ? b : b.lt("_creationTime", upper);
      })
    : ctx.db.query("formSubmissions").withIndex("by_org", (r) => {
        const b = r.eq("orgId", orgId).gte("_creationTime", lower);
        return upper === Infinity ? b : b.lt("_creationTime", upper);
      });
  const rows: Doc<"formSubmissions">[] = [];
  let scanned = 0;
  let last: number | null = null;
  let exhausted = true;
  for await (const s of q.order("desc")) {
    scanned++;
    last = s._creationTime;
    if (!needle || s.emailLower.includes(needle)) rows.push(s);
    if (rows.length >= limit || scanned >= SCAN_BUDGET) {
      exhausted = false;
      break;
    }
  }
  const names = new Map<Id<"forms">, string>();
  const out = [];
  for (const s of rows) {
    if (!names.has(s.formId)) names.set(s.formId, (await ctx.db.get("forms", s.formId))?.name ?? "Deleted form");
    out.push({
      id: s._id,
      formId: s.formId,
      formName: names.get(s.formId)!,
      data: s.data,
      submitterEmail: s.submitterEmail,
      submitterIp: s.submitterIp,
      source: s.source,
      voterId: seeVoters ? (s.voterId ?? null) : null,
      createdAt: s._creationTime,
    });
  }
  return { rows: out, nextBefore: exhausted ? null : last };
}

/** The Form Submissions page: filtered, newest first, live. */
export const list = orgQuery("forms.view")({
  args: { ...vFilters, limit: v.number() },
  returns: v.object({ rows: v.array(vRow), nextBefore: v.union(v.number(), v.null()) }),
  handler: async (ctx, args) => await page(ctx, ctx.viewer.orgId, { ...args, before: null }, canSeeVoters(ctx.viewer)),
});

/** A day as an export's audit entry states it (UTC date). */
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Starts a CSV export of the filtered submissions (model/exports.ts); its pages are read with the id returned. */
export const startExport = orgMutation("forms.view")({
  args: vFilters,
  returns: v.id("exportRuns"),
  handler: async (ctx, filter) => {
    const form = filter.formId ? await ctx.db.get("forms", filter.formId) : null;
    if (filter.formId && !form) throw appError("NOT_FOUND", "Form not found or no longer available.");
    const parts = [
      filter.from !== null ? `from ${day(filter.from)}` : null,
      filter.to !== null ? `before ${day(filter.to)}` : null,
      filter.email.trim() ? `email containing ${quoted(filter.email)}` : null,
    ].filter((p) => p !== null);
    return await openExportRun(ctx, ctx.viewer, {
      kind: "formSubmissions",
      filter,
      filterSummary: parts.length > 0 ? parts.join(", ") : "all submissions",
      format: "csv",
      label: form ? `submissions of form ${quoted(form.name)}` : "submissions of all forms",
      source: form ? { table: "forms", id: form._id } : undefined,
    });
  },
});

/** One page of an export (Export CSV reads pages until nextBefore is null), for a run started by formSubmissions.startExport. */
export const exportPage = orgQuery("forms.view")({
  args: { exportId: v.id("exportRuns"), ...vFilters, before: v.union(v.number(), v.null()) },
  returns: v.object({ rows: v.array(vRow), nextBefore: v.union(v.number(), v.null()) }),
  handler: async (ctx, { exportId, before, ...filter }) => {
    await requireExportRun(ctx, ctx.viewer, exportId, "formSubmissions", filter);
    return await page(ctx, ctx.viewer.orgId, { ...filter, before, limit: MAX_PAGE }, canSeeVoters(ctx.viewer));
  },
});

/** A voter's form submissions (forms that match submissions to voters), newest first. */
export const forVoter = orgQuery("forms.view")({
  args: { voterId: v.id("voters") },
  returns: v.array(v.object({ id: v.id("formSubmissions"), formName: v.string(), createdAt: v.number() })),
  handler: async (ctx, { voterId }) => {
    const rows = await ctx.db
      .query("formSubmissions")
      .withIndex("by_voter", (q) => q.eq("voterId", voterId))
      .order("desc")
      .take(50);
    const out = [];
    for (const s of rows)
      out.push({
        id: s._id,
        formName: (await ctx.db.get("forms", s.formId))?.name ?? "Deleted form",
        createdAt: s._creationTime,
      });
    return out;
  },
});

const vSubmitResult = v.union(
  v.object({ ok: v.literal(true), id: v.id("formSubmissions") }),
  v.object({ ok: v.literal(false), errors: v.record(v.string(), v.string()) }),
);

/** The View dialog: a staffer fills in the form (recorded with their email). */
export const submitInApp = orgMutation("forms.view")({
  args: { formId: v.id("forms"), data: v.record(v.string(), vSubmissionValue) },
  returns: vSubmitResult,
  handler: async (ctx, { formId, data }) => {
    const form = await ctx.db.get("forms", formId);
    if (!form) throw appError("NOT_FOUND", "Form not found or no longer available.");
    if (JSON.stringify(data).length > MAX_SUBMISSION_BYTES)
      throw appError("VALIDATION_ERROR", "This submission is too large.");
    return await recordSubmission(ctx, { ...form, status: "active" }, data, {
      source: "app",
      submitterIp: null,
      signedInEmail: ctx.viewer.user.email ?? null,
    });
  },
});

// ---- the public endpoint ----

export const submitPublic = internalMutation({
  args: { formId: v.string(), data: v.record(v.string(), vSubmissionValue), address: v.string() },
  returns: v.union(vSubmitResult, v.object({ ok: v.literal(false), notFound: v.literal(true) })),
  handler: async (ctx, { formId, data, address }) => {
    const id = ctx.db.normalizeId("forms", formId);
    const form = id ? await ctx.db.get("forms", id) : null;
    if (!form || form.status !== "active") return { ok: false as const, notFound: true as const };
    return await recordSubmission(ctx, form, data, {
      source: "public",
      submitterIp: address === "unknown" ? null : address,
    });
  },
});

const formIdSchema = z.string().min(1).max(64);
const startSchema = z.object({ formId: formIdSchema }).strict();
const submitSchema = z
  .object({
    formId: formIdSchema,
    token: z.string().max(512),
    website: z.string().max(200).optional(),
    data: z
      .record(z.string().max(100), z.union([z.string().max(10_000), z.number(), z.boolean()]))
      .refine((d) => Object.keys(d).length <= 200),
  })
  .strict();

/** POST /api/forms/start {formId} → {token}: the page's fill token. */
export const startFill = httpAction(async (ctx, request) => {
  const body = await readJsonBody(request, MAX_SUBMISSION_BYTES);
  if (body instanceof Response) return body;
  const parsed = startSchema.safeParse(body.value);
  if (!parsed.success) return json(400, { error: "Invalid request." });
  const address = clientAddress(request);
  if (
    !(await ctx.runMutation(internal.publicSubmit.admit, {
      kind: "form",
      target: parsed.data.formId,
      address,
      phase: "start",
    }))
  ) {
    return json(429, { error: "Too many requests. Please wait a moment and try again." });
  }
  return json(200, { token: await issueFillToken("form", parsed.data.formId, address) });
});

/** POST /api/forms/submit {formId, token, data, website}: a respondent's submission. */
export const submit = httpAction(async (ctx, request) => {
  const body = await readJsonBody(request, MAX_SUBMISSION_BYTES);
  if (body instanceof Response) return body;
  const parsed = submitSchema.safeParse(body.value);
  if (!parsed.success) return json(400, { error: "Invalid submission." });
  const { formId, token, website, data } = parsed.data;
  const address = clientAddress(request);
  if (
    !(await ctx.runMutation(internal.publicSubmit.admit, { kind: "form", target: formId, address, phase: "submit" }))
  ) {
    return json(429, { error: "Too many submissions. Please wait a moment and try again." });
  }
  const verdict = await judgeFill("form", formId, address, token, website);
  if (verdict === "invalid")
    return json(403, { error: "This form has expired. Please reload the page and try again." });
  // spam is answered like a success and dropped
  if (verdict === "spam") return json(200, { ok: true });
  const result = await ctx.runMutation(internal.formSubmissions.submitPublic, { formId, data, address });
  if ("notFound" in result) return json(404, { error: "Form not found or no longer available." });
  if (!result.ok) return json(422, { errors: result.errors });
  return json(200, { ok: true });
});
