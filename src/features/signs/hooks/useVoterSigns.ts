import { useQuery } from "convex/react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";

/** The signs in a voter's yard, live (skipped unless `enabled`: the viewer may see signs). */
export function useVoterSigns(voterId: Id<"voters">, enabled: boolean) {
  const signs = useQuery(api.signs.forVoter, enabled ? { voterId } : "skip");
  return { signs };
}
