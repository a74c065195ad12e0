import { useQuery } from "convex/react";
import { api } from "@convex/_generated/api";

/** /embed/cta/{id}: the CTA as the public sees it, live (null when it is not available). */
export function usePublicCta(id: string) {
  const cta = useQuery(api.ctas.publicCta, { id });
  return { cta };
}
