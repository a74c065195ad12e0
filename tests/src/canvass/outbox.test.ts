/**
 * The field app's outbox (src/features/canvass/utils/store.ts) and sync loop (sync.ts) on
 * fake-indexeddb, against a fake canvass.sync that keeps canvass.ts's contract (recorded once by
 * client id, in seq order, refusals with a sentence): order, batches of at most 100, replays after
 * a lost answer recorded once, refusals kept and sent again only by the canvasser, a whole call
 * refused, a lost connection or session keeping everything, and a reload (a new Dexie on the same
 * database) finding the outbox and continuing its order.
 */
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { ConvexError } from "convex/values";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { MAX_SYNC_EVENTS, type ResultCode } from "@convex/lib/canvass";
import { shownStates } from "@/features/canvass/utils/doors";
import {
  CanvassStore,
  toEvent,
  type CanvassEvent,
  type DoorState,
  type NewAction,
  type Outcome,
} from "@/features/canvass/utils/store";
import { syncOutbox, type SendBatch } from "@/features/canvass/utils/sync";

const U = "user_1";
const L1 = "list_1";
const L2 = "list_2";

let factory: IDBFactory;
let stores: CanvassStore[];
/** A store on this test's database (a second one is the app after a reload). */
function open(): CanvassStore {
  const s = new CanvassStore("precinct-canvass-test", { indexedDB: factory, IDBKeyRange });
  stores.push(s);
  return s;
}

beforeEach(() => {
  factory = new IDBFactory();
  stores = [];
});
afterEach(() => {
  for (const s of stores) s.close();
});

function action(door: number, result: ResultCode = "not_home", extra: Partial<NewAction> = {}): NewAction {
  return {
    doorId: `door_${door}` as NewAction["doorId"],
    voterId: null,
    result,
    answers: null,
    notes: null,
    doNotContact: false,
    wrongAddress: false,
    ...extra,
  };
}

/** canvass.sync's contract: each client id recorded once, a call's events in seq order, refusals in words. */
class FakeServer {
  recorded = new Map<string, { listId: string; seq: number; event: CanvassEvent; n: number }>();
  calls: { listId: string; seqs: number[] }[] = [];
  refuseDoors = new Set<string>();
  /** the next call is recorded but its answer never arrives (the connection dropped) */
  loseNextAnswer = false;
  /** the next call fails before reaching the server */
  failNext: Error | null = null;
  private n = 0;

  send: SendBatch = async (listId, events) => {
    if (this.failNext) {
      const e = this.failNext;
      this.failNext = null;
      throw e;
    }
    this.calls.push({ listId, seqs: events.map((e) => e.seq) });
    if (events.length > MAX_SYNC_EVENTS) throw new ConvexError({ code: "VALIDATION_ERROR", message: "too many" });
    const order = events.map((e, i) => ({ e, i })).sort((a, b) => a.e.seq - b.e.seq || a.i - b.i);
    const outcomes: Outcome[] = new Array(events.length);
    for (const { e, i } of order) {
      const seen = this.recorded.get(e.clientId);
      if (seen) outcomes[i] = { clientId: e.clientId, status: "duplicate", eventId: null, message: null };
      else if (this.refuseDoors.has(e.doorId))
        outcomes[i] = {
          clientId: e.clientId,
          status: "refused",
          eventId: null,
          message: "This door is not on the walk list.",
        };
      else {
        this.recorded.set(e.clientId, { listId, seq: e.seq, event: e, n: ++this.n });
        outcomes[i] = { clientId: e.clientId, status: "recorded", eventId: null, message: null };
      }
    }
    if (this.loseNextAnswer) {
      this.loseNextAnswer = false;
      throw new Error("[CONVEX M(canvass:sync)] Connection lost while action was in flight");
    }
    return { outcomes };
  };

  /** The recorded events of a list in the order the server recorded them. */
  order(listId: string) {
    return [...this.recorded.values()].filter((r) => r.listId === listId).sort((a, b) => a.n - b.n);
  }
}

