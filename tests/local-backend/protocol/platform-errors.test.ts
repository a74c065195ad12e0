/**
 * The platform's own failures (Convex's test-only syscalls `throwOcc`, `throwOverloaded`): over
 * HTTP the caller gets Convex's code ("OptimisticConcurrencyControlFailure", "Busy") with a 503,
 * even when the function caught the error, and nothing the mutation wrote is kept; over a
 * WebSocket the connection drops and the client sends the mutation again until it runs.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anyApi } from "convex/server";
import { ConvexHttpClient, type ConvexClient } from "convex/browser";
import { newClient, startFixture } from "./helpers";

let backend: Awaited<ReturnType<typeof startFixture>>;
let http: ConvexHttpClient;
const clients: ConvexClient[] = [];

beforeAll(async () => {
  backend = await startFixture();
  http = new ConvexHttpClient(backend.cloudUrl, { logger: false });
});

afterAll(async () => {
  for (const c of clients) await c.close();
  await backend?.stop();
});

const api = anyApi.platformErrors;

describe("platform errors", () => {
  it("over HTTP: Convex's codes, also when the function caught the error; nothing written is kept", async () => {
    const before = await http.mutation(api.count, {});
    await expect(http.mutation(api.occ, { name: "h1" })).rejects.toThrow("OptimisticConcurrencyControlFailure");
    await expect(http.mutation(api.occCaught, { name: "h2" })).rejects.toThrow("OptimisticConcurrencyControlFailure");
    await expect(http.mutation(api.overloaded, { name: "h3" })).rejects.toThrow("Busy");
    expect(await http.mutation(api.count, {})).toBe(before);
  });

  it("over a WebSocket: the client sends the mutation again until it runs", async () => {
    for (const [fn, name] of [
      [api.occ, "w1"],
      [api.overloaded, "w2"],
    ] as const) {
      const client = newClient(backend.cloudUrl);
      clients.push(client);
      const pending = client.mutation(fn, { name });
      // the client keeps reconnecting and resending until another caller unblocks it
      await new Promise((r) => setTimeout(r, 300));
      await http.mutation(api.unblock, { name });
      expect(await pending).toBe("ran");
    }
  });
});
