/**
 * Durability across restarts: a scheduled job survives a stop/start on the same data dir, and
 * timestamps stay monotonic so reconnecting clients are not confused.
 */
import { describe, expect, it } from "vitest";
import { anyApi } from "convex/server";
import { newClient, startFixture, tempDir, waitForQuery } from "./helpers";

type Message = { body: string; author: string };

describe("restart on the same data dir", () => {
  it("runs a job scheduled before the restart", async () => {
    const dataDir = tempDir();
    const first = await startFixture({ dataDir });
    const c1 = newClient(first.cloudUrl);
    // far enough ahead that it cannot run before the stop below
    await c1.mutation(anyApi.protocol.misc.scheduleSend, { channel: "sched", body: "later", delayMs: 1500 });
    const tsBefore = first.engine.currentTs();
    await c1.close();
    await first.stop();

    const second = await startFixture({ dataDir });
    try {
      expect(second.engine.currentTs() >= tsBefore).toBe(true);
      const c2 = newClient(second.cloudUrl);
      const rows = await waitForQuery<Message[]>(c2, anyApi.messages.list, { channel: "sched" }, (v) => v.length > 0);
      expect(rows.map((r) => [r.body, r.author])).toEqual([["later", "scheduler"]]);
      await c2.close();
    } finally {
      await second.stop();
    }
  });
});
