/**
 * Reads at a pinned timestamp (`ConvexHttpClient.consistentQuery`: `/api/query_ts`, then
 * `/api/query_at_ts`). The store keeps only the latest version of each document, so the engine
 * keeps the previous versions of what recent commits wrote ("undo" entries) while someone reads at
 * a pinned timestamp: from the first `pin()` until RETENTION_MS after the last one, and for
 * RETENTION_MS back (the client's docs: "beyond 30 seconds in the past may not be available").
 *
 * A query at `ts` reads through one more base layer than usual, built from the undo entries of
 * every commit after `ts`: each document written since holds its version as of `ts` (null when it
 * did not exist), so index streams, `db.get` and `count()` see the state at `ts`. Search reads the
 * full-text index as it is now (documents written since are shown as they were, when they still
 * match).
 */
import { convexToJson, jsonToConvex, type JSONValue } from "convex/values";
import type { Doc } from "./json-shape.js";
import type { BaseLayer, Pending } from "./pending.js";
import type { WriteSetImpl } from "./readset.js";
import { realNow, ScopedStorage } from "./runtime.js";
import type { TxHooks } from "./transaction.js";

/** how long history is kept after the last pin, and how far back it reaches */
const RETENTION_MS = 30_000;

type UndoEntry = { ts: bigint; writes: WriteSetImpl };

/** Why a timestamp cannot be read at (Convex's snapshot_manager texts). */
class SnapshotUnavailable extends Error {
  constructor(
    message: string,
    readonly tooOld: boolean,
  ) {
    super(message);
    this.name = "SnapshotUnavailable";
  }
}

export class SnapshotHistory {
  private entries: UndoEntry[] = [];
  private retainUntil = 0;
  /** the oldest timestamp readable from the history (null: none but the current one) */
  private earliest: bigint | null = null;
  private readonly pinned = new ScopedStorage<bigint>();

  constructor(
    private readonly currentTs: () => bigint,
    hooks: TxHooks,
  ) {
    // every transaction started inside runAt() reads through the undo layer of its timestamp
    const baseLayers = hooks.baseLayers;
    hooks.baseLayers = () => {
      const layers = baseLayers();
      const ts = this.pinned.getStore();
      if (ts !== undefined && ts < this.currentTs()) layers.push(this.undoLayer(ts));
      return layers;
    };
  }

  /** The current timestamp, from which reads at it stay possible for RETENTION_MS. */
  pin(): bigint {
    const ts = this.currentTs();
    const now = realNow();
    if (now > this.retainUntil) {
      this.entries = [];
      this.earliest = ts;
    }
    this.retainUntil = now + RETENTION_MS;
    return ts;
  }

  /** Called for every commit: keeps its previous versions while someone reads at a pinned ts. */
  onCommit(ts: bigint, writes: WriteSetImpl) {
    const now = realNow();
    if (now > this.retainUntil) {
      this.entries = [];
      this.earliest = null;
      return;
    }
    this.entries.push({ ts, writes });
    // commit timestamps are wall-clock nanoseconds: drop what is older than the retention
    const horizon = BigInt(Math.floor(now - RETENTION_MS)) * 1_000_000n;
    let n = 0;
    while (n < this.entries.length - 1 && this.entries[n].ts < horizon) n++;
    if (n > 0) {
      const dropped = this.entries[n - 1].ts;
      this.entries.splice(0, n);
      if (this.earliest === null || dropped > this.earliest) this.earliest = dropped;
    }
  }

  /** Throws SnapshotUnavailable unless the state at `ts` can be read. */
  check(ts: bigint) {
    const latest = this.currentTs();
    if (ts > latest) throw new SnapshotUnavailable(`Timestamp ${ts} is more recent than latest_ts ${latest}`, false);
    if (ts < latest && (this.earliest === null || ts < this.earliest)) {
      throw new SnapshotUnavailable(`Timestamp ${ts} is too early, retry with a higher timestamp`, true);
    }
  }

  /** Runs `fn` (a query) so that its transactions read the state at `ts`. */
  async runAt<T>(ts: bigint, fn: () => Promise<T>): Promise<T> {
    this.check(ts);
    return await this.pinned.run(ts, fn);
  }

  /** Each document written after `ts`, as it was at `ts`. */
  private undoLayer(ts: bigint): BaseLayer {
    const docs = new Map<string, Pending>();
    const existsNow = new Map<string, boolean>();
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const e = this.entries[i];
      if (e.ts <= ts) break;
      for (const { tableNumber, doc: w } of e.writes.written()) {
        const old = w.old ?? (w.oldJson !== null ? (jsonToConvex(JSON.parse(w.oldJson) as JSONValue) as Doc) : null);
        const id = w.id;
        if (!existsNow.has(id)) existsNow.set(id, w.doc !== null || w.json !== null);
        docs.set(id, {
          id,
          table: w.table,
          tableNumber,
          doc: old,
          isNew: false,
          hasPlaceholder: false,
          json: old ? (w.oldJson ?? JSON.stringify(convexToJson(old))) : undefined,
        });
      }
    }
    const countDelta = new Map<number, number>();
    for (const p of docs.values()) {
      const delta = (p.doc ? 1 : 0) - (existsNow.get(p.id) ? 1 : 0);
      if (delta !== 0) countDelta.set(p.tableNumber, (countDelta.get(p.tableNumber) ?? 0) + delta);
    }
    return { ticket: -1, docs, sorted: new Map(), countDelta };
  }
}
