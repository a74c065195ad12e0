import { useQuery } from "convex/react";
import { api } from "@convex/_generated/api";

/** /unsubscribe: what the link's token names (skipped without a token). */
export function useUnsubscribeInfo(token: string) {
  const info = useQuery(api.emailUnsubscribe.info, token ? { token } : "skip");
  return { info };
}
