/**
 * Unstored writes: a transaction's pending documents and the layers of committed transactions the
 * writer thread has not stored yet, as rows of an index (sorted by key on first use).
 */
import { convexToJson } from "convex/values";
import { indexKey } from "./indexkey.js";
import { parseDoc, type Doc } from "./json-shape.js";
import type { DbIndexDef } from "./storage-types.js";

export type Pending = {
  id: string;
  table: string;
  tableNumber: number;
  doc: Doc | null;
  /** true when the document did not exist before this transaction */
  isNew: boolean;
  hasPlaceholder: boolean;
  keys?: Map<number, Buffer>;
  /** `doc` as stored (convexToJson-encoded JSON), when already known; never set with placeholders */
  json?: string;
};

export type Row = { key: Buffer; id: string; json: string | null; doc: Doc | null };

/**
 * A document held as its stored JSON until a read needs the object (`doc`, parsed once): a
 * transaction's insert and a committed layer's document. An import batch's transaction lives
 * longer than the young generation's turn and a layer waits seconds for the writer, so whatever
 * they hold is copied by scavenges and promoted: in an import, the documents' objects were most
 * of it. The keys of the indexes read lately are taken while the object is at hand (`keys`), so
 * sorting a layer for a range read parses nothing.
 */
export class StoredPending implements Pending {
  readonly hasPlaceholder = false;
  private parsed: Doc | undefined;

  constructor(
    readonly id: string,
    readonly table: string,
    readonly tableNumber: number,
    readonly json: string,
    public keys: Map<number, Buffer> | undefined,
    readonly isNew = false,
  ) {}

  get doc(): Doc {
    return (this.parsed ??= parseDoc(this.json));
  }

  /** the object if a read already parsed it */
  get parsedDoc(): Doc | null {
    return this.parsed ?? null;
  }
}

/** `p` with another `isNew` (a nested transaction's write merged into its parent's). */
export function withIsNew(p: Pending, isNew: boolean): Pending {
  if (p instanceof StoredPending) return new StoredPending(p.id, p.table, p.tableNumber, p.json, p.keys, isNew);
  return { ...p, isNew };
}

/** `p` as an index row under `key` (a stored document stays unparsed until the row is read). */
export function pendingRow(p: Pending, key: Buffer): Row {
  if (p instanceof StoredPending) return { key, id: p.id, json: p.json, doc: p.parsedDoc };
  return { key, id: p.id, json: p.json ?? null, doc: p.doc };
}

/** Whether `p` deletes its document (without parsing a stored one). */
export function isDelete(p: Pending): boolean {
  return !(p instanceof StoredPending) && p.doc === null;
}

/**
 * The indexes read lately through committed layers or a commit's write set (subscriptions,
 * conflict checks): their keys are taken at commit (`keysAtCommit`), while the document's object
 * is still at hand. One list per thread, so each use checks that the definition is its engine's
 * (several engines share a test's process, and an index id means something else in each).
 */
const layerReadIndexes = new Map<number, DbIndexDef>();

export function noteIndexRead(index: DbIndexDef) {
  if (layerReadIndexes.get(index.id) === index) return;
  layerReadIndexes.delete(index.id);
  if (layerReadIndexes.size >= MAX_LAYER_READ_INDEXES) layerReadIndexes.delete(layerReadIndexes.keys().next().value!);
  layerReadIndexes.set(index.id, index);
}

/**
 * A document's keys in the indexes of `indexes` (its engine's catalog) read lately (`keys`: those
 * known already; `doc` is asked for only if one is missing).
 */
export function keysAtCommit(
  indexes: ReadonlyMap<number, unknown>,
  table: string,
  doc: Doc | (() => Doc),
  keys: Map<number, Buffer> | undefined,
): Map<number, Buffer> | undefined {
  for (const index of layerReadIndexes.values()) {
    if (index.table !== table || keys?.has(index.id) || indexes.get(index.id) !== index) continue;
    if (typeof doc === "function") doc = doc();
    (keys ??= new Map()).set(index.id, indexKey(doc, index.fields));
  }
  return keys;
}

/**
 * The writes of one committed transaction that the writer thread may not have stored yet
 * (latest version of each written document; `doc: null` for a delete). Every transaction reads
 * through these, oldest first, between SQLite and its own writes.
 */
export type BaseLayer = {
  ticket: number;
  docs: Map<string, Pending>;
  /** per index id: the layer's documents of that index's table as rows, ascending by key (built on first use) */
  sorted: Map<number, SortedRows>;
  /** the layer's documents by table (built on first use, once the layer is complete) */
  byTable?: Map<string, Pending[]>;
  /**
   * An undo layer (a read at an older timestamp, snapshots.ts): per table number, documents that
   * existed then minus documents that exist now (`count()` adds it to the current counts).
   */
  countDelta?: Map<number, number>;
};

/** how many indexes `keysAtCommit` keeps taking keys for (the latest read through layers) */
const MAX_LAYER_READ_INDEXES = 16;

/** A pending document's key in `index` (cached on the pending entry). */
export function pendingKey(p: Pending, index: DbIndexDef): Buffer {
  if (!p.keys) p.keys = new Map();
  let k = p.keys.get(index.id);
  if (!k) {
    // a stored document is parsed for its key alone (it stays text in its layer)
    k = indexKey(p instanceof StoredPending ? (p.parsedDoc ?? parseDoc(p.json)) : p.doc!, index.fields);
    p.keys.set(index.id, k);
  }
  return k;
}

export type SortedRows = { rows: Row[]; keys: string[] };

/**
 * The layer's rows of an index, ascending by key, with each key as a latin1 string: the same order
 * as the bytes, compared without a native call per comparison (a layer holds thousands of rows).
 */
export function layerRows(layer: BaseLayer, index: DbIndexDef): SortedRows {
  let sorted = layer.sorted.get(index.id);
  if (!sorted) {
    noteIndexRead(index);
    // A batch's reads touch several small tables (the caller's membership, counters): each of
    // their indexes is built from that table's few documents, not from a pass over the whole layer.
    if (!layer.byTable) {
      layer.byTable = new Map();
      for (const p of layer.docs.values()) {
        const list = layer.byTable.get(p.table);
        if (list) list.push(p);
        else layer.byTable.set(p.table, [p]);
      }
    }
    const keyed: Array<{ s: string; row: Row }> = [];
    for (const p of layer.byTable.get(index.table) ?? []) {
      if (isDelete(p)) continue;
      const key = pendingKey(p, index);
      keyed.push({ s: key.toString("latin1"), row: pendingRow(p, key) });
    }
    keyed.sort((a, b) => (a.s < b.s ? -1 : a.s > b.s ? 1 : 0));
    sorted = { rows: keyed.map((k) => k.row), keys: keyed.map((k) => k.s) };
    layer.sorted.set(index.id, sorted);
  }
  return sorted;
}

/** First position in `keys` (ascending) whose key is ≥ `key`. */
export function lowerBound(keys: string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function rowDoc(row: Row): Doc {
  if (!row.doc) row.doc = parseDoc(row.json!);
  return row.doc;
}
export function rowJson(row: Row): string {
  if (row.json === null) row.json = JSON.stringify(convexToJson(row.doc));
  return row.json;
}
