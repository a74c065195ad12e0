/**
 * Exports (issue 39): one row per export a member starts. The export's pages are served only
 * against a run of the caller's own (model/exports.ts), and the run's one audit entry is written
 * when it ends, with the rows the browser wrote (or at its expiry, when the browser never said).
 */
import { defineTable } from "convex/server";
import { v, type Infer } from "convex/values";

/** What can be exported page by page: the voter file, a survey's or the forms' submissions, a petition's lines. */
export const EXPORT_KINDS = ["voters", "surveySubmissions", "formSubmissions", "petitions"] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];
export const vExportKind = v.union(...EXPORT_KINDS.map((k) => v.literal(k)));
export const vExportFormat = v.union(v.literal("csv"), v.literal("xlsx"));
export type ExportFormat = Infer<typeof vExportFormat>;

export const exportTables = {
  exportRuns: defineTable({
    orgId: v.id("organizations"),
    userId: v.id("users"),
    kind: vExportKind,
    /** the filter the pages must be asked with: canonical JSON (keys sorted, absent keys left out) */
    filter: v.string(),
    /** the filter as the audit entry states it ("search “smith”, party Democratic") */
    filterSummary: v.string(),
    format: vExportFormat,
    /** what was exported, as the audit entry names it ("the voter file", "submissions of survey “Intake”") */
    label: v.string(),
    /** the survey, form or petition exported from, the entry's target (null: the run itself is the target) */
    source: v.union(v.object({ table: v.string(), id: v.string() }), v.null()),
    /** voter exports: the states (USPS codes) whose voter-file use restriction the organisation's imports attested */
    states: v.array(v.string()),
    /** the role the member was trying on when starting (impersonation), for the entry written at expiry */
    impersonatedRole: v.union(v.string(), v.null()),
    startedAt: v.number(),
    /** rows the browser wrote (null: not reported, the run expired) */
    rows: v.union(v.number(), v.null()),
    /** when it ended (finish or expiry); an ended run serves no more pages */
    finishedAt: v.union(v.number(), v.null()),
  }).index("by_org_started", ["orgId", "startedAt"]),
};
