import { useMutation } from "convex/react";
import { api } from "@convex/_generated/api";
import { useGroupList } from "./useGroupList";

/** /voter-groups: the groups (live), deleting one and adding a voter found by quick search. */
export function useVoterGroups() {
  const { groups } = useGroupList();
  const removeGroup = useMutation(api.groups.remove);
  const addMember = useMutation(api.groups.addMember);
  return { groups, removeGroup, addMember };
}
