/**
 * The transaction of one function run: reads through SQLite, committed unstored layers and its
 * own buffered writes (nested layers for sub-transactions), inserts and writes, index streams,
 * and the read set of what it read.
 */
import type { JSONValue } from "convex/values";
import type { Catalog } from "./catalog.js";
import { keySuccessor } from "./index-range.js";
import { IndexStream } from "./index-stream.js";
import { decodeId, encodeId, newInternalId } from "./ids.js";
import { encodeTuple } from "./indexkey.js";
import { parseDoc, storedJson, type Doc } from "./json-shape.js";
import { isDelete, keysAtCommit, StoredPending, withIsNew, type BaseLayer, type Pending } from "./pending.js";
import { OwnTable } from "./own-writes.js";
import { ReadSetImpl } from "./readset.js";
import type { Store } from "./storage.js";
import type { DbIndexDef } from "./storage-types.js";
import { TxMetrics } from "./tx-metrics.js";
import { jsonValueSize, valueSize } from "./value-size.js";

/** What a transaction reads through and how it numbers new documents (the engine provides it). */
export type TxHooks = {
  catalog: Catalog;
  store: Store;
  nextCreationTime(): number;
  /** committed batches not yet known to be in SQLite, oldest first (a fresh array) */
  baseLayers(): BaseLayer[];
};

export class Tx {
  readonly layers: Array<Map<string, Pending>> = [new Map()];
  readonly readSet = new ReadSetImpl();
  private openStreams = new Set<IndexStream>();
  /** own writes per table, kept as they happen (rebuilt from the layers after a layer is popped) */
  private own: Map<string, OwnTable> | null = new Map();
  private version = 0;
  readonly afterCommit: Array<() => void> = [];
  readonly beforeCommit: Array<(tx: Tx) => void> = [];
  /** committed writes not yet in SQLite when this transaction began (see BaseLayer) */
  base: BaseLayer[];
  /** usage against Convex's limits; function runs give it limits and switch it on (see functions.ts) */
  metrics = new TxMetrics(undefined, false);

  /**
   * Whether reads are recorded in `readSet`: always for queries (subscriptions), and for a
   * mutation run optimistically (commit.ts validates them against the commits made meanwhile).
   */
  readonly tracksReads: boolean;

  constructor(
    readonly hooks: TxHooks,
    readonly writable: boolean,
    optimistic = false,
  ) {
    this.base = hooks.baseLayers();
    this.tracksReads = !writable || optimistic;
  }

  get catalog() {
    return this.hooks.catalog;
  }

  /** nothing read or written yet */
  untouched(): boolean {
    return (
      !this.hasWrites() &&
      this.openStreams.size === 0 &&
      this.readSet.ranges.size === 0 &&
      this.readSet.tables.size === 0
    );
  }

  /** An untouched transaction begins now (CommitPipeline.rebase). */
  rebase(): void {
    this.base = this.hooks.baseLayers();
  }

  pushLayer() {
    this.layers.push(new Map());
  }
  popLayer(commit: boolean) {
    const top = this.layers.pop()!;
    if (commit) {
      const below = this.layers[this.layers.length - 1];
      for (const [id, p] of top) {
        const prev = below.get(id);
        below.set(id, prev ? withIsNew(p, prev.isNew) : p);
      }
    }
    // Open streams keep the tables they were opened with; later ones read the layers as they are now.
    this.own = null;
    this.version++;
  }

  hasWrites(): boolean {
    return this.layers.some((l) => l.size > 0);
  }

  /** The latest unstored version of a document: this transaction's own writes, then committed ones. */
  pending(id: string): Pending | undefined {
    return this.ownPending(id) ?? this.basePending(id);
  }

  private ownPending(id: string): Pending | undefined {
    for (let i = this.layers.length - 1; i >= 0; i--) {
      const p = this.layers[i].get(id);
      if (p) return p;
    }
    return undefined;
  }

  /** The latest version among committed writes not yet in SQLite. */
  basePending(id: string): Pending | undefined {
    for (let i = this.base.length - 1; i >= 0; i--) {
      const p = this.base[i].docs.get(id);
      if (p) return p;
    }
    return undefined;
  }

  /** All pending writes, innermost layer winning. */
  flatten(): Map<string, Pending> {
    if (this.layers.length === 1) return this.layers[0];
    const out = new Map<string, Pending>();
    for (const layer of this.layers) {
      for (const [id, p] of layer) {
        const prev = out.get(id);
        out.set(id, prev ? withIsNew(p, prev.isNew) : p);
      }
    }
    return out;
  }

  private ownTable(table: string): OwnTable {
    if (!this.own) {
      this.own = new Map();
      for (const layer of this.layers) for (const p of layer.values()) this.ownTableOf(p.table).put(p, 0);
    }
    return this.ownTableOf(table);
  }

  private ownTableOf(table: string): OwnTable {
    let t = this.own!.get(table);
    if (!t) {
      t = new OwnTable();
      this.own!.set(table, t);
    }
    return t;
  }

