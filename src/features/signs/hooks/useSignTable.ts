import { usePaginatedQuery } from "convex/react";
import { api } from "@convex/_generated/api";
import type { StatusFilter } from "../utils/signDisplay";

/** Table View: the signs with a status, `pageSize` a page, live. */
export function useSignTable(status: StatusFilter, pageSize: number) {
  const {
    results,
    status: pageStatus,
    loadMore,
  } = usePaginatedQuery(api.signs.list, { status }, { initialNumItems: pageSize });
  return { results, pageStatus, loadMore };
}
