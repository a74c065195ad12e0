/**
 * Actions of Convex's runtime run in the action pool's worker threads, off the engine's thread
 * (action-pool.ts): an action that keeps its thread busy (as password hashing does) delays no
 * query. Asserted on order, never on time: the query is answered while the action still spins.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anyApi } from "convex/server";
import type { ConvexClient } from "convex/browser";
import { newClient, startFixture, waitForQuery } from "./helpers";

let backend: Awaited<ReturnType<typeof startFixture>>;
let client: ConvexClient;

beforeAll(async () => {
  backend = await startFixture({ log: () => {} });
  client = newClient(backend.cloudUrl);
});

afterAll(async () => {
  await client?.close();
  await backend?.stop();
});

describe("the action pool", () => {
  it("answers queries and mutations while actions keep their threads busy", { timeout: 60_000 }, async () => {
    const table = `spin${Date.now()}`;
    let spinning = 2;
    const spins = [0, 1].map(() =>
      client.action(anyApi.fidelityA.spin, { table, ms: 3_000 }).then((r) => {
        spinning--;
        return r;
      }),
    );
    // both actions have started spinning
    await waitForQuery<number>(client, anyApi.fidelityA.marks, { table }, (n) => n === 2);
    // a query and a mutation are answered while both still spin (on the engine's thread they waited)
    expect(await client.query(anyApi.fidelityA.marks, { table })).toBe(2);
    await client.mutation(anyApi.fidelityA.mark, { table });
    expect(spinning).toBe(2);
    expect(await Promise.all(spins)).toEqual(["spun", "spun"]);
  });

  it("runs more actions at once than it has workers", { timeout: 60_000 }, async () => {
    const results = await Promise.all(Array.from({ length: 40 }, () => client.action(anyApi.fidelityA.quick, {})));
    expect(results).toEqual(Array.from({ length: 40 }, () => "quick"));
  });
});
