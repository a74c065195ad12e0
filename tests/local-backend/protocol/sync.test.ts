/**
 * The sync protocol through the real `convex/browser` ConvexClient: live updates across clients,
 * gapless pagination under concurrent writes, actions, mutation dedupe on resend.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anyApi } from "convex/server";
import type { ConvexClient } from "convex/browser";
import { RawSyncClient, decodeTs, newClient, startFixture, waitForQuery } from "./helpers";

type Message = { _id: string; body: string; author: string; channel: string };

let backend: Awaited<ReturnType<typeof startFixture>>;
const clients: ConvexClient[] = [];
function client(): ConvexClient {
  const c = newClient(backend.cloudUrl);
  clients.push(c);
  return c;
}

beforeAll(async () => {
  backend = await startFixture();
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await backend?.stop();
});

describe("sync protocol with ConvexClient", () => {
  it("delivers a mutation from one client to another client's subscription", async () => {
    const a = client();
    const b = client();
    // b subscribes first and sees the empty channel
    const initial = await waitForQuery<Message[]>(b, anyApi.messages.list, { channel: "live" }, () => true);
    expect(initial).toEqual([]);
    const arrived = waitForQuery<Message[]>(b, anyApi.messages.list, { channel: "live" }, (v) => v.length === 1);
    await a.mutation(anyApi.messages.send, { channel: "live", body: "hello", author: "a" });
    const value = await arrived;
    expect(value.map((m) => m.body)).toEqual(["hello"]);
  });

  it("resolves a mutation only after the writer's own subscription reflects it", async () => {
    const a = client();
    await waitForQuery<Message[]>(a, anyApi.messages.list, { channel: "own" }, () => true);
    const seen: number[] = [];
    const unsub = a.onUpdate(anyApi.messages.list, { channel: "own" }, (v: Message[]) => seen.push(v.length));
    await a.mutation(anyApi.messages.send, { channel: "own", body: "x", author: "a" });
    // read-your-writes: by the time the promise resolved the local result includes the write
    expect(a.client.localQueryResult("messages:list", { channel: "own" })).toHaveLength(1);
    unsub();
    expect(seen.at(-1)).toBe(1);
  });

  it("pipelines one client's mutations: each sees the previous one, answers come in order", async () => {
    const a = client();
    const watcher = client();
    const seen = waitForQuery<number | null>(watcher, anyApi.tx.getCounter, { name: "sync-pipe" }, (v) => v === 20);
    const order: number[] = [];
    const results = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const v = (await a.mutation(anyApi.tx.increment, { name: "sync-pipe" })) as number;
        order.push(v);
        return v;
      }),
    );
    const expected = Array.from({ length: 20 }, (_, i) => i + 1);
    expect(results).toEqual(expected);
    expect(order).toEqual(expected);
    expect(await seen).toBe(20);
  });

  it("only re-runs queries whose reads intersect the writes", async () => {
    const a = client();
    const b = client();
    let otherUpdates = 0;
    await waitForQuery<Message[]>(b, anyApi.messages.list, { channel: "quiet" }, () => true);
    const unsub = b.onUpdate(anyApi.messages.list, { channel: "quiet" }, () => {
      otherUpdates++;
    });
    const busy = waitForQuery<Message[]>(b, anyApi.messages.list, { channel: "busy" }, (v) => v.length === 3);
    for (let i = 0; i < 3; i++) await a.mutation(anyApi.messages.send, { channel: "busy", body: `m${i}`, author: "a" });
    await busy;
    unsub();
    // onUpdate fires once with the current value; writes to another channel must not add more
    expect(otherUpdates).toBe(1);
  });

  it("runs actions and reflects their writes", async () => {
    const a = client();
    const arrived = waitForQuery<Message[]>(a, anyApi.messages.list, { channel: "act" }, (v) => v.length === 1);
    await a.action(anyApi.protocol.misc.sendViaAction, { channel: "act", body: "from action" });
    expect((await arrived)[0].author).toBe("action");
  });

  it("reports function errors with ConvexError data and keeps the connection usable", async () => {
    const a = client();
    const err = await a.mutation(anyApi.protocol.misc.failWithData, {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as { data?: unknown }).data).toEqual({ code: "NOPE", detail: 42 });
    expect(await a.query(anyApi.protocol.misc.double, { n: 21 })).toBe(42);
  });

  it("paginates gaplessly while rows are inserted and deleted", async () => {
    const writer = client();
    const reader = client();
    const channel = "pages";
    const ids: string[] = [];
    for (let i = 0; i < 25; i++) {
      ids.push(
        await writer.mutation(anyApi.messages.send, { channel, body: `p${String(i).padStart(2, "0")}`, author: "w" }),
      );
    }
    type Page = { results: Message[]; status: string; loadMore: (n: number) => boolean };
    let latest: Page | undefined;
    let wake: (() => void) | null = null;
    const unsub = reader.onPaginatedUpdate_experimental(
      anyApi.messages.page,
      { channel },
      { initialNumItems: 10 },
      // typed as PaginationResult, but the value is a PaginatedQueryResult (results/status/loadMore)
      (r) => {
        latest = r as unknown as Page;
        wake?.();
      },
    );
    const until = async (pred: (p: Page) => boolean) => {
      while (!latest || !pred(latest)) await new Promise<void>((r) => (wake = r));
      return latest;
    };
    await until((p) => p.results.length === 10);
    latest!.loadMore(10);
    await until((p) => p.results.length === 20);

    // messages:page is newest-first. Delete a row inside the first page and insert a newer one
    // (which belongs at the top of the first page): the loaded pages stay contiguous.
    const name = (i: number) => `p${String(i).padStart(2, "0")}`;
    await writer.mutation(anyApi.messages.remove, { id: ids[20] });
    await writer.mutation(anyApi.messages.send, { channel, body: "p99", author: "w" });
    const after = await until(
      (p) => !p.results.some((m) => m.body === "p20") && p.results.some((m) => m.body === "p99"),
    );
    const bodies = after.results.map((m) => m.body);
    expect(new Set(bodies).size).toBe(bodies.length);
    const loaded = Array.from({ length: 20 }, (_, i) => name(24 - i)).filter((b) => b !== "p20");
    expect(bodies).toEqual(["p99", ...loaded]);

    latest!.loadMore(100);
    const all = await until((p) => p.status === "Exhausted");
    expect(all.results.map((m) => m.body)).toEqual([
      "p99",
      ...Array.from({ length: 25 }, (_, i) => name(24 - i)).filter((b) => b !== "p20"),
    ]);
    unsub();
  });
});

describe("sync protocol on the wire", () => {
  it("versions transitions exactly and encodes ts as u64 little-endian", async () => {
    const raw = new RawSyncClient(backend.cloudUrl);
    await raw.opened;
    raw.connect();
    raw.send({
      type: "ModifyQuerySet",
      baseVersion: 0,
      newVersion: 1,
      modifications: [{ type: "Add", queryId: 0, udfPath: "messages:list", args: [{ channel: "wire" }] }],
    });
    const t1 = await raw.next((m) => m.type === "Transition");
    expect(t1.startVersion).toEqual({ querySet: 0, ts: "AAAAAAAAAAA=", identity: 0 });
    const end1 = t1.endVersion as { querySet: number; ts: string; identity: number };
    expect(end1.querySet).toBe(1);
    expect(t1.modifications).toEqual([{ type: "QueryUpdated", queryId: 0, value: [], logLines: [], journal: null }]);

    raw.send({
      type: "Mutation",
      requestId: 0,
      udfPath: "messages:send",
      args: [{ channel: "wire", body: "b", author: "r" }],
    });
    const resp = await raw.next((m) => m.type === "MutationResponse");
    expect(resp.success).toBe(true);
    const mutationTs = decodeTs(resp.ts);
    const t2 = await raw.next((m) => m.type === "Transition");
    expect(t2.startVersion).toEqual(end1);
    expect(decodeTs((t2.endVersion as { ts: string }).ts) >= mutationTs).toBe(true);
    expect((t2.modifications as Array<{ value: Message[] }>)[0].value.map((m) => m.body)).toEqual(["b"]);

    raw.send({
      type: "ModifyQuerySet",
      baseVersion: 1,
      newVersion: 2,
      modifications: [{ type: "Remove", queryId: 0 }],
    });
    const t3 = await raw.next((m) => m.type === "Transition");
    expect(t3.modifications).toEqual([{ type: "QueryRemoved", queryId: 0 }]);
    expect((t3.endVersion as { querySet: number }).querySet).toBe(2);
    raw.close();
  });

  it("dedupes a mutation resent by a reconnecting session", async () => {
    const sessionId = `dedupe-${Date.now()}`;
    const first = new RawSyncClient(backend.cloudUrl);
    await first.opened;
    first.connect(sessionId);
    const mutation = {
      type: "Mutation",
      requestId: 7,
      udfPath: "messages:send",
      args: [{ channel: "dedupe", body: "once", author: "r" }],
    };
    first.send(mutation);
    const r1 = await first.next((m) => m.type === "MutationResponse");
    first.close();
    await first.closed;

    const second = new RawSyncClient(backend.cloudUrl);
    await second.opened;
    second.connect(sessionId);
    second.send({ type: "ModifyQuerySet", baseVersion: 0, newVersion: 1, modifications: [] });
    second.send(mutation);
    const r2 = await second.next((m) => m.type === "MutationResponse");
    expect(r2).toEqual(r1);
    // a Transition follows so the client can resolve it
    await second.next(
      (m) => m.type === "Transition" && decodeTs((m.endVersion as { ts: string }).ts) >= decodeTs(r1.ts),
    );
    second.close();

    const c = client();
    const rows = await c.query(anyApi.messages.list, { channel: "dedupe" });
    expect(rows).toHaveLength(1);
  });

  it("rejects a query set modification with the wrong base version", async () => {
    const raw = new RawSyncClient(backend.cloudUrl);
    await raw.opened;
    raw.connect();
    raw.send({ type: "ModifyQuerySet", baseVersion: 5, newVersion: 6, modifications: [] });
    const fatal = await raw.next((m) => m.type === "FatalError");
    expect(String(fatal.error)).toMatch(/base version 5/);
    await raw.closed;
  });
});
