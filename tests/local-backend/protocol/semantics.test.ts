/**
 * Smaller semantics as Convex has them, through the real clients: `db.get` / `db.system.get`
 * refuse ids of the other namespace, a full final page is not done (the next, empty one is), a
 * search in a mutation sees its own writes, `consistentQuery` reads at its pinned timestamp, a
 * scheduled mutation that cancels itself ends canceled, staged indexes are kept and refused.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anyApi } from "convex/server";
import { ConvexHttpClient, type ConvexClient } from "convex/browser";
import type { EngineImpl } from "../../../local-backend/src/engine";
import { newClient, startFixture, waitForQuery } from "./helpers";

let backend: Awaited<ReturnType<typeof startFixture>>;
let http: ConvexHttpClient;
let ws: ConvexClient;

beforeAll(async () => {
  backend = await startFixture();
  http = new ConvexHttpClient(backend.cloudUrl);
  ws = newClient(backend.cloudUrl);
});

afterAll(async () => {
  await ws?.close();
  await backend?.stop();
});

describe("ids of the other namespace", () => {
  it("db.get refuses a system id and db.system.get a user id", async () => {
    const storageId = (await http.action(anyApi.fidelityB.store, { text: "x" })) as string;
    const messageId = (await http.mutation(anyApi.messages.send, { channel: "ns", body: "b", author: "a" })) as string;
    await expect(http.query(anyApi.fidelityB.getAny, { id: storageId })).rejects.toThrow(
      "System tables can only be accessed with db.system.",
    );
    await expect(http.query(anyApi.fidelityB.systemGetAny, { id: messageId })).rejects.toThrow(
      "User tables cannot be accessed with db.system.",
    );
    expect(await http.query(anyApi.fidelityB.systemGetAny, { id: storageId })).toMatchObject({ _id: storageId });
    expect(await http.query(anyApi.fidelityB.getAny, { id: messageId })).toMatchObject({ _id: messageId });
  });
});

describe("pagination", () => {
  it("a full final page is not done; the next page is empty and done", async () => {
    await http.mutation(anyApi.fidelityB.addItems, { kind: "full-page", count: 4 });
    const pages: Array<{ ns: number[]; isDone: boolean }> = [];
    let cursor: string | null = null;
    for (let i = 0; i < 5; i++) {
      const r = (await ws.query(anyApi.fidelityB.pageItems, {
        kind: "full-page",
        paginationOpts: { numItems: 2, cursor },
      })) as {
        page: Array<{ n: number }>;
        isDone: boolean;
        continueCursor: string;
      };
      pages.push({ ns: r.page.map((d) => d.n), isDone: r.isDone });
      if (r.isDone) break;
      cursor = r.continueCursor;
    }
    expect(pages).toEqual([
      { ns: [0, 1], isDone: false },
      { ns: [2, 3], isDone: false },
      { ns: [], isDone: true },
    ]);
    // a page that is not full at the end is done at once
    const short = (await http.query(anyApi.fidelityB.pageItems, {
      kind: "full-page",
      paginationOpts: { numItems: 3, cursor: null },
    })) as {
      continueCursor: string;
    };
    const rest = await http.query(anyApi.fidelityB.pageItems, {
      kind: "full-page",
      paginationOpts: { numItems: 3, cursor: short.continueCursor },
    });
    expect(rest).toMatchObject({ isDone: true });
  });
});

describe("search with a filter", () => {
  it("puts documents holding every word first, only the filtered ones, the last word as a prefix", async () => {
    const send = (channel: string, body: string) => http.mutation(anyApi.messages.send, { channel, body, author: "a" });
    await send("rank", "orange kite festival");
    await send("rank", "orange only");
    await send("rank", "kite only");
    await send("rank-other", "orange kite elsewhere");
    for (let i = 0; i < 3; i++) await send("rank", `orange filler ${i}`);
    const found = (await http.query(anyApi.messages.search, { query: "orange kit", channel: "rank" })) as {
      body: string;
    }[];
    const bodies = found.map((m) => m.body);
    expect(bodies[0]).toBe("orange kite festival");
    expect(bodies.slice(1).sort()).toEqual(
      ["kite only", "orange filler 0", "orange filler 1", "orange filler 2", "orange only"].sort(),
    );
    expect(bodies).not.toContain("orange kite elsewhere");
  });
});

describe("search inside a mutation", () => {
  it("sees the mutation's own inserts and edits", async () => {
    await http.mutation(anyApi.messages.send, { channel: "search-own", body: "stored zebra", author: "a" });
    expect(
      (
        (await http.mutation(anyApi.fidelityB.insertAndSearch, {
          channel: "search-own",
          body: "fresh zebra crossing",
          term: "zebra",
        })) as string[]
      ).sort(),
    ).toEqual(["fresh zebra crossing", "stored zebra"]);
    // an edit that stops matching takes the document out of the results within the mutation
    expect(
      await http.mutation(anyApi.fidelityB.editAndSearch, {
        channel: "search-own",
        term: "zebra",
        replacement: "giraffe",
      }),
    ).toEqual({
      before: 2,
      after: 0,
    });
  });
});

describe("consistentQuery", () => {
  it("reads at the timestamp the client pinned, while plain queries see new writes", async () => {
    await http.mutation(anyApi.fidelityB.addItems, { kind: "pinned", count: 3 });
    const consistent = new ConvexHttpClient(backend.cloudUrl);
    expect(await consistent.consistentQuery(anyApi.fidelityB.countItems, { kind: "pinned" })).toBe(3);
    await http.mutation(anyApi.fidelityB.addItems, { kind: "pinned", count: 2 });
    const firstId = (
      (await http.query(anyApi.fidelityB.pageItems, {
        kind: "pinned",
        paginationOpts: { numItems: 1, cursor: null },
      })) as {
        page: Array<{ _id: string }>;
      }
    ).page[0]._id;
    await http.mutation(anyApi.fidelityB.removeItem, { id: firstId });
    expect(await http.query(anyApi.fidelityB.countItems, { kind: "pinned" })).toBe(4);
    // still the state at the pinned timestamp: three items, the removed one included
    expect(await consistent.consistentQuery(anyApi.fidelityB.countItems, { kind: "pinned" })).toBe(3);
    const page = (await consistent.consistentQuery(anyApi.fidelityB.pageItems, {
      kind: "pinned",
      paginationOpts: { numItems: 10, cursor: null },
    })) as {
      page: Array<{ _id: string; n: number }>;
    };
    expect(page.page.map((d) => d.n)).toEqual([0, 1, 2]);
    expect(page.page[0]._id).toBe(firstId);
    // a new client pins a new timestamp
    expect(
      await new ConvexHttpClient(backend.cloudUrl).consistentQuery(anyApi.fidelityB.countItems, { kind: "pinned" }),
    ).toBe(4);
  });

  it("refuses a timestamp from the future", async () => {
    const res = await fetch(`${backend.cloudUrl}/api/query_at_ts`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        path: "fidelityB:countItems",
        args: [{ kind: "pinned" }],
        ts: (2n ** 62n).toString(),
        format: "convex_encoded_json",
      }),
    });
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({
      code: "InternalServerError",
      message: "Your request couldn't be completed. Try again later.",
    });
  });
});

describe("scheduler", () => {
  it("a scheduled mutation that cancels itself ends canceled (it saw itself inProgress)", async () => {
    const jobId = (await ws.mutation(anyApi.fidelityB.scheduleSelfCancel, {})) as string;
    const job = await waitForQuery<{ state: { kind: string } }>(
      ws,
      anyApi.fidelityB.job,
      { id: jobId },
      (j) => j.state.kind !== "pending",
    );
    expect(job.state).toEqual({ kind: "canceled" });
    expect(await ws.query(anyApi.fidelityB.selfCancelEvents, {})).toEqual(["self:saw-inProgress"]);
  });
});

describe("staged indexes", () => {
  it("are kept up to date but refused with IndexStagedError", async () => {
    await http.mutation(anyApi.fidelityB.addStaged, { label: "x" });
    await expect(http.query(anyApi.fidelityB.byStaged, {})).rejects.toThrow(
      "Index stagedThings.by_label is currently staged and not available to query until it is enabled.",
    );
    await expect(http.query(anyApi.fidelityB.searchStaged, {})).rejects.toThrow(
      "Index stagedThings.search_label is currently staged and not available to query until it is enabled.",
    );
    await expect(http.action(anyApi.fidelityB.vectorStaged, {})).rejects.toThrow(
      "Index stagedThings.by_embedding is currently staged and not available to query until it is enabled.",
    );
    // kept: the indexes exist and are maintained, so enabling them later needs no backfill
    const catalog = (backend.engine as EngineImpl).catalog;
    expect(catalog.dbIndex("stagedThings", "by_label")).toBeDefined();
    expect(catalog.searchIndex("stagedThings", "search_label")).toBeDefined();
  });
});
