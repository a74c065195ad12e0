import { useSyncExternalStore } from "react";
import type * as Y from "yjs";

const NOOP = () => () => {};

type Store<T> = { subscribe: (cb: () => void) => () => void; get: () => T };
const stores = new WeakMap<Y.Doc, Map<unknown, Store<unknown>>>();

/** One store per (document, reader): the value, read again after each update (the user's own and teammates'). */
function storeOf<T>(doc: Y.Doc, read: (doc: Y.Doc) => T): Store<T> {
  let perDoc = stores.get(doc);
  if (!perDoc) stores.set(doc, (perDoc = new Map()));
  let store = perDoc.get(read) as Store<T> | undefined;
  if (!store) {
    let current = read(doc);
    const listeners = new Set<() => void>();
    doc.on("update", () => {
      current = read(doc);
      for (const cb of listeners) cb();
    });
    store = {
      subscribe: (cb) => {
        listeners.add(cb);
        return () => listeners.delete(cb);
      },
      get: () => current,
    };
    perDoc.set(read, store);
  }
  return store;
}

/** What `read` (a module-level function) makes of a co-edited document, live; `empty` while there is none. */
export function useDocValue<T>(doc: Y.Doc | null, read: (doc: Y.Doc) => T, empty: T): T {
  const store = doc ? storeOf(doc, read) : null;
  return useSyncExternalStore(store ? store.subscribe : NOOP, store ? store.get : () => empty);
}
