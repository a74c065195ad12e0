import { useMutation, usePaginatedQuery } from "convex/react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";

/** The selected group's members, 50 a page, live (skipped while none is selected), and removing one. */
export function useGroupMembers(groupId: Id<"voterGroups"> | null) {
  const members = usePaginatedQuery(api.groups.members, groupId ? { groupId } : "skip", { initialNumItems: 50 });
  const removeMember = useMutation(api.groups.removeMember);
  return { members, removeMember };
}
