import { useQuery } from "convex/react";
import { api } from "@convex/_generated/api";

/** The organisation's SMS campaigns and tile figures, live. */
export function useSmsCampaigns() {
  const data = useQuery(api.campaigns.listSms, {});
  return { data, isLoading: data === undefined };
}
