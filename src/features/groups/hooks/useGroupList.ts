import { useQuery } from "convex/react";
import { api } from "@convex/_generated/api";

/** The organisation's voter groups with their member counts, live (`enabled`: skipped while false). */
export function useGroupList(enabled = true) {
  const groups = useQuery(api.groups.list, enabled ? {} : "skip");
  return { groups };
}
