import { useMutation, useQuery } from "convex/react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import type { SubmissionFilters } from "./useSubmissionExport";

/** /form-submissions: the submissions matching the filters, newest first, the first `limit` of them, live (skipped unless `enabled`). */
export function useSubmissions(filters: SubmissionFilters, limit: number, enabled: boolean) {
  const result = useQuery(api.formSubmissions.list, enabled ? { ...filters, limit } : "skip");
  return { result };
}

/** A voter's form submissions, live (skipped unless `enabled`: the viewer may read forms). */
export function useVoterFormSubmissions(voterId: Id<"voters">, enabled: boolean) {
  const rows = useQuery(api.formSubmissions.forVoter, enabled ? { voterId } : "skip");
  return { rows };
}

/** View: a staffer's in-app submission of a published form. */
export function useInAppSubmission() {
  const submitInApp = useMutation(api.formSubmissions.submitInApp);
  return { submitInApp };
}
