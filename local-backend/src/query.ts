/**
 * Query execution for one function run: plans (full scan, index range, search), operator
 * pipelines (filter/limit), streaming (`queryStream*`) and pagination (`queryPage`).
 */
import { createHash } from "node:crypto";
import type { JSONValue } from "convex/values";
import { evalExpr } from "./filter.js";
import { firstBatchFor, type IndexStream } from "./index-stream.js";
import { encodeRange, keySuccessor, type RangeExpr } from "./index-range.js";
import { filterToken, searchEntry } from "./indexkey.js";
import { decodeQueryValue } from "./json-shape.js";
import { isDelete, pendingRow, rowDoc, rowJson, type Row } from "./pending.js";
import type { DbIndexDef } from "./storage-types.js";
import type { Tx } from "./transaction.js";
import type { TxMetrics } from "./tx-metrics.js";
import { messages } from "./limits.js";
import { jsonValueSize, valueSize } from "./value-size.js";

export type SerializedQuery = {
  source:
    | { type: "FullTableScan"; tableName: string; order: "asc" | "desc" | null }
    | { type: "IndexRange"; indexName: string; range: RangeExpr[]; order: "asc" | "desc" | null }
    | {
        type: "Search";
        indexName: string;
        filters: Array<
          { type: "Search"; fieldPath: string; value: string } | { type: "Eq"; fieldPath: string; value: JSONValue }
        >;
      };
  operators: Array<{ filter: JSONValue } | { limit: number }>;
};

const END_CURSOR = "_end_cursor";
const MAX_SEARCH_RESULTS = 1024;
const MAX_SEARCH_TERMS = 16;

const TOKEN_RE = /[\p{L}\p{N}]+/gu;
/** Search query terms: letters/digits, lower-cased, at most 64 characters each. */
function tokenize(text: string): string[] {
  return (text.toLowerCase().match(TOKEN_RE) ?? []).map((t) => t.slice(0, 64));
}

interface Source {
  next(): Row | null;
}

class ListSource implements Source {
  pos = 0;
  constructor(readonly rows: Row[]) {}
  next() {
    return this.pos < this.rows.length ? this.rows[this.pos++] : null;
  }
}

const TABLE_NAME_RE = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

type Plan =
  | { kind: "index"; index: DbIndexDef; lo: Buffer; hi: Buffer; order: "asc" | "desc" }
  | { kind: "search"; rows: Row[] }
  | { kind: "empty" };

