import { useQuery } from "convex/react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";

/** A saved CTA opened in the creator, live (null once it is gone). */
export function useSavedCta(id: Id<"ctas">) {
  const saved = useQuery(api.ctas.get, { id });
  return { saved };
}
