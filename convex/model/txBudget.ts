/**
 * How much of a transaction's limits a step of bulk work has used (Convex's own count,
 * `ctx.meta.getTransactionMetrics()`), so a step that cannot know its cost in advance (each
 * voter it deletes brings its own memberships and history) stops in time and leaves the rest to
 * the next step.
 */
import type { MutationCtx } from "../_generated/server";

const BUDGETED = ["databaseQueries", "documentsRead", "documentsWritten", "bytesRead", "bytesWritten"] as const;

/** Whether any budgeted limit is used to `share` or beyond (room is left for the step's last writes). */
export async function transactionNearLimits(ctx: Pick<MutationCtx, "meta">, share: number): Promise<boolean> {
  const m = await ctx.meta.getTransactionMetrics();
  return BUDGETED.some((k) => m[k].used >= share * (m[k].used + m[k].remaining));
}
