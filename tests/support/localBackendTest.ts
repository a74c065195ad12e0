/**
 * The subset of convex-test's `TestConvex` that the app's function tests use, on local-backend:
 * `query` / `mutation` / `action` by function reference, `run(ctx => …)` (a mutation ctx with the
 * action storage, like convex-test's), `withIdentity`, `finishAllScheduledFunctions`,
 * `finishInProgressScheduledFunctions`, `fetch` (http actions, like convex-test's), plus `setEnv` for a
 * deployment environment variable (convex-test reads `process.env`).
 *
 * One engine per worker process, kept for every test file the process runs (the vitest project
 * does not isolate files: starting an engine bundles and imports convex/, ~5-7 s): every
 * `localBackendTest()` call empties its data (all tables, files, scheduled jobs) and environment
 * variables before the new instance's first call, so each test starts from an empty deployment as
 * with convex-test. An
 * instance used after a newer one was created fails loudly instead of seeing the other's data. The
 * engine's data directory goes when the process exits.
 */
import { getFunctionName, type FunctionReference, type GenericDataModel } from "convex/server";
import { ConvexError, convexToJson, jsonToConvex, type JSONValue, type Value } from "convex/values";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { clearAllData, runInMutation, type AdhocCtx } from "../../local-backend/src/adhoc";
import type { FunctionOutcome, UserIdentity } from "../../local-backend/src/engine-api";
import { createEngine, type EngineImpl } from "../../local-backend/src/engine";

type AnyRef = FunctionReference<any, any, any, any>;
type Args<R extends AnyRef> = R["_args"];
type Ret<R extends AnyRef> = R["_returnType"];

export type LocalTestConvex<DM extends GenericDataModel = GenericDataModel> = {
  query<R extends FunctionReference<"query", any>>(
    ref: R,
    ...args: Args<R> extends Record<string, never> ? [Args<R>?] : [Args<R>]
  ): Promise<Ret<R>>;
  mutation<R extends FunctionReference<"mutation", any>>(
    ref: R,
    ...args: Args<R> extends Record<string, never> ? [Args<R>?] : [Args<R>]
  ): Promise<Ret<R>>;
  action<R extends FunctionReference<"action", any>>(
    ref: R,
    ...args: Args<R> extends Record<string, never> ? [Args<R>?] : [Args<R>]
  ): Promise<Ret<R>>;
  run<T>(handler: (ctx: AdhocCtx<DM>) => Promise<T>): Promise<T>;
  withIdentity(
    identity: Partial<UserIdentity>,
  ): Omit<
    LocalTestConvex<DM>,
    "withIdentity" | "finishAllScheduledFunctions" | "finishInProgressScheduledFunctions" | "fetch" | "setEnv"
  >;
  finishInProgressScheduledFunctions(): Promise<void>;
  finishAllScheduledFunctions(advanceTimers: () => void, maxIterations?: number): Promise<void>;
  /** An http action request: `path` starts with "/" (query string allowed), as with convex-test. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /** Sets (or with undefined removes) an environment variable of the deployment: the next call sees it. */
  setEnv(name: string, value: string | undefined): Promise<void>;
};

const SITE_URL = "http://127.0.0.1:3211";

const FUNCTIONS_DIR = fileURLToPath(new URL("../../convex", import.meta.url));

let shared: { engine: EngineImpl; dataDir: string } | null = null;
let starting: Promise<{ engine: EngineImpl; dataDir: string }> | null = null;
let generation = 0;
let queue: Promise<unknown> = Promise.resolve();

async function sharedEngine() {
  if (shared) return shared;
  starting ??= (async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "precinct-lb-test-"));
    const engine = createEngine({
      functionsDir: FUNCTIONS_DIR,
      dataDir,
      cloudUrl: "http://127.0.0.1:3210",
      siteUrl: SITE_URL,
      scheduler: true,
      log: process.env.LOCAL_BACKEND_TEST_LOG ? (line) => console.log(line) : () => {},
    }) as EngineImpl;
    await engine.start();
    // vitest ends its worker processes with SIGTERM once the run is over
    const removeData = () => fs.rmSync(dataDir, { recursive: true, force: true });
    process.once("exit", removeData);
    process.once("SIGTERM", () => {
      removeData();
      process.exit(0);
    });
    shared = { engine, dataDir };
    return shared;
  })();
  return starting;
}

/**
 * Waits until the worker's engine has no module reload due or running (an environment variable a
 * test set or restored reloads the modules): called after each test file (localBackendSetup.ts),
 * so a reload never runs on into the next file.
 */
export async function settleLocalBackend(): Promise<void> {
  const s = shared ?? (starting ? await starting.catch(() => null) : null);
  await s?.engine.modules.idle();
}

/** What the client sees for a failed call: ConvexError with its data, or an Error with the message. */
function toError(outcome: FunctionOutcome & { status: "error" }): Error {
  if (outcome.errorData !== undefined) return new ConvexError(jsonToConvex(outcome.errorData) as any);
  return new Error(outcome.errorMessage);
}

function unwrap(outcome: FunctionOutcome): Value {
  if (outcome.status === "error") throw toError(outcome);
  return jsonToConvex(outcome.value);
}

