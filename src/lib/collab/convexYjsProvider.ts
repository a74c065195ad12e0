/**
 * A Yjs provider over Convex (convex/yjs.ts): Convex is the only transport (no y-webrtc, no
 * y-websocket). Framework-free; takes a `ConvexClient` or a `ConvexReactClient`.
 *
 * - Receiving: one subscription to `api.yjs.pull` from the cursor (the last sequence number
 *   applied). Each result is applied to the document with the provider as origin (so it is not
 *   pushed back and a `Y.UndoManager` tracking local origins ignores it), then the subscription
 *   moves to the new cursor: the server only ever sends what this client has not seen.
 * - Sending: a lone local update goes out at once; updates following it within `batchMs` (or
 *   while a push is in flight) are merged. Pushes go in order, one at a time, each
 *   with a per-session number the server dedupes, and retried until stored. While the connection
 *   is down they wait (the Convex client resends in-flight mutations when it reconnects) and the
 *   edits stay in the document (and in IndexedDB through y-indexeddb, see useCollaborativeDoc).
 * - First load: the server's content is also applied to a scratch copy; once caught up, whatever
 *   the document holds that the server lacks (edits restored from IndexedDB, made offline in an
 *   earlier session, or made while loading) is pushed as one update. Nothing is lost, and Yjs
 *   ignores anything applied twice, so nothing is duplicated.
 * - Acknowledging: the cursor is acked (at most every second, and every YJS_ACK_EVERY_MS while
 *   connected) so compaction keeps the updates this client still lacks.
 * - Status: connecting (until the first load is applied), synced, offline (socket down).
 */
import { ConvexError } from "convex/values";
import * as Y from "yjs";
import { api } from "@convex/_generated/api";
import { YJS_ACK_EVERY_MS, YJS_MAX_UPDATE_BYTES, type YjsPullResult } from "@convex/tables/yjs";
import { mutate, watch, watchConnection, type ConnectionLike, type ConvexClientLike } from "./convexClientLike";

export type CollabStatus = "connecting" | "synced" | "offline";

export type ConvexYjsProviderOptions = {
  /** identifies this provider to the server (own updates skipped, acks, dedupe); default random */
  sessionId?: string;
  /** local updates made within this many ms go out as one push (default 30) */
  batchMs?: number;
  /** a push or pull the server refused for good (too large, permission lost) */
  onError?: (error: Error) => void;
};

const ACK_MIN_INTERVAL_MS = 1_000;
const RETRY_MIN_MS = 250;
const RETRY_MAX_MS = 10_000;
/** Refusals that a retry cannot fix: the update is dropped (it stays in the local document). */
const PERMANENT = new Set(["VALIDATION_ERROR", "FORBIDDEN", "NOT_FOUND"]);

function newSessionId(): string {
  const uuid = globalThis.crypto?.randomUUID?.() ?? `${Date.now()}-${Math.random()}`;
  return `y-${uuid}`.replace(/[^\w-]/g, "");
}

function toArrayBuffer(u: Uint8Array): ArrayBuffer {
  return u.buffer.slice(u.byteOffset, u.byteOffset + u.byteLength) as ArrayBuffer;
}

function joinChunks(chunks: ArrayBuffer[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(new Uint8Array(c), at);
    at += c.byteLength;
  }
  return out;
}

function errorCode(e: unknown): string | null {
  if (e instanceof ConvexError && typeof e.data === "object" && e.data !== null)
    return (e.data as { code?: string }).code ?? null;
  return null;
}

export class ConvexYjsProvider {
  readonly sessionId: string;
  /** the last sequence number applied */
  cursor = 0;
  private clientSeq = 0;
  private status_: CollabStatus = "connecting";
  private synced = false;
  /** the server's content during the first load, to find what only this document holds */
  private serverCopy: Y.Doc | null = new Y.Doc();
  private queue: Uint8Array[] = [];
  private outbox: { clientSeq: number; update: Uint8Array }[] = [];
  private pushing = false;
  private batchTimer: ReturnType<typeof setTimeout> | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private ackTimer: ReturnType<typeof setTimeout> | null = null;
  private keepAlive: ReturnType<typeof setInterval> | null = null;
  private lastAckAt = 0;
  private lastCutAt = 0;
  private ackedCursor = -1;
  private connected = false;
  private hasConnected = false;
  private destroyed = false;
  private drainWaiters: (() => void)[] = [];
  private unsubscribe: (() => void) | null = null;
  private readonly offConnection: () => void;
  private readonly statusListeners = new Set<(status: CollabStatus) => void>();
  private readonly batchMs: number;
  private readonly onError: (error: Error) => void;
  private resolveSynced!: () => void;
  /** resolves once the first load is applied */
  readonly whenSynced: Promise<void>;

