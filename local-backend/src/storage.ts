/**
 * SQLite persistence: documents, index entries (order-preserving BLOB keys in one WITHOUT ROWID
 * table, grouped by their first value: index-parts.ts), FTS5 search tables, table/index catalog
 * and metadata. Committed transactions go through `commit()`, which hands the write batch to the
 * journal thread (durable once journaled, storage-journal.ts), which hands it to the writer thread
 * (storage-worker.ts) that applies it in one SQLite transaction; this connection reads. Catalog
 * changes and unmerged reads wait for the writer first (`sync()`).
 */
import Database from "better-sqlite3";
import * as esbuild from "esbuild";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { serialize } from "node:v8";
import { MessageChannel, Worker } from "node:worker_threads";
import { DocShapes } from "./doc-shapes.js";
import { IndexParts, type ScanRange } from "./index-parts.js";
import { openConnection, SHARED_FLUSH_THROUGH } from "./storage-connection.js";
import { hasIdTail, indexKey } from "./indexkey.js";
import { parseDoc } from "./json-shape.js";
import { packBatch } from "./storage-apply.js";
import { journalDir, replayJournal } from "./storage-journal.js";
import type { DbIndexDef, DocWrite, IndexDef, IndexKind, SearchIndexDef, StoredRow } from "./storage-types.js";

/** A storage thread's code (storage-worker.ts, storage-journal-worker.ts, storage-checkpointer.ts) bundled once per process (it runs from source). */
const workerCode = new Map<string, string>();
function threadSource(file: string): string {
  let code = workerCode.get(file);
  if (code === undefined) {
    const entry = fileURLToPath(new URL(file, import.meta.url));
    const out = esbuild.buildSync({
      entryPoints: [entry],
      bundle: true,
      platform: "node",
      format: "cjs",
      target: "node20",
      external: ["better-sqlite3"],
      write: false,
      logLevel: "silent",
    });
    code = out.outputFiles[0].text;
    workerCode.set(file, code);
  }
  return code;
}

/** Asks a storage thread to close its connection and waits until it has exited. */
function stopThread(worker: Worker, extra: Record<string, unknown> = {}): Promise<void> {
  const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
  worker.postMessage({ close: true, ...extra });
  return exited;
}

export class Store {
  readonly db: Database.Database;
  private stmts: {
    getMeta: Database.Statement;
    setMeta: Database.Statement;
    getDoc: Database.Statement;
    getDocBySeq: Database.Statement;
    insertIdx: Database.Statement;
    begin: Database.Statement;
    end: Database.Statement;
  };
  /** a read transaction is open on this connection (see `read`) */
  private reading = false;
  /** see storedThrough */
  private snapshotTicket = 0;
  private readonly endReadSoon = () => this.endRead();
  private byIdCache = new Map<string, Database.Statement>();
  private scanCache = new Map<string, Database.Statement>();
  private ftsStmts = new Map<number, Database.Statement>();
  /** documents are stored by shape: every read puts their JSON text back together (doc-shapes.ts) */
  private readonly shapes: DocShapes;
  /** index entries are stored by their first value's part (index-parts.ts) */
  private readonly parts: IndexParts;
  private writer: Worker;
  private journal: Worker;
  private checkpointer: Worker;
  private checkpointerExited = false;
  private writerExited = false;
  private journalExited = false;
  /** [0] last ticket the writer applied, [1] ticket of a batch that failed (0: none), [2] apply at once up to this ticket */
  private shared = new Int32Array(new SharedArrayBuffer(12));
  /** the error message of a failed batch (so a blocked drain() can report it) */
  private errorText = new Uint8Array(new SharedArrayBuffer(1024));
  private posted = 0;
  /** the lsn of this process's ticket 0: the journal's numbering goes on across restarts */
  private readonly lsnBase: number;
  /** bumped by table and index changes, which the writer thread must reload */
  private catalogVersion = 0;
  /** batches journaled (durable) and applied to the database, by ticket */
  private durableTicket = 0;
  private appliedTicket = 0;
  /** batches the writer has answered for, applied or refused */
  private settledTicket = 0;
  /** the first batch that could not be applied (0: none): it and every later one are refused */
  private failedTicket = 0;
  /** the first batch that could not be journaled (0: none): it and every later one never were durable */
  private unjournaledTicket = 0;
  private failure: Error | null = null;
  private waiters: Array<{ ticket: number; resolve: () => void; reject: (e: Error) => void }> = [];
  private appliedWaiters: Array<{ ticket: number; resolve: () => void; reject: (e: Error) => void }> = [];
  /** called after batches up to `ticket` are in the database (or failed) */
  onApplied: ((ticket: number) => void) | null = null;
  /** called once when storing fails (the store refuses every later commit) */
  onFailure: ((error: Error) => void) | null = null;

