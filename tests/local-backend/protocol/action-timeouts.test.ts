/**
 * Actions' time limits, with Convex's texts: an action in Convex's runtime stops at
 * V8_ACTION_USER_TIMEOUT ("Function execution timed out (maximum duration: 1800s)"), a "use node"
 * action at NODE_ACTION_USER_TIMEOUT ("Action `name` execution timed out (maximum duration 600s)"),
 * and a Node action that blocks its thread is ended by the executor ("Function execution
 * unexpectedly timed out …"). The limits are set to 1 s here (EngineOptions.actionTimeoutsMs,
 * tests only); the assertions are on the errors and on the backend staying usable, never on time.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anyApi } from "convex/server";
import type { ConvexClient } from "convex/browser";
import { createEngine } from "../../../local-backend/src/engine";
import { NODE_ACTION_TIMEOUT_MS, V8_ACTION_TIMEOUT_MS } from "../../../local-backend/src/limits";
import { newClient, startFixture } from "./helpers";

let backend: Awaited<ReturnType<typeof startFixture>>;
let client: ConvexClient;

beforeAll(async () => {
  backend = await startFixture({
    createEngine: (o) => createEngine({ ...o, actionTimeoutsMs: { v8: 1000, node: 1000 } }),
  });
  client = newClient(backend.cloudUrl);
});

afterAll(async () => {
  await client?.close();
  await backend?.stop();
});

async function failure(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error("expected the call to fail");
}

describe("action time limits", () => {
  it("are Convex's unless a test sets them", () => {
    expect(V8_ACTION_TIMEOUT_MS).toBe(30 * 60_000);
    expect(NODE_ACTION_TIMEOUT_MS).toBe(10 * 60_000);
  });

  it("stop an action in Convex's runtime that never settles", async () => {
    const message = await failure(client.action(anyApi.fidelityA.forever, {}));
    expect(message).toMatch(/\] Server Error\nFunction execution timed out \(maximum duration: 1s\)\n/);
    expect(await client.action(anyApi.fidelityA.quick, {})).toBe("quick");
  });

  it("end an action of Convex's runtime that blocks its worker; the pool goes on", async () => {
    const message = await failure(client.action(anyApi.fidelityA.busy, {}));
    expect(message).toContain(
      "Function execution unexpectedly timed out. Check your function for infinite loops or other long-running operations.",
    );
    expect(await client.action(anyApi.fidelityA.quick, {})).toBe("quick");
  });

  it("stop a Node action that never settles, and its worker goes with it", async () => {
    const message = await failure(client.action(anyApi.fidelityNode.forever, {}));
    expect(message).toMatch(/\] Server Error\nAction `forever` execution timed out \(maximum duration 1s\)\n/);
    expect(await client.action(anyApi.fidelityNode.ping, {})).toEqual({ pong: true, isMainThread: false });
  });

  it("end a Node action that blocks its thread", async () => {
    const message = await failure(client.action(anyApi.fidelityNode.busy, {}));
    expect(message).toContain(
      "Function execution unexpectedly timed out. Check your function for infinite loops or other long-running operations.",
    );
    expect(await client.action(anyApi.fidelityNode.ping, {})).toEqual({ pong: true, isMainThread: false });
  });
});
