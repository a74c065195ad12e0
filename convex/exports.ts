/**
 * Ending an export (issue 39, model/exports.ts): `finish` records how many rows the browser wrote
 * and writes the export's one audit entry; `expire` does it for an export never finished. Each
 * export kind starts its run in its own module (voters.startExport, surveySubmissions.startExport,
 * formSubmissions.startExport, petitions.startExport), with the permission its pages need.
 */
import { v } from "convex/values";
import { appError, internalMutation, orgMutation } from "./functions";
import { stateFileUse } from "./lib/voters/fileUse";
import { EXPORT_NOT_STARTED, endExport } from "./model/exports";
import { displayName } from "./model/presence";

/** The states' names, as the entry states them. */
function stateNames(codes: string[]): string[] {
  return codes.map((c) => stateFileUse(c)?.name ?? c);
}

/** The browser has written every page: `rows` rows. Ending an ended run again does nothing. */
export const finish = orgMutation(null)({
  args: { exportId: v.id("exportRuns"), rows: v.number() },
  returns: v.null(),
  handler: async (ctx, { exportId, rows }) => {
    const run = await ctx.db.get("exportRuns", exportId);
    if (!run || run.userId !== ctx.viewer.userId) throw appError("VALIDATION_ERROR", EXPORT_NOT_STARTED);
    if (!Number.isInteger(rows) || rows < 0) throw appError("VALIDATION_ERROR", "The row count is not valid.");
    if (run.finishedAt !== null) return null;
    await endExport(ctx, run, ctx.viewer, rows, stateNames(run.states));
    return null;
  },
});

/** EXPORT_RUN_MS after a start: a run still open is ended and recorded, its rows not known. */
export const expire = internalMutation({
  args: { exportId: v.id("exportRuns") },
  returns: v.null(),
  handler: async (ctx, { exportId }) => {
    const run = await ctx.db.get("exportRuns", exportId);
    if (!run || run.finishedAt !== null) return null;
    const user = await ctx.db.get("users", run.userId);
    const actor = {
      orgId: run.orgId,
      userId: run.userId,
      name: user ? displayName(user) : "Deleted user",
      impersonatedRole: run.impersonatedRole,
    };
    await endExport(ctx, run, actor, null, stateNames(run.states));
    return null;
  },
});
