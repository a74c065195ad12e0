import { useQuery } from "convex/react";
import type { FunctionReturnType } from "convex/server";
import { api } from "@convex/_generated/api";

export type SurveyHub = FunctionReturnType<typeof api.surveyHub.overview>;
export type HubSurvey = SurveyHub["surveys"][number];

/** The organisation's surveys with their live response counts; skipped without surveys.view. */
export function useSurveyHub(allowed: boolean): SurveyHub | undefined {
  return useQuery(api.surveyHub.overview, allowed ? {} : "skip");
}
