/**
 * Co-edited Yjs documents (issue 12 §3), on both backends: clients pushing and pulling through
 * api.yjs converge, a pull carries only what the client lacks, compaction keeps the content
 * identical in chunks under 1 MiB and deletes only what every connected client acknowledged, and
 * the document's room permissions hold (campaigns.view to read, campaigns.manage to write).
 */
import { ConvexError } from "convex/values";
import { describe, expect, test } from "vitest";
import * as Y from "yjs";
import { api, internal } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import {
  YJS_CLIENT_TIMEOUT_MS,
  YJS_COMPACT_AFTER_UPDATES,
  YJS_MAX_UPDATE_BYTES,
  YJS_SNAPSHOT_CHUNK_BYTES,
} from "@convex/tables/yjs";
import { createMember, roleFixture, setupTest, type TestConvex } from "./setup";

type Caller = { query: TestConvex["query"]; mutation: TestConvex["mutation"] };
const REMOTE = "remote";

function bytes(u: Uint8Array): ArrayBuffer {
  return u.buffer.slice(u.byteOffset, u.byteOffset + u.byteLength) as ArrayBuffer;
}

/** A client as the provider behaves: local updates queued and pushed in order, pulls by cursor. */
class SimClient {
  readonly doc = new Y.Doc();
  cursor = 0;
  clientSeq = 0;
  pending: Uint8Array[] = [];
  constructor(
    readonly as: Caller,
    readonly docId: string,
    readonly sessionId: string,
  ) {
    this.doc.on("update", (u: Uint8Array, origin: unknown) => {
      if (origin !== REMOTE) this.pending.push(u);
    });
  }
  get text() {
    return this.doc.getText("body").toJSON();
  }
  async push() {
    for (const u of this.pending.splice(0)) {
      await this.as.mutation(api.yjs.push, {
        docId: this.docId,
        sessionId: this.sessionId,
        clientSeq: ++this.clientSeq,
        update: bytes(u),
      });
    }
  }
  /** Pulls until caught up; returns how many replies carried a snapshot and how many updates came. */
  async pull() {
    let snapshots = 0;
    let updates = 0;
    for (;;) {
      const r = await this.as.query(api.yjs.pull, { docId: this.docId, after: this.cursor, sessionId: this.sessionId });
      this.doc.transact(() => {
        if (r.snapshot) {
          snapshots += 1;
          for (const c of r.snapshot) expect(c.byteLength).toBeLessThanOrEqual(YJS_SNAPSHOT_CHUNK_BYTES);
          Y.applyUpdate(this.doc, joined(r.snapshot));
        }
        for (const u of r.updates) Y.applyUpdate(this.doc, new Uint8Array(u));
      }, REMOTE);
      updates += r.updates.length;
      this.cursor = r.upTo;
      if (!r.more) return { snapshots, updates };
    }
  }
  async ack() {
    await this.as.mutation(api.yjs.ack, { docId: this.docId, sessionId: this.sessionId, seq: this.cursor });
  }
}

function joined(chunks: ArrayBuffer[]) {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(new Uint8Array(c), at);
    at += c.byteLength;
  }
  return out;
}

async function fixture() {
  const t = setupTest();
  const f = await roleFixture(t);
  const campaignId = await t.run((ctx) =>
    ctx.db.insert("campaigns", {
      orgId: f.campaign_manager.orgId,
      name: "GOTV",
      description: null,
      campaign_type: "email",
      status: "draft",
      updatedAt: Date.now(),
    }),
  );
  const docId = `campaign:${campaignId}`;
  const bob = await createMember(t, ["campaign_manager"], { orgId: f.orgId, firstName: "Bob", lastName: "Stone" });
  return { t, f, docId, bob };
}

async function docRow(t: TestConvex, docId: string) {
  return await t.run(async (ctx) => (await ctx.db.query("yDocs").collect()).find((d) => d.docId === docId) ?? null);
}

