import { useQuery } from "convex/react";
import { useEffect } from "react";
import { api } from "@convex/_generated/api";
import type { CanvassSession } from "./useCanvassSession";
import { useCanvassStore, useLocalCopy } from "./useLocalCopy";

/**
 * The canvasser's assigned open lists: live while connected (and kept on this device), the copy
 * as last seen while offline; with the lists already opened here (ready offline).
 */
export function useMyLists(session: CanvassSession) {
  const store = useCanvassStore();
  const userId = session.user?.userId ?? null;
  const fresh = useQuery(api.canvass.myLists, session.live && session.user?.canCanvass ? {} : "skip");
  useEffect(() => {
    if (fresh && userId) void store.saveMyLists(userId, fresh);
  }, [fresh, userId, store]);
  const copy = useLocalCopy((s) => (userId ? s.myLists(userId) : Promise.resolve(undefined)), [userId]);
  const opened = useLocalCopy(async (s) => (userId ? (await s.listsOf(userId)).map((l) => l.listId) : []), [userId]);
  return {
    /** undefined while neither the server nor this device has answered */
    lists: fresh ?? copy?.lists,
    savedAt: copy?.savedAt ?? null,
    fromDevice: fresh === undefined && copy !== undefined,
    readyOffline: new Set(opened ?? []),
  };
}
