import { useMutation, useQuery } from "convex/react";
import { api } from "@convex/_generated/api";

/**
 * /voters/{id}: the voter and the organisation's custom fields, live; once the voter is gone
 * (null), who deleted it.
 */
export function useVoterDetail(id: string) {
  const voter = useQuery(api.voters.get, { id });
  const defs = useQuery(api.customFields.list, {});
  const editState = useQuery(api.voters.editState, voter === null ? { id } : "skip");
  return { voter, defs, editState };
}

/**
 * /voters/new and /voters/{id}/edit: the voter being edited and who is editing which field (both
 * skipped for a new voter), the custom fields, creating and updating.
 */
export function useVoterForm(id: string | undefined, isNew: boolean) {
  const voter = useQuery(api.voters.get, isNew ? "skip" : { id: id ?? "" });
  const customDefs = useQuery(api.customFields.list, {});
  const create = useMutation(api.voters.create);
  const update = useMutation(api.voters.update);
  const editState = useQuery(api.voters.editState, isNew ? "skip" : { id: id ?? "" });
  return { voter, customDefs, create, update, editState };
}

/** The voter list's status codes to filter by (live) and deleting a voter. */
export function useVoterListActions() {
  const statusCodes = useQuery(api.voters.statusCodes, {});
  const removeVoter = useMutation(api.voters.remove);
  return { statusCodes, removeVoter };
}

/** Four voters to suggest on the not-found page. */
export function useVoterSuggestions() {
  const suggestions = useQuery(api.voters.suggestions, {});
  return { suggestions };
}
