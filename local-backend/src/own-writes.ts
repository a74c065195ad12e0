/**
 * A transaction's own writes of one table, kept up to date write by write. A mutation that reads
 * after each of its writes (a fan-out step checking, then inserting, a thousand rows) would
 * otherwise collect and sort all its earlier writes again for every read.
 *
 * Streams see the own writes as of when they were opened: the rows in their range are copied
 * then, and a stored row counts as replaced only when its own version was first written at or
 * before that moment (`seq`, the transaction's write counter).
 */
import { isDelete, lowerBound, pendingKey, pendingRow, type Pending, type Row } from "./pending.js";
import type { DbIndexDef } from "./storage-types.js";

/** The own writes one stream reads through, as of its opening. */
export type OwnView = {
  /** own versions (not deletes) with a key in [lo, hi), ascending by key */
  rowsIn(index: DbIndexDef, lo: Buffer, hi: Buffer): Row[];
  /** whether the stored or unstored committed version of `id` is replaced by an own write */
  replaces(id: string): boolean;
};

const NO_OWN_WRITES: OwnView = { rowsIn: () => [], replaces: () => false };

/** An index's own rows, ascending by key (latin1 strings order like the bytes). */
class OwnIndex {
  keys: string[] = [];
  rows: Row[] = [];
  keyOf = new Map<string, string>();
  dirty = new Set<string>();

  constructor(
    private readonly index: DbIndexDef,
    latest: Map<string, Pending>,
  ) {
    for (const id of latest.keys()) this.dirty.add(id);
  }

  /** Applies the writes since the last read: one by one when few, else by sorting again. */
  catchUp(latest: Map<string, Pending>) {
    if (this.dirty.size === 0) return;
    if (this.dirty.size * 8 > this.rows.length) this.rebuild(latest);
    else for (const id of this.dirty) this.update(id, latest.get(id)!);
    this.dirty.clear();
  }

  private rebuild(latest: Map<string, Pending>) {
    const keyed: Array<{ s: string; row: Row }> = [];
    this.keyOf.clear();
    for (const p of latest.values()) {
      if (isDelete(p)) continue;
      const key = pendingKey(p, this.index);
      const s = key.toString("latin1");
      this.keyOf.set(p.id, s);
      keyed.push({ s, row: pendingRow(p, key) });
    }
    keyed.sort((a, b) => (a.s < b.s ? -1 : a.s > b.s ? 1 : 0));
    this.keys = keyed.map((k) => k.s);
    this.rows = keyed.map((k) => k.row);
  }

  private update(id: string, p: Pending) {
    const old = this.keyOf.get(id);
    if (old !== undefined) {
      const at = lowerBound(this.keys, old);
      this.keys.splice(at, 1);
      this.rows.splice(at, 1);
      this.keyOf.delete(id);
    }
    if (isDelete(p)) return;
    const key = pendingKey(p, this.index);
    const s = key.toString("latin1");
    const at = lowerBound(this.keys, s);
    this.keys.splice(at, 0, s);
    this.rows.splice(at, 0, pendingRow(p, key));
    this.keyOf.set(id, s);
  }

  range(lo: Buffer, hi: Buffer): Row[] {
    const from = lowerBound(this.keys, lo.toString("latin1"));
    const to = lowerBound(this.keys, hi.toString("latin1"));
    return this.rows.slice(from, Math.max(from, to));
  }
}

export class OwnTable {
  /** the latest own version of each document (`doc: null` for a delete) */
  readonly latest = new Map<string, Pending>();
  /** the write counter when each document first got an own version */
  private readonly firstSeq = new Map<string, number>();
  private readonly indexes = new Map<number, OwnIndex>();

  put(p: Pending, seq: number) {
    if (!this.firstSeq.has(p.id)) this.firstSeq.set(p.id, seq);
    this.latest.set(p.id, p);
    for (const ix of this.indexes.values()) ix.dirty.add(p.id);
  }

  /** The view of a stream opened now (`seq`: the transaction's current write counter). */
  viewAt(seq: number): OwnView {
    // nothing written yet: later writes are newer than the stream, which never sees them
    if (this.latest.size === 0) return NO_OWN_WRITES;
    return {
      rowsIn: (index, lo, hi) => {
        let ix = this.indexes.get(index.id);
        if (!ix) {
          ix = new OwnIndex(index, this.latest);
          this.indexes.set(index.id, ix);
        }
        ix.catchUp(this.latest);
        return ix.range(lo, hi);
      },
      replaces: (id) => {
        const first = this.firstSeq.get(id);
        return first !== undefined && first <= seq;
      },
    };
  }
}
