import { useQuery } from "convex/react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";

/** A saved campaign as last published, live (null once it is gone). */
export function useSavedCampaign(id: Id<"emailCampaigns">) {
  const saved = useQuery(api.emailCampaigns.get, { id });
  return { saved };
}
