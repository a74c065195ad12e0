import { useConvex, useMutation, useQuery } from "convex/react";
import type { FunctionReturnType } from "convex/server";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";

type ExportPage = FunctionReturnType<typeof api.surveySubmissions.exportPage>;

/** Submissions: the newest `limit` of a survey's submissions, the summary's sample and how many came from canvassing (all live), deleting one, and every submission for the export. */
export function useSurveySubmissions(surveyId: Id<"surveys">, limit: number) {
  const convex = useConvex();
  const data = useQuery(api.surveySubmissions.list, { surveyId, limit });
  const sample = useQuery(api.surveySubmissions.summarySample, { surveyId });
  // how many of the latest were recorded at a door by canvassers (issue 38)
  const canvass = useQuery(api.canvassDashboard.surveyCanvass, { surveyId });
  const removeSubmission = useMutation(api.surveySubmissions.remove);
  /**
   * Every submission of the survey, newest first, page by page, for an export the server records
   * (startExport); how many were read is reported with exports.finish (the audit entry).
   */
  const allRows = async (): Promise<ExportPage["rows"]> => {
    const exportId = await convex.mutation(api.surveySubmissions.startExport, { surveyId });
    const rows: ExportPage["rows"] = [];
    let before: number | null = null;
    do {
      const page: ExportPage = await convex.query(api.surveySubmissions.exportPage, { exportId, surveyId, before });
      rows.push(...page.rows);
      before = page.nextBefore;
    } while (before !== null);
    await convex.mutation(api.exports.finish, { exportId, rows: rows.length });
    return rows;
  };
  return { data, sample, canvass, removeSubmission, allRows };
}
