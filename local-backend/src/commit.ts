/**
 * Commits and locks: the readers-writer lock (queries share it, mutations and system writes take
 * it alone), commit timestamps and creation times (monotonic, persisted), and the commit pipeline:
 * a commit hands its batch to the writer thread and keeps it as an in-memory layer that every
 * transaction reads through until the writer reports it stored. Commit listeners hear of every
 * commit (reactivity, the scheduler).
 */
import { convexToJson, type Value } from "convex/values";
import type { Catalog } from "./catalog.js";
import type { CommitEvent } from "./engine-api.js";
import type { Doc } from "./json-shape.js";
import { isDelete, keysAtCommit, StoredPending, type BaseLayer, type Pending } from "./pending.js";
import { keySuccessor } from "./index-range.js";
import { encodeTuple } from "./indexkey.js";
import { intersects, WriteSetImpl } from "./readset.js";
import { RWLock, realNow, runScopes } from "./runtime.js";
import type { Store } from "./storage.js";
import type { DocWrite } from "./storage-types.js";
import { LARGE_COMMIT_DOCUMENTS, MAX_UNSTORED_DOCUMENTS } from "./storage-connection.js";
import { Tx, type TxHooks } from "./transaction.js";

export type CommitPipelineDeps = {
  store: Store;
  catalog: Catalog;
  emitLog(line: string): void;
  /** true once the engine is stopping: no new transactions start */
  isStopped(): boolean;
};

function resolveCommitTs(v: Value, ts: bigint): Value {
  if (v === null || typeof v !== "object") return v;
  if (v.constructor?.name === "CommitTsPlaceholder") return ts;
  if (v instanceof ArrayBuffer) return v;
  if (Array.isArray(v)) return v.map((x) => resolveCommitTs(x, ts));
  const out: Record<string, Value> = {};
  for (const [k, x] of Object.entries(v)) out[k] = resolveCommitTs(x as Value, ts);
  return out;
}

/** An optimistic transaction and where it began (see CommitPipeline.beginOptimistic). */
export type OptimisticTx = { ts: bigint; epoch: number; readonly tx: Tx };

export class CommitPipeline {
  /** queries share it; the instant of a commit (and anything else that changes state) takes it alone */
  readonly lock = new RWLock();
  /**
   * The right to commit, held by one at a time (taken alone): by each commit with the lock, and
   * by a mutation run exclusively (functions.ts) for its whole run, while queries go on.
   */
  readonly gate = new RWLock();
  private lastTs: bigint;
  private lastCreationTime: number;
  /** committed transactions the writer thread has not stored yet, oldest first */
  private inflight: BaseLayer[] = [];
  private listeners = new Set<(e: CommitEvent) => void>();
  /** begin timestamps of optimistic transactions still running (ts → how many) */
  private readonly activeBegins = new Map<bigint, number>();
  /** commits since the oldest running optimistic transaction began, oldest first */
  private readonly history: Array<{ ts: bigint; writes: WriteSetImpl }> = [];
  /** bumped by every exclusive section that is not a commit */
  private epoch = 0;
  private readonly store: Store;
  private readonly catalog: Catalog;
  readonly hooks: TxHooks;

  constructor(private readonly deps: CommitPipelineDeps) {
    this.store = deps.store;
    this.catalog = deps.catalog;
    this.lastTs = BigInt(this.store.getMeta("ts") ?? "0");
    this.lastCreationTime = Number(this.store.getMeta("creationTime") ?? "0");
    this.hooks = {
      catalog: this.catalog,
      store: this.store,
      nextCreationTime: () => {
        const now = realNow();
        this.lastCreationTime = now > this.lastCreationTime ? now : this.lastCreationTime + 0.001;
        return this.lastCreationTime;
      },
      baseLayers: () => this.inflight.slice(),
    };
    this.store.onFailure = (e) => this.deps.emitLog(`[storage] ${e.message}`);
    this.store.onApplied = (ticket) => {
      let n = 0;
      while (n < this.inflight.length && this.inflight[n].ticket <= ticket) n++;
      if (n > 0) this.inflight.splice(0, n);
    };
  }

  /**
   * Lets a large commit wait while the documents committed and not yet in the database would pass
   * MAX_UNSTORED_DOCUMENTS: committed batches are served from memory until applied, so an
   * import's pipelined batches would otherwise pile up there faster than the writer applies them.
   * The bound leaves the writer room to apply several of them together (storage-worker.ts).
   * Small commits never wait here (nor behind an apply: they are durable once journaled,
   * storage-journal.ts). The caller holds no lock; it validates (optimistic) after this, as always.
   */
  async admit(tx: Tx): Promise<void> {
    const docs = tx.metrics.documentsWritten;
    if (docs < LARGE_COMMIT_DOCUMENTS) return;
    // the unstored layers hold exactly the documents not yet in the database (onApplied drops them)
    while (this.inflight.length > 0 && this.inflight.reduce((n, l) => n + l.docs.size, docs) > MAX_UNSTORED_DOCUMENTS) {
      // a failed write is reported by the commit that follows (durable), not here
      await this.store.whenApplied(this.inflight[0].ticket).catch(() => undefined);
    }
  }

