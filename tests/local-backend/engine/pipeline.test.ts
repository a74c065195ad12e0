/**
 * Pipelined commits: a committed transaction is durable once journaled (storage-journal.ts) and
 * the writer thread applies it to the database while the next one runs. An outside SQLite
 * connection holding the write lock of the journal, or of the database, keeps the journal thread
 * or the writer from storing anything, so these tests see each window deterministically.
 */
import Database from "better-sqlite3";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Engine, FunctionOutcome } from "../../../local-backend/src/engine-api";
import { caller, startEngine, unwrap } from "./helpers";
import { deserialize } from "node:v8";
import type { PackedBatch } from "../../../local-backend/src/storage-apply";
import { journalDir, listSegments, readSegment } from "../../../local-backend/src/storage-journal";
import { DocShapes } from "../../../local-backend/src/doc-shapes";
import { MAX_UNSTORED_DOCUMENTS } from "../../../local-backend/src/storage-connection";
import type { EngineImpl } from "../../../local-backend/src/engine";
import { keysAtCommit, noteIndexRead, StoredPending } from "../../../local-backend/src/pending";
import { indexKey } from "../../../local-backend/src/indexkey";
import type { DbIndexDef } from "../../../local-backend/src/storage-types";

type Doc = Record<string, any>;

let engine: Engine & { dataDir: string };
let c: ReturnType<typeof caller>;
const dbFile = () => path.join(engine.dataDir, "db.sqlite3");

/** Takes SQLite's write lock from another connection; the writer thread waits until `release()`. */
function blockWriter(file = dbFile()) {
  const db = new Database(file);
  db.exec("BEGIN IMMEDIATE");
  return {
    release() {
      db.exec("COMMIT");
      db.close();
    },
  };
}

/** What a separate connection finds stored: documents whose JSON contains `text`. */
function storedContaining(text: string): string[] {
  const db = new Database(dbFile(), { readonly: true });
  try {
    const shapes = new DocShapes(db);
    const rows = db.prepare("SELECT id, json FROM documents WHERE json LIKE ?").all(`%${text}%`);
    return (rows as Array<{ id: string; json: string }>).map((r) => shapes.expand(r.id, r.json));
  } finally {
    db.close();
  }
}

/** The documents journaled (durable, maybe not yet applied) whose JSON contains `text`, in journal order. */
function journaledContaining(text: string): string[] {
  const out: string[] = [];
  for (const file of listSegments(journalDir(engine.dataDir))) {
    for (const { payload } of readSegment(file)) {
      const batch = deserialize(payload) as PackedBatch;
      for (const json of batch.jsons) if (json?.includes(text)) out.push(json);
    }
  }
  return out;
}

function pipelined(p: string, args: Record<string, unknown>) {
  return engine.runMutationPipelined({ path: p, args: args as never, identity: null });
}

const value = async (r: Promise<{ outcome: FunctionOutcome }>) => unwrap((await r).outcome);

beforeAll(async () => {
  engine = await startEngine({ scheduler: false });
  c = caller(engine);
});
afterAll(async () => {
  await engine.stop();
});