describe("the outbox", () => {
  test("each action gets a client id and the device's next seq for its list; a batch is the oldest list's, in seq order", async () => {
    const store = open();
    const a = await store.record(U, L1, action(1), "1", 1_000);
    const b = await store.record(U, L2, action(2), "2", 2_000);
    const c = await store.record(U, L1, action(3), "3", 3_000);
    expect([a.seq, b.seq, c.seq]).toEqual([1, 1, 2]);
    expect(new Set([a.clientId, b.clientId, c.clientId]).size).toBe(3);
    expect(a.clientId).toMatch(/^[0-9a-f-]{36}$/);
    const batch = await store.nextBatch(U, MAX_SYNC_EVENTS);
    expect(batch.map((i) => i.clientId)).toEqual([a.clientId, c.clientId]);
    expect(await store.waitingCount(U)).toBe(3);
    // another user's outbox is theirs
    expect(await store.waitingCount("user_2")).toBe(0);
    expect(await store.nextBatch("user_2", 10)).toEqual([]);
  });

  test("the event sent is exactly canvass.sync's (no field of the app's own)", async () => {
    const store = open();
    const item = await store.record(
      U,
      L1,
      action(1, "contacted", {
        voterId: "voter_1" as NewAction["voterId"],
        answers: { support: "Yes" },
        notes: "Friendly",
        edits: [{ field: "phone", base: null, value: "217-555-0100" }],
        gps: { lat: 39.8, lng: -89.6, accuracy: 12 },
      }),
      "12 Oak St · Contacted",
      5_000,
    );
    expect(Object.keys(toEvent(item)).sort()).toEqual(
      [
        "answers",
        "at",
        "clientId",
        "doNotContact",
        "doorId",
        "edits",
        "gps",
        "notes",
        "result",
        "seq",
        "voterId",
        "wrongAddress",
      ].sort(),
    );
    expect(toEvent(item).at).toBe(5_000);
  });

  test("a reload (a new Dexie on the same database) finds the outbox, and the order goes on", async () => {
    const first = open();
    for (let i = 0; i < 20; i++) await first.record(U, L1, action(i), `door ${i}`, 1_000 + i);
    first.close();
    const after = open();
    const waiting = await after.waiting(U, L1);
    expect(waiting.map((i) => i.seq)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    const next = await after.record(U, L1, action(99), "door 99", 9_000);
    expect(next.seq).toBe(21);
  });
});

describe("the sync loop", () => {
  test("sends in seq order in batches of at most 100, each list in turn, and empties the outbox", async () => {
    const store = open();
    const server = new FakeServer();
    for (let i = 0; i < 250; i++) await store.record(U, L1, action(i), `${i}`, 1_000 + i);
    for (let i = 0; i < 3; i++) await store.record(U, L2, action(500 + i), `${i}`, 5_000 + i);
    const report = await syncOutbox(store, U, server.send);
    expect(report).toEqual({ settled: 253, refused: 0, stopped: null });
    expect(server.calls.map((c) => [c.listId, c.seqs.length])).toEqual([
      [L1, 100],
      [L1, 100],
      [L1, 50],
      [L2, 3],
    ]);
    expect(server.order(L1).map((r) => r.seq)).toEqual(Array.from({ length: 250 }, (_, i) => i + 1));
    expect(await store.waitingCount(U)).toBe(0);
  });

  test("an answer lost on the way back: the batch stays, is sent again, and is recorded once", async () => {
    const store = open();
    const server = new FakeServer();
    for (let i = 0; i < 20; i++) await store.record(U, L1, action(i), `${i}`, 1_000 + i);
    server.loseNextAnswer = true;
    expect((await syncOutbox(store, U, server.send)).stopped).toBe("unreachable");
    expect(server.recorded.size).toBe(20);
    expect(await store.waitingCount(U)).toBe(20);
    // the page reloads, the outbox is still there; replayed three times (another tab, a retry)
    const after = open();
    for (let round = 0; round < 3; round++) await syncOutbox(after, U, server.send);
    expect(server.recorded.size).toBe(20);
    expect(await after.waitingCount(U)).toBe(0);
  });

  test("a refused action is kept with the server's sentence, apart; sent again only when the canvasser says so", async () => {
    const store = open();
    const server = new FakeServer();
    server.refuseDoors.add("door_2");
    for (let i = 1; i <= 3; i++) await store.record(U, L1, action(i), `Door ${i} · Not Home`, 1_000 + i);
    const report = await syncOutbox(store, U, server.send);
    expect(report).toMatchObject({ settled: 3, refused: 1, stopped: null });
    expect(await store.waitingCount(U)).toBe(0);
    const refused = await store.refusedOf(U);
    expect(refused.map((r) => [r.label, r.message])).toEqual([
      ["Door 2 · Not Home", "This door is not on the walk list."],
    ]);
    // never dropped by syncing again
    await syncOutbox(store, U, server.send);
    expect(await store.refusedOf(U)).toHaveLength(1);
    // sent again (same client id, same seq) once the door is fixed
    server.refuseDoors.clear();
    await store.retry(refused[0].clientId);
    expect((await store.waiting(U, L1)).map((i) => [i.clientId, i.seq])).toEqual([[refused[0].clientId, 2]]);
    await syncOutbox(store, U, server.send);
    expect(server.recorded.has(refused[0].clientId)).toBe(true);
    expect(await store.refusedOf(U)).toEqual([]);
    // discarding is the canvasser's explicit choice
    server.refuseDoors.add("door_9");
    await store.record(U, L1, action(9), "Door 9 · Not Home", 9_000);
    await syncOutbox(store, U, server.send);
    const [gone] = await store.refusedOf(U);
    await store.discard(gone.clientId);
    expect(await store.refusedOf(U)).toEqual([]);
  });

  test("a recorded action with a note (a teammate's newer value kept) leaves the note for the canvasser", async () => {
    const store = open();
    const item = await store.record(U, L1, action(1, "contacted"), "12 Oak St · Contacted (Ann)", 1_000);
    const message = "The result was recorded, but the voter's details were not changed: Ann was changed by Bea";
    await syncOutbox(store, U, async () => ({
      outcomes: [{ clientId: item.clientId, status: "recorded", eventId: null, message }],
    }));
    expect((await store.noticesOf(U)).map((n) => [n.label, n.message])).toEqual([[item.label, message]]);
    await store.dismissNotice(item.clientId);
    expect(await store.noticesOf(U)).toEqual([]);
  });

  test("a call refused as a whole moves its actions to Not accepted; a lost connection or session keeps them all", async () => {
    const store = open();
    const server = new FakeServer();
    for (let i = 0; i < 3; i++) await store.record(U, L1, action(i), `${i}`, 1_000 + i);
    server.failNext = new Error("WebSocket closed");
    expect(await syncOutbox(store, U, server.send)).toMatchObject({ stopped: "unreachable", settled: 0 });
    server.failNext = new ConvexError({ code: "SERVER_ERROR", message: "A server error occurred." });
    expect(await syncOutbox(store, U, server.send)).toMatchObject({ stopped: "unreachable" });
    server.failNext = new ConvexError({ code: "UNAUTHORIZED", message: "Please log in to continue." });
    expect(await syncOutbox(store, U, server.send)).toMatchObject({ stopped: "signedOut" });
    expect(await store.waitingCount(U)).toBe(3);
    expect(await store.refusedOf(U)).toEqual([]);
    server.failNext = new ConvexError({ code: "NOT_FOUND", message: "The requested information could not be found." });
    expect(await syncOutbox(store, U, server.send)).toMatchObject({ stopped: null, refused: 3 });
    expect(await store.waitingCount(U)).toBe(0);
    expect((await store.refusedOf(U)).map((r) => r.message)).toEqual(
      Array(3).fill("The requested information could not be found."),
    );
  });

  test("an action discarded or settled by another tab during a send is not revived by the answer", async () => {
    const store = open();
    const item = await store.record(U, L1, action(1), "1", 1_000);
    const [batch] = [await store.nextBatch(U, 10)];
    await store.applyOutcomes(batch, [{ clientId: item.clientId, status: "recorded", eventId: null, message: null }]);
    // the same answer applied again (a second tab's loop)
    expect(
      await store.applyOutcomes(batch, [{ clientId: item.clientId, status: "refused", eventId: null, message: "x" }]),
    ).toBe(0);
    expect(await store.refusedOf(U)).toEqual([]);
  });
});

describe("door states", () => {
  test("a result recorded here shows at once, until the server's state (as late) has it", async () => {
    const store = open();
    const server: DoorState[] = [
      { doorId: "door_1" as DoorState["doorId"], lastResult: "not_home", lastAt: 1_000, attempts: 1 },
    ];
    await store.record(U, L1, action(1, "contacted"), "1", 5_000);
    await store.record(U, L1, action(2, "refused"), "2", 6_000);
    const shown = shownStates(server, await store.marksOf(U, L1));
    expect(shown.get("door_1")).toEqual({ result: "contacted", at: 5_000, local: true });
    expect(shown.get("door_2")).toEqual({ result: "refused", at: 6_000, local: true });
    // a teammate's later result wins over an older mark
    expect(
      shownStates(
        [{ doorId: "door_2" as DoorState["doorId"], lastResult: "moved", lastAt: 7_000, attempts: 2 }],
        await store.marksOf(U, L1),
      ).get("door_2"),
    ).toEqual({ result: "moved", at: 7_000, local: false });
    // once sent and in the server's states, the marks go
    await syncOutbox(store, U, new FakeServer().send);
    const bundleLike = [
      { doorId: "door_1" as DoorState["doorId"], lastResult: "contacted" as const, lastAt: 5_000, attempts: 2 },
      { doorId: "door_2" as DoorState["doorId"], lastResult: "refused" as const, lastAt: 6_000, attempts: 1 },
    ];
    await store.saveBundle(U, {
      list: { id: L1 as never, name: "L", status: "Active", expiresAt: 0, open: true },
      survey: null,
      doors: [],
      states: [],
      myClaims: [],
    });
    await store.saveStates(U, L1, bundleLike);
    expect(await store.marksOf(U, L1)).toEqual([]);
    // a refused action's mark goes with it
    const s2 = new FakeServer();
    s2.refuseDoors.add("door_3");
    await store.record(U, L1, action(3), "3", 8_000);
    await syncOutbox(store, U, s2.send);
    expect(await store.marksOf(U, L1)).toEqual([]);
  });
});