function plan(tx: Tx, q: SerializedQuery): Plan {
  const src = q.source;
  const catalog = tx.catalog;
  if (src.type === "FullTableScan") {
    if (!TABLE_NAME_RE.test(src.tableName)) throw new Error(`Invalid table name: "${src.tableName}"`);
    catalog.ensureTable(src.tableName);
    const index = catalog.dbIndex(src.tableName, "by_creation_time")!;
    return { kind: "index", index, lo: Buffer.alloc(0), hi: Buffer.from([0xff]), order: src.order ?? "asc" };
  }
  const dot = src.indexName.indexOf(".");
  const table = src.indexName.slice(0, dot);
  const indexName = src.indexName.slice(dot + 1);
  if (!TABLE_NAME_RE.test(table)) throw new Error(`Invalid table name: "${table}"`);
  catalog.ensureTable(table);
  if (catalog.isStaged(table, indexName)) {
    // Convex's IndexStagedError (indexing/src/index_registry.rs)
    throw new Error(`Index ${src.indexName} is currently staged and not available to query until it is enabled.`);
  }
  if (src.type === "IndexRange") {
    const index = catalog.dbIndex(table, indexName);
    if (!index) throw new Error(`Index ${src.indexName} not found.`);
    const { lo, hi } = encodeRange(index, src.range);
    return { kind: "index", index, lo, hi, order: src.order ?? "asc" };
  }
  const def = catalog.searchIndex(table, indexName);
  if (!def) throw new Error(`Search index ${src.indexName} not found.`);
  let text: string | null = null;
  const filterTokens: string[] = [];
  for (const f of src.filters) {
    if (f.type === "Search") {
      if (f.fieldPath !== def.searchField) {
        throw new Error(
          `Search field "${f.fieldPath}" is not the search field of index ${src.indexName} ("${def.searchField}").`,
        );
      }
      text = f.value;
    } else {
      const pos = def.filterFields.indexOf(f.fieldPath);
      if (pos < 0) throw new Error(`Field "${f.fieldPath}" is not a filter field of search index ${src.indexName}.`);
      filterTokens.push(filterToken(pos, decodeQueryValue(f.value)));
    }
  }
  if (text === null) throw new Error(`Search query against ${src.indexName} does not contain a search term.`);
  tx.readSet.addTable(catalog.tableNumber(table)!);
  const terms = tokenize(text).slice(0, MAX_SEARCH_TERMS);
  if (terms.length === 0) return { kind: "search", rows: [] };
  const hits = tx.hooks.store.searchFts(def.id, terms, filterTokens, MAX_SEARCH_RESULTS);
  // The transaction's own writes are not in the FTS tables yet: its inserted and edited documents
  // of the table are matched here (the same terms and filters), and stored hits it rewrote or
  // deleted are judged by their new version. Own matches come first, most matching terms first.
  const own = tx.ownWrites(table);
  const rows: Row[] = [];
  if (own.size > 0) {
    const scored: Array<{ score: number; row: Row }> = [];
    for (const p of own.values()) {
      if (isDelete(p)) continue;
      const entry = searchEntry(def, p.doc!);
      if (!entry || filterTokens.some((t) => !entry.filters.split(" ").includes(t))) continue;
      const words = new Set(tokenize(entry.text));
      let score = 0;
      terms.forEach((t, i) => {
        if (words.has(t) || (i === terms.length - 1 && [...words].some((w) => w.startsWith(t)))) score++;
      });
      if (score > 0) scored.push({ score, row: pendingRow(p, Buffer.alloc(0)) });
    }
    scored.sort((a, b) => b.score - a.score);
    for (const s of scored) rows.push(s.row);
  }
  for (const seq of hits) {
    if (rows.length >= MAX_SEARCH_RESULTS) break;
    const stored = tx.hooks.store.getDocBySeq(seq);
    if (!stored || own.has(stored.id)) continue;
    const p = tx.basePending(stored.id);
    if (p) {
      if (!isDelete(p)) rows.push(pendingRow(p, Buffer.alloc(0)));
      continue;
    }
    rows.push({ key: Buffer.alloc(0), id: stored.id, json: stored.json, doc: null });
  }
  return { kind: "search", rows: rows.slice(0, MAX_SEARCH_RESULTS) };
}

/** The table a query reads (its documents count toward the transaction's reads). */
function queryTable(q: SerializedQuery): string {
  const src = q.source;
  return src.type === "FullTableScan" ? src.tableName : src.indexName.slice(0, src.indexName.indexOf("."));
}

class Pipeline {
  private limits: number[];
  private counts: number[];
  done = false;
  rowsRead = 0;
  /** Convex sizes of the documents scanned (`maximumBytesRead` of a page) */
  bytesRead = 0;
  constructor(
    readonly source: Source,
    readonly ops: SerializedQuery["operators"],
    private readonly table: string,
    private readonly metrics: TxMetrics,
  ) {
    this.limits = ops.map((op) => ("limit" in op ? op.limit : -1));
    this.counts = ops.map(() => 0);
  }

  private limitReached(): boolean {
    for (let i = 0; i < this.limits.length; i++)
      if (this.limits[i] >= 0 && this.counts[i] >= this.limits[i]) return true;
    return false;
  }

  /** Next raw row plus whether it passes the operators; null when the source or a limit is exhausted. */
  step(): { row: Row; pass: boolean } | null {
    if (this.done) return null;
    if (this.limitReached()) {
      this.done = true;
      return null;
    }
    const row = this.source.next();
    if (!row) {
      this.done = true;
      return null;
    }
    this.rowsRead++;
    // Every document scanned counts, also those a filter drops.
    const size = row.json !== null ? jsonValueSize(row.json) : valueSize(row.doc);
    this.bytesRead += size;
    this.metrics.readDocument(this.table, size);
    for (let i = 0; i < this.ops.length; i++) {
      const op = this.ops[i];
      if ("filter" in op) {
        if (evalExpr(op.filter, rowDoc(row)) !== true) return { row, pass: false };
      } else {
        this.counts[i]++;
      }
    }
    return { row, pass: true };
  }

  next(): Row | null {
    for (;;) {
      const s = this.step();
      if (!s) return null;
      if (s.pass) return s.row;
    }
  }
}

export class QueryManager {
  /** a query is planned on its first `next` (`queryStream` itself stays cheap and changes nothing) */
  private queries = new Map<number, Pipeline | SerializedQuery>();
  private nextId = 1;
  paginateCalls = 0;

  constructor(private tx: Tx) {}

  start(q: SerializedQuery): number {
    const id = this.nextId++;
    this.queries.set(id, q);
    return id;
  }

