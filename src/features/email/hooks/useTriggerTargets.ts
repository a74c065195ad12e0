import { useQuery } from "convex/react";
import { api } from "@convex/_generated/api";
import { useGroupList } from "@/features/groups";
import type { EventTrigger } from "../blasts/automationForm";

/** An event automation's choices: the groups, forms or surveys its trigger names (only the one the trigger needs, only when `allowed`). */
export function useTriggerTargets(trigger: EventTrigger, allowed: boolean) {
  const { groups } = useGroupList(allowed && trigger === "group_joined");
  const forms = useQuery(api.forms.list, allowed && trigger === "form_submitted" ? {} : "skip");
  const surveys = useQuery(api.surveys.list, allowed && trigger === "survey_submitted" ? {} : "skip");
  return { groups, forms, surveys };
}
