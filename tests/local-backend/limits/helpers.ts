/**
 * Shared setup of the limit tests: the fixture app on a backend of its own, reached through the
 * real `convex/browser` client, so each limit's error travels the sync protocol as on Convex.
 */
import { afterAll, beforeAll } from "vitest";
import { anyApi } from "convex/server";
import type { ConvexClient } from "convex/browser";
import { newClient, startFixture } from "../protocol/helpers";

export const api = anyApi;

/** Starts one backend (and client) for the file; `ctx.client` / `ctx.backend` once started. */
export function useBackend() {
  const ctx = {} as { backend: Awaited<ReturnType<typeof startFixture>>; client: ConvexClient };
  beforeAll(async () => {
    ctx.backend = await startFixture({ log: () => {} });
    ctx.client = newClient(ctx.backend.cloudUrl);
  });
  afterAll(async () => {
    await ctx.client?.close();
    await ctx.backend?.stop();
  });
  return ctx;
}

/** The message a call failed with (the client prefixes "[CONVEX M(path)] [Request ID: …] Server Error"). */
export async function failure(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
  throw new Error("expected the call to fail, it succeeded");
}

/** A unique table name per call, so tests do not see each other's documents. */
let tables = 0;
export function freshTable(prefix: string): string {
  return `${prefix}${++tables}`;
}
