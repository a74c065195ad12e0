import { useMutation } from "convex/react";
import { api } from "@convex/_generated/api";

/** Add Field: creating an organisation-wide custom field. */
export function useAddCustomField() {
  const create = useMutation(api.customFields.create);
  return { create };
}

/** Deleting a custom field (and its values). */
export function useRemoveCustomField() {
  const remove = useMutation(api.customFields.remove);
  return { remove };
}