function encodeArgs(args: unknown): JSONValue {
  if (args === undefined) return {};
  if (args === null || typeof args !== "object" || Array.isArray(args)) {
    throw new Error(`The arguments to a Convex function must be an object. Received: ${JSON.stringify(args)}`);
  }
  return convexToJson(args as Value);
}

function simpleHash(s: string) {
  let hash = 0;
  for (let i = 0; i < s.length; i++) {
    hash = (hash << 5) - hash + s.charCodeAt(i);
    hash = hash & hash;
  }
  return hash;
}

export function localBackendTest<DM extends GenericDataModel = GenericDataModel>(): LocalTestConvex<DM> {
  const mine = ++generation;
  // Runs after earlier instances' resets, so instances created back to back reset in order.
  const ready: Promise<EngineImpl> = queue
    .catch(() => undefined)
    .then(async () => {
      const { engine } = await sharedEngine();
      await clearAllData(engine);
      // and no environment variable an earlier test (of any file this process ran) set
      for (const name of Object.keys(engine.env.list())) engine.env.remove(name);
      return engine;
    });
  queue = ready;

  /** The engine, once it runs with every environment change made so far (`settled`, for calls). */
  const engineFor = async (settled = true): Promise<EngineImpl> => {
    const engine = await ready;
    if (mine !== generation) {
      throw new Error(
        "This local-backend test instance was superseded: a newer setupTest() reset the shared engine's data.",
      );
    }
    // an environment variable set just before is in effect for this call, as on a deployment (the
    // modules reload with it, once for a burst of changes)
    if (settled) await engine.modules.idle();
    return engine;
  };

  // `internal: true`: like convex-test (and `npx convex run`), tests may call internal functions.
  const client = (identity: UserIdentity | null) => ({
    async query(ref: AnyRef, args?: unknown) {
      const engine = await engineFor();
      const r = await engine.runQuery({ path: getFunctionName(ref), args: encodeArgs(args), identity, internal: true });
      return unwrap(r.outcome) as any;
    },
    async mutation(ref: AnyRef, args?: unknown) {
      const engine = await engineFor();
      const r = await engine.runMutation({
        path: getFunctionName(ref),
        args: encodeArgs(args),
        identity,
        internal: true,
      });
      return unwrap(r.outcome) as any;
    },
    async action(ref: AnyRef, args?: unknown) {
      const engine = await engineFor();
      const r = await engine.runAction({
        path: getFunctionName(ref),
        args: encodeArgs(args),
        identity,
        internal: true,
      });
      return unwrap(r.outcome) as any;
    },
    async run<T>(handler: (ctx: AdhocCtx<DM>) => Promise<T>): Promise<T> {
      const engine = await engineFor();
      return unwrap(await runInMutation(engine, handler as unknown as (ctx: AdhocCtx) => Promise<T>, identity)) as T;
    },
  });

  const jobs = async () =>
    (await client(null).run(async (ctx) => await ctx.db.system.query("_scheduled_functions").collect())) as Array<{
      scheduledTime: number;
      state: { kind: string };
    }>;

  /** Jobs still to finish: running ones, and pending ones already due (later ones never run here, as in convex-test with real timers). */
  const unfinished = async (includeDue: boolean) =>
    (await jobs()).filter(
      (j) =>
        j.state.kind === "inProgress" || (includeDue && j.state.kind === "pending" && j.scheduledTime <= Date.now()),
    ).length;

  const waitFor = async (includeDue: boolean, advanceTimers: () => void, maxIterations: number) => {
    const deadline = Date.now() + 60_000;
    let drained = 0;
    for (;;) {
      advanceTimers();
      if ((await unfinished(includeDue)) === 0) return;
      if (++drained > maxIterations * 100 || Date.now() > deadline) {
        throw new Error(
          "finishAllScheduledFunctions: scheduled functions did not finish. Check for infinitely recursive scheduled functions.",
        );
      }
      await new Promise((r) => setTimeout(r, 5));
    }
  };

  const withIdentity = (identity: Partial<UserIdentity>) => {
    const subject = identity.subject ?? "" + simpleHash(JSON.stringify(identity));
    const issuer = identity.issuer ?? "https://convex.test";
    const tokenIdentifier = identity.tokenIdentifier ?? `${issuer}|${subject}`;
    return client({ ...identity, subject, issuer, tokenIdentifier });
  };

  return {
    ...client(null),
    withIdentity,
    finishInProgressScheduledFunctions: () => waitFor(false, () => {}, 100),
    finishAllScheduledFunctions: (advanceTimers: () => void, maxIterations = 100) =>
      waitFor(true, advanceTimers, maxIterations),
    async fetch(path: string, init?: RequestInit) {
      if (!path.startsWith("/")) throw new Error(`Path given to \`t.fetch\` must start with a \`/\`: ${path}`);
      return await (await engineFor()).runHttpAction(new Request(SITE_URL + path, init));
    },
    async setEnv(name: string, value: string | undefined) {
      const engine = await engineFor(false);
      if (value === undefined) engine.env.remove(name);
      else engine.env.set(name, value);
    },
  };
}
