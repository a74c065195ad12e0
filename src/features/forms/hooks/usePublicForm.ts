import { useQuery } from "convex/react";
import { api } from "@convex/_generated/api";

/** /embed/form/{formId}: the form as the public sees it, live (null when it is not available). */
export function usePublicForm(formId: string) {
  const form = useQuery(api.forms.publicForm, { id: formId });
  return { form };
}
