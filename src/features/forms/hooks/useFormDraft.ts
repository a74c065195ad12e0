import { useSyncExternalStore } from "react";
import type * as Y from "yjs";
import { readDraft, type FormDraft } from "@convex/lib/formDraft";

const EMPTY: FormDraft = { name: "", description: "", fields: [] };
const NOOP = () => () => {};

type DraftStore = { subscribe: (cb: () => void) => () => void; get: () => FormDraft };
const stores = new WeakMap<Y.Doc, DraftStore>();

/** One store per document: the draft, read again after each update (the builder's own and teammates'). */
function storeOf(doc: Y.Doc): DraftStore {
  let store = stores.get(doc);
  if (!store) {
    let current = readDraft(doc);
    const listeners = new Set<() => void>();
    doc.on("update", () => {
      current = readDraft(doc);
      for (const cb of listeners) cb();
    });
    store = {
      subscribe: (cb) => {
        listeners.add(cb);
        return () => listeners.delete(cb);
      },
      get: () => current,
    };
    stores.set(doc, store);
  }
  return store;
}

/** The draft `doc` holds, live. */
export function useFormDraft(doc: Y.Doc | null): FormDraft {
  const store = doc ? storeOf(doc) : null;
  return useSyncExternalStore(store ? store.subscribe : NOOP, store ? store.get : () => EMPTY);
}
