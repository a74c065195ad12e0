import { usePaginatedQuery, type PaginatedQueryArgs, type PaginatedQueryReference } from "convex/react";
import { useEffect } from "react";

type CountQuery = PaginatedQueryReference & { _returnType: { page: { count: number; capped?: boolean }[] } };

/**
 * An exact count the server makes in bounded pages (each page of the query holds one entry: that
 * page's count): every page is fetched in turn and stays live, so the total follows teammates'
 * changes. `done` once the last page is in; until then `total` is what is counted so far.
 */
export function usePagedCount<Q extends CountQuery>(query: Q, args: PaginatedQueryArgs<Q> | "skip") {
  const { results, status, loadMore } = usePaginatedQuery(query, args, { initialNumItems: 1 });
  useEffect(() => {
    if (status === "CanLoadMore") loadMore(1);
  }, [status, loadMore, results.length]);
  const pages = results as { count: number; capped?: boolean }[];
  return {
    total: pages.reduce((n, p) => n + p.count, 0),
    capped: pages.some((p) => p.capped === true),
    started: status !== "LoadingFirstPage",
    done: status === "Exhausted",
  };
}
