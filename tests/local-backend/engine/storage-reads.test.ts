/**
 * The reader connection's reads share one SQLite read transaction for a turn of the event loop
 * (storage.ts `read`). Its snapshot must never hide a batch the engine no longer serves from
 * memory: once the writer's progress is taken in, the next read sees the batch, even within the
 * same turn; and the transaction ends with the turn (a checkpoint is never held back by it).
 */
import fs from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { encodeId, newInternalId } from "../../../local-backend/src/ids";
import { Store } from "../../../local-backend/src/storage";
import { tempDir } from "./helpers";

const TABLE = 10_001;

function write(id: string, n: number) {
  return { id, tableNumber: TABLE, json: JSON.stringify({ _id: id, _creationTime: 1, n }), isNew: true };
}

describe("engine: storage reads", () => {
  let store: Store;
  let dir = "";
  /** a document committed and stored before each test */
  let first = "";
  beforeEach(() => {
    dir = tempDir();
    store = new Store(dir);
    store.createTable("t", TABLE);
    first = encodeId(TABLE, newInternalId());
    store.commit([write(first, 1)], [], new Map([[TABLE, 1]]));
    store.drain();
  });
  afterEach(async () => {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("a read after the writer's progress is taken in sees the batch, in the same turn", () => {
    // a read: its snapshot holds `first` and not what is committed next
    expect(store.getDoc(first)).toBeDefined();
    const second = encodeId(TABLE, newInternalId());
    store.commit([write(second, 2)], [], new Map([[TABLE, 1]]));
    expect(store.getDoc(second)).toBeUndefined();
    // the writer stores it and the engine takes that in (it would drop the batch from memory now)
    store.drain();
    expect(JSON.parse(store.getDoc(second)!.json).n).toBe(2);
    expect(store.getDoc(first)).toBeDefined();
  });

  it("the read transaction ends with the turn of the event loop", async () => {
    expect(store.getDoc(first)).toBeDefined();
    expect(store.db.inTransaction).toBe(true);
    await new Promise((resolve) => setImmediate(resolve));
    expect(store.db.inTransaction).toBe(false);
    // and this connection's own writes never meet an open snapshot
    expect(store.getDoc(first)).toBeDefined();
    store.setMeta("k", "v");
    expect(store.getMeta("k")).toBe("v");
  });

  /** Waits for the writer to store `ticket` without letting a turn pass: its message stays unread meanwhile. */
  function writerApplied(ticket: number) {
    const applied = (store as unknown as { shared: Int32Array }).shared;
    const deadline = Date.now() + 10_000;
    while (Atomics.load(applied, 0) < ticket && Date.now() < deadline)
      Atomics.wait(applied, 0, Atomics.load(applied, 0), 10);
  }

  it("a snapshot knows the batches it holds before the writer's message is taken in", () => {
    const second = encodeId(TABLE, newInternalId());
    const ticket = store.commit([write(second, 2)], [], new Map([[TABLE, 1]]));
    writerApplied(ticket);
    expect(store.storedThrough()).toBeGreaterThanOrEqual(ticket);
    // and the snapshot does hold it
    expect(JSON.parse(store.getDoc(second)!.json).n).toBe(2);
  });

  it("a snapshot taken before the writer stored a batch does not claim it", () => {
    expect(store.getDoc(first)).toBeDefined(); // a snapshot for this turn
    const before = store.storedThrough();
    const second = encodeId(TABLE, newInternalId());
    const ticket = store.commit([write(second, 2)], [], new Map([[TABLE, 1]]));
    writerApplied(ticket);
    expect(store.storedThrough()).toBe(before);
    expect(before).toBeLessThan(ticket);
    expect(store.getDoc(second)).toBeUndefined();
  });
});
