import { useMutation, useQuery } from "convex/react";
import type { FunctionReturnType } from "convex/server";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";

export type SegmentRow = FunctionReturnType<typeof api.emailSegments.list>[number];

/** Saved voter segments with their member counts, live, and refreshing one. */
export function useSegments() {
  const segments = useQuery(api.emailSegments.list, {});
  const refresh = useMutation(api.emailSegments.refresh);
  return { segments, refresh };
}

/** New segment / Edit segment: creating, updating, deleting, and who is editing which field of the edited one (live). */
export function useSegmentForm(editId: Id<"emailSegments"> | null) {
  const create = useMutation(api.emailSegments.create);
  const update = useMutation(api.emailSegments.update);
  const remove = useMutation(api.emailSegments.remove);
  const editState = useQuery(api.emailSegments.editState, editId ? { id: editId } : "skip");
  return { create, update, remove, editState };
}
