/**
 * Index range streams: an index range read from SQLite in growing batches, merged by key with
 * committed writes not yet stored and with the transaction's own writes. `by_id` ranges are read
 * from the documents table's id column.
 */
import { isDocumentsIndex, type Catalog } from "./catalog.js";
import { keySuccessor } from "./index-range.js";
import { encodeTuple, encodeValue } from "./indexkey.js";
import { layerRows, lowerBound, type BaseLayer, type Row } from "./pending.js";
import type { OwnView } from "./own-writes.js";
import type { ReadSetImpl } from "./readset.js";
import type { Store } from "./storage.js";
import type { DbIndexDef } from "./storage-types.js";
import type { GrowingRange, TxMetrics } from "./tx-metrics.js";

/** What a stream reads from: the store and the catalog (for the table number of `by_id` scans). */
export type StreamSource = { readonly store: Store; readonly catalog: Catalog };

/**
 * Sorted rows of one overlay source (the transaction's own, `layer` -1, or an unstored layer's)
 * within the stream's range [start, end), walked from `pos` in the stream's order.
 */
type OverlaySource = { rows: Row[]; keys: string[]; start: number; end: number; pos: number; layer: number };

/** Rows read from SQLite first, unless the query says it needs fewer (`.first()`, `.take(3)`). */
const DEFAULT_FIRST_BATCH = 8;

/**
 * The first batch for a query that reads at most `limit` rows before anything else filters them:
 * that many rounded up to a power of two (the SQL keeps such limits as literals, storage.ts scan),
 * at most the default.
 */
export function firstBatchFor(limit: number | null): number {
  if (limit === null || limit >= DEFAULT_FIRST_BATCH) return DEFAULT_FIRST_BATCH;
  let batch = 1;
  while (batch < limit) batch *= 2;
  return batch;
}

/**
 * Merges an index range from SQLite with committed unstored writes and the transaction's own writes.
 * The range it covered so far counts toward the transaction's index ranges (`metrics`).
 */
export class IndexStream implements GrowingRange {
  private buffer: Row[] = [];
  private bufPos = 0;
  private sqlDone = false;
  private sqlCursor: Buffer | null = null;
  private batch: number;
  /** the transaction's own rows and each unstored layer's, merged by key as the stream is read */
  private sources: OverlaySource[] = [];
  /** the source holding the next overlay row (null: none left; undefined: not found yet) */
  private head: OverlaySource | null | undefined = undefined;
  private own: OwnView;
  lastKey: Buffer | null = null;
  exhausted = false;
  rowsRead = 0;

  constructor(
    private source: StreamSource,
    readonly index: DbIndexDef,
    readonly lo: Buffer,
    readonly hi: Buffer,
    readonly order: "asc" | "desc",
    own: OwnView,
    private base: BaseLayer[],
    private readonly metrics: TxMetrics | null = null,
    firstBatch = DEFAULT_FIRST_BATCH,
  ) {
    this.batch = firstBatch;
    this.own = own;
    // Layers the database snapshot already holds (the writer stored them since the transaction
    // began) are read from it: as overlays their rows would shadow the same rows read from SQLite,
    // and a range would read on past all of them to find one that is not. Undo layers (ticket -1,
    // reads at an older timestamp) always stay.
    if (base.length > 0 && base[0].ticket >= 0) {
      const stored = source.store.storedThrough();
      if (base[0].ticket <= stored) this.base = base = base.filter((l) => l.ticket < 0 || l.ticket > stored);
    }
    const asc = order === "asc";
    const ownRows: Row[] = own.rowsIn(index, lo, hi);
    if (ownRows.length > 0)
      this.sources.push({
        rows: ownRows,
        keys: ownRows.map((r) => r.key.toString("latin1")),
        start: 0,
        end: ownRows.length,
        pos: asc ? 0 : ownRows.length - 1,
        layer: -1,
      });
    // Committed unstored versions (each layer's rows sorted by key), unless a newer layer or the
    // transaction itself rewrote them: merged as the stream is read, so a range that runs far past
    // what a query takes (`.take(n)` from a key on) costs only the rows it takes.
    if (base.length > 0) {
      const loS = lo.toString("latin1");
      const hiS = hi.toString("latin1");
      for (let li = 0; li < base.length; li++) {
        const { rows, keys } = layerRows(base[li], index);
        const start = lowerBound(keys, loS);
        const end = lowerBound(keys, hiS);
        if (start < end) this.sources.push({ rows, keys, start, end, pos: asc ? start : end - 1, layer: li });
      }
    }
  }

