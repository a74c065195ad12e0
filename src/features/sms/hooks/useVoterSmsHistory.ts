import { useMutation, useQuery } from "convex/react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";

/** A voter's texts, replies and opt-out state, live, and opting their number out or back in. */
export function useVoterSmsHistory(voterId: Id<"voters">) {
  const data = useQuery(api.sms.voterHistory, { voterId });
  const setOptOut = useMutation(api.sms.setOptOut);
  return { data, setOptOut };
}