async function compactAll(t: TestConvex, docRef: Id<"yDocs">) {
  for (let i = 0; i < 50; i++) {
    const step = await t.mutation(internal.yjs.compact, { docRef });
    if (!step || step.next !== "now") return step;
  }
  throw new Error("compaction did not finish");
}

async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(ConvexError);
    return (e as ConvexError<{ code: string }>).data.code;
  }
  throw new Error("expected the call to be refused");
}

describe("relay", () => {
  test("two and three clients editing one document concurrently converge", async () => {
    const { f, docId, bob } = await fixture();
    const a = new SimClient(f.campaign_manager.as, docId, "tab-a");
    const b = new SimClient(bob.as, docId, "tab-b");
    const c = new SimClient(f.creator.as, docId, "tab-c");
    // concurrent edits: each starts from nothing and edits before seeing the others
    a.doc.getText("body").insert(0, "Hello from A. ");
    b.doc.getText("body").insert(0, "Bob was here. ");
    a.doc.getMap("meta").set("subject", "GOTV");
    b.doc.getMap("meta").set("preheader", "Vote Tuesday");
    await Promise.all([a.push(), b.push()]);
    await Promise.all([a.pull(), b.pull()]);
    expect(a.text).toBe(b.text);
    expect(a.text).toContain("Hello from A.");
    expect(a.text).toContain("Bob was here.");
    // a third joins late, all three edit at once
    await c.pull();
    expect(c.text).toBe(a.text);
    a.doc.getText("body").insert(0, "1");
    b.doc.getText("body").insert(b.text.length, "2");
    c.doc.getText("body").delete(0, 5);
    c.doc.getMap("meta").set("subject", "GOTV!");
    await Promise.all([a.push(), b.push(), c.push()]);
    await Promise.all([a.pull(), b.pull(), c.pull()]);
    expect(b.text).toBe(a.text);
    expect(c.text).toBe(a.text);
    expect(a.doc.getMap("meta").toJSON()).toEqual({ subject: "GOTV!", preheader: "Vote Tuesday" });
    expect(c.doc.getMap("meta").toJSON()).toEqual(a.doc.getMap("meta").toJSON());
  });

  test("a pull carries only what the client lacks: after its cursor, without its own updates, in pages", async () => {
    const { f, docId, bob } = await fixture();
    const a = new SimClient(f.campaign_manager.as, docId, "tab-a");
    expect(await a.as.query(api.yjs.pull, { docId, after: 0 })).toEqual({
      upTo: 0,
      lastSeq: 0,
      snapshot: null,
      updates: [],
      more: false,
    });
    for (const w of ["one ", "two ", "three "]) {
      a.doc.getText("body").insert(a.text.length, w);
      await a.push();
    }
    // its own updates are skipped, the cursor still moves
    const own = await a.as.query(api.yjs.pull, { docId, after: 0, sessionId: "tab-a" });
    expect(own).toMatchObject({ upTo: 3, lastSeq: 3, updates: [], snapshot: null, more: false });
    // another client from cursor 1 gets exactly updates 2 and 3
    const b = new SimClient(bob.as, docId, "tab-b");
    const r = await b.as.query(api.yjs.pull, { docId, after: 1, sessionId: "tab-b" });
    expect(r.upTo).toBe(3);
    expect(r.updates).toHaveLength(2);
    // caught up: nothing
    expect((await b.as.query(api.yjs.pull, { docId, after: 3, sessionId: "tab-b" })).updates).toEqual([]);
    // a cursor from the future starts over
    expect((await b.as.query(api.yjs.pull, { docId, after: 99, sessionId: "tab-b" })).updates).toHaveLength(3);
    await b.pull();
    expect(b.text).toBe("one two three ");
  });

  test("a retried push is stored once", async () => {
    const { t, f, docId } = await fixture();
    const doc = new Y.Doc();
    const updates: Uint8Array[] = [];
    doc.on("update", (u: Uint8Array) => updates.push(u));
    doc.getText("body").insert(0, "x");
    doc.getText("body").insert(1, "y");
    const push = (clientSeq: number, u: Uint8Array) =>
      f.campaign_manager.as.mutation(api.yjs.push, { docId, sessionId: "tab-a", clientSeq, update: bytes(u) });
    expect(await push(1, updates[0])).toEqual({ seq: 1, duplicate: false });
    expect(await push(1, updates[0])).toEqual({ seq: 1, duplicate: true });
    expect(await push(2, updates[1])).toEqual({ seq: 2, duplicate: false });
    expect(await push(2, updates[1])).toEqual({ seq: 2, duplicate: true });
    expect(await t.run((ctx) => ctx.db.query("yUpdates").collect())).toHaveLength(2);
  });

  test("an update over the size limit is refused with a clear message", async () => {
    const { f, docId } = await fixture();
    const big = new ArrayBuffer(YJS_MAX_UPDATE_BYTES + 1);
    await expect(
      f.campaign_manager.as.mutation(api.yjs.push, { docId, sessionId: "tab-a", clientSeq: 1, update: big }),
    ).rejects.toThrow(/too large to save/);
    await expect(
      f.campaign_manager.as.mutation(api.yjs.push, {
        docId,
        sessionId: "tab-a",
        clientSeq: 1,
        update: new ArrayBuffer(0),
      }),
    ).rejects.toThrow(/empty update/);
  });
});

