import { usePaginatedQuery } from "convex/react";
import { useEffect } from "react";
import { api } from "@convex/_generated/api";

export type VoterListFilter = {
  search: string;
  party: string;
  status: string;
  statusCode: string;
  /** a district's voters ("kind:key", the Districts page's "View its voters") */
  district?: string;
};

const VOTER_PAGE_SIZE = 50;

/** The list's filter as the server's arguments (an empty value is "any"). */
export function voterFilterArgs(filter: VoterListFilter) {
  return {
    search: filter.search.trim() || undefined,
    party: filter.party || undefined,
    status: filter.status || undefined,
    statusCode: filter.statusCode.trim() || undefined,
    district: filter.district || undefined,
  };
}

/**
 * The live, server-paged voter list for a filter (new/edited/deleted voters appear by themselves).
 * A search or a status code combined with party/status checks each row after the index, so a page
 * may come back short: more are fetched until a page's worth shows or the list ends.
 */
export function useVoterList(filter: VoterListFilter) {
  const { results, status, loadMore, isLoading } = usePaginatedQuery(api.voters.list, voterFilterArgs(filter), {
    initialNumItems: VOTER_PAGE_SIZE,
  });
  const short = status === "CanLoadMore" && results.length < VOTER_PAGE_SIZE;
  useEffect(() => {
    if (short) loadMore(VOTER_PAGE_SIZE);
  }, [short, loadMore, results.length]);
  return {
    voters: results,
    isLoading: isLoading || short,
    canLoadMore: status === "CanLoadMore" && !short,
    isLoadingMore: status === "LoadingMore",
    loadMore: () => loadMore(VOTER_PAGE_SIZE),
  };
}
