/**
 * Index entries grouped by their first value. Most indexes begin with a field that few documents
 * differ on (an organisation's id leads nearly every index of a multi-tenant schema): its 35
 * encoded bytes were repeated in every entry. The first time an index stores a first value, that
 * value gets a part (the `parts` table: index, value, number); entries with that first value are
 * then stored under the part's number as the idx table's `i` (negative, so it never meets an
 * index id) and only the rest of their key as `k`. Entries whose first value has no part stay as
 * they were (`i` the index id, `k` the whole key): rows written before parts existed, and the
 * first values an index takes past PARTS_PER_INDEX (a first field with many values, such as a
 * document id, gains nothing from parts).
 *
 * A first value is stored one way only: a part is made only while the index holds no whole-key
 * entry with that value, and once made it is never removed (a dropped index's entries go, its
 * parts stay empty). So a read whose range has one first value reads one place, and any other
 * range merges the whole-key entries with the parts in its range, in key order.
 *
 * Every connection keeps the parts it has seen in memory (they never change); one it has not
 * seen is looked up in the database, in the reader's own snapshot.
 */
import type Database from "better-sqlite3";
import type { StoredRow } from "./storage-types.js";

/** A range of index keys to read: up to `limit` entries between `lo` and `hi`, in `order`. */
export type ScanRange = {
  lo: Buffer;
  hi: Buffer;
  order: "asc" | "desc";
  limit: number;
  loInclusive: boolean;
  hiInclusive: boolean;
};

/** An index takes parts for at most this many first values. */
export const PARTS_PER_INDEX = 1024;
/** first values a writer remembers as stored whole, at most (past it, it starts over) */
const MAX_WHOLE = 65_536;

const T_STRING = 0x60;
const T_ID_TAIL = 0x65;
const T_BYTES = 0x70;
const T_ARRAY = 0x80;
const T_OBJECT = 0x90;

/** End of the escaped bytes starting at `i` (after their 0x00 0x00 terminator); -1 if incomplete. */
function escapedEnd(key: Buffer, i: number): number {
  for (let j = i; j < key.length - 1; j++) {
    if (key[j] !== 0) continue;
    if (key[j + 1] === 0) return j + 2;
    if (key[j + 1] !== 0xff) return -1;
    j++;
  }
  return -1;
}

/**
 * End of the encoded value (indexkey.ts) that starts at `i`; -1 when `key` holds no complete
 * value there (a range bound can end inside one, or be the 0xff upper bound).
 */
export function valueEnd(key: Buffer, i = 0): number {
  if (i >= key.length) return -1;
  const tag = key[i];
  switch (tag & 0xf0) {
    case 0x10:
    case 0x20:
    case 0x50:
      return i + 1;
    case 0x30:
      return tag === 0x31 ? i + 1 : i + 9 <= key.length ? i + 9 : -1;
    case 0x40:
      return i + 9 <= key.length ? i + 9 : -1;
    case T_STRING:
      if (tag === T_ID_TAIL) return i + 17 <= key.length ? i + 17 : -1;
      return tag === T_STRING ? escapedEnd(key, i + 1) : -1;
    case T_BYTES:
      return tag === T_BYTES ? escapedEnd(key, i + 1) : -1;
    case T_ARRAY: {
      if (tag !== T_ARRAY) return -1;
      let j = i + 1;
      while (j < key.length && key[j] !== 0) {
        j = valueEnd(key, j);
        if (j < 0) return -1;
      }
      return j < key.length ? j + 1 : -1;
    }
    case T_OBJECT: {
      if (tag !== T_OBJECT) return -1;
      let j = i + 1;
      while (j < key.length && key[j] === 1) {
        j = escapedEnd(key, j + 1);
        if (j < 0) return -1;
        j = valueEnd(key, j);
        if (j < 0) return -1;
      }
      return j < key.length && key[j] === 0 ? j + 1 : -1;
    }
    default:
      return -1;
  }
}

/** Where an entry is stored: the idx row's `i` and `k`. */
export type Placement = { i: number; k: Buffer };

type Part = { p: number; v: Buffer };