  /** This transaction's own writes of `table` (innermost layer winning; `doc: null` for a delete). */
  ownWrites(table: string): ReadonlyMap<string, Pending> {
    return this.ownTable(table).latest;
  }

  private byIdIndex(table: string): DbIndexDef | undefined {
    return this.catalog.dbIndex(table, "by_id");
  }

  /** Reads a document by id through the transaction (records the read, counts it toward the limits). */
  get(id: string): { doc: Doc; json: string | null; table: string; seq: number | null } | null {
    const decoded = decodeId(id);
    if (!decoded) return null;
    const table = this.catalog.names.get(decoded.tableNumber);
    if (table === undefined) return null;
    const metrics = this.metrics.active ? this.metrics : null;
    const byId = !this.tracksReads && !metrics ? undefined : this.byIdIndex(table);
    if (byId) {
      const k = encodeTuple([id]);
      const hi = keySuccessor(k);
      if (this.tracksReads) this.readSet.addRange(byId.id, k, hi);
      metrics?.readId(byId.id, id, k, hi);
    }
    const p = this.pending(id);
    if (p) {
      if (isDelete(p)) return null;
      metrics?.readDocument(table, p.json ? jsonValueSize(p.json) : valueSize(p.doc));
      return { doc: p.doc!, json: p.json ?? null, table, seq: null };
    }
    const row = this.hooks.store.getDoc(id);
    if (!row) return null;
    metrics?.readDocument(table, jsonValueSize(row.json));
    return { doc: parseDoc(row.json), json: row.json, table, seq: row.seq };
  }

  private requireWritable() {
    if (!this.writable) throw new Error("Write operations are not allowed in queries.");
  }

  /** Buffers a write in the innermost layer (a backup import writes into the outermost one). */
  put(p: Pending, layer = this.layers.length - 1) {
    this.layers[layer].set(p.id, p);
    this.version++;
    if (this.own) {
      if (layer === this.layers.length - 1) this.ownTableOf(p.table).put(p, this.version);
      else this.own = null;
    }
  }

  /**
   * `encoded`, when given, is `convexToJson(value)` (what the insert syscall received); the
   * stored JSON is then built from it now instead of encoding the document again at commit.
   */
  insert(table: string, value: Doc, hasPlaceholder: boolean): string;
  /** the `db.vars.commitTs` placeholder check is done on the built JSON */
  insert(
    table: string,
    value: Doc,
    hasPlaceholder: undefined,
    encoded: Record<string, JSONValue>,
    encodedText?: string,
  ): string;
  insert(
    table: string,
    value: Doc,
    hasPlaceholder: boolean | undefined,
    encoded?: Record<string, JSONValue>,
    encodedText?: string,
  ): string {
    this.requireWritable();
    const tableNumber = this.catalog.ensureTable(table);
    const id = encodeId(tableNumber, newInternalId());
    const creationTime = this.hooks.nextCreationTime();
    // Object.assign, not `{ ...value, _id }`: V8 adds fields after a large spread very slowly.
    const doc: Doc = Object.assign({}, value);
    doc._id = id;
    doc._creationTime = creationTime;
    let json = encoded !== undefined ? storedJson(encoded, id, creationTime, encodedText) : undefined;
    if (hasPlaceholder === undefined)
      hasPlaceholder =
        json === undefined ? JSON.stringify(encoded).includes('"$commitTs"') : json.includes('"$commitTs"');
    if (hasPlaceholder) json = undefined;
    // held as its JSON (the object is garbage young), with the keys of the indexes read lately
    if (json !== undefined)
      this.put(
        new StoredPending(id, table, tableNumber, json, keysAtCommit(this.catalog.byId, table, doc, undefined), true),
      );
    else this.put({ id, table, tableNumber, doc, isNew: true, hasPlaceholder, json });
    return id;
  }

  /** Replaces the full document (system fields preserved). */
  write(id: string, table: string, doc: Doc | null, hasPlaceholder: boolean) {
    this.requireWritable();
    const tableNumber = this.catalog.tableNumber(table)!;
    const prev = this.ownPending(id);
    this.put({
      id,
      table,
      tableNumber,
      doc,
      isNew: prev ? prev.isNew : false,
      hasPlaceholder: hasPlaceholder || !!prev?.hasPlaceholder,
    });
  }

  openIndexStream(index: DbIndexDef, lo: Buffer, hi: Buffer, order: "asc" | "desc", firstBatch?: number): IndexStream {
    const own = this.ownTable(index.table).viewAt(this.version);
    const s = new IndexStream(this.hooks, index, lo, hi, order, own, this.base, this.metrics, firstBatch);
    // Read sets are kept only where they are used (queries, optimistic mutations): a mutation
    // keeping every stream it opened (thousands per import batch) only held garbage alive.
    if (this.tracksReads) this.openStreams.add(s);
    return s;
  }

  /** Folds the coverage of every stream opened so far into the read set (transactions that track reads). */
  finishReads(): ReadSetImpl {
    for (const s of this.openStreams) s.recordCoverage(this.readSet);
    this.openStreams.clear();
    return this.readSet;
  }
}
