import { useConvexConnectionState } from "convex/react";
import { useEffect, useMemo, useState } from "react";
import { useAppAuth } from "@/session/AppAuth";
import { useViewer } from "@/session/ViewerProvider";
import { readLocalUser, sameUser, saveLocalUser, tokenUserId, type LocalUser } from "../utils/localUser";

export type Connection = "online" | "connecting" | "offline";

export type CanvassSession = {
  /** whose local copy the app shows: the signed-in member, or offline the last one here */
  user: LocalUser | null;
  /** the member who last used the field app on this device (their waiting results wait for them) */
  remembered: LocalUser | null;
  /** the server confirmed the session of this user: reads and sends may run once connected */
  live: boolean;
  connection: Connection;
  /** the session ended (or never began) and the server would not renew it: sign in again */
  signedOut: boolean;
  /** nothing is known yet (the session is being checked and this device has no one to show) */
  checking: boolean;
};

/** navigator.onLine, kept current (airplane mode, a lost network). */
function useBrowserOnline(): boolean {
  const [online, setOnline] = useState(() => (typeof navigator === "undefined" ? true : navigator.onLine));
  useEffect(() => {
    const update = () => setOnline(navigator.onLine);
    window.addEventListener("online", update);
    window.addEventListener("offline", update);
    return () => {
      window.removeEventListener("online", update);
      window.removeEventListener("offline", update);
    };
  }, []);
  return online;
}

/**
 * Who the field app works for and whether it can reach the server. Online it is the signed-in
 * member (remembered on this device for later); offline, or while a stored session waits for the
 * server to confirm it, it is the member remembered here, as long as the session this browser
 * keeps is theirs. It never waits for the server to render.
 */
export function useCanvassSession(): CanvassSession {
  const { isLoading, isAuthenticated, provider } = useAppAuth();
  const { me, can } = useViewer();
  const conn = useConvexConnectionState();
  const browserOnline = useBrowserOnline();
  const [stored, setStored] = useState<LocalUser | null>(() => readLocalUser());

  const current = useMemo<LocalUser | null>(() => {
    if (!isAuthenticated || !me?.org) return null;
    const name = [me.firstName, me.lastName].filter(Boolean).join(" ") || me.name || me.email;
    return {
      userId: me.userId,
      orgId: me.org.id,
      name,
      canCanvass: can("walk_lists.view"),
      canEditVoters: can("voters.update"),
    };
  }, [isAuthenticated, me, can]);

  useEffect(() => {
    if (current && !sameUser(current, stored)) {
      saveLocalUser(current);
      setStored(current);
    }
  }, [current, stored]);

  // offline, the remembered member only while this browser's session is still theirs
  const storedUsable = !!stored && (provider !== "convex" || tokenUserId() === stored.userId);
  const signedOut = !isLoading && !isAuthenticated;
  const user = current ?? (storedUsable && !signedOut ? stored : null);
  const tried = conn.hasEverConnected || conn.connectionRetries > 0;
  const connection: Connection =
    !browserOnline || (!conn.isWebSocketConnected && tried)
      ? "offline"
      : conn.isWebSocketConnected && current
        ? "online"
        : "connecting";
  return {
    user,
    remembered: stored,
    live: current !== null,
    connection,
    signedOut,
    checking: user === null && !signedOut,
  };
}
