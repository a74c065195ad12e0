/**
 * Who the field app works for when the server cannot say (offline, or while the session is being
 * checked): the last member who opened it on this device, remembered in local storage. The local
 * copy (store.ts) is keyed by this user, so another account on the same device never reads it.
 */
const KEY = "precinct.canvass.user";

export type LocalUser = {
  userId: string;
  orgId: string;
  name: string;
  /** walk_lists.view: may open the field app */
  canCanvass: boolean;
  /** voters.update: may correct a voter's phone or email and add a person at the door */
  canEditVoters: boolean;
};

export function readLocalUser(storage: Storage | undefined = globalThis.localStorage): LocalUser | null {
  try {
    const raw = storage?.getItem(KEY);
    const u = raw ? (JSON.parse(raw) as Partial<LocalUser>) : null;
    return u && typeof u.userId === "string" && typeof u.orgId === "string"
      ? {
          userId: u.userId,
          orgId: u.orgId,
          name: typeof u.name === "string" ? u.name : "",
          canCanvass: u.canCanvass === true,
          canEditVoters: u.canEditVoters === true,
        }
      : null;
  } catch {
    return null;
  }
}

export function saveLocalUser(user: LocalUser, storage: Storage | undefined = globalThis.localStorage) {
  storage?.setItem(KEY, JSON.stringify(user));
}

export function sameUser(a: LocalUser | null, b: LocalUser | null): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The user of the session Convex Auth keeps in this browser (its access token's subject,
 * "userId|sessionId"), read without the server; null when there is none or it cannot be read.
 */
export function tokenUserId(storage: Storage | undefined = globalThis.localStorage): string | null {
  if (!storage) return null;
  for (let i = 0; i < storage.length; i++) {
    const key = storage.key(i);
    if (!key?.startsWith("__convexAuthJWT_")) continue;
    const token = storage.getItem(key);
    const payload = token?.split(".")[1];
    if (!payload) continue;
    try {
      const json = atob(
        payload
          .replace(/-/g, "+")
          .replace(/_/g, "/")
          .padEnd(Math.ceil(payload.length / 4) * 4, "="),
      );
      const sub = (JSON.parse(json) as { sub?: unknown }).sub;
      if (typeof sub === "string" && sub) return sub.split("|")[0];
    } catch {
      // not a readable token: as if there were none
    }
  }
  return null;
}
