/**
 * Offline copies of co-edited documents (y-indexeddb, one IndexedDB database per user and document:
 * `precinct-yjs:<userId>:<room>`). Another account on the same browser never loads them, and
 * signing out deletes them all, so nothing of the organisation stays on a shared computer.
 */
const OFFLINE_COPY_PREFIX = "precinct-yjs:";

export function offlineCopyName(userId: string, room: string): string {
  return `${OFFLINE_COPY_PREFIX}${userId}:${room}`;
}

/** Deletes every offline copy in this browser; resolves with how many there were (0 where the browser cannot list them). */
export async function clearOfflineCopies(
  idb: Pick<IDBFactory, "databases" | "deleteDatabase"> | undefined = globalThis.indexedDB,
): Promise<number> {
  if (!idb || typeof idb.databases !== "function") return 0;
  const names = (await idb.databases())
    .map((d) => d.name)
    .filter((n): n is string => !!n?.startsWith(OFFLINE_COPY_PREFIX));
  await Promise.all(
    names.map(
      (name) =>
        new Promise<void>((resolve) => {
          const req = idb.deleteDatabase(name);
          // blocked: an open tab still holds it; the deletion completes when that tab closes it
          req.onsuccess = req.onerror = req.onblocked = () => resolve();
        }),
    ),
  );
  return names.length;
}