describe("engine: pipelined commits", () => {
  it("runs the next mutation on a committed one's writes before they are stored; callers hear back once journaled", async () => {
    const blocker = blockWriter();
    const runs = [];
    for (let i = 0; i < 3; i++) runs.push(await pipelined("tx:increment", { name: "pipe-counter" }));
    // each read the previous one's write; all three are answered, durable in the journal, although
    // nothing is in the database yet
    expect(await Promise.all(runs.map((r) => value(r.result)))).toEqual([1, 2, 3]);
    expect(storedContaining("pipe-counter")).toEqual([]);
    expect(journaledContaining("pipe-counter").map((j) => JSON.parse(j).value)).toEqual([1, 2, 3]);
    expect(await c.query("tx:getCounter", { name: "pipe-counter" })).toBe(3);
    blocker.release();
    // the writer applies the three batches one after another: wait for the last one
    const stored = () => storedContaining("pipe-counter").map((j) => JSON.parse(j).value);
    for (let i = 0; i < 100 && stored()[0] !== 3; i++) await new Promise((r) => setTimeout(r, 20));
    expect(stored()).toEqual([3]);
  });

  it("lets a large commit wait while what the writer has not stored would pass its bound, so a small commit made meanwhile is not queued behind it", async () => {
    const blocker = blockWriter();
    // the writer has batches it cannot store yet: exactly MAX_UNSTORED_DOCUMENTS documents, served from memory
    const first = await pipelined("tx:increment", { name: "admit-first" });
    const filling = [];
    for (let left = MAX_UNSTORED_DOCUMENTS - 1; left > 0; left -= 2_000)
      filling.push(await pipelined("tx:bulkInsert", { name: "admit-fill", count: Math.min(2_000, left) }));
    await Promise.all(filling.map((r) => value(r.result)));
    // 120 documents more: a large commit past the bound; its run ends, then it waits for the writer (CommitPipeline.admit)
    let largeCommitted = false;
    const large = pipelined("tx:longBatch", { name: "admit-large", steps: 120 }).then((r) => {
      largeCommitted = true;
      return r;
    });
    const small = await pipelined("tx:increment", { name: "admit-small" });
    await new Promise((r) => setTimeout(r, 400));
    expect(largeCommitted).toBe(false);
    blocker.release();
    const [firstOut, smallOut, largeOut] = await Promise.all([first.result, small.result, (await large).result]);
    expect([unwrap(firstOut.outcome), unwrap(smallOut.outcome), unwrap(largeOut.outcome)]).toEqual([1, 1, 120]);
    // the small one committed (and was stored) before the large one
    expect(smallOut.ts < largeOut.ts).toBe(true);
  });

  it("deletes journal segments once the database holds their batches", async () => {
    const dir = journalDir(engine.dataDir);
    const bytes = () => fs.readdirSync(dir).reduce((n, f) => n + fs.statSync(path.join(dir, f)).size, 0);
    // six 800 KB documents: more than a segment keeps once applied (4 MB)
    for (let i = 0; i < 6; i++)
      await c.mutation("messages:send", { channel: "journal-size", body: "j".repeat(800_000), author: `${i}` });
    // the writer holds small batches back for up to GROUP_WAIT_MS to apply them together
    for (let i = 0; i < 250 && bytes() >= 4 * 1024 * 1024; i++) await new Promise((r) => setTimeout(r, 20));
    expect(bytes()).toBeLessThan(4 * 1024 * 1024);
    expect(((await c.query("messages:list", { channel: "journal-size" })) as Doc[]).length).toBe(6);
  });

  it("cuts a large write-ahead log back to nothing once nothing is written for a moment", async () => {
    const wal = `${dbFile()}-wal`;
    // A reader's snapshot from before keeps every checkpoint from starting the log over meanwhile
    // (else a fast writer and checkpoint thread keep it under 16 MB).
    const reader = new Database(dbFile(), { readonly: true });
    reader.exec("BEGIN");
    reader.prepare("SELECT count(*) FROM meta").get();
    try {
      // 24 MB of documents: a log past the 16 MB SQLite keeps after it starts over
      for (let i = 0; i < 30; i++)
        await c.mutation("messages:send", { channel: "wal-size", body: "w".repeat(800_000), author: `${i}` });
      for (let i = 0; i < 100 && fs.statSync(wal).size <= 16 * 1024 * 1024; i++)
        await new Promise((r) => setTimeout(r, 20));
      expect(fs.statSync(wal).size).toBeGreaterThan(16 * 1024 * 1024);
    } finally {
      reader.exec("COMMIT");
      reader.close();
    }
    // a bounded wait, long enough for a checkpoint of 24 MB on a loaded machine (CI runs files side by side)
    for (let i = 0; i < 400 && fs.statSync(wal).size > 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(fs.statSync(wal).size).toBe(0);
    expect(storedContaining('"wal-size"')).toHaveLength(30);
  });

  it("copies the log back into the database file on the checkpoint thread", async () => {
    const before = fs.statSync(dbFile()).size;
    await value(
      engine.runMutation({ path: "tx:longBatch", args: { name: "checkpointed", steps: 150 }, identity: null }),
    );
    // SQLite's own checkpoint would wait for a 64 MB log; the checkpoint thread copies it soon
    for (let i = 0; i < 100 && fs.statSync(dbFile()).size <= before; i++) await new Promise((r) => setTimeout(r, 100));
    expect(fs.statSync(dbFile()).size).toBeGreaterThan(before);
  });

  it("merges unstored versions into index reads: a changed key moves, a deleted document disappears, a taken email is seen", async () => {
    const a = (await c.mutation("users:create", { name: "A", email: "a@pipe", age: 30 })) as string;
    const first = (await c.mutation("messages:send", { channel: "pipe", body: "first", author: "x" })) as string;
    const again = blockWriter();
    const moved = await pipelined("users:setAge", { id: a, age: 40 });
    const b = await pipelined("users:create", { name: "B", email: "b@pipe", age: 35 });
    const taken = await pipelined("users:create", { name: "A2", email: "a@pipe", age: 50 });
    const del = await pipelined("messages:remove", { id: first });
    const m2 = await pipelined("messages:send", { channel: "pipe", body: "second", author: "x" });
    const list = engine.runQuery({ path: "messages:list", args: { channel: "pipe" }, identity: null });
    const range = engine.runQuery({ path: "users:byAgeRange", args: { min: 31, max: 45 }, identity: null });
    const old = engine.runQuery({ path: "users:byAgeRange", args: { min: 29, max: 31 }, identity: null });
    again.release();
    expect(((await value(moved.result)) as Doc).age).toBe(40);
    await value(b.result);
    const takenOutcome = (await taken.result).outcome;
    expect(takenOutcome.status).toBe("error");
    expect(takenOutcome.status === "error" && takenOutcome.errorData).toMatchObject({ code: "EMAIL_TAKEN" });
    expect((unwrap((await range).outcome) as Doc[]).map((u) => u.name)).toEqual(["B", "A"]);
    expect(unwrap((await old).outcome)).toEqual([]);
    await value(del.result);
    await value(m2.result);
    expect((unwrap((await list).outcome) as Doc[]).map((m) => m.body)).toEqual(["second"]);
  });

  it("holds unstored documents as their JSON: a range read parses only what it returns, and later commits bring that index's keys", async () => {
    const impl = engine as unknown as EngineImpl;
    const byAge = impl.catalog.dbIndex("users", "by_age")!;
    const unstored = (id: string) => {
      for (const layer of impl.commits.hooks.baseLayers()) {
        const p = layer.docs.get(id);
        if (p) return p;
      }
      return undefined;
    };
    const create = async (i: number) =>
      (await value(
        (await pipelined("users:create", { name: `T${i}`, email: `t${i}@text`, age: 2001 + i })).result,
      )) as string;
    const hold = blockWriter();
    try {
      const ids = [await create(0), await create(1), await create(2)];
      for (const id of ids) {
        expect(unstored(id)).toBeInstanceOf(StoredPending);
        expect((unstored(id) as StoredPending).parsedDoc).toBeNull();
      }
      // the read sorts the layers by age, keys taken from the text; only what it returns is parsed
      const found = unwrap(
        (await engine.runQuery({ path: "users:byAgeRange", args: { min: 2002, max: 2003 }, identity: null })).outcome,
      ) as Doc[];
      expect(found.map((u) => u.name)).toEqual(["T1"]);
      expect(ids.map((id) => (unstored(id) as StoredPending).parsedDoc)).toEqual([null, null, null]);
      // a later commit takes its by_age key while it holds the object
      const later = unstored(await create(3)) as StoredPending;
      expect(later.parsedDoc).toBeNull();
      expect(later.keys?.has(byAge.id)).toBe(true);
      // a get parses it
      expect(((await c.query("tx:getAny", { id: later.id })) as Doc).name).toBe("T3");
      expect(later.parsedDoc?.name).toBe("T3");
    } finally {
      hold.release();
    }
  });

  it("takes keys at commit only for its own engine's index of that id", () => {
    const mine: DbIndexDef = { kind: "db", id: 900_001, table: "people", name: "by_a", fields: ["a"] };
    const theirs: DbIndexDef = { kind: "db", id: 900_001, table: "people", name: "by_b", fields: ["b"] };
    noteIndexRead(theirs);
    const doc = { _id: "x", _creationTime: 1, a: 1, b: 2 };
    expect(keysAtCommit(new Map([[mine.id, mine]]), "people", doc, undefined)).toBeUndefined();
    noteIndexRead(mine);
    const keys = keysAtCommit(new Map([[mine.id, mine]]), "people", doc, undefined);
    expect(keys?.get(mine.id)?.equals(indexKey(doc, mine.fields))).toBe(true);
  });

  it("merges several unstored layers by key, in both orders, each document at its newest version only", async () => {
    const stored = (await c.mutation("users:create", { name: "S", email: "s@layers", age: 1003 })) as string;
    const hold = blockWriter();
    // one layer per commit: keys interleave across layers, and later layers rewrite earlier ones
    const l1 = await pipelined("users:create", { name: "L1", email: "l1@layers", age: 1001 });
    const l2 = await pipelined("users:create", { name: "L2", email: "l2@layers", age: 1004 });
    const l1Id = (await value(l1.result)) as string;
    const l3 = await pipelined("users:create", { name: "L3", email: "l3@layers", age: 1002 });
    const moveL1 = await pipelined("users:setAge", { id: l1Id, age: 1005 });
    const moveStored = await pipelined("users:setAge", { id: stored, age: 1000 });
    const names = async (order: "asc" | "desc") =>
      (
        unwrap(
          (await engine.runQuery({ path: "users:byAgeRange", args: { min: 999, max: 1010, order }, identity: null }))
            .outcome,
        ) as Doc[]
      ).map((u) => `${u.name}:${u.age}`);
    const asc = names("asc");
    const desc = names("desc");
    hold.release();
    for (const run of [l2, l3, moveL1, moveStored]) await value(run.result);
    expect(await asc).toEqual(["S:1000", "L3:1002", "L2:1004", "L1:1005"]);
    expect(await desc).toEqual(["L1:1005", "L2:1004", "L3:1002", "S:1000"]);
  });

  it("finds a just-committed document with full-text search", async () => {
    const sent = await pipelined("messages:send", { channel: "pipe-search", body: "pelican brief", author: "x" });
    const found = await c.query("messages:search", { query: "pelican" });
    expect((found as Doc[]).map((m) => m.body)).toEqual(["pelican brief"]);
    await value(sent.result);
  });

  it("a batch the database refuses stops every later commit; nothing journaled is dropped: a restart applies it once the cause is gone", async () => {
    const dir = engine.dataDir;
    await c.mutation("messages:send", { channel: "before-failure", body: "kept", author: "x" });
    const db = new Database(dbFile());
    db.exec(
      `CREATE TRIGGER refuse BEFORE INSERT ON documents WHEN NEW.json LIKE '%poison%' BEGIN SELECT RAISE(ABORT, 'disk says no'); END;`,
    );
    db.close();
    const poisonedRun = await pipelined("messages:send", { channel: "x", body: "poison", author: "x" });
    // journaled, so acknowledged, before the writer meets the refusal
    expect((await poisonedRun.result).outcome.status).toBe("success");
    // a search waits for the writer on the spot and reports what it could not store
    const search = await c.queryOutcome("messages:search", { query: "kept" });
    expect(search.status === "error" && search.errorMessage).toContain("Writing to the database failed (disk says no)");
    const later = await c.mutationOutcome("messages:send", { channel: "x", body: "after", author: "x" });
    expect(later.status === "error" && later.errorMessage).toContain("Writing to the database failed");
    await engine.stop().catch(() => undefined);
    // while the database still refuses it, the backend does not start without it
    await expect(startEngine({ scheduler: false, dataDir: dir })).rejects.toThrow(
      /commit journal .* cannot be applied: disk says no/,
    );
    const fix = new Database(path.join(dir, "db.sqlite3"));
    fix.exec("DROP TRIGGER refuse");
    fix.close();
    engine = await startEngine({ scheduler: false, dataDir: dir });
    c = caller(engine);
    expect(((await c.query("messages:list", { channel: "before-failure" })) as Doc[]).map((m) => m.body)).toEqual([
      "kept",
    ]);
    expect(((await c.query("messages:list", { channel: "x" })) as Doc[]).map((m) => m.body)).toEqual(["poison"]);
    expect(storedContaining('"after"')).toEqual([]);
    expect(await c.mutation("messages:send", { channel: "x", body: "works again", author: "x" })).toEqual(
      expect.any(String),
    );
  });
});
