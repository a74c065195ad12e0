/**
 * Who the field app works for (useCanvassSession, utils/localUser.ts) without waiting for the
 * server: online, the signed-in member (remembered on the device); offline with Convex Auth's
 * stored session unconfirmed, the remembered member when the stored token is theirs (never another
 * account's copy); a session that ended: nobody, with the remembered member's results still counted.
 */
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { act } from "react";
import type { CanvassSession } from "@/features/canvass/hooks/useCanvassSession";
import { readLocalUser, saveLocalUser, tokenUserId } from "@/features/canvass/utils/localUser";
import { mount, type Mounted } from "../../support/render";

const auth = { isLoading: false, isAuthenticated: true, provider: "convex" as const };
const viewer = { me: undefined as unknown, can: (p: string) => ["walk_lists.view", "voters.update"].includes(p) };
const conn = { isWebSocketConnected: true, hasEverConnected: true, connectionRetries: 0 };
vi.mock("@/session/AppAuth", () => ({ useAppAuth: () => auth }));
vi.mock("@/session/ViewerProvider", () => ({ useViewer: () => viewer }));
vi.mock("convex/react", () => ({ useConvexConnectionState: () => conn }));

const { useCanvassSession } = await import("@/features/canvass/hooks/useCanvassSession");

const ME = {
  userId: "user_val",
  firstName: "Val",
  lastName: "Volunteer",
  name: "",
  email: "val@example.org",
  org: { id: "org_1", name: "Org" },
};
const VAL = { userId: "user_val", orgId: "org_1", name: "Val Volunteer", canCanvass: true, canEditVoters: true };
/** Convex Auth's stored access token for a user (only its subject is read). */
function storeToken(userId: string | null) {
  for (const k of Object.keys(localStorage)) if (k.startsWith("__convexAuthJWT_")) localStorage.removeItem(k);
  if (!userId) return;
  const part = (o: object) => btoa(JSON.stringify(o)).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
  localStorage.setItem(
    "__convexAuthJWT_http12700013391",
    `${part({ alg: "RS256" })}.${part({ sub: `${userId}|session_1` })}.sig`,
  );
}

let m: Mounted;
let seen: CanvassSession;
function Probe() {
  seen = useCanvassSession();
  return null;
}
const render = () => act(() => m.root.render(<Probe />));

beforeEach(() => {
  localStorage.clear();
  Object.assign(auth, { isLoading: false, isAuthenticated: true });
  Object.assign(conn, { isWebSocketConnected: true, hasEverConnected: true, connectionRetries: 0 });
  viewer.me = ME;
  m = mount(null);
});
afterEach(() => m.unmount());

describe("the field app's session", () => {
  test("online: the signed-in member, remembered on this device", () => {
    storeToken("user_val");
    render();
    expect(seen).toMatchObject({ user: VAL, live: true, connection: "online", signedOut: false, checking: false });
    expect(readLocalUser()).toEqual(VAL);
  });

  test("a reload offline: the stored session waits for the server; the remembered member's copy shows at once", () => {
    saveLocalUser(VAL);
    storeToken("user_val");
    Object.assign(auth, { isLoading: true, isAuthenticated: false });
    Object.assign(conn, { isWebSocketConnected: false, hasEverConnected: false, connectionRetries: 2 });
    viewer.me = null;
    render();
    expect(seen).toMatchObject({ user: VAL, live: false, connection: "offline", signedOut: false, checking: false });
  });

  test("another account's session in this browser never opens the remembered member's copy", () => {
    saveLocalUser(VAL);
    storeToken("user_other");
    Object.assign(auth, { isLoading: true, isAuthenticated: false });
    viewer.me = null;
    render();
    expect(seen.user).toBeNull();
    expect(seen.checking).toBe(true);
  });

  test("the session ended: nobody's copy; the remembered member is kept for their waiting results", () => {
    saveLocalUser(VAL);
    storeToken(null);
    Object.assign(auth, { isLoading: false, isAuthenticated: false });
    viewer.me = null;
    render();
    expect(seen).toMatchObject({ user: null, remembered: VAL, live: false, signedOut: true, checking: false });
  });

  test("the token's subject is read without the server; anything unreadable is no one", () => {
    storeToken("user_val");
    expect(tokenUserId()).toBe("user_val");
    localStorage.setItem("__convexAuthJWT_x", "garbage");
    localStorage.removeItem("__convexAuthJWT_http12700013391");
    expect(tokenUserId()).toBeNull();
    localStorage.setItem("precinct.canvass.user", "{not json");
    expect(readLocalUser()).toBeNull();
  });
});
