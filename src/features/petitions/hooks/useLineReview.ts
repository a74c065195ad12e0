import { useMutation, useQuery } from "convex/react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";

/** One line with its page scan, candidates and duplicate (live; skipped while none is open). */
export function useLineDetail(lineId: Id<"petitionLines"> | null) {
  return useQuery(api.petitions.line, lineId ? { id: lineId } : "skip");
}

/** Adjudicating a claimed line: its detail, the verdict, and the claim kept alive then released. */
export function useLineReview(lineId: Id<"petitionLines"> | null) {
  const detail = useLineDetail(lineId);
  const adjudicate = useMutation(api.petitions.adjudicate);
  const heartbeat = useMutation(api.petitions.heartbeat);
  const release = useMutation(api.petitions.release);
  return { detail, adjudicate, heartbeat, release };
}

/** The voter file searched by name, address or voter ID from the adjudication dialog (two characters at least). */
export function useSignerSearch(query: string) {
  return useQuery(api.petitions.searchVoters, query.length >= 2 ? { query } : "skip");
}
