import { usePaginatedQuery } from "convex/react";
import { api } from "@convex/_generated/api";

type Filter = { search?: string; party?: string; status?: string };

/** Add Voters to Group: the voters matching the dialog's filter, 50 a page (skipped while it is closed). */
export function useVotersToAdd(filter: Filter, open: boolean) {
  const list = usePaginatedQuery(api.voters.list, open ? filter : "skip", { initialNumItems: 50 });
  return { list };
}
