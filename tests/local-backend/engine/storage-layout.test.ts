/**
 * Storage layout details behind the insert fast path: `by_id` is served by the documents table
 * (no idx entries), inserted documents are stored as exactly `convexToJson` of the document, and
 * nested/in-transaction reads see the same values.
 */
import Database from "better-sqlite3";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { convexToJson, jsonToConvex, type JSONValue } from "convex/values";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEngine } from "../../../local-backend/src/engine";
import type { Engine } from "../../../local-backend/src/engine-api";
import { caller, tempDir } from "./helpers";
import { DocShapes } from "../../../local-backend/src/doc-shapes";
import { openConnection } from "../../../local-backend/src/storage-connection";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

describe("engine: storage layout", () => {
  let engine: Engine;
  let work: string;
  let c: ReturnType<typeof caller>;
  beforeAll(async () => {
    work = tempDir();
    const fnDir = path.join(work, "convex");
    fs.mkdirSync(fnDir);
    fs.symlinkSync(path.join(repoRoot, "node_modules"), path.join(work, "node_modules"));
    fs.writeFileSync(
      path.join(fnDir, "schema.ts"),
      `import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";
export default defineSchema({
  a: defineTable({ n: v.number(), x: v.optional(v.any()) }).index("by_n", ["n"]),
  b: defineTable({ n: v.number() }),
});
`,
    );
    fs.writeFileSync(
      path.join(fnDir, "f.ts"),
      `import { mutationGeneric, queryGeneric } from "convex/server";
import { v } from "convex/values";
export const insertMany = mutationGeneric({
  args: { table: v.string(), count: v.number() },
  handler: async (ctx, { table, count }) => {
    const ids = [];
    for (let i = 0; i < count; i++) ids.push(await ctx.db.insert(table as "a", { n: i }));
    return ids;
  },
});
export const insertValue = mutationGeneric({
  args: { x: v.any() },
  handler: async (ctx, { x }) => {
    const id = await ctx.db.insert("a", { n: -1, x });
    const inTx = await ctx.db.get(id);
    const viaIndex = await ctx.db.query("a").withIndex("by_id", (q) => q.eq("_id", id)).unique();
    return { id, inTx, viaIndex };
  },
});
export const insertRaw = mutationGeneric({
  args: { value: v.any() },
  handler: async (ctx, { value }) => {
    const id = await ctx.db.insert("c" as any, value);
    return { id, inTx: await ctx.db.get(id) };
  },
});
export const byN = queryGeneric({
  args: { n: v.number(), ct: v.optional(v.number()), id: v.optional(v.string()), op: v.optional(v.string()), order: v.optional(v.string()) },
  handler: async (ctx, { n, ct, id, op, order }) => {
    const q = ctx.db.query("a").withIndex("by_n", (q: any) => {
      const base = q.eq("n", n);
      if (ct === undefined) return base;
      const at = base.eq("_creationTime", ct);
      return op === undefined ? at : op === "eq" ? at.eq("_id", id) : op === "gt" ? at.gt("_id", id) : at.lte("_id", id);
    });
    return (await q.order((order ?? "asc") as "asc").collect()).map((d: any) => d._id);
  },
});
export const setN = mutationGeneric({
  args: { id: v.string(), n: v.number() },
  handler: async (ctx, { id, n }) => ctx.db.patch(id as any, { n }),
});
export const get = queryGeneric({ args: { id: v.string() }, handler: async (ctx, { id }) => ctx.db.get(id as any) });
export const byId = queryGeneric({
  args: { op: v.string(), id: v.optional(v.string()), order: v.string() },
  handler: async (ctx, { op, id, order }) => {
    const q = ctx.db.query("a").withIndex("by_id", (q: any) =>
      op === "all" ? q : op === "eq" ? q.eq("_id", id) : op === "gt" ? q.gt("_id", id) : op === "gte" ? q.gte("_id", id) : op === "lt" ? q.lt("_id", id) : q.lte("_id", id),
    );
    return (await q.order(order as "asc").collect()).map((d) => d._id);
  },
});
export const pageById = queryGeneric({
  args: { cursor: v.union(v.string(), v.null()), order: v.string() },
  handler: async (ctx, { cursor, order }) =>
    ctx.db.query("a").withIndex("by_id").order(order as "asc").paginate({ cursor, numItems: 7 }),
});
`,
    );
    engine = await open();
    c = caller(engine);
  });
  const open = async () => {
    const e = createEngine({
      functionsDir: path.join(work, "convex"),
      dataDir: path.join(work, "data"),
      cloudUrl: "http://127.0.0.1:1",
      siteUrl: "http://127.0.0.1:2",
      scheduler: false,
    });
    await e.start();
    return e;
  };
  afterAll(async () => {
    await engine.stop();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it("serves by_id ranges from the documents table, per table, both orders, paginated", async () => {
    const a = (await c.mutation("f:insertMany", { table: "a", count: 30 })) as string[];
    await c.mutation("f:insertMany", { table: "b", count: 10 });
    const a2 = (await c.mutation("f:insertMany", { table: "a", count: 5 })) as string[];
    const all = [...a, ...a2].sort();
    expect(await c.query("f:byId", { op: "all", order: "asc" })).toEqual(all);
    expect(await c.query("f:byId", { op: "all", order: "desc" })).toEqual([...all].reverse());
    const mid = all[17];
    expect(await c.query("f:byId", { op: "eq", id: mid, order: "asc" })).toEqual([mid]);
    expect(await c.query("f:byId", { op: "gt", id: mid, order: "asc" })).toEqual(all.slice(18));
    expect(await c.query("f:byId", { op: "gte", id: mid, order: "desc" })).toEqual(all.slice(17).reverse());
    expect(await c.query("f:byId", { op: "lt", id: mid, order: "desc" })).toEqual(all.slice(0, 17).reverse());
    expect(await c.query("f:byId", { op: "lte", id: mid, order: "asc" })).toEqual(all.slice(0, 18));
    // a string between ids, and one after every id
    expect(await c.query("f:byId", { op: "gt", id: mid + "0", order: "asc" })).toEqual(all.slice(18));
    expect(await c.query("f:byId", { op: "lt", id: "~", order: "asc" })).toEqual(all);
    expect(await c.query("f:byId", { op: "gt", id: "", order: "asc" })).toEqual(all);
    for (const order of ["asc", "desc"]) {
      const seen: string[] = [];
      let cursor: string | null = null;
      for (;;) {
        const r = (await c.query("f:pageById", { cursor, order })) as {
          page: Array<{ _id: string }>;
          isDone: boolean;
          continueCursor: string;
        };
        seen.push(...r.page.map((d) => d._id));
        if (r.isDone) break;
        cursor = r.continueCursor;
      }
      expect(seen).toEqual(order === "asc" ? all : [...all].reverse());
    }
  });

  it("stores inserted documents as convexToJson of the document; by_id has no index entries", async () => {
    const x = {
      big: { $integer: "AQAAAAAAAAA=" },
      neg0: { $float: "AAAAAAAAAIA=" },
      s: 'é\u0000"\\',
      arr: [1, 2.5, null, true],
      o: { z: 1, a: { b: [] } },
      bytes: { $bytes: "AQID" },
    };
    const r = (await c.mutation("f:insertValue", { x })) as { id: string; inTx: any; viaIndex: any };
    const stored = await c.query("f:get", { id: r.id });
    expect(r.inTx).toEqual(stored);
    expect(r.viaIndex).toEqual(stored);
    expect(jsonToConvex(stored as any)).toMatchObject({ n: -1, x: jsonToConvex(x as any) });
    const values: Array<Record<string, JSONValue>> = [
      {},
      { B: 1, "10": 2, "2": 3, a: { "1": 1, Z: 2 }, Zz: "x", zz: null, "~": true },
      { A: 1 },
      { z: 1 },
      { "3": [] },
    ];
    for (const value of values) {
      const w = (await c.mutation("f:insertRaw", { value })) as { id: string; inTx: Record<string, unknown> };
      const read = (await c.query("f:get", { id: w.id })) as Record<string, unknown>;
      expect(read).toEqual(w.inTx);
      expect(Object.keys(read)).toEqual(Object.keys(convexToJson(jsonToConvex(read as any)) as object));
      expect(read).toMatchObject(value);
    }
    const db = new Database(path.join(work, "data", "db.sqlite3"), { readonly: true });
    try {
      const shapes = new DocShapes(db);
      const rows = db.prepare("SELECT id, json FROM documents").all() as Array<{ id: string; json: string }>;
      for (const r of rows) {
        // stored by shape: the values only, and no `_id` (the row's id column)
        expect(r.json.startsWith("[")).toBe(true);
        expect(r.json).not.toContain(r.id);
        const json = shapes.expand(r.id, r.json);
        expect(json).toBe(JSON.stringify(convexToJson(jsonToConvex(JSON.parse(json)))));
      }
      const byIdEntries = db
        .prepare("SELECT count(*) AS n FROM idx WHERE i IN (SELECT id FROM indexes WHERE name = 'by_id')")
        .get() as { n: number };
      expect(byIdEntries.n).toBe(0);
    } finally {
      db.close();
    }
  });

  it("makes a new database with 2 KB pages and keeps an older database's page size", () => {
    const db = new Database(path.join(work, "data", "db.sqlite3"), { readonly: true });
    try {
      expect(db.pragma("page_size", { simple: true })).toBe(2048);
    } finally {
      db.close();
    }
    const older = path.join(work, "older.sqlite3");
    const made = new Database(older);
    made.pragma("page_size = 4096");
    made.exec("CREATE TABLE t(x)");
    made.close();
    const reopened = openConnection(new Database(older), "writer");
    try {
      expect(reopened.pragma("page_size", { simple: true })).toBe(4096);
      expect(reopened.pragma("journal_mode", { simple: true })).toBe("wal");
    } finally {
      reopened.close();
    }
  });

  it("ends index keys in the id's 16 internal bytes: same order, ranges on _id, and an older data dir rewritten once", async () => {
    const ids = (await c.mutation("f:insertMany", { table: "a", count: 40 })) as string[];
    const docs = (await Promise.all(ids.map((id) => c.query("f:get", { id })))) as Array<{
      _id: string;
      _creationTime: number;
      n: number;
    }>;
    const zero = docs.filter((d) => d.n === 0).map((d) => d._id);
    const n7 = docs.find((d) => d.n === 7)!;
    const entries = () => {
      const db = new Database(path.join(work, "data", "db.sqlite3"), { readonly: true });
      try {
        return db
          .prepare(
            "SELECT length(k) AS len FROM idx WHERE i IN (SELECT id FROM indexes WHERE tbl = 'a' AND name = 'by_n')",
          )
          .all() as Array<{ len: number }>;
      } finally {
        db.close();
      }
    };
    // n (9 bytes) + _creationTime (9) + the id tail (1 + 16)
    expect(new Set(entries().map((e) => e.len))).toEqual(new Set([35]));
    const check = async () => {
      expect(await c.query("f:byN", { n: 0 })).toEqual(expect.arrayContaining(zero));
      expect(await c.query("f:byN", { n: 7, ct: n7._creationTime, op: "eq", id: n7._id })).toEqual([n7._id]);
      expect(await c.query("f:byN", { n: 7, ct: n7._creationTime, op: "gt", id: n7._id })).toEqual([]);
      expect(await c.query("f:byN", { n: 7, ct: n7._creationTime, op: "lte", id: n7._id })).toEqual([n7._id]);
      await expect(c.query("f:byN", { n: 7, ct: n7._creationTime, op: "gt", id: "not-an-id" })).rejects.toThrow(
        /not a document id/,
      );
    };
    await check();
    // A data dir of layout 2 held the id's string at the end of each key: rewritten on opening.
    await engine.stop();
    const db = new Database(path.join(work, "data", "db.sqlite3"));
    const { encodeTuple } = await import("../../../local-backend/src/indexkey");
    const rows = db
      .prepare(
        "SELECT idx.i AS i, idx.k AS k, d.id AS id, d.json AS json FROM idx JOIN documents d ON d.seq = idx.seq WHERE idx.i IN (SELECT id FROM indexes WHERE tbl = 'a' AND name = 'by_n')",
      )
      .all() as Array<{ i: number; k: Buffer; id: string; json: string }>;
    const shapes = new DocShapes(db);
    for (const r of rows) {
      const d = JSON.parse(shapes.expand(r.id, r.json)) as { n: number; _creationTime: number; _id: string };
      db.prepare("UPDATE idx SET k = ? WHERE i = ? AND k = ?").run(
        encodeTuple([d.n, d._creationTime, d._id]),
        r.i,
        r.k,
      );
    }
    db.prepare("UPDATE meta SET v = '2' WHERE k = 'layout'").run();
    db.close();
    expect(new Set(entries().map((e) => e.len))).not.toEqual(new Set([35]));
    engine = await open();
    c = caller(engine);
    expect(new Set(entries().map((e) => e.len))).toEqual(new Set([35]));
    await check();
  });

  it("reads documents stored before shapes as they are, and stores one by shape once it is written again", async () => {
    const ids = (await c.mutation("f:insertMany", { table: "b", count: 3 })) as string[];
    const before = (await Promise.all(ids.map((id) => c.query("f:get", { id })))) as Array<Record<string, unknown>>;
    await engine.stop();
    const stored = () => {
      const db = new Database(path.join(work, "data", "db.sqlite3"), { readonly: true });
      try {
        const q = db.prepare("SELECT json FROM documents WHERE id = ?");
        return ids.map((id) => (q.get(id) as { json: string }).json);
      } finally {
        db.close();
      }
    };
    // an older data dir: each row holds its document's whole JSON text
    const db = new Database(path.join(work, "data", "db.sqlite3"));
    const shapes = new DocShapes(db);
    const q = db.prepare("SELECT json FROM documents WHERE id = ?");
    for (const id of ids)
      db.prepare("UPDATE documents SET json = ? WHERE id = ?").run(
        shapes.expand(id, (q.get(id) as { json: string }).json),
        id,
      );
    db.close();
    expect(stored().map((j) => j[0])).toEqual(["{", "{", "{"]);
    engine = await open();
    c = caller(engine);
    expect(await Promise.all(ids.map((id) => c.query("f:get", { id })))).toEqual(before);
    await c.mutation("f:setN", { id: ids[1], n: 70 });
    await engine.stop();
    expect(stored().map((j) => j[0])).toEqual(["{", "[", "{"]);
    engine = await open();
    c = caller(engine);
    expect(await c.query("f:get", { id: ids[1] })).toEqual({ ...before[1], n: 70 });
    expect(await c.query("f:get", { id: ids[2] })).toEqual(before[2]);
  });
});
