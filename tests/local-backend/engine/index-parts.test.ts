/**
 * Index entries stored by their first value's part (index-parts.ts): every range of an index reads
 * what a plain sorted list of its keys holds, whatever mix of parts and whole-key entries it spans
 * (first values past the cap, rows written before parts existed), in both orders and at every
 * limit; updates and deletes leave no entry behind; a rolled-back part is forgotten.
 */
import Database from "better-sqlite3";
import fs from "node:fs";
import type { Value } from "convex/values";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { encodeId, newInternalId } from "../../../local-backend/src/ids";
import { IndexParts, PARTS_PER_INDEX, valueEnd } from "../../../local-backend/src/index-parts";
import { encodeValue, indexKey, prefixEnd } from "../../../local-backend/src/indexkey";
import { Store } from "../../../local-backend/src/storage";
import type { DbIndexDef } from "../../../local-backend/src/storage-types";
import { tempDir } from "./helpers";

const TABLE = 10_001;
const FIELDS = ["g", "n", "_creationTime", "_id"];

type Row = { id: string; doc: Record<string, Value>; key: Buffer };

/** a seeded generator (mulberry32), so a failure repeats */
function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FIRST_VALUES: Array<Value | undefined> = [
  "a",
  "b",
  "org-c",
  "",
  "a\u0000b",
  "é",
  5,
  null,
  undefined,
  ["x"],
  true,
];

