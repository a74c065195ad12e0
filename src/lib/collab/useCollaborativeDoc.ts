/**
 * A co-edited Yjs document in a component: `useCollaborativeDoc("campaign:<id>")` →
 * `{ doc, status, awareness }`. While mounted, the document is relayed and stored through Convex
 * (ConvexYjsProvider: Convex is the only transport), kept offline in IndexedDB (y-indexeddb, when
 * an `offlineKey` such as the viewer's user id is given: copies are per user, so another account
 * on the same browser never loads them, and signing out deletes them: offlineCopies.ts), and its
 * awareness rides on presence (PresenceAwareness).
 * `doc` and `awareness` are null until the document is opened (the first render, and while an
 * IndexedDB copy loads); a new `id` opens a new document.
 *
 * For undo/redo use a `Y.UndoManager` tracking local origins only (`localUndoManager` in
 * canvasObjects.ts): teammates' updates are applied with the provider as origin and never undone.
 */
import { useConvex } from "convex/react";
import { useEffect, useRef, useState, useSyncExternalStore } from "react";
import { IndexeddbPersistence } from "y-indexeddb";
import { Awareness } from "y-protocols/awareness";
import * as Y from "yjs";
import type { ConvexClientLike } from "./convexClientLike";
import { ConvexYjsProvider, type CollabStatus } from "./convexYjsProvider";
import { offlineCopyName } from "./offlineCopies";
import { PresenceAwareness } from "./presenceAwareness";

export type CollaborativeDoc = { doc: Y.Doc | null; status: CollabStatus; awareness: Awareness | null };

const CLOSED: CollaborativeDoc = { doc: null, status: "connecting", awareness: null };

/** One open document and what keeps it in sync; `open` returns its closer. */
export class CollaborativeDocStore {
  private value: CollaborativeDoc = CLOSED;
  private readonly listeners = new Set<() => void>();

  subscribe = (cb: () => void) => {
    this.listeners.add(cb);
    return () => this.listeners.delete(cb);
  };

  getSnapshot = () => this.value;

  private set(value: CollaborativeDoc) {
    this.value = value;
    for (const cb of this.listeners) cb();
  }

  open(
    client: ConvexClientLike,
    id: string,
    opts: { offlineKey?: string; onError?: (e: Error) => void } = {},
  ): () => void {
    const doc = new Y.Doc();
    const awareness = new Awareness(doc);
    let provider: ConvexYjsProvider | null = null;
    let presence: PresenceAwareness | null = null;
    let closed = false;
    const persistence =
      opts.offlineKey && typeof indexedDB !== "undefined"
        ? new IndexeddbPersistence(offlineCopyName(opts.offlineKey, id), doc)
        : null;
    const start = () => {
      if (closed) return;
      provider = new ConvexYjsProvider(client, id, doc, { onError: opts.onError });
      presence = new PresenceAwareness(client, id, awareness, provider.sessionId, opts.onError);
      provider.onStatus((status) => this.set({ doc, awareness, status }));
      this.set({ doc, awareness, status: provider.status });
    };
    // the provider starts from the offline copy, so it can push what only that copy holds
    if (persistence) void persistence.whenSynced.then(start, start);
    else start();
    return () => {
      closed = true;
      presence?.destroy();
      provider?.destroy();
      void persistence?.destroy();
      awareness.destroy();
      doc.destroy();
      this.set(CLOSED);
    };
  }
}

export function useCollaborativeDoc(
  id: string | null,
  opts: { offlineKey?: string; onError?: (e: Error) => void } = {},
): CollaborativeDoc {
  const convex = useConvex();
  const [store] = useState(() => new CollaborativeDocStore());
  const { offlineKey } = opts;
  const latestOnError = useRef(opts.onError);
  latestOnError.current = opts.onError;
  useEffect(
    () => (id ? store.open(convex, id, { offlineKey, onError: (e) => latestOnError.current?.(e) }) : undefined),
    [store, convex, id, offlineKey],
  );
  return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
}
