/**
 * Audited exports (issue 39), one pattern for every export read page by page (the voter file,
 * survey and form submissions, petition lines):
 *
 * 1. the member's start mutation (same permission as the pages) records a run (exportRuns: who,
 *    which kind, the filter, the format) and returns its id;
 * 2. the export's page query serves pages only against a run of the caller's own, of its kind,
 *    not ended, started with exactly the filter the page asks for (a query cannot write, so this
 *    is how reading is tied to a record);
 * 3. `exports.finish` ends the run with the rows the browser wrote and writes the export's one
 *    audit entry: who, what, which filter, how many rows, which format (and, for the voter file,
 *    the states whose use restriction the organisation's imports attested).
 *
 * Why the entry is written at the end and not at the start: the entry must say how many rows left,
 * and an entry cannot be changed once written (the chain). Counting what a filter matches up front
 * is not cheap for the voter file (a search is counted page by page). So the count comes at the
 * end, and an export whose browser never says it ended (closed tab, lost connection) is recorded
 * by `exports.expire` when its run expires (EXPORT_RUN_MS after its start, when its pages stop
 * being served), with the rows stated as not known. Either way one export is one entry.
 * The row count is the browser's word; the server cannot count what a page query served.
 */
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { internal } from "../_generated/api";
import { appError } from "../lib/errors";
import type { ExportFormat, ExportKind } from "../tables/exports";
import { audit, canonicalJson, type AuditActor } from "./audit";
import type { Viewer } from "./viewer";

/** How long a run serves pages; an export not finished by then is recorded as abandoned. */
export const EXPORT_RUN_MS = 60 * 60 * 1000;
/** The longest filter (canonical JSON) a run records. */
export const MAX_EXPORT_FILTER = 2_000;

export const EXPORT_NOT_STARTED = "This export was not started by you for this list. Start the export again.";
export const EXPORT_ENDED = "This export has ended. Start the export again.";
export const EXPORT_FILTER_CHANGED =
  "This page's filter is not the one the export was started with. Start the export again.";
const REFUSED_TITLE = "Export not started";

export type ExportStart = {
  kind: ExportKind;
  /** exactly the filter arguments the page query will be called with (pagination left out) */
  filter: Record<string, unknown>;
  filterSummary: string;
  format: ExportFormat;
  label: string;
  /** the survey, form or petition exported from (absent: the entry's target is the run) */
  source?: { table: string; id: string };
  states?: string[];
};

/** Records the run of an export the viewer starts; its pages are served against the id returned. */
export async function openExportRun(
  ctx: MutationCtx,
  viewer: Pick<Viewer, "orgId" | "userId" | "roles">,
  start: ExportStart,
): Promise<Id<"exportRuns">> {
  const filter = canonicalJson(start.filter);
  if (filter.length > MAX_EXPORT_FILTER) throw appError("VALIDATION_ERROR", "This filter is too long to export.");
  const id = await ctx.db.insert("exportRuns", {
    orgId: viewer.orgId,
    userId: viewer.userId,
    kind: start.kind,
    filter,
    filterSummary: start.filterSummary,
    format: start.format,
    label: start.label,
    source: start.source ?? null,
    states: start.states ?? [],
    impersonatedRole: viewer.roles.impersonating?.id ?? null,
    startedAt: Date.now(),
    rows: null,
    finishedAt: null,
  });
  await ctx.scheduler.runAfter(EXPORT_RUN_MS, internal.exports.expire, { exportId: id });
  return id;
}

/**
 * The run a page is served against: the caller's own (the organisation's database already hides
 * other organisations' runs), of this kind, not ended, started with exactly this filter. Anything
 * else is refused with a message that says to start again.
 */
export async function requireExportRun(
  ctx: Pick<QueryCtx, "db">,
  viewer: Pick<Viewer, "userId">,
  exportId: Id<"exportRuns">,
  kind: ExportKind,
  filter: Record<string, unknown>,
): Promise<Doc<"exportRuns">> {
  const run = await ctx.db.get("exportRuns", exportId);
  if (!run || run.userId !== viewer.userId || run.kind !== kind)
    throw appError("VALIDATION_ERROR", EXPORT_NOT_STARTED, REFUSED_TITLE);
  if (run.finishedAt !== null || Date.now() >= run.startedAt + EXPORT_RUN_MS)
    throw appError("VALIDATION_ERROR", EXPORT_ENDED, REFUSED_TITLE);
  if (run.filter !== canonicalJson(filter)) throw appError("VALIDATION_ERROR", EXPORT_FILTER_CHANGED, REFUSED_TITLE);
  return run;
}

function plural(n: number, one: string, many: string) {
  return `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
}

/** The audit entry's sentence for a run: what, which filter, which format, how many rows, which states. */
export function exportSummary(run: Doc<"exportRuns">, rows: number | null, stateNames: string[]): string {
  const what = `${run.label} as ${run.format.toUpperCase()} (${run.filterSummary})`;
  const head =
    rows === null
      ? `Started exporting ${what}; the export never reported its end, so how many rows left is not known.`
      : `Exported ${what}: ${plural(rows, "row", "rows")}.`;
  return stateNames.length > 0 ? `${head} Voter-file use restricted by ${stateNames.join(", ")}.` : head;
}

/** Ends the run and writes the export's audit entry (rows null: expired without a word from the browser). */
export async function endExport(
  ctx: MutationCtx,
  run: Doc<"exportRuns">,
  actor: AuditActor,
  rows: number | null,
  stateNames: string[],
): Promise<void> {
  await ctx.db.patch("exportRuns", run._id, { rows, finishedAt: Date.now() });
  await audit(ctx, actor, {
    action: "export",
    target: { table: run.source?.table ?? "exportRuns", id: run.source?.id ?? run._id, label: run.label },
    summary: exportSummary(run, rows, stateNames),
  });
}

/** A filter's text as an entry quotes it (trimmed, at most 80 characters). */
export function quoted(text: string): string {
  const t = text.trim();
  return `“${t.length > 80 ? `${t.slice(0, 79)}…` : t}”`;
}
