/**
 * Scheduling from a mutation (Convex: TRANSACTION_MAX_NUM_SCHEDULED 1,000 functions and
 * TRANSACTION_MAX_SCHEDULED_TOTAL_ARGUMENT_SIZE_BYTES 16 MiB of their arguments): over either,
 * the mutation fails with Convex's message and schedules nothing.
 */
import { describe, expect, it } from "vitest";
import { api, failure, useBackend } from "./helpers";

const ctx = useBackend();

async function scheduled(): Promise<number> {
  return (await ctx.client.query(api.limits.scheduledCount, {})) as number;
}

describe("scheduled functions", () => {
  it("schedules 1,000 functions and refuses 1,001", async () => {
    const before = await scheduled();
    expect(await ctx.client.mutation(api.limits.scheduleN, { n: 1_000 })).toBe(1_000);
    expect(await scheduled()).toBe(before + 1_000);
    const message = await failure(ctx.client.mutation(api.limits.scheduleN, { n: 1_001 }));
    expect(message).toContain("Uncaught Error: Too many functions scheduled by this mutation (limit: 1000)");
    expect(await scheduled()).toBe(before + 1_000);
  });

  it("schedules 16 MB of arguments and refuses more than 16 MiB", async () => {
    const before = await scheduled();
    // each [{pad}] with a 4,000,000-character pad is 4,000,010 bytes: 4 fit in 16 MiB, 5 do not
    expect(await ctx.client.mutation(api.limits.scheduleN, { n: 4, argChars: 4_000_000 })).toBe(4);
    const message = await failure(ctx.client.mutation(api.limits.scheduleN, { n: 5, argChars: 4_000_000 }));
    expect(message).toContain(
      "Uncaught Error: Too large total size of the arguments of scheduled functions from this mutation (limit: 16777216 bytes)",
    );
    expect(await scheduled()).toBe(before + 4);
  });
});
