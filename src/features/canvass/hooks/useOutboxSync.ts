import { useMutation } from "convex/react";
import { useEffect, useRef, useState } from "react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { syncOutbox, type SyncReport } from "../utils/sync";
import type { CanvassSession } from "./useCanvassSession";
import { useCanvassStore, useLocalCopy } from "./useLocalCopy";

/** Waits before sending again after the server could not be reached (ms), growing with each failure. */
const RETRY_MS = [2_000, 5_000, 15_000, 30_000, 60_000];

/** One sync loop per user across this browser's tabs (where the browser can lock across them). */
function exclusively(name: string, run: () => Promise<SyncReport>): Promise<SyncReport> {
  const locks = typeof navigator !== "undefined" ? navigator.locks : undefined;
  // (the lock is held until the callback's promise settles, and request() resolves with its value)
  return locks ? (locks.request(name, run) as unknown as Promise<SyncReport>) : run();
}

export type OutboxSync = {
  /** the user's actions waiting in the outbox */
  waiting: number;
  /** a send is under way */
  sending: boolean;
  /** the server refused the session while sending: sign in again */
  needsSignIn: boolean;
};

/**
 * Sends the outbox whenever there is something to send and the server is reachable with this
 * user's session: at once after each result, on reconnection, and again after a failure (with a
 * growing wait). Runs on every field app screen, so results leave from wherever the canvasser is.
 */
export function useOutboxSync(session: CanvassSession): OutboxSync {
  const store = useCanvassStore();
  const sync = useMutation(api.canvass.sync);
  const userId = session.user?.userId ?? null;
  // signed out, the results of the member who was here still wait (the state bar counts them)
  const countFor = userId ?? (session.signedOut ? (session.remembered?.userId ?? null) : null);
  const waiting = useLocalCopy((s) => (countFor ? s.waitingCount(countFor) : Promise.resolve(0)), [countFor]) ?? 0;
  const canSend = session.live && session.connection === "online" && userId !== null;
  const [sending, setSending] = useState(false);
  // after a failure, sends wait (a timer ends the pause); a reconnection ends it at once
  const [paused, setPaused] = useState(false);
  const [needsSignIn, setNeedsSignIn] = useState(false);
  const failures = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  useEffect(() => {
    if (!canSend || waiting === 0 || sending || paused || userId === null) return;
    setSending(true);
    clearTimeout(timer.current);
    const send = (listId: string, events: Parameters<typeof sync>[0]["events"]) =>
      sync({ listId: listId as Id<"walkLists">, events });
    void exclusively(`precinct-canvass-sync:${userId}`, () => syncOutbox(store, userId, send))
      .catch((): SyncReport => ({ settled: 0, refused: 0, stopped: "unreachable" }))
      .then((report) => {
        setNeedsSignIn(report.stopped === "signedOut");
        if (report.stopped) {
          const wait = RETRY_MS[Math.min(failures.current, RETRY_MS.length - 1)];
          failures.current += 1;
          setPaused(true);
          timer.current = setTimeout(() => setPaused(false), wait);
        } else failures.current = 0;
      })
      .finally(() => setSending(false));
    // `sending` turning false runs this again: actions recorded during a send go next
  }, [canSend, waiting, sending, paused, userId, store, sync]);

  // back online: try at once
  useEffect(() => {
    if (!canSend) return;
    clearTimeout(timer.current);
    setPaused(false);
  }, [canSend]);

  useEffect(() => {
    if (session.live) setNeedsSignIn(false);
  }, [session.live]);

  return { waiting, sending, needsSignIn };
}