  constructor(
    private readonly client: ConvexClientLike,
    readonly docId: string,
    readonly doc: Y.Doc,
    opts: ConvexYjsProviderOptions = {},
  ) {
    this.sessionId = opts.sessionId ?? newSessionId();
    this.batchMs = opts.batchMs ?? 30;
    this.onError = opts.onError ?? (() => {});
    this.whenSynced = new Promise((r) => (this.resolveSynced = r));
    doc.on("update", this.handleUpdate);
    doc.on("destroy", this.handleDocDestroy);
    this.offConnection = watchConnection(client, this.handleConnection);
    this.keepAlive = setInterval(() => {
      if (this.synced && this.connected) this.sendAck(true);
    }, YJS_ACK_EVERY_MS);
    this.subscribe();
  }

  get status(): CollabStatus {
    return this.status_;
  }

  /** Local updates not yet stored by the server (queued, waiting or in flight). */
  get pendingUpdates(): number {
    return this.queue.length + this.outbox.length;
  }

  onStatus(cb: (status: CollabStatus) => void): () => void {
    this.statusListeners.add(cb);
    return () => this.statusListeners.delete(cb);
  }

  /** Pushes queued local updates now instead of after the batch delay; resolves once all are stored. */
  flush(): Promise<void> {
    this.cutBatch();
    if (this.outbox.length === 0 && !this.pushing) return Promise.resolve();
    return new Promise((r) => this.drainWaiters.push(r));
  }

  destroy() {
    if (this.destroyed) return;
    // best effort: what is still queued goes out (y-indexeddb and the next load's diff cover the rest)
    this.cutBatch();
    this.destroyed = true;
    for (const item of this.outbox) {
      mutate(this.client, api.yjs.push, {
        docId: this.docId,
        sessionId: this.sessionId,
        clientSeq: item.clientSeq,
        update: toArrayBuffer(item.update),
      }).catch(() => {});
    }
    this.outbox = [];
    this.unsubscribe?.();
    this.offConnection();
    for (const t of [this.batchTimer, this.retryTimer, this.ackTimer]) if (t) clearTimeout(t);
    if (this.keepAlive) clearInterval(this.keepAlive);
    this.doc.off("update", this.handleUpdate);
    this.doc.off("destroy", this.handleDocDestroy);
    this.serverCopy?.destroy();
    this.serverCopy = null;
    this.statusListeners.clear();
    this.drained();
  }

  private drained() {
    const waiters = this.drainWaiters;
    this.drainWaiters = [];
    for (const w of waiters) w();
  }

  private setStatus() {
    const next: CollabStatus =
      !this.connected && this.hasConnected ? "offline" : this.synced && this.connected ? "synced" : "connecting";
    if (next === this.status_) return;
    this.status_ = next;
    for (const cb of this.statusListeners) cb(next);
  }

  private handleConnection = (state: ConnectionLike) => {
    if (this.destroyed) return;
    this.connected = state.isWebSocketConnected;
    this.hasConnected ||= state.hasEverConnected || state.isWebSocketConnected;
    this.setStatus();
  };

  private handleDocDestroy = () => this.destroy();

  private subscribe() {
    this.unsubscribe?.();
    const after = this.cursor;
    this.unsubscribe = watch(
      this.client,
      api.yjs.pull,
      { docId: this.docId, after, sessionId: this.sessionId },
      (r) => {
        if (!this.destroyed && after === this.cursor) this.applyPull(r);
      },
      (e) => {
        if (!this.destroyed) this.onError(e);
      },
    );
  }

