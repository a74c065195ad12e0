import { useMutation, useQuery } from "convex/react";
import { api } from "@convex/_generated/api";

/** The organisation's petitions (live) and the review queue's next line (`enabled`: the viewer may read voters). */
export function usePetitionList(enabled: boolean) {
  const petitions = useQuery(api.petitions.list, enabled ? {} : "skip");
  const claimNext = useMutation(api.petitions.claimNext);
  return { petitions, claimNext };
}
