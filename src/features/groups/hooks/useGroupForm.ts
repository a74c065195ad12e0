import { useMutation, useQuery } from "convex/react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";

/** Create New Group / Edit Group: creating, updating, and who is editing which field of the edited group (live). */
export function useGroupForm(editId: Id<"voterGroups"> | null) {
  const create = useMutation(api.groups.create);
  const update = useMutation(api.groups.update);
  const editState = useQuery(api.groups.editState, editId ? { id: editId } : "skip");
  return { create, update, editState };
}
