import { useQuery } from "convex/react";
import { api } from "@convex/_generated/api";

/** Live figures of the organisation (a subscription: they change as teammates work). */
export function useDashboardStats() {
  const stats = useQuery(api.dashboard.stats, {});
  return { stats, isLoading: stats === undefined };
}
