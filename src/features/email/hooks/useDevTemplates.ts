import { useMutation, useQuery } from "convex/react";
import { api } from "@convex/_generated/api";

/** /test-email-templates: the stored templates (live; skipped unless `allowed`), inserting a built-in one and deleting one. */
export function useDevTemplates(allowed: boolean) {
  const templates = useQuery(api.emailTemplates.devList, allowed ? {} : "skip");
  const insert = useMutation(api.emailTemplates.devInsert);
  const remove = useMutation(api.emailTemplates.devRemove);
  return { templates, insert, remove };
}
