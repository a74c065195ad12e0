import { useConvex, useQuery } from "convex/react";
import { ConvexError } from "convex/values";
import { useEffect, useState } from "react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import type { AppErrorData } from "@convex/lib/errors";
import { doorsBox } from "../utils/doors";
import { cacheTurfStreets } from "../utils/turfStreets";
import type { CanvassSession } from "./useCanvassSession";
import { useCanvassStore, useLocalCopy } from "./useLocalCopy";

/** How often an open list's doors, voters and claims are read again while connected (its door states are live). */
const BUNDLE_REFRESH_MS = 2 * 60_000;

export type StreetsOffline = "none" | "caching" | "ready" | "failed";

/**
 * One list for the field app, always from this device's copy: while connected the copy is kept
 * current (the list's doors, voters, script and claims read on opening and every few minutes and
 * after a claim; its door states live; the voters' phone and email; the organisation's map
 * layers), and the turf's streets are put in the offline cache. Offline the copy is all there is.
 */
export function useListCopy(session: CanvassSession, listId: string) {
  const store = useCanvassStore();
  const convex = useConvex();
  const userId = session.user?.userId ?? null;
  const live = session.live && session.connection === "online" && !!session.user?.canCanvass;
  const id = listId as Id<"walkLists">;
  const [refreshed, setRefreshed] = useState(0);
  const [problem, setProblem] = useState<string | null>(null);
  const [streets, setStreets] = useState<StreetsOffline>("none");

  useEffect(() => {
    if (!live || !userId) return;
    let gone = false;
    const read = async () => {
      try {
        const bundle = await convex.query(api.canvass.bundle, { listId: id });
        if (gone) return;
        await store.saveBundle(userId, bundle);
        setProblem(null);
        const contacts = await convex.query(api.canvassApp.contacts, { listId: id });
        if (!gone) await store.saveContacts(userId, listId, contacts);
      } catch (e) {
        // the list is not (or no longer) the canvasser's: say so; a lost connection just waits
        if (!gone && e instanceof ConvexError) setProblem((e.data as AppErrorData).message);
      }
    };
    void read();
    const every = setInterval(() => void read(), BUNDLE_REFRESH_MS);
    return () => {
      gone = true;
      clearInterval(every);
    };
  }, [live, userId, listId, id, refreshed, convex, store]);

  const states = useQuery(api.canvass.doorStatesOf, live && !problem ? { listId: id } : "skip");
  useEffect(() => {
    if (states && userId) void store.saveStates(userId, listId, states);
  }, [states, userId, listId, store]);

  const overview = useQuery(api.mapData.overview, live ? {} : "skip");
  useEffect(() => {
    if (!overview || !userId) return;
    const ready = (kind: "streets" | "basemap") =>
      overview.layers.find((l) => l.kind === kind && l.status === "ready" && l.url)?.url ?? null;
    void store.saveOrgMap(userId, { streets: ready("streets"), basemapUrl: ready("basemap"), tiles: overview.tiles });
  }, [overview, userId, store]);

  const copy = useLocalCopy(async (s) => (userId ? ((await s.list(userId, listId)) ?? null) : null), [userId, listId]);
  const marks = useLocalCopy((s) => (userId ? s.marksOf(userId, listId) : Promise.resolve([])), [userId, listId]);
  const orgMap = useLocalCopy((s) => (userId ? s.orgMap(userId) : Promise.resolve(null)), [userId]);

  // the turf's streets for offline use, once per streets file
  const streetsUrl = orgMap?.streets ?? null;
  const cachedUrl = copy?.streetsCached?.url ?? null;
  const box = copy ? doorsBox(copy.bundle.doors) : null;
  const boxKey = box ? box.join(",") : null;
  useEffect(() => {
    if (!live || !userId || !streetsUrl || !boxKey) return;
    if (cachedUrl === streetsUrl) {
      setStreets("ready");
      return;
    }
    let gone = false;
    setStreets("caching");
    cacheTurfStreets(streetsUrl, boxKey.split(",").map(Number) as [number, number, number, number])
      .then(() => store.markStreetsCached(userId, listId, streetsUrl))
      .then(() => !gone && setStreets("ready"))
      .catch(() => !gone && setStreets("failed"));
    return () => {
      gone = true;
    };
  }, [live, userId, listId, streetsUrl, cachedUrl, boxKey, store]);

  return {
    /** undefined while this device's copy is read; null when there is none (never opened here, offline) */
    copy,
    marks: marks ?? [],
    orgMap: orgMap ?? null,
    /** why the server would not give the list (not assigned, deleted), in words */
    problem,
    streets: cachedUrl && cachedUrl === streetsUrl ? ("ready" as const) : streets,
    /** reads the list again now (after claiming or releasing doors) */
    refresh: () => setRefreshed((n) => n + 1),
  };
}
