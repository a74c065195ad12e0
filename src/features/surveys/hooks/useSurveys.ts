import { useQuery } from "convex/react";
import { api } from "@convex/_generated/api";

export type SurveyRow = NonNullable<(typeof api.surveys.list)["_returnType"]>[number];

/** The organisation's surveys, live (undefined while loading). */
export function useSurveys(enabled: boolean) {
  return useQuery(api.surveys.list, enabled ? {} : "skip");
}
