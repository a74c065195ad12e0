import { useConvex, useQuery } from "convex/react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";

/** Version history: a campaign's saved versions, live while the dialog is open. */
export function useCampaignVersions(campaignId: Id<"emailCampaigns">, open: boolean) {
  const versions = useQuery(api.emailCampaigns.versions, open ? { id: campaignId } : "skip");
  return { versions };
}

/** Restoring a version: reads that version of the campaign once. */
export function useVersionLoader() {
  const convex = useConvex();
  const loadVersion = (id: Id<"emailCampaigns">, version: number) =>
    convex.query(api.emailCampaigns.version, { id, version });
  return { loadVersion };
}
