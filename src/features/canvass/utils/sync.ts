/**
 * Sending the outbox (store.ts) to canvass.sync: the oldest list's actions first, in their seq
 * order, at most MAX_SYNC_EVENTS a call, until nothing is left or the server cannot be reached.
 * Exactly once: an action leaves the outbox only with the server's outcome for its client id
 * (recorded, or duplicate: already recorded by an earlier call whose answer was lost), so a call
 * cut off by a reload or a lost connection is simply sent again. A refusal is never dropped: the
 * action moves to "Not accepted" with the server's sentence.
 */
import { ConvexError } from "convex/values";
import { MAX_SYNC_EVENTS } from "@convex/lib/canvass";
import { RETRYABLE, type AppErrorData } from "@convex/lib/errors";
import { toEvent, type CanvassEvent, type CanvassStore, type Outcome } from "./store";

/** One call of canvass.sync. */
export type SendBatch = (listId: string, events: CanvassEvent[]) => Promise<{ outcomes: Outcome[] }>;

export type SyncReport = {
  /** actions the server answered for (they left the outbox) */
  settled: number;
  refused: number;
  /** why the loop stopped with actions left: the connection (try again later) or the session (sign in) */
  stopped: null | "unreachable" | "signedOut";
};

/** The error's app data, when the server refused the call itself with a sentence. */
function appErrorOf(e: unknown): AppErrorData | null {
  if (!(e instanceof ConvexError)) return null;
  const data = e.data as Partial<AppErrorData> | undefined;
  return data && typeof data.code === "string" && typeof data.message === "string" ? (data as AppErrorData) : null;
}

/** Sends the user's outbox until it is empty or the server cannot take more now. */
export async function syncOutbox(store: CanvassStore, userId: string, send: SendBatch): Promise<SyncReport> {
  const report: SyncReport = { settled: 0, refused: 0, stopped: null };
  for (;;) {
    const batch = await store.nextBatch(userId, MAX_SYNC_EVENTS);
    if (batch.length === 0) return report;
    let outcomes: Outcome[];
    try {
      ({ outcomes } = await send(batch[0].listId, batch.map(toEvent)));
    } catch (e) {
      const app = appErrorOf(e);
      if (app?.code === "UNAUTHORIZED") return { ...report, stopped: "signedOut" };
      if (!app || RETRYABLE.has(app.code)) return { ...report, stopped: "unreachable" };
      // the call was refused as a whole (the list is no longer the canvasser's, their role changed)
      await store.refuseAll(batch, app.message);
      report.settled += batch.length;
      report.refused += batch.length;
      continue;
    }
    report.settled += await store.applyOutcomes(batch, outcomes);
    report.refused += outcomes.filter((o) => o.status === "refused").length;
    // an answer without these actions' outcomes: try again later rather than loop
    const answered = new Set(outcomes.map((o) => o.clientId));
    if (!batch.some((i) => answered.has(i.clientId))) return { ...report, stopped: "unreachable" };
  }
}