export class IndexParts {
  /** per index: first value (latin1) → part number */
  private known = new Map<number, Map<string, number>>();
  /** indexes known to hold PARTS_PER_INDEX parts, all of them in `known`: a value not there has none */
  private full = new Set<number>();
  /**
   * per index: first values this writer found stored whole, which it keeps storing whole without
   * asking again. Right while the value has no part: only the writer thread makes parts, but for a
   * new index's backfill (storage.ts), which comes with a catalog change, and that resets this.
   */
  private whole = new Map<number, Set<string>>();
  private wholeCount = 0;
  /** parts made by the open write transaction (forgotten if it rolls back) */
  private made: Array<[number, string]> = [];
  private stmts: {
    lookup: Database.Statement;
    count: Database.Statement;
    insert: Database.Statement;
    probe: Database.Statement;
    range: Database.Statement;
    all: Database.Statement;
  };

  /** `db` holds the parts table (storage.ts creates it) */
  constructor(db: Database.Database) {
    this.stmts = {
      lookup: db.prepare("SELECT p FROM parts WHERE i = ? AND v = ?").pluck(),
      count: db.prepare("SELECT count(*) FROM parts WHERE i = ?").pluck(),
      insert: db.prepare("INSERT INTO parts(i, v) VALUES (?, ?)"),
      probe: db.prepare("SELECT 1 FROM idx WHERE i = ? AND k >= ? AND k < ? LIMIT 1").pluck(),
      range: db.prepare("SELECT p, v FROM parts WHERE i = ? AND v >= ? AND v <= ? ORDER BY v"),
      all: db.prepare("SELECT p, v FROM parts WHERE i = ?"),
    };
  }

  private remember(indexId: number, v: string, p: number) {
    let m = this.known.get(indexId);
    if (!m) this.known.set(indexId, (m = new Map()));
    m.set(v, p);
  }

  /** The part of first value `vs` (its encoding, latin1) in index `indexId` (null: none), in this connection's snapshot. */
  private partOf(indexId: number, vs: string): number | null {
    if (vs.charCodeAt(0) !== T_STRING) return null;
    const hit = this.known.get(indexId)?.get(vs);
    if (hit !== undefined) return hit;
    if (this.full.has(indexId)) return null;
    const p = this.stmts.lookup.get(indexId, Buffer.from(vs, "latin1")) as number | undefined;
    if (p === undefined) return null;
    this.remember(indexId, vs, p);
    return p;
  }

  /**
   * Where an entry of index `indexId` with key `key` is stored. With `make` (a writer, inside its
   * write transaction), a first value seen for the first time gets its part. Only strings get
   * parts: ids, names, kinds; a number leading an index (a time) is nearly always new.
   */
  place(indexId: number, key: Buffer, make = false): Placement {
    const end = valueEnd(key);
    if (end < 0 || end >= key.length) return { i: indexId, k: key };
    const p = this.partFor(indexId, key.toString("latin1", 0, end), make);
    return p === null ? { i: indexId, k: key } : { i: -p, k: key.subarray(end) };
  }

  /**
   * The part of an entry whose key begins with the encoded value `first` (latin1) and goes on
   * past it (null: stored whole), as `place`: its idx row is (-part, the rest of the key).
   */
  partFor(indexId: number, first: string, make = false): number | null {
    const p = this.partOf(indexId, first);
    if (p !== null || !make || this.whole.get(indexId)?.has(first)) return p;
    return this.make(indexId, first);
  }

  private make(indexId: number, vs: string): number | null {
    if (vs.charCodeAt(0) !== T_STRING || this.full.has(indexId)) return null;
    if ((this.stmts.count.get(indexId) as number) >= PARTS_PER_INDEX) {
      // no part is made from now on: with all of them known, a value not known has none
      for (const r of this.stmts.all.all(indexId) as Part[]) this.remember(indexId, r.v.toString("latin1"), r.p);
      this.full.add(indexId);
      return null;
    }
    const v = Buffer.from(vs, "latin1");
    // entries stored with their whole key keep that value stored so
    if (this.stmts.probe.get(indexId, v, Buffer.concat([v, Buffer.from([0xff])])) !== undefined) {
      if (this.wholeCount >= MAX_WHOLE) this.forgetWhole();
      let set = this.whole.get(indexId);
      if (!set) this.whole.set(indexId, (set = new Set()));
      set.add(vs);
      this.wholeCount++;
      return null;
    }
    const p = Number(this.stmts.insert.run(indexId, v).lastInsertRowid);
    this.remember(indexId, vs, p);
    this.made.push([indexId, vs]);
    return p;
  }

