/**
 * Who is in a presence room, live, without joining it (the designers join through their
 * collaborative document's awareness). Shared by every designer: the CTA creator, the email
 * builder, the form and survey editors.
 */
import { useQuery } from "convex/react";
import { api } from "@convex/_generated/api";

export function useRoomPresence(room: string | null) {
  const present = useQuery(api.presence.list, room ? { room } : "skip");
  return { present };
}
