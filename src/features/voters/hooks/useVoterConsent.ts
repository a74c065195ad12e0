import { useMutation, useQuery } from "convex/react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";

/** A voter's consent per channel (state and ledger), live, and opting a channel out or back in by hand. */
export function useVoterConsent(voterId: Id<"voters">) {
  const data = useQuery(api.consent.forVoter, { voterId });
  const setOptOut = useMutation(api.consent.setOptOut);
  return { data, setOptOut };
}