  private pipeline(q: SerializedQuery): Pipeline {
    const p = plan(this.tx, q);
    // `.take(n)` / `.first()`: a limit before any filter bounds the rows the stream must read
    const ops = q.operators ?? [];
    let limit: number | null = null;
    for (const op of ops) {
      if (!("limit" in op)) break;
      limit = Math.min(limit ?? op.limit, op.limit);
    }
    const source: Source =
      p.kind === "index"
        ? this.tx.openIndexStream(p.index, p.lo, p.hi, p.order, firstBatchFor(limit))
        : new ListSource(p.kind === "search" ? p.rows : []);
    return new Pipeline(source, q.operators ?? [], queryTable(q), this.tx.metrics);
  }

  /**
   * Whether running `next` or a page of `q` now leaves everything but this transaction alone: not
   * when it would first create its table (see Catalog.ensureTable).
   */
  isContained(queryId: number | SerializedQuery): boolean {
    const q = typeof queryId === "number" ? this.queries.get(queryId) : queryId;
    if (!q || q instanceof Pipeline) return true;
    return this.tx.catalog.tableNumber(queryTable(q)) !== undefined && !this.needsStore(q);
  }

  /**
   * Whether starting `q` now would wait for the writer: a search reads the database's own search
   * tables, which must hold every committed batch first (storage.ts sync). The syscall then runs
   * asynchronously and waits apart (`Store.caughtUp`), not blocking the engine's thread.
   */
  needsStore(queryId: number | SerializedQuery): boolean {
    const q = typeof queryId === "number" ? this.queries.get(queryId) : queryId;
    return !!q && !(q instanceof Pipeline) && q.source.type === "Search" && this.tx.hooks.store.behind;
  }

  /** JSON text of `{value, done}` as the library expects from queryStreamNext. */
  next(queryId: number): string {
    let pipeline = this.queries.get(queryId);
    if (!pipeline) throw new Error(`Query ${queryId} not found (it may have been closed)`);
    if (!(pipeline instanceof Pipeline)) this.queries.set(queryId, (pipeline = this.pipeline(pipeline)));
    const row = pipeline.next();
    if (!row) return `{"value":null,"done":true}`;
    return `{"value":${rowJson(row)},"done":false}`;
  }

  cleanup(queryId: number) {
    this.queries.delete(queryId);
  }

  count(table: string): number {
    const tn = this.tx.catalog.tableNumber(table);
    if (tn === undefined) return 0;
    this.tx.readSet.addTable(tn);
    let n = this.tx.catalog.counts.get(tn) ?? 0;
    for (const layer of this.tx.base) n += layer.countDelta?.get(tn) ?? 0;
    for (const p of this.tx.flatten().values()) {
      if (p.table !== table) continue;
      const deleted = isDelete(p);
      if (p.isNew && !deleted) n++;
      else if (!p.isNew && deleted) n--;
    }
    return n;
  }