  /** `groupWaitMs`: how long the writer holds a group open (storage-worker.ts; default GROUP_WAIT_MS, tests lengthen it) */
  constructor(dataDir: string, opts: { groupWaitMs?: number } = {}) {
    fs.mkdirSync(dataDir, { recursive: true });
    const file = path.join(dataDir, "db.sqlite3");
    this.db = openConnection(new Database(file), "reader");
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS meta(k TEXT PRIMARY KEY, v TEXT NOT NULL) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS tables(name TEXT PRIMARY KEY, number INTEGER NOT NULL UNIQUE, count INTEGER NOT NULL DEFAULT 0);
      CREATE TABLE IF NOT EXISTS indexes(id INTEGER PRIMARY KEY, tbl TEXT NOT NULL, name TEXT NOT NULL, kind TEXT NOT NULL, spec TEXT NOT NULL, UNIQUE(tbl, name));
      CREATE TABLE IF NOT EXISTS documents(seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, tbl INTEGER NOT NULL, json TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS idx(i INTEGER NOT NULL, k BLOB NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY(i, k)) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS shapes(id INTEGER PRIMARY KEY, keys TEXT NOT NULL UNIQUE);
      CREATE TABLE IF NOT EXISTS parts(p INTEGER PRIMARY KEY, i INTEGER NOT NULL, v BLOB NOT NULL, UNIQUE(i, v));
    `);
    this.shapes = new DocShapes(this.db);
    this.parts = new IndexParts(this.db);
    this.stmts = {
      getMeta: this.db.prepare("SELECT v FROM meta WHERE k = ?"),
      setMeta: this.db.prepare("INSERT INTO meta(k, v) VALUES (?, ?) ON CONFLICT(k) DO UPDATE SET v = excluded.v"),
      getDoc: this.db.prepare("SELECT seq, json FROM documents WHERE id = ?"),
      getDocBySeq: this.db.prepare("SELECT id, json FROM documents WHERE seq = ?"),
      insertIdx: this.db.prepare("INSERT INTO idx(i, k, seq) VALUES (?, ?, ?)"),
      begin: this.db.prepare("BEGIN"),
      end: this.db.prepare("COMMIT"),
    };
    this.upgradeLayout();
    const sqlite = createRequire(import.meta.url).resolve("better-sqlite3");
    const journal = journalDir(dataDir);
    this.lsnBase = replayJournal(this.db, journal);
    // the journal thread hands each durable batch to the writer, which answers with what it applied
    const { port1, port2 } = new MessageChannel();
    this.writer = new Worker(threadSource("./storage-worker.ts"), {
      eval: true,
      workerData: {
        file,
        sqlite,
        shared: this.shared.buffer,
        errorText: this.errorText.buffer,
        journalPort: port2,
        groupWaitMs: opts.groupWaitMs,
      },
      transferList: [port2],
    });
    this.writer.unref();
    this.journal = new Worker(threadSource("./storage-journal-worker.ts"), {
      eval: true,
      workerData: { dir: journal, shared: this.shared.buffer, errorText: this.errorText.buffer, writerPort: port1 },
      transferList: [port1],
    });
    this.journal.unref();
    this.journal.on("message", (m: { ticket?: number; error?: string | null }) => {
      if (typeof m.ticket === "number") this.markDurable(m.ticket, m.error ?? null);
    });
    this.journal.on("error", (e) => this.markFailed(`journal thread: ${e.message}`, true));
    this.journal.on("exit", () => {
      this.journalExited = true;
      if (this.durableTicket < this.posted) this.markFailed("the journal thread stopped", true);
    });
    this.checkpointer = new Worker(threadSource("./storage-checkpointer.ts"), {
      eval: true,
      workerData: { file, sqlite, shared: this.shared.buffer },
    });
    this.checkpointer.unref();
    // a checkpoint thread that stops only leaves checkpoints to the writer's fallback
    this.checkpointer.on("error", () => undefined);
    this.checkpointer.on("exit", () => (this.checkpointerExited = true));
    this.writer.on("message", (m: { ticket?: number; error?: string | null }) => {
      if (typeof m.ticket === "number") this.markApplied(m.ticket, m.error ?? null);
    });
    this.writer.on("error", (e) => this.markFailed(`writer thread: ${e.message}`, false));
    this.writer.on("exit", () => {
      this.writerExited = true;
      if (this.writing) this.markFailed("the writer thread stopped", false);
    });
  }

  /**
   * Brings a data dir written by an earlier version to the current layout, once, in one SQLite
   * transaction. Layout 2: the by_id index is served by the documents table's unique id column,
   * so it has no entries in idx. Layout 3: index keys end in the `_id`'s internal bytes, not its
   * string (indexkey.ts hasIdTail): every such index's entries are written again.
   */
  private upgradeLayout() {
    const layout = Number(this.getMeta("layout") ?? "0");
    if (layout >= 3) return;
    this.db.transaction(() => {
      if (layout < 2)
        this.db
          .prepare("DELETE FROM idx WHERE i IN (SELECT id FROM indexes WHERE kind = 'db' AND name = 'by_id')")
          .run();
      const defs = this.db
        .prepare(
          "SELECT x.id AS id, x.spec AS spec, t.number AS number FROM indexes x JOIN tables t ON t.name = x.tbl WHERE x.kind = 'db' AND x.name <> 'by_id'",
        )
        .all() as { id: number; spec: string; number: number }[];
      const page = this.db.prepare(
        "SELECT seq, id, json FROM documents WHERE tbl = ? AND seq > ? ORDER BY seq LIMIT 5000",
      );
      for (const def of defs) {
        const fields = (JSON.parse(def.spec) as { fields: string[] }).fields;
        if (!hasIdTail(fields)) continue;
        this.db.prepare("DELETE FROM idx WHERE i = ?").run(def.id);
        let after = 0;
        for (;;) {
          const rows = page.all(def.number, after) as { seq: number; id: string; json: string }[];
          for (const r of rows)
            this.stmts.insertIdx.run(def.id, indexKey(parseDoc(this.shapes.expand(r.id, r.json)), fields), r.seq);
          if (rows.length < 5000) break;
          after = rows[rows.length - 1].seq;
        }
      }
      this.setMeta("layout", "3");
    })();
  }

  /**
   * Records the first failed batch: it and every later one are refused. A batch that was
   * journaled stays durable (the next start applies it); `unjournaled` marks one that never was.
   */
  private fail(ticket: number, reason: string, unjournaled: boolean) {
    if (unjournaled && this.unjournaledTicket === 0) this.unjournaledTicket = ticket;
    if (this.failure) return;
    this.failedTicket = ticket;
    this.failure = new Error(
      `Writing to the database failed (${reason}). Restart the backend: it recovers to the last complete write.`,
    );
    this.onFailure?.(this.failure);
  }

  /**
   * A storage thread itself broke: nothing more is applied here, and when it was the journal,
   * nothing more becomes durable (what was journaled is applied when the backend starts again).
   */
  private markFailed(reason: string, journal: boolean) {
    this.fail(journal ? this.durableTicket + 1 : this.settledTicket + 1, reason, journal);
    if (journal) {
      for (const w of this.waiters) w.reject(this.failure!);
      this.waiters = [];
    }
    for (const w of this.appliedWaiters) w.reject(this.failure!);
    this.appliedWaiters = [];
  }

  /** Waits for the writer, stops the storage threads and closes the database. */
  async close() {
    this.endRead();
    try {
      if (!this.failure && !this.writerExited && !this.journalExited) this.drain();
    } finally {
      if (!this.writerExited) await stopThread(this.writer);
      if (!this.journalExited) await stopThread(this.journal, { appliedLsn: this.lsnBase + this.appliedTicket });
      if (!this.checkpointerExited) await stopThread(this.checkpointer);
      this.db.close();
    }
  }

  getMeta(k: string): string | undefined {
    this.sync();
    const row = this.stmts.getMeta.get(k) as { v: string } | undefined;
    return row?.v;
  }
  setMeta(k: string, v: string) {
    this.sync();
    this.stmts.setMeta.run(k, v);
  }

  loadTables(): Array<{ name: string; number: number; count: number }> {
    this.sync();
    return this.db.prepare("SELECT name, number, count FROM tables").all() as Array<{
      name: string;
      number: number;
      count: number;
    }>;
  }
  createTable(name: string, number: number) {
    this.sync();
    this.catalogVersion++;
    this.db.prepare("INSERT INTO tables(name, number) VALUES (?, ?)").run(name, number);
  }
  renumberTable(name: string, number: number) {
    this.sync();
    this.catalogVersion++;
    this.db.prepare("UPDATE tables SET number = ? WHERE name = ?").run(number, name);
  }

  loadIndexes(): IndexDef[] {
    this.sync();
    const rows = this.db.prepare("SELECT id, tbl, name, kind, spec FROM indexes").all() as Array<{
      id: number;
      tbl: string;
      name: string;
      kind: IndexKind;
      spec: string;
    }>;
    return rows.map((r) => ({ id: r.id, table: r.tbl, name: r.name, kind: r.kind, ...JSON.parse(r.spec) }) as IndexDef);
  }

  createIndex(def: Omit<DbIndexDef, "id"> | Omit<SearchIndexDef, "id">): IndexDef {
    this.sync();
    this.catalogVersion++;
    const spec =
      def.kind === "db"
        ? JSON.stringify({ fields: def.fields })
        : JSON.stringify({ searchField: def.searchField, filterFields: def.filterFields });
    const info = this.db
      .prepare("INSERT INTO indexes(tbl, name, kind, spec) VALUES (?, ?, ?, ?)")
      .run(def.table, def.name, def.kind, spec);
    const id = Number(info.lastInsertRowid);
    if (def.kind === "search") {
      this.db.exec(
        `CREATE VIRTUAL TABLE IF NOT EXISTS fts_${id} USING fts5(t, f, content='', contentless_delete=1, tokenize="unicode61 remove_diacritics 0")`,
      );
    }
    return { ...def, id };
  }

  dropIndex(def: IndexDef) {
    this.sync();
    this.catalogVersion++;
    this.db.prepare("DELETE FROM indexes WHERE id = ?").run(def.id);
    // its id can be another index's next: this connection forgets what it knew of it (as the writer does)
    this.parts.reset();
    if (def.kind === "db") {
      this.db.prepare("DELETE FROM idx WHERE i = ?").run(def.id);
      // its parts stay (index-parts.ts: a part is never removed), empty
      this.db.prepare("DELETE FROM idx WHERE i IN (SELECT -p FROM parts WHERE i = ?)").run(def.id);
    } else this.db.exec(`DROP TABLE IF EXISTS fts_${def.id}`);
    this.ftsStmts.delete(def.id);
  }

  /**
   * Reads share one SQLite read transaction until the current turn of the event loop ends: in
   * autocommit mode every statement opened and closed its own (the log's shared-memory locks, and
   * the page cache checked against the log), which cost a point lookup of a large index more than
   * its seek. The snapshot never outlives what the engine serves from memory: it ends before the
   * writer's progress is taken in (`markApplied` drops those layers) and before this connection
   * writes (`sync`).
   */
  private read() {
    if (this.reading) return;
    // read before the snapshot is taken (at the transaction's first read): it holds at least this
    this.snapshotTicket =
      this.failedTicket === 0 && Atomics.load(this.shared, 1) === 0 ? Atomics.load(this.shared, 0) : 0;
    this.stmts.begin.run();
    this.reading = true;
    setImmediate(this.endReadSoon);
  }

  /**
   * The last batch the current read snapshot holds (opening one if needed; 0 once the writer
   * refused a batch): index streams leave out the unstored layers up to it, which the database now
   * holds as they are. Taking it from the writer's shared progress rather than from its message
   * matters while a function runs: the writer may store a group mid-run, and the run's layers,
   * taken when it began, would otherwise shadow every row of it that a range reads.
   */
  storedThrough(): number {
    this.read();
    return this.snapshotTicket;
  }

  private endRead() {
    if (!this.reading) return;
    this.reading = false;
    this.stmts.end.run();
  }

  getDoc(id: string): { seq: number; json: string } | undefined {
    this.read();
    const row = this.stmts.getDoc.get(id) as { seq: number; json: string } | undefined;
    if (row) row.json = this.shapes.expand(id, row.json);
    return row;
  }
  getDocBySeq(seq: number): { id: string; json: string } | undefined {
    this.sync();
    const row = this.stmts.getDocBySeq.get(seq) as { id: string; json: string } | undefined;
    if (row) row.json = this.shapes.expand(row.id, row.json);
    return row;
  }

  /** Rows read from the documents table, their JSON text put back together. */
  private expandRows<T extends { id: string; json: string }>(rows: T[]): T[] {
    for (const r of rows) r.json = this.shapes.expand(r.id, r.json);
    return rows;
  }

  /**
   * Up to `limit` entries of index `indexId` in [lo, hi) (asc) or (lo, hi] reversed (desc),
   * joined with their documents.
   */
  scan(
    indexId: number,
    lo: Buffer,
    hi: Buffer,
    order: "asc" | "desc",
    limit: number,
    loInclusive = true,
    hiInclusive = false,
  ): StoredRow[] {
    this.read();
    return this.parts.scan(indexId, { lo, hi, order, limit, loInclusive, hiInclusive }, (i, r) => this.scanRows(i, r));
  }

  /** Up to `r.limit` idx rows of `i` (an index or one of its parts) in the range `r`, joined with their documents. */
  private scanRows(i: number, { lo, hi, order, limit, loInclusive, hiInclusive }: ScanRange): StoredRow[] {
    // The usual limits (index streams read batches of 8, 32, ... 2048) are literals in the SQL:
    // a bound LIMIT parameter costs more than the whole seek of a point lookup.
    const literal = Number.isInteger(limit) && limit > 0 && limit <= 4096 && (limit & (limit - 1)) === 0;
    const cacheKey = `${order}${loInclusive ? 1 : 0}${hiInclusive ? 1 : 0}${literal ? limit : "?"}`;
    let stmt = this.scanCache.get(cacheKey);
    if (!stmt) {
      stmt = this.db.prepare(
        `SELECT idx.k AS key, idx.seq AS seq, d.id AS id, d.json AS json FROM idx JOIN documents d ON d.seq = idx.seq
         WHERE idx.i = ? AND idx.k ${loInclusive ? ">=" : ">"} ? AND idx.k ${hiInclusive ? "<=" : "<"} ?
         ORDER BY idx.k ${order === "asc" ? "ASC" : "DESC"} LIMIT ${literal ? limit : "?"}`,
      );
      this.scanCache.set(cacheKey, stmt);
    }
    return this.expandRows((literal ? stmt.all(i, lo, hi) : stmt.all(i, lo, hi, limit)) as StoredRow[]);
  }

  /**
   * Up to `limit` documents of table `tbl` by id, ids in [lo, hi] (null: unbounded; `loInclusive`
   * / `hiInclusive` false make that end exclusive), ascending or descending by id.
   */
  scanDocsById(
    tbl: number,
    lo: string | null,
    loInclusive: boolean,
    hi: string | null,
    hiInclusive: boolean,
    order: "asc" | "desc",
    limit: number,
  ): Array<{ seq: number; id: string; json: string }> {
    const cacheKey = `${lo === null ? "-" : loInclusive ? "i" : "e"}${hi === null ? "-" : hiInclusive ? "i" : "e"}${order}`;
    let stmt = this.byIdCache.get(cacheKey);
    if (!stmt) {
      const conds = ["tbl = @tbl"];
      if (lo !== null) conds.push(`id ${loInclusive ? ">=" : ">"} @lo`);
      if (hi !== null) conds.push(`id ${hiInclusive ? "<=" : "<"} @hi`);
      stmt = this.db.prepare(
        `SELECT seq, id, json FROM documents INDEXED BY sqlite_autoindex_documents_1 WHERE ${conds.join(" AND ")} ORDER BY id ${order === "asc" ? "ASC" : "DESC"} LIMIT @limit`,
      );
      this.byIdCache.set(cacheKey, stmt);
    }
    this.read();
    const params: Record<string, unknown> = { tbl, limit };
    if (lo !== null) params.lo = lo;
    if (hi !== null) params.hi = hi;
    return this.expandRows(stmt.all(params) as Array<{ seq: number; id: string; json: string }>);
  }

  countIndexRange(indexId: number): number {
    this.sync();
    return this.db
      .prepare(
        "SELECT (SELECT count(*) FROM idx WHERE i = ?) + (SELECT count(*) FROM idx WHERE i IN (SELECT -p FROM parts WHERE i = ?))",
      )
      .pluck()
      .get(indexId, indexId) as number;
  }

  private ftsInsert(indexId: number): Database.Statement {
    let s = this.ftsStmts.get(indexId);
    if (!s)
      this.ftsStmts.set(indexId, (s = this.db.prepare(`INSERT INTO fts_${indexId}(rowid, t, f) VALUES (?, ?, ?)`)));
    return s;
  }

  /**
   * The stored documents a search matches, most relevant first (at most `limit`). `terms` are the
   * query's words, the last one a prefix; `filters` the filter tokens every result must hold.
   *
   * Without filters the terms are ranked by BM25. With filters, BM25 is not used: it weighs every
   * phrase of the query, and a filter value shared by millions of documents (every document of
   * one organisation) makes it count that value's rows on each search, which costs far more than
   * the search itself. Results are ranked instead by how many of the words they hold: those with
   * every word first, then those with any, newest first within each.
   */
  searchFts(indexId: number, terms: string[], filters: string[], limit: number): number[] {
    this.sync();
    const table = `fts_${indexId}`;
    const phrases = terms.map((t, i) => `"${t}"${i === terms.length - 1 ? "*" : ""}`);
    if (filters.length === 0) {
      const stmt = this.db.prepare(
        `SELECT rowid AS seq, bm25(${table}, 1.0, 0.0) AS score FROM ${table} WHERE ${table} MATCH ? ORDER BY score LIMIT ?`,
      );
      return (stmt.all(`t : (${phrases.join(" OR ")})`, limit) as Array<{ seq: number }>).map((r) => r.seq);
    }
    const where = filters.map((tok) => ` AND f : "${tok}"`).join("");
    const stmt = this.db.prepare(
      `SELECT rowid AS seq FROM ${table} WHERE ${table} MATCH ? ORDER BY rowid DESC LIMIT ?`,
    );
    const out: number[] = [];
    const taken = new Set<number>();
    const tiers = phrases.length > 1 ? [phrases.join(" AND "), phrases.join(" OR ")] : [phrases[0]];
    for (const expr of tiers) {
      if (out.length >= limit) break;
      for (const r of stmt.iterate(`t : (${expr})${where}`, limit + taken.size) as Iterable<{ seq: number }>) {
        if (taken.has(r.seq)) continue;
        taken.add(r.seq);
        out.push(r.seq);
        if (out.length >= limit) break;
      }
    }
    return out;
  }

  /**
   * Hands one committed transaction's writes to the writer thread and returns its ticket; the
   * writes are durable once `whenDurable(ticket)` resolves. Until then the engine serves them from
   * memory (see Tx base layers), so the next transaction runs while SQLite writes this one.
   */
  commit(writes: DocWrite[], meta: Array<[string, string]>, tableCountDeltas: Map<number, number>): number {
    this.throwIfFailed();
    const ticket = ++this.posted;
    const lsn = this.lsnBase + ticket;
    // serialized once, here: the journal writes these bytes and hands them on to the writer
    const bytes = serialize(packBatch(ticket, lsn, this.catalogVersion, writes, meta, tableCountDeltas));
    const whole =
      bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
        ? bytes.buffer
        : bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    this.journal.postMessage({ ticket, lsn, bytes: whole }, [whole]);
    return ticket;
  }

  /** Resolves once the batch with this ticket (and every earlier one) is durable (journaled). */
  whenDurable(ticket: number): Promise<void> {
    return this.when(ticket, this.durableTicket, this.waiters, this.unjournaledTicket);
  }

  /** Resolves once the batch with this ticket (and every earlier one) is applied to the database. */
  whenApplied(ticket: number): Promise<void> {
    return this.when(ticket, this.settledTicket, this.appliedWaiters, this.failedTicket);
  }

  /** `failedFrom`: the first ticket that never reaches this state (0: none). */
  private when(ticket: number, reached: number, waiters: typeof this.waiters, failedFrom: number): Promise<void> {
    if (ticket <= reached)
      return failedFrom !== 0 && ticket >= failedFrom ? Promise.reject(this.failure!) : Promise.resolve();
    return new Promise((resolve, reject) => waiters.push({ ticket, resolve, reject }));
  }

  /** The ticket of the latest committed batch (0: none yet). */
  get postedTicket(): number {
    return this.posted;
  }

  /** True while committed batches are still being applied to the database. */
  get writing(): boolean {
    return this.settledTicket < this.posted;
  }

  private settle(waiters: typeof this.waiters, ticket: number, failedFrom: number): typeof this.waiters {
    const keep: typeof this.waiters = [];
    for (const w of waiters) {
      if (w.ticket > ticket) keep.push(w);
      else if (failedFrom !== 0 && w.ticket >= failedFrom) w.reject(this.failure!);
      else w.resolve();
    }
    return keep;
  }

  /** The journal thread's answer for a batch: journaled (durable), or refused. */
  private markDurable(ticket: number, error: string | null) {
    if (error !== null) this.fail(ticket, error, true);
    if (ticket <= this.durableTicket) return;
    this.durableTicket = ticket;
    this.waiters = this.settle(this.waiters, ticket, this.unjournaledTicket);
  }

  /** The writer's answer for a batch: in the database, or refused there (it stays journaled). */
  private markApplied(ticket: number, error: string | null) {
    // what the writer stored may be missing from an open snapshot, and the engine is about to drop it from memory
    this.endRead();
    if (error !== null) this.fail(ticket, error, false);
    if (ticket <= this.settledTicket) return;
    this.settledTicket = ticket;
    // only what the database took counts as applied: the journal keeps the rest for the next start
    this.appliedTicket = this.failedTicket !== 0 ? Math.min(ticket, this.failedTicket - 1) : ticket;
    this.appliedWaiters = this.settle(this.appliedWaiters, ticket, this.failedTicket);
    this.onApplied?.(ticket);
  }

  private writerError(): string {
    const end = this.errorText.indexOf(0);
    return (
      Buffer.from(this.errorText.subarray(0, end < 0 ? this.errorText.length : end)).toString("utf8") || "unknown error"
    );
  }

  private throwIfFailed() {
    if (this.failure) throw this.failure;
  }

  /** Whether the writer has committed batches still to apply: a read of the database itself would wait for them. */
  get behind(): boolean {
    return Atomics.load(this.shared, 0) < this.posted;
  }

  /**
   * Resolves once the writer has applied every batch posted so far (asked not to hold them back),
   * without blocking the thread as `drain` does: a function's search waits for it alone, while
   * every other request goes on. A refused batch surfaces at the read that follows.
   */
  async caughtUp(): Promise<void> {
    if (!this.behind) return;
    const target = this.posted;
    this.askForAll();
    await this.whenApplied(target).catch(() => undefined);
  }

  /** The writer holds batches back to apply them together (storage-worker.ts): not the ones posted so far. */
  private askForAll() {
    Atomics.store(this.shared, SHARED_FLUSH_THROUGH, this.posted);
    this.writer.postMessage({ flush: true });
  }

  /** Blocks until the writer thread has applied every posted batch (or one failed). */
  drain() {
    const deadline = Date.now() + 120_000;
    if (this.behind) this.askForAll();
    while (Atomics.load(this.shared, 0) < this.posted && Atomics.load(this.shared, 1) === 0) {
      if (this.writerExited || this.journalExited) throw new Error("The database writer thread stopped.");
      if (Date.now() > deadline) throw new Error("The database writer did not finish in time.");
      Atomics.wait(this.shared, 0, Atomics.load(this.shared, 0), 100);
    }
    const failed = Atomics.load(this.shared, 1);
    if (failed !== 0) this.markApplied(failed, this.writerError());
    else this.markDurable(this.posted, null); // applied, so journaled
    this.markApplied(this.posted, null);
    this.throwIfFailed();
  }

  /**
   * For reads that are not merged with the in-memory batches (search, table scans) and for writes
   * on this connection: waits for the writer.
   */
  private sync() {
    this.endRead();
    if (!this.writing) return this.throwIfFailed();
    this.drain();
  }

  /** Iterates all documents of a table in insertion order, in batches (bounded memory). */
  *iterateTable(tableNumber: number, batch = 1000): Generator<{ seq: number; id: string; json: string }> {
    this.sync();
    const stmt = this.db.prepare("SELECT seq, id, json FROM documents WHERE seq > ? AND tbl = ? ORDER BY seq LIMIT ?");
    let after = -1;
    for (;;) {
      const rows = this.expandRows(
        stmt.all(after, tableNumber, batch) as Array<{ seq: number; id: string; json: string }>,
      );
      if (rows.length === 0) return;
      for (const r of rows) yield r;
      after = rows[rows.length - 1].seq;
    }
  }

  insertIndexEntries(entries: Array<{ indexId: number; key: Buffer; seq: number }>) {
    this.sync();
    const run = this.db.transaction(() => {
      for (const e of entries) {
        const at = this.parts.place(e.indexId, e.key, true);
        this.stmts.insertIdx.run(at.i, at.k, e.seq);
      }
    });
    try {
      run();
    } catch (e) {
      this.parts.rolledBack();
      throw e;
    }
    this.parts.committed();
  }
  insertFtsEntries(indexId: number, entries: Array<{ seq: number; text: string; filters: string }>) {
    this.sync();
    const insert = this.ftsInsert(indexId);
    const run = this.db.transaction(() => {
      for (const e of entries) insert.run(e.seq, e.text, e.filters);
    });
    run();
  }
}