  /** Moves `s` to its next row no newer version replaces; false when it has none left. */
  private settle(s: OverlaySource): boolean {
    const step = this.order === "asc" ? 1 : -1;
    while (s.pos >= s.start && s.pos < s.end) {
      if (s.layer < 0) return true;
      if (!this.shadowed(s.rows[s.pos].id, s.layer + 1)) return true;
      s.pos += step;
    }
    return false;
  }

  /** The next overlay row in the stream's order (not taken), null when none is left. */
  private peekOverlay(): Row | null {
    if (this.head === undefined) {
      const asc = this.order === "asc";
      let best: OverlaySource | null = null;
      for (const s of this.sources) {
        if (!this.settle(s)) continue;
        if (!best || (asc ? s.keys[s.pos] < best.keys[best.pos] : s.keys[s.pos] > best.keys[best.pos])) best = s;
      }
      this.head = best;
    }
    return this.head ? this.head.rows[this.head.pos] : null;
  }

  private takeOverlay(): Row {
    const s = this.head!;
    const row = s.rows[s.pos];
    s.pos += this.order === "asc" ? 1 : -1;
    this.head = undefined;
    return row;
  }

  /** A row that the transaction's own version, or one in an unstored layer from `fromLayer` on, replaces. */
  private shadowed(id: string, fromLayer = 0): boolean {
    if (this.own.replaces(id)) return true;
    for (let li = fromLayer; li < this.base.length; li++) if (this.base[li].docs.has(id)) return true;
    return false;
  }

  private fill() {
    while (this.bufPos >= this.buffer.length && !this.sqlDone) {
      const store = this.source.store;
      let rows: Array<{ key: Buffer; id: string; json: string }>;
      if (isDocumentsIndex(this.index)) {
        const tn = this.source.catalog.tableNumber(this.index.table);
        if (tn === undefined) rows = [];
        else if (this.order === "asc") {
          rows = this.sqlCursor
            ? scanById(store, tn, this.sqlCursor, this.hi, "asc", this.batch, false, false)
            : scanById(store, tn, this.lo, this.hi, "asc", this.batch, true, false);
        } else {
          rows = this.sqlCursor
            ? scanById(store, tn, this.lo, this.sqlCursor, "desc", this.batch, true, false)
            : scanById(store, tn, this.lo, this.hi, "desc", this.batch, true, false);
        }
      } else if (this.order === "asc") {
        rows = this.sqlCursor
          ? store.scan(this.index.id, this.sqlCursor, this.hi, "asc", this.batch, false, false)
          : store.scan(this.index.id, this.lo, this.hi, "asc", this.batch, true, false);
      } else {
        rows = this.sqlCursor
          ? store.scan(this.index.id, this.lo, this.sqlCursor, "desc", this.batch, true, false)
          : store.scan(this.index.id, this.lo, this.hi, "desc", this.batch, true, false);
      }
      if (rows.length < this.batch) this.sqlDone = true;
      this.batch = Math.min(this.batch * 4, 2048);
      if (rows.length > 0) this.sqlCursor = rows[rows.length - 1].key;
      this.buffer = [];
      this.bufPos = 0;
      for (const r of rows) {
        if (this.shadowed(r.id)) continue;
        this.buffer.push({ key: r.key, id: r.id, json: r.json, doc: null });
      }
    }
  }

  next(): Row | null {
    if (this.exhausted) return null;
    this.fill();
    const a = this.bufPos < this.buffer.length ? this.buffer[this.bufPos] : null;
    const b = this.peekOverlay();
    let row: Row | null;
    if (a && b) {
      const c = Buffer.compare(a.key, b.key);
      const takeA = this.order === "asc" ? c < 0 : c > 0;
      row = takeA ? this.buffer[this.bufPos++] : this.takeOverlay();
    } else if (a) row = this.buffer[this.bufPos++];
    else if (b) row = this.takeOverlay();
    else row = null;
    if (!row) {
      this.exhausted = true;
      this.countRange();
      return null;
    }
    this.lastKey = row.key;
    this.rowsRead++;
    this.countRange();
    return row;
  }