  page(args: {
    query: SerializedQuery;
    cursor: string | null;
    endCursor: string | null;
    pageSize: number;
    maximumRowsRead?: number | null;
    maximumBytesRead?: number | null;
  }): { json: string; continueCursor: string } {
    const p = plan(this.tx, args.query);
    const { cursor, endCursor, pageSize } = args;
    const fp = queryFingerprint(args.query);
    const maxRows = args.maximumRowsRead ?? null;
    const maxBytes = args.maximumBytesRead ?? null;
    const page: Row[] = [];
    let isDone = false;
    let continueCursor: string;
    let pageStatus: string | null = null;
    let splitCursor: string | null = null;

    if (p.kind !== "index") {
      const rows = p.kind === "search" ? p.rows : [];
      const start = cursor === null ? 0 : cursor === END_CURSOR ? rows.length : parseSearchCursor(cursor, fp);
      const end =
        endCursor === null
          ? Math.min(rows.length, start + pageSize)
          : endCursor === END_CURSOR
            ? rows.length
            : parseSearchCursor(endCursor, fp);
      const pipeline = new Pipeline(
        new ListSource(rows.slice(start, Math.max(start, end))),
        args.query.operators ?? [],
        queryTable(args.query),
        this.tx.metrics,
      );
      for (let r = pipeline.next(); r; r = pipeline.next()) page.push(r);
      // a full page is not the last one (as for index ranges, see below)
      isDone = endCursor === null ? end >= rows.length && end - start < pageSize : endCursor === END_CURSOR;
      continueCursor = isDone ? END_CURSOR : `s${fp}.${end}`;
      return { json: pageJson(page, isDone, continueCursor, null, null), continueCursor };
    }

    if (cursor === END_CURSOR) {
      return { json: pageJson([], true, END_CURSOR, null, null), continueCursor: END_CURSOR };
    }
    let lo = p.lo;
    let hi = p.hi;
    if (cursor !== null) {
      const key = parseIndexCursor(cursor, fp);
      if (p.order === "asc") lo = maxBuf(lo, keySuccessor(key));
      else hi = minBuf(hi, key);
    }
    if (endCursor !== null && endCursor !== END_CURSOR) {
      const key = parseIndexCursor(endCursor, fp);
      if (p.order === "asc") hi = minBuf(hi, keySuccessor(key));
      else lo = maxBuf(lo, key);
    }
    const stream: IndexStream = this.tx.openIndexStream(p.index, lo, hi, p.order);
    const pipeline = new Pipeline(stream, args.query.operators ?? [], queryTable(args.query), this.tx.metrics);
    const readKeys: Buffer[] = [];
    let lastKey: Buffer | null = null;
    let stoppedEarly = false;
    for (;;) {
      const s = pipeline.step();
      if (!s) break;
      lastKey = s.row.key;
      readKeys.push(s.row.key);
      if (s.pass) page.push(s.row);
      if ((maxRows !== null && pipeline.rowsRead >= maxRows) || (maxBytes !== null && pipeline.bytesRead >= maxBytes)) {
        stoppedEarly = true;
        pageStatus = "SplitRequired";
        if (readKeys.length >= 2) splitCursor = indexCursor(fp, readKeys[Math.floor((readKeys.length - 1) / 2)]);
        break;
      }
      if (endCursor === null && page.length >= pageSize) {
        stoppedEarly = true;
        break;
      }
    }
    // No peek past a full page: like Convex, a full page is never the last one (its cursor is
    // after its last row, not at the end); the next page is then empty and done.
    if (stoppedEarly) {
      continueCursor = indexCursor(fp, lastKey!);
      isDone = false;
    } else if (endCursor !== null) {
      continueCursor = endCursor;
      isDone = endCursor === END_CURSOR;
    } else {
      continueCursor = END_CURSOR;
      isDone = true;
    }
    return { json: pageJson(page, isDone, continueCursor, splitCursor, pageStatus), continueCursor };
  }
}

function pageJson(
  page: Row[],
  isDone: boolean,
  continueCursor: string,
  splitCursor: string | null,
  pageStatus: string | null,
) {
  return `{"page":[${page.map(rowJson).join(",")}],"isDone":${isDone},"continueCursor":${JSON.stringify(continueCursor)},"splitCursor":${JSON.stringify(splitCursor)},"pageStatus":${JSON.stringify(pageStatus)}}`;
}

/**
 * A cursor names its query, as Convex's do (a hash of the serialized query: table, index, range,
 * order and filters): continuing another query from it fails with Convex's InvalidCursor message,
 * so code whose query changes between pages (a range read from data) fails here as it would there.
 */
function queryFingerprint(query: SerializedQuery): string {
  return createHash("sha256").update(JSON.stringify(query)).digest("base64url").slice(0, 16);
}
/** `<kind><fingerprint>.<position>` */
function cursorPosition(c: string, kind: "i" | "s", fp: string): string {
  const dot = typeof c === "string" ? c.indexOf(".") : -1;
  if (typeof c !== "string" || !c.startsWith(kind) || dot < 0) throw new Error(`Invalid cursor: ${JSON.stringify(c)}`);
  if (c.slice(1, dot) !== fp) throw new Error(messages.invalidCursor());
  return c.slice(dot + 1);
}
function indexCursor(fp: string, key: Buffer): string {
  return `i${fp}.${key.toString("base64url")}`;
}
function parseIndexCursor(c: string, fp: string): Buffer {
  return Buffer.from(cursorPosition(c, "i", fp), "base64url");
}
function parseSearchCursor(c: string, fp: string): number {
  const pos = cursorPosition(c, "s", fp);
  const n = Number(pos);
  if (!/^\d+$/.test(pos) || !Number.isSafeInteger(n)) throw new Error(`Invalid cursor: ${JSON.stringify(c)}`);
  return n;
}
function maxBuf(a: Buffer, b: Buffer) {
  return Buffer.compare(a, b) >= 0 ? a : b;
}
function minBuf(a: Buffer, b: Buffer) {
  return Buffer.compare(a, b) <= 0 ? a : b;
}
