/** Signing out deletes every offline copy of co-edited documents in the browser, and nothing else. */
import { describe, expect, test } from "vitest";
import { clearOfflineCopies, offlineCopyName } from "@/lib/collab/offlineCopies";

/** An IndexedDB factory holding named databases; deleteDatabase answers like a browser (async success). */
function fakeIdb(names: string[], opts: { blocked?: string } = {}) {
  const dbs = new Set(names);
  return {
    dbs,
    databases: async () => [...dbs].map((name) => ({ name, version: 1 })),
    deleteDatabase: (name: string) => {
      const req = {} as IDBOpenDBRequest;
      setTimeout(() => {
        if (name === opts.blocked) return req.onblocked?.({} as IDBVersionChangeEvent);
        dbs.delete(name);
        req.onsuccess?.({} as Event);
      }, 0);
      return req;
    },
  };
}

describe("clearOfflineCopies", () => {
  test("deletes the copies of every user and document, keeps other databases", async () => {
    const idb = fakeIdb([
      offlineCopyName("u1", "emailCampaign:abc"),
      offlineCopyName("u2", "cta:def"),
      "other-app",
      "precinct-settings",
    ]);
    expect(await clearOfflineCopies(idb)).toBe(2);
    expect([...idb.dbs].sort()).toEqual(["other-app", "precinct-settings"]);
  });
  test("a copy held open by another tab does not stop the sign-out", async () => {
    const held = offlineCopyName("u1", "form:x");
    const idb = fakeIdb([held, offlineCopyName("u1", "form:y")], { blocked: held });
    expect(await clearOfflineCopies(idb)).toBe(2);
    expect([...idb.dbs]).toEqual([held]);
  });
  test("a browser that cannot list databases (or has no IndexedDB) is left alone", async () => {
    expect(await clearOfflineCopies(undefined)).toBe(0);
    expect(await clearOfflineCopies({ deleteDatabase: () => ({}) as IDBOpenDBRequest } as unknown as IDBFactory)).toBe(
      0,
    );
  });
});
