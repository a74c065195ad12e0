/**
 * Joins this browser tab to a presence room while the component is mounted: a beat every
 * PRESENCE_HEARTBEAT_MS, leaving on unmount. Returns everyone in the room, this tab apart.
 */
import { useMutation, useQuery } from "convex/react";
import { useEffect, useMemo, useRef } from "react";
import { api } from "@convex/_generated/api";
import { PRESENCE_HEARTBEAT_MS } from "@convex/tables/collab";

/** One id per browser tab (a tab may hold the same room twice only through two components). */
const TAB_SESSION_ID = (globalThis.crypto?.randomUUID?.() ?? `${Date.now()}-${Math.random()}`).replace(/[^\w-]/g, "");

export function usePresence(room: string | null, state?: Record<string, unknown>) {
  const heartbeat = useMutation(api.presence.heartbeat);
  const setState = useMutation(api.presence.setState);
  const leave = useMutation(api.presence.leave);
  const entries = useQuery(api.presence.list, room ? { room } : "skip");
  const stateJson = state === undefined ? undefined : JSON.stringify(state);
  const latestState = useRef(stateJson);
  latestState.current = stateJson;

  useEffect(() => {
    if (!room) return;
    const beat = () => {
      const s = latestState.current;
      heartbeat({ room, sessionId: TAB_SESSION_ID, state: s === undefined ? undefined : JSON.parse(s) }).catch(
        () => {},
      );
    };
    const bye = () => {
      leave({ room, sessionId: TAB_SESSION_ID }).catch(() => {});
    };
    beat();
    const timer = setInterval(beat, PRESENCE_HEARTBEAT_MS);
    // closing or reloading the tab: say goodbye while the connection is still open
    window.addEventListener("pagehide", bye);
    return () => {
      clearInterval(timer);
      window.removeEventListener("pagehide", bye);
      bye();
    };
  }, [room, heartbeat, leave]);

  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    if (room && stateJson !== undefined)
      setState({ room, sessionId: TAB_SESSION_ID, state: JSON.parse(stateJson) }).catch(() => {});
  }, [room, stateJson, setState]);

  return useMemo(() => {
    const all = entries ?? [];
    return { others: all.filter((e) => e.sessionId !== TAB_SESSION_ID), everyone: all, loaded: entries !== undefined };
  }, [entries]);
}
