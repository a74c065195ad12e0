/**
 * "use node" actions run isolated from the backend, as in Convex's node executor: a callback that
 * throws (or an unhandled rejection, or process.exit) fails only the action that ran it, with
 * Convex's `Uncaught uncaughtException: …`; the backend, its other connections and their
 * subscriptions stay up, and the next call works. Node actions still reach the engine: nested
 * calls, auth, storage, the scheduler.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anyApi } from "convex/server";
import { ConvexError } from "convex/values";
import { ConvexHttpClient, type ConvexClient } from "convex/browser";
import { newClient, startFixture, waitForQuery } from "./helpers";

let backend: Awaited<ReturnType<typeof startFixture>>;
const clients: ConvexClient[] = [];

beforeAll(async () => {
  backend = await startFixture({ adminKey: "node-isolation-admin-key" });
  backend.engine.env.set("FIDELITY_NODE_ENV", "from the env store");
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await backend?.stop();
});

function client(): ConvexClient {
  const c = newClient(backend.cloudUrl);
  clients.push(c);
  return c;
}

async function failure(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error("expected the call to fail");
}

describe("node executor isolation", () => {
  it("runs a use-node action off the backend's main thread", async () => {
    expect(await client().action(anyApi.fidelityNode.ping, {})).toEqual({ pong: true, isMainThread: false });
  });

  it("a throwing callback fails only its action; a live subscription on another connection never drops", async () => {
    const watcher = client();
    const channel = `iso-${Date.now()}`;
    const updates: number[] = [];
    let subscriptionError: Error | null = null;
    watcher.onUpdate(
      anyApi.messages.list,
      { channel },
      (v: unknown[]) => updates.push(v.length),
      (e: Error) => (subscriptionError = e),
    );
    await waitForQuery(watcher, anyApi.messages.list, { channel }, (v: unknown[]) => v.length === 0);
    let reconnects = 0;
    watcher.connectionState(); // touch
    const unsubscribeState = watcher.subscribeToConnectionState((s) => {
      if (s.connectionRetries > 0) reconnects = s.connectionRetries;
    });

    const caller = client();
    const err = await failure(caller.action(anyApi.fidelityNode.throwInCallback, {}));
    expect(err.message).toMatch(
      /\[Request ID: [0-9a-f]{16}\] Server Error\nUncaught uncaughtException: callback boom\n/,
    );
    // two more calls after the crash: both work
    expect(await caller.action(anyApi.fidelityNode.ping, {})).toEqual({ pong: true, isMainThread: false });
    expect(await client().action(anyApi.fidelityNode.ping, {})).toEqual({ pong: true, isMainThread: false });

    // the subscription is still live on its first connection
    await caller.mutation(anyApi.messages.send, { channel, body: "after the crash", author: "t" });
    await waitForQuery(watcher, anyApi.messages.list, { channel }, (v: unknown[]) => v.length === 1);
    expect(subscriptionError).toBeNull();
    expect(reconnects).toBe(0);
    expect(watcher.connectionState().isWebSocketConnected).toBe(true);
    unsubscribeState();
  });

  it("an unhandled rejection and process.exit fail their action the same way", async () => {
    const c = client();
    expect((await failure(c.action(anyApi.fidelityNode.unhandled, {}))).message).toContain(
      "Uncaught unhandledRejection: nobody awaits this",
    );
    expect((await failure(c.action(anyApi.fidelityNode.exits, {}))).message).toContain(
      "Uncaught process.exit: process.exit() called with exit code 3",
    );
    expect(await c.action(anyApi.fidelityNode.ping, {})).toEqual({ pong: true, isMainThread: false });
  });

  it("reaches the engine from the worker: auth, nested calls, storage, scheduler, env", async () => {
    const http = new ConvexHttpClient(backend.cloudUrl, { logger: false });
    // an admin acting as a user, as the dashboard does (`setAdminAuth` is internal in the typings)
    (http as unknown as { setAdminAuth(key: string, identity: Record<string, string>): void }).setAdminAuth(
      "node-isolation-admin-key",
      {
        subject: "node-user",
        issuer: "https://issuer.example",
      },
    );
    const channel = `cb-${Date.now()}`;
    const r = await http.action(anyApi.fidelityNode.callbacks, { channel });
    expect(r).toMatchObject({
      subject: "node-user",
      who: "node-user",
      inner: "quick",
      text: "node bytes",
      contentType: "text/plain",
      hasUrl: true,
      env: "from the env store",
    });
    expect(r.nestedError).toEqual({ convexError: "inner convex" });
    expect(await http.query(anyApi.messages.list, { channel })).toHaveLength(1);
  });

  it("reports a Node action's errors in Convex's shape", async () => {
    const c = client();
    const plain = await failure(c.action(anyApi.fidelityNode.throws, {}));
    expect(plain.message).toMatch(
      /Server Error\nUncaught Error: node boom\n {4}at handler \(\.\.\/convex\/fidelityNode\.ts:\d+:\d+\)\n/,
    );
    const data = await failure(c.action(anyApi.fidelityNode.throwsConvexError, {}));
    expect(data).toBeInstanceOf(ConvexError);
    expect((data as ConvexError<{ code: string }>).data).toEqual({ code: "NODE" });
  });

  it("fails a Node action that deadlocked on itself with Convex's time-out text, long before the limit; a timer is no deadlock", async () => {
    const c = client();
    const e = await failure(c.action(anyApi.fidelityNode.deadlock, {}));
    expect(e.message).toMatch(/Action `deadlock` execution timed out \(maximum duration 600s\)/);
    expect(await c.action(anyApi.fidelityNode.waitsOnTimer, { ms: 2500 })).toBe("waited");
    expect(await c.action(anyApi.fidelityNode.ping, {})).toEqual({ pong: true, isMainThread: false });
  });
});
