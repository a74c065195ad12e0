/**
 * Read and write sets used for reactivity: a query's reads are key intervals per index (plus
 * whole tables for search and counts); a commit's writes are the old and new index keys of every
 * written document.
 */
import type { ReadSet, WriteSet } from "./engine-api.js";

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

export class WriteSetImpl implements WriteSet {
  readonly __writeSet = true as const;
  readonly keys = new Map<number, Buffer[]>();
  readonly tables = new Set<number>();
  private sorted = true;

  add(indexId: number, key: Buffer) {
    let list = this.keys.get(indexId);
    if (!list) this.keys.set(indexId, (list = []));
    list.push(key);
    this.sorted = false;
  }
  finish() {
    if (!this.sorted) {
      for (const list of this.keys.values()) list.sort(Buffer.compare);
      this.sorted = true;
    }
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
  w.finish();
  for (const t of r.tables) if (w.tables.has(t)) return true;
  for (const [indexId, ranges] of r.ranges) {
    const keys = w.keys.get(indexId);
    if (!keys || keys.length === 0) continue;
    for (const [lo, hi] of ranges) if (anyKeyIn(keys, lo, hi)) return true;
  }
  return false;
}