  /** latest committed timestamp */
  currentTs(): bigint {
    return this.lastTs;
  }

  /** A read-only transaction on the committed state. */
  readTx(): Tx {
    return new Tx(this.hooks, false);
  }

  /** A write transaction; the caller holds the write lock and commits it. */
  writeTx(): Tx {
    return new Tx(this.hooks, true);
  }

  /**
   * A transaction run without the lock (optimistic concurrency): it records what it reads;
   * `validate` tells at commit time whether a commit made since it began wrote any of that.
   * `endOptimistic` must follow (whatever the outcome), so the commit history can be trimmed.
   */
  beginOptimistic(writable = true): OptimisticTx {
    const begin = { ts: this.lastTs, epoch: this.epoch, tx: new Tx(this.hooks, writable, true) };
    this.addBegin(begin.ts);
    return begin;
  }

  /**
   * Moves the start of `o` to now, when it has not read or written anything yet (it waited for a
   * worker): what was committed meanwhile can no longer conflict with it.
   */
  rebase(o: OptimisticTx): void {
    if (!o.tx.untouched()) return;
    this.endOptimistic(o);
    o.ts = this.lastTs;
    o.epoch = this.epoch;
    o.tx.rebase();
    this.addBegin(o.ts);
  }

  private addBegin(ts: bigint): void {
    this.activeBegins.set(ts, (this.activeBegins.get(ts) ?? 0) + 1);
  }

  endOptimistic(o: OptimisticTx): void {
    const n = (this.activeBegins.get(o.ts) ?? 1) - 1;
    if (n > 0) this.activeBegins.set(o.ts, n);
    else this.activeBegins.delete(o.ts);
    this.trimHistory();
  }

  /**
   * Whether `o` may commit (caller holds the write lock): no commit since it began wrote a key it
   * read, a document it writes, or a range it scanned, and nothing exclusive (a schema or catalog
   * change) happened meanwhile. Its reads then saw what they would have seen at its start, so
   * committing it now is serializable.
   */
  validate(o: OptimisticTx): boolean {
    if (o.epoch !== this.epoch) return false;
    if (this.lastTs === o.ts) return true;
    const rs = o.tx.finishReads();
    // a document it writes counts as read: two blind writes of one document must not both win
    for (const p of o.tx.flatten().values()) {
      if (p.isNew) continue;
      const byId = this.catalog.dbIndex(p.table, "by_id");
      if (byId) {
        const k = encodeTuple([p.id]);
        rs.addRange(byId.id, k, keySuccessor(k));
      }
    }
    for (let i = this.history.length - 1; i >= 0 && this.history[i].ts > o.ts; i--) {
      if (intersects(rs, this.history[i].writes)) return false;
    }
    return true;
  }

  /**
   * Takes the write lock for something that changes state outside transactions (the catalog, the
   * schema): optimistic transactions that began before it can no longer commit.
   */
  async exclusive(): Promise<() => void> {
    const release = await this.writeSection();
    this.epoch++;
    return release;
  }

  /**
   * The right to commit and the write lock: nothing else commits and no query runs until the
   * release. Every commit takes it (gate first, then the lock: never the other way round).
   */
  async writeSection(): Promise<() => void> {
    const gate = await this.gate.write();
    const lock = await this.lock.write();
    return () => {
      lock();
      gate();
    };
  }

  private trimHistory() {
    if (this.activeBegins.size === 0) {
      this.history.length = 0;
      return;
    }
    let oldest: bigint | null = null;
    for (const ts of this.activeBegins.keys()) if (oldest === null || ts < oldest) oldest = ts;
    let n = 0;
    while (n < this.history.length && this.history[n].ts <= oldest!) n++;
    if (n > 0) this.history.splice(0, n);
  }

  /** Keeps creation times above one restored from a backup. */
  noteCreationTime(ct: number) {
    if (ct > this.lastCreationTime) this.lastCreationTime = ct;
  }

