/** The email send progress card's arithmetic (api.emailBlasts.progress), pure for tests. */
import type { Id } from "@convex/_generated/dataModel";
import type { SendStatus } from "@convex/tables/sendStatus";

export type BlastProgress = {
  sendId: Id<"emailSends">;
  status: SendStatus;
  demo: boolean;
  kind: "blast" | "automation";
  counts: { queued: number; sent: number; failed: number; suppressed: number; duplicates: number; noEmail: number; cancelled: number };
  recipients: number;
  error: string | null;
  startedAt: number;
  finishedAt: number | null;
  createdByName: string;
};


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
