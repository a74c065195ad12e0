import { useQuery } from "convex/react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";

/** Statistics: the campaign's send figures and the campaign as sent, both live. */
export function useBlastStatistics(campaignId: Id<"emailCampaigns">) {
  const stats = useQuery(api.emailBlasts.statistics, { id: campaignId });
  const campaign = useQuery(api.emailCampaigns.get, { id: campaignId });
  return { stats, campaign };
}

/** The campaign's latest send, live (null before the first). */
export function useBlastProgress(campaignId: Id<"emailCampaigns">) {
  const progress = useQuery(api.emailBlasts.progress, { id: campaignId });
  return { progress };
}
