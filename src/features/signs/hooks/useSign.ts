import { useQuery } from "convex/react";
import { api } from "@convex/_generated/api";

/** One sign with its campaign and people, live (skipped while `id` is null; null once deleted). */
export function useSign(id: string | null) {
  const sign = useQuery(api.signs.get, id ? { id } : "skip");
  return { sign };
}