describe("engine: index entries stored by their first value", () => {
  let store: Store;
  let dir = "";
  let index: DbIndexDef;
  let rows: Map<string, Row>;
  let ct = 1;

  beforeEach(() => {
    dir = tempDir();
    store = new Store(dir);
    store.createTable("t", TABLE);
    index = store.createIndex({ table: "t", name: "by_g_n", kind: "db", fields: FIELDS }) as DbIndexDef;
    rows = new Map();
    ct = 1;
  });
  afterEach(async () => {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  type Change = { id?: string; g: Value | undefined; n: number } | { id: string; deleted: true };

  function put(docs: Change[]) {
    const writes = [];
    const deltas = new Map([[TABLE, 0]]);
    for (const d of docs) {
      if ("deleted" in d) {
        writes.push({ id: d.id, tableNumber: TABLE, json: null, isNew: false });
        rows.delete(d.id);
        deltas.set(TABLE, deltas.get(TABLE)! - 1);
        continue;
      }
      const isNew = d.id === undefined;
      const id = d.id ?? encodeId(TABLE, newInternalId());
      const prev = rows.get(id);
      const doc: Record<string, Value> = {
        _id: id,
        _creationTime: prev ? prev.doc._creationTime : ct++,
        n: d.n,
      };
      if (d.g !== undefined) doc.g = d.g;
      rows.set(id, { id, doc, key: indexKey(doc, FIELDS) });
      // the test's values are all plain JSON
      writes.push({ id, tableNumber: TABLE, json: JSON.stringify(doc), isNew });
      if (isNew) deltas.set(TABLE, deltas.get(TABLE)! + 1);
    }
    store.commit(writes, [], deltas);
    store.drain();
  }

  /** what the index must answer: its keys within the bounds, ascending */
  function expected(lo: Buffer, hi: Buffer, loIn: boolean, hiIn: boolean, sorted: Row[]): string[] {
    return sorted
      .filter((r) => {
        const a = Buffer.compare(r.key, lo);
        const b = Buffer.compare(r.key, hi);
        return (loIn ? a >= 0 : a > 0) && (hiIn ? b <= 0 : b < 0);
      })
      .map((r) => r.id);
  }

  function check(lo: Buffer, hi: Buffer, label: string) {
    const sorted = [...rows.values()].sort((x, y) => Buffer.compare(x.key, y.key));
    for (const [loIn, hiIn] of [
      [true, false],
      [false, true],
      [false, false],
    ]) {
      const asc = expected(lo, hi, loIn, hiIn, sorted);
      const desc = [...asc].reverse();
      for (const order of ["asc", "desc"] as const)
        for (const limit of [1, 3, 8, 1000]) {
          const got = store.scan(index.id, lo, hi, order, limit, loIn, hiIn);
          for (const r of got) expect(r.key.equals(rows.get(r.id)!.key), `${label}: key of ${r.id}`).toBe(true);
          expect(
            got.map((r) => r.id),
            `${label} ${order} ${limit} ${loIn} ${hiIn}`,
          ).toEqual((order === "asc" ? asc : desc).slice(0, limit));
        }
    }
  }

  /** ranges of every kind: whole index, one first value, across first values, inside one, at row keys */
  function checkRanges(random: () => number, pairs = 25) {
    const ALL = [Buffer.alloc(0), Buffer.from([0xff])] as const;
    check(ALL[0], ALL[1], "whole index");
    for (const g of FIRST_VALUES) {
      const v = encodeValue(g);
      check(v, prefixEnd(v), `first value ${JSON.stringify(g)}`);
      check(Buffer.concat([v, encodeValue(3)]), prefixEnd(v), `from n=3 in ${JSON.stringify(g)}`);
      check(v, Buffer.concat([v, encodeValue(7)]), `to n=7 in ${JSON.stringify(g)}`);
    }
    const keys = [...rows.values()].map((r) => r.key).sort(Buffer.compare);
    for (let t = 0; t < pairs && keys.length > 0; t++) {
      const a = keys[Math.floor(random() * keys.length)];
      const b = keys[Math.floor(random() * keys.length)];
      const [lo, hi] = Buffer.compare(a, b) <= 0 ? [a, b] : [b, a];
      check(lo, hi, "between two keys");
      check(lo, ALL[1], "from a key");
      check(ALL[0], hi, "to a key");
      // a bound that ends inside the first value
      check(lo.subarray(0, Math.max(1, valueEnd(lo) - 1)), hi, "from inside a first value");
    }
  }

  function idxRows(): number {
    return store.db.prepare("SELECT count(*) FROM idx").pluck().get() as number;
  }

  it("reads every range as a sorted list of its keys would, through inserts, updates and deletes", () => {
    const random = rng(7);
    const pick = () => FIRST_VALUES[Math.floor(random() * FIRST_VALUES.length)];
    put(Array.from({ length: 300 }, () => ({ g: pick(), n: Math.floor(random() * 10) })));
    // strings got parts; other first values are stored whole
    const parts = store.db.prepare("SELECT count(*) FROM parts WHERE i = ?").pluck().get(index.id) as number;
    expect(parts).toBe(FIRST_VALUES.filter((v) => typeof v === "string").length);
    const stored = store.db.prepare("SELECT count(*) FROM idx WHERE i < 0").pluck().get() as number;
    expect(stored).toBe([...rows.values()].filter((r) => typeof r.doc.g === "string").length);
    checkRanges(random);

    // updates move entries between parts and whole keys; deletes remove them
    const ids = [...rows.keys()];
    const changes: Change[] = [];
    for (let j = 0; j < 120; j++) {
      const id = ids[Math.floor(random() * ids.length)];
      if (changes.some((c) => c.id === id)) continue;
      changes.push(random() < 0.3 ? { id, deleted: true as const } : { id, g: pick(), n: Math.floor(random() * 10) });
    }
    put(changes);
    expect(idxRows()).toBe(rows.size);
    expect(store.countIndexRange(index.id)).toBe(rows.size);
    checkRanges(random);
  });

  it("stores first values past the cap whole, and reads ranges that mix them with parts", async () => {
    const random = rng(11);
    const values = Array.from({ length: PARTS_PER_INDEX + 40 }, (_, i) => `v${String(i).padStart(5, "0")}`);
    // in shuffled order, so whole-key values and parts interleave in key order
    for (let i = values.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [values[i], values[j]] = [values[j], values[i]];
    }
    for (let b = 0; b < values.length; b += 500) put(values.slice(b, b + 500).map((g, i) => ({ g, n: i % 4 })));
    expect(store.db.prepare("SELECT count(*) FROM parts WHERE i = ?").pluck().get(index.id)).toBe(PARTS_PER_INDEX);
    expect(store.db.prepare("SELECT count(*) FROM idx WHERE i = ?").pluck().get(index.id)).toBe(40);
    // a value stored whole takes more entries whole; one with a part, in its part
    const whole = store.db.prepare("SELECT k FROM idx WHERE i = ? LIMIT 1").pluck().get(index.id) as Buffer;
    const wholeValue = whole.subarray(1, valueEnd(whole) - 2).toString();
    put([
      { g: wholeValue, n: 9 },
      { g: values[0] === wholeValue ? values[1] : values[0], n: 9 },
    ]);
    expect(store.db.prepare("SELECT count(*) FROM idx WHERE i = ?").pluck().get(index.id)).toBe(41);
    check(Buffer.alloc(0), Buffer.from([0xff]), "whole index");
    check(encodeValue(wholeValue), prefixEnd(encodeValue(wholeValue)), "a whole-key value");
    check(encodeValue("v00100"), encodeValue("v00900"), "a range of values");
    checkRanges(random, 3);

    // after a restart the writer knows no part until it needs one: a new value finds the index
    // full, and a value with a part still goes to it
    await store.close();
    store = new Store(dir);
    put([{ g: "a-new", n: 1 }]);
    put([{ g: values[5], n: 9 }]);
    expect(store.db.prepare("SELECT count(*) FROM idx WHERE i = ?").pluck().get(index.id)).toBe(42);
    check(encodeValue(values[5]), prefixEnd(encodeValue(values[5])), "a value with a part, after the restart");
  });

  it("keeps storing a value whole when the index held it whole before parts existed", async () => {
    put([
      { g: "old", n: 1 },
      { g: "old", n: 2 },
      { g: "new", n: 1 },
    ]);
    // as a data dir written before parts: the entries of "old" hold their whole key, and no part
    const old = encodeValue("old");
    const p = store.db.prepare("SELECT p FROM parts WHERE i = ? AND v = ?").pluck().get(index.id, old) as number;
    const entries = store.db.prepare("SELECT k, seq FROM idx WHERE i = ?").all(-p) as Array<{ k: Buffer; seq: number }>;
    expect(entries).toHaveLength(2);
    store.db.prepare("DELETE FROM idx WHERE i = ?").run(-p);
    for (const e of entries)
      store.db.prepare("INSERT INTO idx(i, k, seq) VALUES (?, ?, ?)").run(index.id, Buffer.concat([old, e.k]), e.seq);
    store.db.prepare("DELETE FROM parts WHERE p = ?").run(p);
    await store.close();
    store = new Store(dir);
    put([
      { g: "old", n: 3 },
      { g: "new", n: 2 },
    ]);
    expect(store.db.prepare("SELECT count(*) FROM idx WHERE i = ?").pluck().get(index.id)).toBe(3);
    expect(store.db.prepare("SELECT count(*) FROM parts WHERE i = ?").pluck().get(index.id)).toBe(1);
    check(encodeValue("old"), prefixEnd(encodeValue("old")), "old");
    check(Buffer.alloc(0), Buffer.from([0xff]), "whole index");
  });

  it("a dropped index loses its entries in parts too", () => {
    put([
      { g: "a", n: 1 },
      { g: 5, n: 1 },
    ]);
    expect(idxRows()).toBe(2);
    store.dropIndex(index);
    expect(idxRows()).toBe(0);
  });

  it("forgets a part made by a transaction that rolled back", () => {
    const db = new Database(":memory:");
    db.exec(`CREATE TABLE idx(i INTEGER NOT NULL, k BLOB NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY(i, k)) WITHOUT ROWID;
      CREATE TABLE parts(p INTEGER PRIMARY KEY, i INTEGER NOT NULL, v BLOB NOT NULL, UNIQUE(i, v));`);
    const parts = new IndexParts(db);
    const key = Buffer.concat([encodeValue("x"), encodeValue(1)]);
    db.exec("BEGIN");
    expect(parts.place(1, key, true).i).toBeLessThan(0);
    db.exec("ROLLBACK");
    parts.rolledBack();
    expect(parts.place(1, key)).toEqual({ i: 1, k: key });
    const made = parts.place(1, key, true);
    parts.committed();
    expect(made.k.equals(encodeValue(1))).toBe(true);
    expect(db.prepare("SELECT -p FROM parts").pluck().get()).toBe(made.i);
    db.close();
  });

  it("asks once whether a value is stored whole, and again after a catalog change", () => {
    const db = new Database(":memory:");
    db.exec(`CREATE TABLE idx(i INTEGER NOT NULL, k BLOB NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY(i, k)) WITHOUT ROWID;
      CREATE TABLE parts(p INTEGER PRIMARY KEY, i INTEGER NOT NULL, v BLOB NOT NULL, UNIQUE(i, v));`);
    let probes = 0;
    const counted = new Proxy(db, {
      get(target, prop) {
        if (prop !== "prepare") return Reflect.get(target, prop) as unknown;
        return (sql: string) => {
          const stmt = target.prepare(sql);
          if (!sql.startsWith("SELECT 1 FROM idx")) return stmt;
          const get = stmt.get.bind(stmt);
          return Object.assign(stmt, { get: (...a: unknown[]) => (probes++, get(...a)) });
        };
      },
    });
    const parts = new IndexParts(counted);
    const old = encodeValue("old");
    db.prepare("INSERT INTO idx(i, k, seq) VALUES (1, ?, 1)").run(Buffer.concat([old, encodeValue(1)]));
    for (let n = 2; n < 6; n++) {
      const key = Buffer.concat([old, encodeValue(n)]);
      expect(parts.place(1, key, true)).toEqual({ i: 1, k: key });
    }
    expect(probes).toBe(1);
    parts.reset();
    parts.place(1, Buffer.concat([old, encodeValue(9)]), true);
    expect(probes).toBe(2);
    db.close();
  });

  it("finds where the first value of a key ends, or that it does not", () => {
    for (const v of [
      undefined,
      null,
      1n,
      2.5,
      true,
      "s\u0000t",
      new Uint8Array([0, 1]).buffer,
      [1, "a", [null]],
      { a: { b: 1 } },
    ]) {
      const e = encodeValue(v);
      expect(valueEnd(Buffer.concat([e, encodeValue(1)]))).toBe(e.length);
      expect(valueEnd(e.subarray(0, e.length - 1))).toBe(-1);
    }
    expect(valueEnd(Buffer.from([0xff]))).toBe(-1);
    expect(valueEnd(Buffer.alloc(0))).toBe(-1);
  });
});
