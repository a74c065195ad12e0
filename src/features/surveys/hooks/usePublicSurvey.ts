import { useQuery } from "convex/react";
import { api } from "@convex/_generated/api";

/** /embed/survey/{id}: the survey as respondents see it, live (null when it is not available). */
export function usePublicSurvey(surveyId: string) {
  const survey = useQuery(api.surveys.publicSurvey, { id: surveyId });
  return { survey };
}
