import { useMutation, useQuery } from "convex/react";
import { api } from "@convex/_generated/api";

/** /accept-invitation: the invitation the link names (live; skipped without an id and token) and accepting it. */
export function useAcceptInvitation(id: string, token: string) {
  const invitation = useQuery(api.members.getInvitation, id && token ? { id, token } : "skip");
  const accept = useMutation(api.members.acceptInvitation);
  return { invitation, accept };
}
