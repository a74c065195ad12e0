/**
 * Read and write sets used for reactivity: a query's reads are key intervals per index (plus
 * whole tables for search and counts); a commit's writes are the old and new index keys of every
 * written document (derived lazily, per index).
 */
import { jsonToConvex, type JSONValue, type Value } from "convex/values";
import type { ReadSet, WriteSet } from "./engine-api.js";
import { indexKey } from "./indexkey.js";
import { noteIndexRead } from "./pending.js";
import type { DbIndexDef } from "./storage-types.js";

export class ReadSetImpl implements ReadSet {
  readonly __readSet = true as const;
  /** indexId → [lo, hi) intervals */
  readonly ranges = new Map<number, Array<[Buffer, Buffer]>>();
  readonly tables = new Set<number>();

  addRange(indexId: number, lo: Buffer, hi: Buffer) {
    if (Buffer.compare(lo, hi) >= 0) return;
    let list = this.ranges.get(indexId);
    if (!list) this.ranges.set(indexId, (list = []));
    list.push([lo, hi]);
  }
  addTable(tableNumber: number) {
    this.tables.add(tableNumber);
  }
  merge(other: ReadSetImpl) {
    for (const [i, list] of other.ranges) for (const [lo, hi] of list) this.addRange(i, lo, hi);
    for (const t of other.tables) this.tables.add(t);
  }
}

/** A document a commit wrote: its previous and new versions (null: absent). */
export type WrittenDoc = {
  id: string;
  table: string;
  old: Record<string, Value> | null;
  /** stored JSON of `old` when the document was not parsed yet */
  oldJson: string | null;
  /** the new version, once parsed (`newVersion`) */
  doc: Record<string, Value> | null;
  /** the new version's stored JSON (null: deleted); parsed only for an index whose keys were not taken at commit */
  json: string | null;
  /** index keys of the new version already computed (by index id) */
  keys?: Map<number, Buffer>;
};

/** The new version of a written document (null: deleted). */
function newVersion(w: WrittenDoc): Record<string, Value> | null {
  if (!w.doc && w.json !== null) w.doc = jsonToConvex(JSON.parse(w.json) as JSONValue) as Record<string, Value>;
  return w.doc;
}

/**
 * The old and new index keys of every written document, derived per index on first use: only
 * indexes some subscription reads are ever encoded.
 */
export class WriteSetImpl implements WriteSet {
  readonly __writeSet = true as const;
  readonly tables = new Set<number>();
  private readonly docs: WrittenDoc[] = [];
  private readonly tableNumbers: number[] = [];
  private readonly keys = new Map<number, Buffer[]>();

  constructor(private readonly indexById: (indexId: number) => DbIndexDef | undefined) {}

  addDoc(tableNumber: number, w: WrittenDoc) {
    this.tables.add(tableNumber);
    this.docs.push(w);
    this.tableNumbers.push(tableNumber);
  }

  /** Every written document with its table number (snapshot history, see snapshots.ts). */
  written(): Array<{ tableNumber: number; doc: WrittenDoc }> {
    return this.docs.map((doc, i) => ({ tableNumber: this.tableNumbers[i], doc }));
  }

  /** Sorted keys the commit wrote in an index (old and new versions). */
  keysFor(indexId: number): Buffer[] {
    let list = this.keys.get(indexId);
    if (list) return list;
    list = [];
    const def = this.indexById(indexId);
    if (def) {
      // later commits take this index's keys while they still hold the documents' objects
      noteIndexRead(def);
      for (const w of this.docs) {
        if (w.table !== def.table) continue;
        if (!w.old && w.oldJson !== null)
          w.old = jsonToConvex(JSON.parse(w.oldJson) as JSONValue) as Record<string, Value>;
        if (w.old) list.push(indexKey(w.old, def.fields));
        if (w.json === null && !w.doc) continue;
        list.push(w.keys?.get(indexId) ?? indexKey(newVersion(w)!, def.fields));
      }
      list.sort(Buffer.compare);
    }
    this.keys.set(indexId, list);
    return list;
  }
}

function anyKeyIn(sorted: Buffer[], lo: Buffer, hi: Buffer): boolean {
  let a = 0;
  let b = sorted.length;
  while (a < b) {
    const m = (a + b) >> 1;
    if (Buffer.compare(sorted[m], lo) < 0) a = m + 1;
    else b = m;
  }
  return a < sorted.length && Buffer.compare(sorted[a], hi) < 0;
}

export function intersects(readSet: ReadSet, writes: WriteSet): boolean {
  const r = readSet as ReadSetImpl;
  const w = writes as WriteSetImpl;
  for (const t of r.tables) if (w.tables.has(t)) return true;
  for (const [indexId, ranges] of r.ranges) {
    const keys = w.keysFor(indexId);
    if (keys.length === 0) continue;
    for (const [lo, hi] of ranges) if (anyKeyIn(keys, lo, hi)) return true;
  }
  return false;
}