  private counted = false;

  /** Convex records the range read so far with every row a query stream returns, and once exhausted. */
  private countRange() {
    const m = this.metrics;
    if (!m?.active) return;
    if (this.counted) {
      m.rangeGrew(this);
      return;
    }
    this.counted = true;
    const [, lo, hi] = this.coveredRange();
    m.readRange(this.index.id, lo, hi);
  }

  coveredRange(): [number, Buffer, Buffer] {
    if (this.exhausted || !this.lastKey) return [this.index.id, this.lo, this.hi];
    return this.order === "asc"
      ? [this.index.id, this.lo, keySuccessor(this.lastKey)]
      : [this.index.id, this.lastKey, this.hi];
  }

  recordCoverage(rs: ReadSetImpl) {
    if (this.exhausted) rs.addRange(this.index.id, this.lo, this.hi);
    else if (this.lastKey) {
      if (this.order === "asc") rs.addRange(this.index.id, this.lo, keySuccessor(this.lastKey));
      else rs.addRange(this.index.id, this.lastKey, this.hi);
    }
  }
}

const STRING_TAG = encodeValue("")[0];
const EMPTY_RANGE = Symbol("empty");

/** Bytes of a by_id key bound after the string tag, up to the first NUL or non-ASCII byte. */
function idBoundText(bound: Buffer): string {
  let end = 1;
  while (end < bound.length && bound[end] !== 0 && bound[end] < 0x80) end++;
  return bound.toString("latin1", 1, end);
}
/** A string `s` with: key(id) ≥ bound ⇒ id ≥ s (null: no bound). */
function idLowerBound(bound: Buffer): string | null | typeof EMPTY_RANGE {
  if (bound.length === 0 || bound[0] < STRING_TAG) return null;
  if (bound[0] > STRING_TAG) return EMPTY_RANGE;
  return idBoundText(bound);
}
/** A string `s` with: key(id) < bound ⇒ id ≤ s (null: no bound); ids are ASCII. */
function idUpperBound(bound: Buffer): string | null | typeof EMPTY_RANGE {
  if (bound.length === 0 || bound[0] < STRING_TAG) return EMPTY_RANGE;
  if (bound[0] > STRING_TAG) return null;
  return `${idBoundText(bound)}\uffff`;
}

/**
 * The by_id index range [lo, hi) (bounds' inclusiveness as given), read from the documents
 * table: SQL narrows by id conservatively, exact key bounds are applied here.
 */
function scanById(
  store: Store,
  tableNumber: number,
  lo: Buffer,
  hi: Buffer,
  order: "asc" | "desc",
  limit: number,
  loInclusive: boolean,
  hiInclusive: boolean,
): Array<{ key: Buffer; id: string; json: string }> {
  const lb = idLowerBound(lo);
  const ub = idUpperBound(hi);
  const out: Array<{ key: Buffer; id: string; json: string }> = [];
  if (lb === EMPTY_RANGE || ub === EMPTY_RANGE) return out;
  let sqlLo = lb;
  let sqlLoInclusive = true;
  let sqlHi = ub;
  let sqlHiInclusive = true;
  while (out.length < limit) {
    const want = limit - out.length;
    const rows = store.scanDocsById(tableNumber, sqlLo, sqlLoInclusive, sqlHi, sqlHiInclusive, order, want);
    for (const r of rows) {
      const key = encodeTuple([r.id]);
      const cLo = Buffer.compare(key, lo);
      const cHi = Buffer.compare(key, hi);
      const aboveLo = loInclusive ? cLo >= 0 : cLo > 0;
      const belowHi = hiInclusive ? cHi <= 0 : cHi < 0;
      if (aboveLo && belowHi) out.push({ key, id: r.id, json: r.json });
      else if (order === "asc" ? !belowHi : !aboveLo) return out;
    }
    if (rows.length < want) break;
    const last = rows[rows.length - 1].id;
    if (order === "asc") {
      sqlLo = last;
      sqlLoInclusive = false;
    } else {
      sqlHi = last;
      sqlHiInclusive = false;
    }
  }
  return out;
}