  private applyPull(r: YjsPullResult) {
    const moved = r.upTo !== this.cursor;
    if (r.snapshot || r.updates.length > 0) {
      const snapshot = r.snapshot ? joinChunks(r.snapshot) : null;
      const updates = r.updates.map((u) => new Uint8Array(u));
      for (const target of this.serverCopy ? [this.doc, this.serverCopy] : [this.doc]) {
        target.transact(() => {
          if (snapshot) Y.applyUpdate(target, snapshot);
          for (const u of updates) Y.applyUpdate(target, u);
        }, this);
      }
    }
    this.cursor = r.upTo;
    if (!this.synced && !r.more) this.finishFirstLoad();
    if (moved) {
      this.subscribe();
      this.sendAck(false);
    }
  }

  /** Caught up for the first time: push what only this document holds, then report synced. */
  private finishFirstLoad() {
    const copy = this.serverCopy;
    this.serverCopy = null;
    this.queue = [];
    if (copy) {
      if (!Y.equalSnapshots(Y.snapshot(this.doc), Y.snapshot(copy))) {
        this.queue.push(Y.encodeStateAsUpdate(this.doc, Y.encodeStateVector(copy)));
        this.cutBatch();
      }
      copy.destroy();
    }
    this.synced = true;
    this.sendAck(true);
    this.setStatus();
    this.resolveSynced();
  }

  private handleUpdate = (update: Uint8Array, origin: unknown) => {
    if (origin === this || this.destroyed) return;
    // during the first load, the diff against the server's content covers local edits
    if (!this.synced) return;
    this.queue.push(update);
    if (this.batchTimer) return;
    // a lone edit goes out at once (after the current task, so one burst is one push); edits
    // following within batchMs of the last push, or while one is in flight, are merged
    const wait = this.pushing ? this.batchMs : Math.max(0, this.lastCutAt + this.batchMs - Date.now());
    this.batchTimer = setTimeout(() => this.cutBatch(), wait);
  };

  /** Turns the queued local updates into numbered pushes (merged when they fit in one). */
  private cutBatch() {
    if (this.batchTimer) clearTimeout(this.batchTimer);
    this.batchTimer = null;
    if (this.queue.length === 0 || this.destroyed) return;
    this.lastCutAt = Date.now();
    const queued = this.queue;
    this.queue = [];
    const merged = queued.length === 1 ? queued[0] : Y.mergeUpdates(queued);
    const parts = merged.byteLength <= YJS_MAX_UPDATE_BYTES ? [merged] : queued;
    for (const update of parts) this.outbox.push({ clientSeq: ++this.clientSeq, update });
    void this.pump();
  }

  private async pump() {
    if (this.pushing) return;
    this.pushing = true;
    let failures = 0;
    try {
      while (!this.destroyed && this.outbox.length > 0) {
        const item = this.outbox[0];
        try {
          await mutate(this.client, api.yjs.push, {
            docId: this.docId,
            sessionId: this.sessionId,
            clientSeq: item.clientSeq,
            update: toArrayBuffer(item.update),
          });
          failures = 0;
          if (this.outbox[0] === item) this.outbox.shift();
        } catch (e) {
          if (this.destroyed) return;
          if (PERMANENT.has(errorCode(e) ?? "")) {
            if (this.outbox[0] === item) this.outbox.shift();
            this.onError(e as Error);
            continue;
          }
          failures += 1;
          const wait = Math.min(RETRY_MAX_MS, RETRY_MIN_MS * 2 ** (failures - 1));
          await new Promise<void>((r) => (this.retryTimer = setTimeout(r, wait)));
        }
      }
    } finally {
      this.pushing = false;
      if (this.outbox.length === 0) this.drained();
    }
  }

  /** Acks the cursor: at once when `now` (first load, keep-alive), else at most every second. */
  private sendAck(now: boolean) {
    if (this.destroyed || !this.synced) return;
    if (!now && this.cursor === this.ackedCursor) return;
    const due = now ? 0 : Math.max(0, this.lastAckAt + ACK_MIN_INTERVAL_MS - Date.now());
    if (due > 0) {
      this.ackTimer ??= setTimeout(() => {
        this.ackTimer = null;
        this.sendAck(true);
      }, due);
      return;
    }
    this.lastAckAt = Date.now();
    this.ackedCursor = this.cursor;
    mutate(this.client, api.yjs.ack, { docId: this.docId, sessionId: this.sessionId, seq: this.cursor }).catch(
      () => {},
    );
  }
}
