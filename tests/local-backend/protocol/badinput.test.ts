/**
 * Hostile and broken input: malformed frames, unknown message types, wrong argument types,
 * oversized arguments, invalid ids. Each gets a clear error and the backend keeps serving.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anyApi } from "convex/server";
import { ConvexHttpClient } from "convex/browser";
import { RawSyncClient, startFixture } from "./helpers";

let backend: Awaited<ReturnType<typeof startFixture>>;

beforeAll(async () => {
  backend = await startFixture();
});
afterAll(async () => {
  await backend?.stop();
});

/** The backend still answers: a round trip through the HTTP API. */
async function stillUp() {
  const http = new ConvexHttpClient(backend.cloudUrl);
  expect(await http.query(anyApi.protocol.misc.double, { n: 1 })).toBe(2);
}

async function connected(): Promise<RawSyncClient> {
  const raw = new RawSyncClient(backend.cloudUrl);
  await raw.opened;
  raw.connect();
  return raw;
}

describe("malformed sync messages", () => {
  it.each([
    ["not JSON", "{this is not json", /not JSON/],
    ["a JSON array", "[1,2,3]", /JSON object/],
    ["an unknown type", JSON.stringify({ type: "DropAllTables" }), /Unknown message type/],
    [
      "a mutation without requestId",
      JSON.stringify({ type: "Mutation", udfPath: "messages:send", args: [{}] }),
      /requestId/,
    ],
    [
      "a query set with a bad modification",
      JSON.stringify({ type: "ModifyQuerySet", baseVersion: 0, newVersion: 1, modifications: [{ type: "Add" }] }),
      /queryId/,
    ],
  ])("answers %s with FatalError and closes the socket", async (_name, frame, pattern) => {
    const raw = await connected();
    raw.sendRaw(frame);
    const fatal = await raw.next((m) => m.type === "FatalError");
    expect(String(fatal.error)).toMatch(pattern);
    await raw.closed;
    await stillUp();
  });

  it("requires Connect first", async () => {
    const raw = new RawSyncClient(backend.cloudUrl);
    await raw.opened;
    raw.send({ type: "Mutation", requestId: 0, udfPath: "messages:send", args: [{}] });
    expect(String((await raw.next((m) => m.type === "FatalError")).error)).toMatch(/Connect/);
    await stillUp();
  });

  it("refuses non-sync WebSocket paths", async () => {
    const { default: WebSocket } = await import("ws");
    const ws = new WebSocket(`${backend.cloudUrl.replace("http", "ws")}/api/nope/elsewhere`);
    const outcome = await new Promise<string>((resolve) => {
      ws.once("open", () => resolve("open"));
      ws.once("error", () => resolve("error"));
    });
    expect(outcome).toBe("error");
    await stillUp();
  });
});

describe("bad function calls", () => {
  it("reports wrong argument types as function errors (WebSocket and HTTP)", async () => {
    const raw = await connected();
    raw.send({
      type: "Mutation",
      requestId: 1,
      udfPath: "messages:send",
      args: [{ channel: 5, body: "x", author: "y" }],
    });
    const resp = await raw.next((m) => m.type === "MutationResponse");
    expect(resp.success).toBe(false);
    expect(String(resp.result)).toMatch(/channel|validator|type/i);
    raw.close();

    const http = new ConvexHttpClient(backend.cloudUrl);
    await expect(http.query(anyApi.protocol.misc.double, { n: "two" })).rejects.toThrow(/n|validator|number/i);
    await expect(http.query(anyApi.protocol.misc.double, {})).rejects.toThrow();
  });

  it("reports an invalid id clearly", async () => {
    const http = new ConvexHttpClient(backend.cloudUrl);
    await expect(http.query(anyApi.protocol.misc.getMessage, { id: "definitely-not-an-id" })).rejects.toThrow(/id|Id/);
    await expect(http.mutation(anyApi.messages.remove, { id: "123" })).rejects.toThrow(/id|Id/);
    await stillUp();
  });

  it("reports unknown functions", async () => {
    const http = new ConvexHttpClient(backend.cloudUrl);
    await expect(http.query(anyApi.nope.nothing, {})).rejects.toThrow(
      /Could not find public function for 'nope:nothing'/,
    );
    const raw = await connected();
    raw.send({
      type: "ModifyQuerySet",
      baseVersion: 0,
      newVersion: 1,
      modifications: [{ type: "Add", queryId: 0, udfPath: "nope:nothing", args: [{}] }],
    });
    const t = await raw.next((m) => m.type === "Transition");
    expect(t.modifications).toMatchObject([{ type: "QueryFailed", queryId: 0 }]);
    raw.close();
  });

  it("refuses oversized arguments with a clear message", async () => {
    const big = "x".repeat(9 * 1024 * 1024);
    const res = await fetch(`${backend.cloudUrl}/api/mutation`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ path: "protocol/misc:sink", args: [{ payload: big }], format: "convex_encoded_json" }),
    });
    expect(res.status).toBe(413);
    expect(await res.text()).toMatch(/too large/);

    const raw = await connected();
    raw.send({ type: "Mutation", requestId: 3, udfPath: "protocol/misc:sink", args: [{ payload: big }] });
    const resp = await raw.next((m) => m.type === "MutationResponse");
    expect(resp.success).toBe(false);
    expect(String(resp.result)).toMatch(/too large/);
    raw.close();
    await stillUp();
  });

  it("answers malformed HTTP bodies with 400", async () => {
    const notJson = await fetch(`${backend.cloudUrl}/api/query`, { method: "POST", body: "{nope" });
    expect(notJson.status).toBe(400);
    const noPath = await fetch(`${backend.cloudUrl}/api/query`, {
      method: "POST",
      body: JSON.stringify({ args: [{}] }),
    });
    expect(noPath.status).toBe(400);
    const badArgs = await fetch(`${backend.cloudUrl}/api/query`, {
      method: "POST",
      body: JSON.stringify({ path: "messages:list", args: 5 }),
    });
    expect(badArgs.status).toBe(400);
    await stillUp();
  });
});
