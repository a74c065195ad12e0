import { api } from "@convex/_generated/api";
import { usePagedCount } from "./usePagedCount";
import { voterFilterArgs, type VoterListFilter } from "./useVoterList";

/**
 * How many voters match the list's filter, live: from the tally at once, counted page by page for
 * a status code, and for a search up to Convex's 1,024 results (`capped`: there may be more).
 */
export function useVoterCount(filter: VoterListFilter | "skip") {
  return usePagedCount(api.voters.count, filter === "skip" ? "skip" : voterFilterArgs(filter));
}