  onCommit(listener: (event: CommitEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async withReadLock<T>(fn: () => T | Promise<T>): Promise<T> {
    const release = await this.lock.read();
    try {
      return await fn();
    } finally {
      release();
    }
  }

  /** Runs `fn` in its own write transaction and commits it (storage, scheduler bookkeeping, imports). */
  async systemWrite<T>(fn: (tx: Tx) => T): Promise<T> {
    const release = await this.writeSection();
    let result: T;
    try {
      this.assertOpen();
      const tx = this.writeTx();
      result = fn(tx);
      this.commit(tx);
    } finally {
      release();
    }
    await this.durable();
    return result;
  }

  /**
   * Waits until every transaction committed so far is durable (in the commit journal; applied to
   * the database behind). Callers release the write lock first, so the next transaction runs while
   * this one is written; nobody is told about a result before the writes it rests on are durable.
   */
  durable(): Promise<void> {
    return this.store.whenDurable(this.store.postedTicket);
  }

  assertOpen() {
    if (this.deps.isStopped()) throw new Error("The backend is shutting down.");
  }

  private nextTs(): bigint {
    const now = BigInt(Math.floor(realNow())) * 1_000_000n;
    return now > this.lastTs ? now : this.lastTs + 1n;
  }

  /** Applies the transaction's writes atomically. Caller holds the write lock. */
  commit(tx: Tx): bigint {
    for (const hook of tx.beforeCommit) hook(tx);
    const pendings = tx.flatten();
    if (pendings.size === 0) {
      for (const f of tx.afterCommit) f();
      return this.lastTs;
    }
    const ts = this.nextTs();
    const writes: DocWrite[] = [];
    const writeSet = new WriteSetImpl((id) => {
      const def = this.catalog.byId.get(id);
      return def?.kind === "db" ? def : undefined;
    });
    const deltas = new Map<number, number>();
    const layer: BaseLayer = { ticket: 0, docs: new Map(), sorted: new Map() };
    for (const p of pendings.values()) {
      const w = this.buildWrite(tx, p, ts, writeSet);
      if (!w) continue;
      writes.push(w);
      // the layer keeps the document as text (pending.ts StoredPending)
      layer.docs.set(
        p.id,
        w.json !== null
          ? new StoredPending(p.id, p.table, p.tableNumber, w.json, w.keys)
          : { id: p.id, table: p.table, tableNumber: p.tableNumber, doc: null, isNew: false, hasPlaceholder: false },
      );
      const deleted = isDelete(p);
      if (p.isNew && !deleted) deltas.set(p.tableNumber, (deltas.get(p.tableNumber) ?? 0) + 1);
      else if (!p.isNew && deleted) deltas.set(p.tableNumber, (deltas.get(p.tableNumber) ?? 0) - 1);
    }
    if (writes.length === 0) {
      for (const f of tx.afterCommit) f();
      return this.lastTs;
    }
    layer.ticket = this.store.commit(
      writes,
      [
        ["ts", ts.toString()],
        ["creationTime", String(this.lastCreationTime)],
      ],
      deltas,
    );
    this.inflight.push(layer);
    for (const [tn, d] of deltas) this.catalog.counts.set(tn, (this.catalog.counts.get(tn) ?? 0) + d);
    this.lastTs = ts;
    if (this.activeBegins.size > 0) this.history.push({ ts, writes: writeSet });
    for (const f of tx.afterCommit) {
      try {
        f();
      } catch (e) {
        this.deps.emitLog(`[commit] post-commit step failed: ${(e as Error).message}`);
      }
    }
    const event: CommitEvent = { ts, writes: writeSet };
    runScopes.exit(() => {
      for (const l of this.listeners) {
        try {
          l(event);
        } catch (e) {
          this.deps.emitLog(`[commit] listener failed: ${(e as Error).message}`);
        }
      }
    });
    return ts;
  }

  /** The document as committed before `tx` (an unstored committed version first, else SQLite's). */
  private committedDoc(tx: Tx, id: string): { json: string; doc: Doc | null } | undefined {
    const base = tx.basePending(id);
    // a committed layer always carries the stored JSON of the documents it keeps
    if (base) {
      if (isDelete(base)) return undefined;
      return { json: base.json!, doc: base instanceof StoredPending ? base.parsedDoc : base.doc };
    }
    const row = this.store.getDoc(id);
    return row ? { json: row.json, doc: null } : undefined;
  }

  /**
   * What a pending write stores (null: nothing changes). Index keys and search entries are derived
   * by the writer thread (storage), and for subscriptions lazily by the write set.
   */
  private buildWrite(
    tx: Tx,
    p: Pending,
    ts: bigint,
    writeSet: WriteSetImpl,
  ): (DocWrite & { keys: Map<number, Buffer> | undefined }) | null {
    const old = p.isNew ? undefined : this.committedDoc(tx, p.id);
    const deleted = isDelete(p);
    if (!old && deleted) return null;
    // a stored one (an insert) is never parsed here: its JSON is what is stored, its keys are known
    let json: string | null = null;
    let newDoc: Doc | (() => Doc) | null = null;
    if (p instanceof StoredPending) {
      json = p.json;
      newDoc = () => p.doc;
    } else if (!deleted) {
      const doc = p.hasPlaceholder ? (resolveCommitTs(p.doc, ts) as Doc) : p.doc!;
      json = !p.hasPlaceholder && p.json !== undefined ? p.json : JSON.stringify(convexToJson(doc));
      newDoc = doc;
    }
    if (old && json === old.json) return null;
    // Nothing after the commit holds the new version's object: the write set and the layer keep its
    // JSON, and the keys of the indexes read lately (taken here, shared by both).
    const keys = newDoc
      ? keysAtCommit(this.catalog.byId, p.table, newDoc, p.hasPlaceholder ? undefined : p.keys)
      : undefined;
    writeSet.addDoc(p.tableNumber, {
      id: p.id,
      table: p.table,
      old: old?.doc ?? null,
      oldJson: old && !old.doc ? old.json : null,
      doc: null,
      json,
      keys,
    });
    return { id: p.id, tableNumber: p.tableNumber, json, isNew: !old, keys };
  }
}