describe("compaction", () => {
  test("keeps the content identical; a load is then one snapshot plus a short tail", async () => {
    const { t, f, docId, bob } = await fixture();
    const a = new SimClient(f.campaign_manager.as, docId, "tab-a");
    for (let i = 0; i < 60; i++) {
      a.doc.transact(() => {
        const body = a.doc.getText("body");
        body.insert(body.length, `line ${i}\n`);
        if (i % 4 === 0) body.delete(0, 2);
        a.doc.getMap("meta").set("count", i);
      });
      await a.push();
    }
    await a.pull();
    await a.ack();
    const before = new SimClient(bob.as, docId, "tab-before");
    expect(await before.pull()).toEqual({ snapshots: 0, updates: 60 });

    const row = (await docRow(t, docId))!;
    const step = await compactAll(t, row._id);
    expect(step).toMatchObject({ snapshotSeq: 60, deletedThrough: 60, next: "none" });
    expect(await t.run((ctx) => ctx.db.query("yUpdates").collect())).toEqual([]);

    // a fresh load: the snapshot alone, content identical
    const after = new SimClient(bob.as, docId, "tab-after");
    expect(await after.pull()).toEqual({ snapshots: 1, updates: 0 });
    expect(after.text).toBe(a.text);
    expect(after.doc.getMap("meta").toJSON()).toEqual({ count: 59 });
    expect(Y.encodeStateVector(after.doc)).toEqual(Y.encodeStateVector(a.doc));

    // new edits: snapshot plus the short tail; the client that was there gets only the tail
    a.doc.getText("body").insert(0, "NEW ");
    await a.push();
    const later = new SimClient(bob.as, docId, "tab-later");
    expect(await later.pull()).toEqual({ snapshots: 1, updates: 1 });
    expect(later.text).toBe(a.text);
    expect(await after.pull()).toEqual({ snapshots: 0, updates: 1 });
    expect(after.text).toBe(a.text);
  });

  test("deletes only what every connected client acknowledged; a client back after long gets the snapshot", async () => {
    const { t, f, docId, bob } = await fixture();
    const a = new SimClient(f.campaign_manager.as, docId, "tab-a");
    const slow = new SimClient(bob.as, docId, "tab-slow");
    const gone = new SimClient(f.viewer.as, docId, "tab-gone");
    const write = async (n: number) => {
      for (let i = 0; i < n; i++) {
        a.doc.getText("body").insert(0, `${i};`);
        await a.push();
      }
    };
    await write(5);
    await gone.pull();
    await gone.ack(); // at 5, then silent for longer than the timeout
    await write(15);
    await slow.pull();
    await slow.ack(); // at 20, connected
    await write(40);
    await a.pull();
    await a.ack(); // at 60
    await t.run(async (ctx) => {
      const row = (await ctx.db.query("yClients").collect()).find((c) => c.sessionId === "tab-gone")!;
      await ctx.db.patch("yClients", row._id, { lastSeen: Date.now() - YJS_CLIENT_TIMEOUT_MS - 1_000 });
    });
    const row = (await docRow(t, docId))!;
    const step = await t.mutation(internal.yjs.compact, { docRef: row._id });
    expect(step).toMatchObject({ snapshotSeq: 60, deletedThrough: 20, next: "later" });
    const seqs = (await t.run((ctx) => ctx.db.query("yUpdates").collect())).map((u) => u.seq);
    expect(Math.min(...seqs)).toBe(21);
    expect(seqs).toHaveLength(40);

    // the connected client catches up with updates only
    expect(await slow.pull()).toEqual({ snapshots: 0, updates: 40 });
    expect(slow.text).toBe(a.text);
    // the returning one lacks deleted updates: it gets the snapshot
    expect(await gone.pull()).toEqual({ snapshots: 1, updates: 0 });
    expect(gone.text).toBe(a.text);

    // once the slow client acknowledged, the cleanup step deletes the rest
    await slow.ack();
    expect(await t.mutation(internal.yjs.compact, { docRef: row._id })).toMatchObject({
      deletedThrough: 60,
      next: "none",
    });
    expect(await t.run((ctx) => ctx.db.query("yUpdates").collect())).toEqual([]);
    // a connected client silent past the timeout no longer holds anything back
    a.doc.getText("body").insert(0, "x");
    await a.push();
    await t.run(async (ctx) => {
      for (const c of await ctx.db.query("yClients").collect())
        await ctx.db.patch("yClients", c._id, { lastSeen: Date.now() - YJS_CLIENT_TIMEOUT_MS - 1_000 });
    });
    expect(await t.mutation(internal.yjs.compact, { docRef: row._id })).toMatchObject({
      snapshotSeq: 61,
      deletedThrough: 61,
      next: "none",
    });
  });

  test("sessions not heard from for a day are forgotten when another joins", async () => {
    const { t, f, docId, bob } = await fixture();
    await f.viewer.as.mutation(api.yjs.ack, { docId, sessionId: "tab-old", seq: 0 });
    await t.run(async (ctx) => {
      const row = (await ctx.db.query("yClients").collect())[0];
      await ctx.db.patch("yClients", row._id, { lastSeen: Date.now() - 2 * 86_400_000 });
    });
    await bob.as.mutation(api.yjs.ack, { docId, sessionId: "tab-new", seq: 0 });
    expect((await t.run((ctx) => ctx.db.query("yClients").collect())).map((c) => c.sessionId)).toEqual(["tab-new"]);
  });

  test("a large snapshot is stored in chunks under 1 MiB and loads identically", async () => {
    const { t, f, docId, bob } = await fixture();
    const a = new SimClient(f.campaign_manager.as, docId, "tab-a");
    // incompressible text, three updates of ~600 KB
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let k = 0; k < 3; k++) {
      const text = Array.from({ length: 600_000 }, () => String.fromCharCode(33 + (rand() % 90))).join("");
      a.doc.getText(`part${k}`).insert(0, text);
      await a.push();
    }
    await a.pull();
    await a.ack();
    const row = (await docRow(t, docId))!;
    const step = (await compactAll(t, row._id))!;
    expect(step.snapshotBytes).toBeGreaterThan(1_800_000);
    const chunks = await t.run((ctx) => ctx.db.query("ySnapshots").collect());
    expect(chunks.length).toBe(Math.ceil(step.snapshotBytes / YJS_SNAPSHOT_CHUNK_BYTES));
    for (const c of chunks) expect(c.data.byteLength).toBeLessThanOrEqual(YJS_SNAPSHOT_CHUNK_BYTES);
    const b = new SimClient(bob.as, docId, "tab-b");
    expect(await b.pull()).toEqual({ snapshots: 1, updates: 0 });
    for (let k = 0; k < 3; k++) expect(b.doc.getText(`part${k}`).toJSON()).toBe(a.doc.getText(`part${k}`).toJSON());
  });

  test(`past ${YJS_COMPACT_AFTER_UPDATES} updates a push schedules compaction`, async () => {
    const { t, f, docId } = await fixture();
    const a = new SimClient(f.campaign_manager.as, docId, "tab-a");
    for (let i = 0; i < YJS_COMPACT_AFTER_UPDATES - 1; i++) {
      a.doc.getMap("canvas").set("x", i);
      await a.push();
    }
    expect((await docRow(t, docId))!.compactJob).toBeUndefined();
    a.doc.getMap("canvas").set("x", -1);
    await a.push();
    const row = (await docRow(t, docId))!;
    // scheduled (convex-test) or already run (local-backend runs its scheduler)
    expect(row.compactJob !== undefined || row.snapshotSeq > 0).toBe(true);
    await compactAll(t, row._id);
    const b = new SimClient(f.viewer.as, docId, "tab-b");
    await b.pull();
    expect(b.doc.getMap("canvas").get("x")).toBe(-1);
    expect((await docRow(t, docId))!.snapshotSeq).toBe(YJS_COMPACT_AFTER_UPDATES);
  });
});

