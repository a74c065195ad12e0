/**
 * Function errors reach clients as Convex sends them (RedactedJsError of a dev deployment):
 * `[Request ID: <16 hex>] Server Error`, then `Uncaught <name>: <message>` with the user's stack
 * frames (paths relative to the deploy bundle's `out/`, never this machine's), a ConvexError
 * subclass under its own name with its data, nested ctx.run* errors wrapped as Convex wraps them,
 * and "function not found" naming the path without `:default`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anyApi } from "convex/server";
import { ConvexError } from "convex/values";
import { ConvexHttpClient, type ConvexClient } from "convex/browser";
import { REPO_ROOT, RawSyncClient, newClient, startFixture } from "./helpers";

let backend: Awaited<ReturnType<typeof startFixture>>;
let client: ConvexClient;

beforeAll(async () => {
  backend = await startFixture();
  client = newClient(backend.cloudUrl);
});

afterAll(async () => {
  await client?.close();
  await backend?.stop();
});

async function failure(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error("expected the call to fail");
}

const PREFIX = /^\[CONVEX [MAQ]\([^)]*\)\] \[Request ID: [0-9a-f]{16}\] Server Error\n/;

describe("error shape", () => {
  it("a thrown Error: request id, Uncaught, the user's frame relative to convex/", async () => {
    const e = await failure(client.mutation(anyApi.fidelityA.throwError, {}));
    expect(e.message).toMatch(PREFIX);
    expect(e.message).toContain(
      "] Server Error\nUncaught Error: boom\n    at handler (../convex/fidelityA.ts:17:11)\n",
    );
    expect(e.message).not.toContain(REPO_ROOT);
    expect(e.message).not.toContain("/tmp/");
  });

  it("a ConvexError subclass under its own name, with its data", async () => {
    const e = await failure(client.mutation(anyApi.fidelityA.throwCustom, {}));
    expect(e).toBeInstanceOf(ConvexError);
    expect((e as ConvexError<{ code: string }>).data).toEqual({ code: "NOT_ALLOWED" });
    expect(e.message).toContain(
      'Server Error\nUncaught NotAllowedError: {"code":"NOT_ALLOWED"}\n    at handler (../convex/fidelityA.ts:28:11)\n',
    );
  });

  it("nested ctx.runQuery errors are wrapped as Convex wraps them, in actions and mutations", async () => {
    const fromAction = await failure(client.action(anyApi.fidelityA.actionCallsFailingQuery, {}));
    expect(fromAction.message).toContain(
      "Server Error\nUncaught Error: Uncaught Error: inner boom\n    at handler (../convex/fidelityA.ts:35:11)\n\n",
    );
    expect(fromAction.message).toMatch(/\n {4}at (async )?handler \(\.\.\/convex\/fidelityA\.ts:49:5\)\n/);
    const fromMutation = await failure(client.mutation(anyApi.fidelityA.mutationCallsFailingQuery, {}));
    expect(fromMutation.message).toContain(
      "Server Error\nUncaught Error: Uncaught Error: inner boom\n    at handler (../convex/fidelityA.ts:35:11)\n\n",
    );
    expect(fromMutation.message).toMatch(/\n {4}at (async )?handler \(\.\.\/convex\/fidelityA\.ts:56:5\)\n/);
    // caught inside the caller: the callee's whole error text
    expect(await client.action(anyApi.fidelityA.actionCatchesFailingQuery, {})).toBe(
      "Uncaught Error: inner boom\n    at handler (../convex/fidelityA.ts:35:11)\n",
    );
    // a nested ConvexError keeps its data
    const data = await failure(client.action(anyApi.fidelityA.actionCallsFailingQuery, { convexError: true }));
    expect(data).toBeInstanceOf(ConvexError);
    expect((data as ConvexError<string>).data).toBe("inner convex");
    expect(data.message).toContain("Server Error\nUncaught ConvexError: Uncaught ConvexError: inner convex\n");
  });

  it("a frame of a function without a name is written `at <anonymous> (…)`, an awaiting one `at async <anonymous> (…)`, as Convex writes them", async () => {
    const e = await failure(client.query(anyApi.fidelityA.anonymousThrows, {}));
    expect(e.message).toContain(
      "Server Error\nUncaught Error: anonymous boom\n    at <anonymous> (../convex/fidelityA.ts:151:9)\n",
    );
    const nested = await failure(client.action(anyApi.fidelityA.anonymousActionCalls, {}));
    expect(nested.message).toContain(
      "Uncaught Error: Uncaught Error: anonymous boom\n    at <anonymous> (../convex/fidelityA.ts:151:9)\n\n",
    );
    expect(nested.message).toMatch(/\n {4}at async <anonymous> \(\.\.\/convex\/fidelityA\.ts:155:3\)\n/);
  });

  it("a query's failure carries the prefix too, with a stable request id per subscription", async () => {
    const raw = new RawSyncClient(backend.cloudUrl);
    await raw.opened;
    raw.connect("error-shape-session");
    raw.send({
      type: "ModifyQuerySet",
      baseVersion: 0,
      newVersion: 1,
      modifications: [{ type: "Add", queryId: 7, udfPath: "fidelityA:queryThrows", args: [{}] }],
    });
    const t = await raw.next((m) => m.type === "Transition");
    const mod = (t.modifications as Array<{ type: string; errorMessage?: string }>)[0];
    expect(mod.type).toBe("QueryFailed");
    expect(mod.errorMessage).toMatch(
      /^\[Request ID: [0-9a-f]{16}\] Server Error\nUncaught Error: inner boom\n {4}at handler \(\.\.\/convex\/fidelityA\.ts:35:11\)\n$/,
    );
    raw.close();
  });

  it("over HTTP (ConvexHttpClient) the same shape: request id, Uncaught, the user's frame", async () => {
    const http = new ConvexHttpClient(backend.cloudUrl, { logger: false });
    const e = await failure(http.mutation(anyApi.fidelityA.throwError, {}));
    expect(e.message).toMatch(
      /^\[Request ID: [0-9a-f]{16}\] Server Error\nUncaught Error: boom\n {4}at handler \(\.\.\/convex\/fidelityA\.ts:17:11\)\n$/,
    );
    expect(e.message).not.toContain(REPO_ROOT);
  });

  it("function not found names the path without :default", async () => {
    const http = new ConvexHttpClient(backend.cloudUrl, { logger: false });
    const e = await failure(http.query(anyApi.nothingHere.default, {}));
    expect(e.message).toContain(
      "Could not find public function for 'nothingHere'. Did you forget to run `npx convex dev`?",
    );
    expect(e.message).not.toContain(":default");
    const ws = await failure(client.action(anyApi.nothingHere.named, {}));
    expect(ws.message).toMatch(
      /\] Server Error\nCould not find public function for 'nothingHere:named'\. Did you forget to run `npx convex dev`\?\n/,
    );
  });
});
