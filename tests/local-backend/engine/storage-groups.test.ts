/**
 * The writer thread applies queued batches together, in one SQLite transaction
 * (storage-worker.ts): large ones once they hold GROUP_DOCUMENTS documents, once the oldest has
 * waited, when a small batch comes, or at once when a read needs the database itself up to date
 * (Store.drain). A group the database
 * refuses is applied batch by batch, so what came before the refused batch is kept.
 */
import Database from "better-sqlite3";
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { encodeId, newInternalId } from "../../../local-backend/src/ids";
import { Store } from "../../../local-backend/src/storage";
import { GROUP_DOCUMENTS, LARGE_COMMIT_DOCUMENTS } from "../../../local-backend/src/storage-connection";
import { tempDir } from "./helpers";

const TABLE = 10_001;
/** long enough that only a flush or a full group applies anything while a test runs */
const HOLD_MS = 600_000;

function write(n: number, text = "doc") {
  const id = encodeId(TABLE, newInternalId());
  return { id, tableNumber: TABLE, json: JSON.stringify({ _id: id, _creationTime: 1, n, text }), isNew: true };
}

/** documents a separate connection finds in the database file */
function storedCount(dir: string): number {
  const db = new Database(path.join(dir, "db.sqlite3"), { readonly: true });
  try {
    return (db.prepare("SELECT count(*) AS c FROM documents WHERE tbl = ?").get(TABLE) as { c: number }).c;
  } finally {
    db.close();
  }
}

describe("engine: the writer applies batches in groups", () => {
  let store: Store;
  let dir = "";
  let applied: number[] = [];
  beforeEach(() => {
    dir = tempDir();
    store = new Store(dir, { groupWaitMs: HOLD_MS });
    store.createTable("t", TABLE);
    applied = [];
    store.onApplied = (ticket) => applied.push(ticket);
  });
  afterEach(async () => {
    await store.close().catch(() => undefined);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** a large batch: LARGE_COMMIT_DOCUMENTS documents */
  const large = (from: number) =>
    store.commit(
      Array.from({ length: LARGE_COMMIT_DOCUMENTS }, (_, i) => write(from + i)),
      [],
      new Map([[TABLE, LARGE_COMMIT_DOCUMENTS]]),
    );

  it("holds large batches back and applies them in one transaction when a read needs the database", async () => {
    const tickets = [0, 1, 2].map((n) => large(n * LARGE_COMMIT_DOCUMENTS));
    await store.whenDurable(tickets[2]);
    // durable in the journal; the writer holds them (nothing is answered, nothing stored)
    await new Promise((r) => setTimeout(r, 200));
    expect(applied).toEqual([]);
    expect(storedCount(dir)).toBe(0);
    expect(store.writing).toBe(true);
    // a read that is not served from memory asks for them: all three, as one group
    store.drain();
    expect(storedCount(dir)).toBe(3 * LARGE_COMMIT_DOCUMENTS);
    expect(applied).toEqual([tickets[2]]);
    expect(store.writing).toBe(false);
  });

  it("caughtUp asks for the held batches and waits for them without blocking the thread", async () => {
    const tickets = [0, 1].map((n) => large(n * LARGE_COMMIT_DOCUMENTS));
    await store.whenDurable(tickets[1]);
    expect(store.behind).toBe(true);
    let turns = 0;
    const ticking = setInterval(() => turns++, 0);
    try {
      const caught = store.caughtUp();
      // it returns at once: the wait happens on the event loop, which goes on meanwhile
      expect(turns).toBe(0);
      await caught;
    } finally {
      clearInterval(ticking);
    }
    expect(store.behind).toBe(false);
    expect(storedCount(dir)).toBe(2 * LARGE_COMMIT_DOCUMENTS);
    expect(applied[applied.length - 1]).toBe(tickets[1]);
    // nothing held: it resolves at once
    await store.caughtUp();
  });

  it("applies a small batch at once, with the large ones held before it", async () => {
    large(0);
    const small = store.commit([write(-1)], [], new Map([[TABLE, 1]]));
    await store.whenApplied(small);
    expect(applied).toEqual([small]);
    expect(storedCount(dir)).toBe(LARGE_COMMIT_DOCUMENTS + 1);
  });

  it("applies a group as soon as it holds GROUP_DOCUMENTS documents, without a read asking", async () => {
    const half = GROUP_DOCUMENTS / 2;
    const batch = (from: number) => Array.from({ length: half }, (_, i) => write(from + i));
    store.commit(batch(0), [], new Map([[TABLE, half]]));
    const last = store.commit(batch(half), [], new Map([[TABLE, half]]));
    await store.whenApplied(last);
    expect(applied).toEqual([last]);
    expect(storedCount(dir)).toBe(GROUP_DOCUMENTS);
  });

  it("a group the database refuses is applied batch by batch: the batches before the refused one are kept", async () => {
    const db = new Database(path.join(dir, "db.sqlite3"));
    db.exec(
      `CREATE TRIGGER refuse BEFORE INSERT ON documents WHEN NEW.json LIKE '%poison%' BEGIN SELECT RAISE(ABORT, 'disk says no'); END;`,
    );
    db.close();
    large(0);
    const kept = large(LARGE_COMMIT_DOCUMENTS);
    const poisoned = Array.from({ length: LARGE_COMMIT_DOCUMENTS }, (_, i) => write(-i, i === 7 ? "poison" : "doc"));
    const refused = store.commit(poisoned, [], new Map([[TABLE, LARGE_COMMIT_DOCUMENTS]]));
    const after = large(2 * LARGE_COMMIT_DOCUMENTS);
    await store.whenDurable(after);
    expect(applied).toEqual([]);
    expect(() => store.drain()).toThrow(/Writing to the database failed \(disk says no\)/);
    expect(storedCount(dir)).toBe(2 * LARGE_COMMIT_DOCUMENTS);
    await expect(store.whenApplied(kept)).resolves.toBeUndefined();
    await expect(store.whenApplied(refused)).rejects.toThrow(/disk says no/);
    await expect(store.whenApplied(after)).rejects.toThrow(/disk says no/);
  });
});
