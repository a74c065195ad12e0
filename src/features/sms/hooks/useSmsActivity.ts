import { usePaginatedQuery, useQuery } from "convex/react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";

/** The activity log's latest entries after `since` (the server's clock), live. */
export function useActivityLog(since: number) {
  const entries = useQuery(api.sms.log, { since });
  return { entries };
}

/** Recent Messages: the latest three, live. */
export function useRecentMessages() {
  const recent = useQuery(api.sms.recent, {});
  return { recent };
}

/** Message History: one send's messages, or every message, newest first, `pageSize` a page. */
export function useMessageHistory(sendId: Id<"smsSends"> | undefined, pageSize: number) {
  const { results, status, loadMore, isLoading } = usePaginatedQuery(api.sms.history, sendId ? { sendId } : {}, {
    initialNumItems: pageSize,
  });
  return { results, status, loadMore, isLoading };
}
