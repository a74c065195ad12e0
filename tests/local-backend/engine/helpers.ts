import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createEngine } from "../../../local-backend/src/engine";
import type { Engine, EngineOptions, FunctionOutcome, UserIdentity } from "../../../local-backend/src/engine-api";
import type { JSONValue } from "convex/values";
import { afterAll, beforeAll } from "vitest";

export const FIXTURE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../fixture/convex");

export function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "engine-test-"));
}

export async function startEngine(opts: Partial<EngineOptions> = {}): Promise<Engine & { dataDir: string }> {
  const dataDir = opts.dataDir ?? tempDir();
  const engine = createEngine({
    functionsDir: FIXTURE_DIR,
    dataDir,
    cloudUrl: "http://127.0.0.1:3210",
    siteUrl: "http://127.0.0.1:3211",
    scheduler: true,
    ...opts,
  });
  await engine.start();
  return Object.assign(engine, { dataDir });
}

/** A fresh engine (no scheduler) for the file's tests, with a caller; started and stopped around them. */
export function useEngine(opts: Partial<EngineOptions> = {}): {
  engine: Engine & { dataDir: string };
  c: ReturnType<typeof caller>;
} {
  const ctx = {} as { engine: Engine & { dataDir: string }; c: ReturnType<typeof caller> };
  beforeAll(async () => {
    ctx.engine = await startEngine({ scheduler: false, ...opts });
    ctx.c = caller(ctx.engine);
  });
  afterAll(async () => {
    await ctx.engine?.stop();
  });
  return ctx;
}

export function unwrap(outcome: FunctionOutcome): JSONValue {
  if (outcome.status !== "success") throw new Error(`expected success, got: ${outcome.errorMessage}`);
  return outcome.value;
}

export function caller(engine: Engine, identity: UserIdentity | null = null) {
  return {
    query: async (p: string, args: JSONValue = {}) =>
      unwrap((await engine.runQuery({ path: p, args, identity })).outcome),
    mutation: async (p: string, args: JSONValue = {}) =>
      unwrap((await engine.runMutation({ path: p, args, identity })).outcome),
    action: async (p: string, args: JSONValue = {}) =>
      unwrap((await engine.runAction({ path: p, args, identity })).outcome),
    queryOutcome: async (p: string, args: JSONValue = {}) =>
      (await engine.runQuery({ path: p, args, identity })).outcome,
    mutationOutcome: async (p: string, args: JSONValue = {}) =>
      (await engine.runMutation({ path: p, args, identity })).outcome,
    actionOutcome: async (p: string, args: JSONValue = {}) =>
      (await engine.runAction({ path: p, args, identity })).outcome,
  };
}

export async function waitFor<T>(fn: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 5000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const v = await fn();
    if (ok(v)) return v;
    if (Date.now() - start > timeoutMs) throw new Error(`timed out; last value ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