describe("permissions", () => {
  test("campaigns.view reads, campaigns.manage writes; other organisations and signed-out callers are refused", async () => {
    const { t, f, docId } = await fixture();
    const u = new Y.Doc();
    let update: Uint8Array = new Uint8Array();
    u.on("update", (x: Uint8Array) => (update = x));
    u.getText("body").insert(0, "secret plan");
    const push = (as: Caller, sessionId = "tab-x") =>
      as.mutation(api.yjs.push, { docId, sessionId, clientSeq: 1, update: bytes(update) });
    const pull = (as: Caller) => as.query(api.yjs.pull, { docId, after: 0 });

    expect(await push(f.campaign_manager.as, "tab-cm")).toEqual({ seq: 1, duplicate: false });
    // viewer: reads and acknowledges, may not write
    expect((await pull(f.viewer.as)).updates).toHaveLength(1);
    await f.viewer.as.mutation(api.yjs.ack, { docId, sessionId: "tab-v", seq: 1 });
    expect(await code(push(f.viewer.as))).toBe("FORBIDDEN");
    // volunteer and account admin hold no campaigns.view
    expect(await code(pull(f.volunteer.as))).toBe("FORBIDDEN");
    expect(await code(push(f.volunteer.as))).toBe("FORBIDDEN");
    expect(await code(pull(f.account_admin.as))).toBe("FORBIDDEN");
    // another organisation: the record does not exist for it
    expect(await code(pull(f.outsider.as))).toBe("NOT_FOUND");
    expect(await code(push(f.outsider.as))).toBe("NOT_FOUND");
    expect(await code(f.outsider.as.mutation(api.yjs.ack, { docId, sessionId: "tab-o", seq: 1 }))).toBe("NOT_FOUND");
    // signed out
    expect(await code(pull(t))).toBe("UNAUTHORIZED");
    expect(await code(push(t))).toBe("UNAUTHORIZED");
    // malformed room, bad session id, another user's session
    expect(await code(f.campaign_manager.as.query(api.yjs.pull, { docId: "nothing:1", after: 0 }))).toBe(
      "VALIDATION_ERROR",
    );
    expect(await code(push(f.campaign_manager.as, "bad id!"))).toBe("VALIDATION_ERROR");
    expect(await code(push(f.creator.as, "tab-cm"))).toBe("FORBIDDEN");
    expect(await code(f.creator.as.mutation(api.yjs.ack, { docId, sessionId: "tab-cm", seq: 1 }))).toBe("FORBIDDEN");
    // nothing the refused callers sent was stored
    expect(await t.run((ctx) => ctx.db.query("yUpdates").collect())).toHaveLength(1);
  });
});
