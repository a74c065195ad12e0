import { useMutation } from "convex/react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";

/** Claiming doors near the canvasser and letting them go (both need a connection). */
export function useClaims(listId: string) {
  const claim = useMutation(api.canvass.claim);
  const release = useMutation(api.canvass.release);
  const id = listId as Id<"walkLists">;
  return {
    claim: (near: { lat: number; lng: number }, count: number) => claim({ listId: id, near, count }),
    releaseAll: () => release({ listId: id }),
  };
}
