import { usePaginatedQuery } from "convex/react";
import { api } from "@convex/_generated/api";

export type VoterListFilter = { search: string; party: string; status: string };

export const VOTER_PAGE_SIZE = 50;

/** The live, server-paged voter list for a filter (new/edited/deleted voters appear by themselves). */
export function useVoterList(filter: VoterListFilter) {
  const args = {
    search: filter.search.trim() || undefined,
    party: filter.party || undefined,
    status: filter.status || undefined,
  };
  const { results, status, loadMore, isLoading } = usePaginatedQuery(api.voters.list, args, { initialNumItems: VOTER_PAGE_SIZE });
  return {
    voters: results,
    isLoading,
    canLoadMore: status === "CanLoadMore",
    isLoadingMore: status === "LoadingMore",
    loadMore: () => loadMore(VOTER_PAGE_SIZE),
  };
}
