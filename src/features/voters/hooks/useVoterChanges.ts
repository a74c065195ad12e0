import { useQuery } from "convex/react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";

/** The voter's change history, newest first (at most 50), live. */
export function useVoterChanges(voterId: Id<"voters">) {
  const changes = useQuery(api.voters.changes, { voterId });
  return { changes, isLoading: changes === undefined };
}