  /** The write transaction committed: its parts stay. */
  committed() {
    this.made = [];
  }

  /** The write transaction rolled back: its parts are gone. */
  rolledBack() {
    for (const [indexId, vs] of this.made) this.known.get(indexId)?.delete(vs);
    this.made = [];
    this.full.clear();
    this.forgetWhole();
  }

  /** Indexes were made or dropped (an index id can be used again): nothing known is kept. */
  reset() {
    this.known.clear();
    this.full.clear();
    this.forgetWhole();
  }

  private forgetWhole() {
    this.whole.clear();
    this.wholeCount = 0;
  }

  /**
   * Up to `r.limit` entries of index `indexId` in the range `r` (as Store.scan), read with
   * `read(i, range)` over idx rows of `i` (the index or one of its parts); keys come back whole.
   */
  scan(indexId: number, r: ScanRange, read: (i: number, r: ScanRange) => StoredRow[]): StoredRow[] {
    const { lo, hi } = r;
    const end = valueEnd(lo);
    if (end > 0 && valueEnd(hi) === end && lo.compare(hi, 0, end, 0, end) === 0) {
      // one first value: stored in its part or whole, never both
      const v = lo.subarray(0, end);
      const p = this.partOf(indexId, lo.toString("latin1", 0, end));
      if (p === null) return read(indexId, r);
      return withPrefix(v, read(-p, { ...r, lo: lo.subarray(end), hi: hi.subarray(end) }));
    }
    const parts = this.stmts.range.all(indexId, end > 0 ? lo.subarray(0, end) : lo, hi) as Part[];
    const whole = read(indexId, r);
    if (parts.length === 0) return whole;
    if (r.order === "desc") parts.reverse();
    const inParts: StoredRow[] = [];
    for (const { p, v } of parts) {
      const from = localBound(v, lo, r.loInclusive, "lo");
      const to = localBound(v, hi, r.hiInclusive, "hi");
      if (!from || !to) continue;
      const local = { ...r, lo: from.b, loInclusive: from.inclusive, hi: to.b, hiInclusive: to.inclusive };
      for (const row of withPrefix(v, read(-p, { ...local, limit: r.limit - inParts.length }))) inParts.push(row);
      if (inParts.length >= r.limit) break;
    }
    return merge(whole, inParts, r.order, r.limit);
  }
}

/** Rows of a part, their keys made whole again. */
function withPrefix(v: Buffer, rows: StoredRow[]): StoredRow[] {
  for (const r of rows) r.key = Buffer.concat([v, r.key]);
  return rows;
}

/** A part's keys ≥ 0x00 and < 0xff: bounds that take all of it */
const ALL_FROM = Buffer.alloc(0);
const ALL_TO = Buffer.from([0xff]);

/**
 * The bound `b` of a range as it applies inside the part of first value `v` (whose keys are v‖k
 * with k non-empty and never starting with 0xff): null when the part lies outside the range.
 */
function localBound(
  v: Buffer,
  b: Buffer,
  inclusive: boolean,
  side: "lo" | "hi",
): { b: Buffer; inclusive: boolean } | null {
  if (b.length >= v.length && b.compare(v, 0, v.length, 0, v.length) === 0) {
    return { b: b.subarray(v.length), inclusive };
  }
  const c = Buffer.compare(v, b);
  if (side === "lo") return c > 0 ? { b: ALL_FROM, inclusive: true } : null;
  return c < 0 ? { b: ALL_TO, inclusive: false } : null;
}

function merge(a: StoredRow[], b: StoredRow[], order: "asc" | "desc", limit: number): StoredRow[] {
  const out: StoredRow[] = [];
  let i = 0;
  let j = 0;
  const sign = order === "asc" ? 1 : -1;
  while (out.length < limit && (i < a.length || j < b.length)) {
    if (j >= b.length || (i < a.length && sign * Buffer.compare(a[i].key, b[j].key) < 0)) out.push(a[i++]);
    else out.push(b[j++]);
  }
  return out;
}
