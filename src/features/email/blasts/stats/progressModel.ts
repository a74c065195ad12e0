/** The email send progress card's arithmetic (api.emailBlasts.progress), pure for tests. */
import type { FunctionReturnType } from "convex/server";
import type { api } from "@convex/_generated/api";
import type { SendStatus } from "@convex/tables/sendStatus";

export type BlastProgress = NonNullable<FunctionReturnType<typeof api.emailBlasts.progress>>;

/**
 * Messages that left the queue (sent, failed, suppressed, cancelled) of all the send handled, in
 * whole percent (0–100). The whole is those plus the still queued: suppressed addresses may or may
 * not be part of `recipients` (skipped when resolving vs. found suppressed in flight).
 */
export function progressPercent(p: Pick<BlastProgress, "counts" | "status">): number {
  const c = p.counts;
  const settled = c.sent + c.failed + c.suppressed + c.cancelled;
  const total = settled + c.queued;
  if (total <= 0) return p.status === "completed" ? 100 : 0;
  return Math.min(100, Math.floor((settled / total) * 100));
}

/** Whether the send still runs (can be paused, resumed or cancelled). */
export function isActive(status: SendStatus): boolean {
  return status === "preparing" || status === "sending" || status === "paused";
}
