import { useMutation, useQuery } from "convex/react";
import { api } from "@convex/_generated/api";

/** Organization Information: the saved values and who is editing which field (both live), and saving. */
export function useOrganizationInfo() {
  const info = useQuery(api.account.get, {});
  const editState = useQuery(api.account.editState, {});
  const save = useMutation(api.account.update);
  return { info, editState, save };
}
