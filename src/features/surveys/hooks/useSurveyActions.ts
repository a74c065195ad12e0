import { useMutation, useQuery } from "convex/react";
import { api } from "@convex/_generated/api";

/** Deleting a survey from its card. */
export function useRemoveSurvey() {
  const removeSurvey = useMutation(api.surveys.remove);
  return { removeSurvey };
}

/** The create modal: the organisation's survey settings (live, for the default recipient) and creating the survey. */
export function useCreateSurvey() {
  const settings = useQuery(api.surveys.settings, {});
  const create = useMutation(api.surveys.create);
  return { settings, create };
}

/** The editor: the organisation's survey settings (auto-save, anonymous), live; saving the survey and a preview submission. */
export function useSurveyEditor() {
  const settings = useQuery(api.surveys.settings, {});
  const saveSurvey = useMutation(api.surveys.save);
  const submitPreview = useMutation(api.surveySubmissions.submitPreview);
  return { settings, saveSurvey, submitPreview };
}

/** Settings: the organisation's survey settings, live, and saving them. */
export function useSurveySettings() {
  const settings = useQuery(api.surveys.settings, {});
  const update = useMutation(api.surveys.updateSettings);
  return { settings, update };
}
