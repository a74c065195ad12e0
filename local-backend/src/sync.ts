/**
 * The Convex client sync protocol over WebSocket (`convex/src/browser/sync/protocol.ts`).
 *
 * Each connection is a small state machine: its query set (versioned by the client), its identity
 * (versioned by the client) and the timestamp of the last state it was sent. Everything that sends
 * a Transition runs on one per-connection task queue, because a Transition's startVersion must
 * equal exactly what the client holds — two interleaved senders would break that.
 *
 * Reactivity: every commit is appended to an in-memory log. A flush (coalesced with setImmediate)
 * asks every connection to refresh: each query remembers the snapshot ts of its last result, and
 * only queries whose read set intersects a commit after that ts are re-run. Identical queries
 * (same path, args, identity, journal) re-run for several connections at the same target ts share
 * one execution.
 *
 * Mutations: the response goes out first, then (in the same task) a refresh forced to send a
 * Transition whose endVersion.ts >= the mutation's ts; the client resolves the mutation only then.
 * Reconnecting clients resend mutations they have not seen reflected, so results are remembered
 * by (sessionId, identity, requestId) for recent sessions: a resend is answered from memory only
 * for the identity that made the request; anyone else with the same ids runs a fresh mutation.
 */
import type { IncomingMessage } from "node:http";
import type { WebSocket } from "ws";
import type { JSONValue } from "convex/values";
import type { CallRequest, CommitEvent, Engine, FunctionOutcome, QueryResult, ReadSet } from "./engine-api.js";
import { AuthVerificationError } from "./auth.js";
import type { CallerResolver } from "./net-caller.js";
import {
  ANONYMOUS,
  MAX_ARGS_BYTES,
  MAX_JSON_TEXT_DEPTH,
  argsDepthError,
  argsTooLargeMessage,
  callerExpired,
  describeError,
  encodeTs,
  errorOutcome,
  jsonTextTooDeep,
  resolveFunction,
  tooDeepMessage,
  unwrapArgs,
  type Caller,
} from "./net-common.js";

/** The client reconnects when it hears nothing for 60 s; Convex pings after 15 s of silence. */
const PING_AFTER_MS = 15_000;
const PING_CHECK_MS = 5_000;
/** remembered mutation results: this many sessions, this many requests each */
const DEDUPE_SESSIONS = 2_000;
const DEDUPE_REQUESTS_PER_SESSION = 1_000;
/** commit-log entries kept for reactivity; older queries are conservatively re-run */
const MAX_COMMIT_LOG = 20_000;
/** a message above this is refused outright; smaller oversized args get a per-request error */
export const MAX_WS_MESSAGE_BYTES = 64 * 1024 * 1024;

type StateVersion = { querySet: number; ts: bigint; identity: number };

type Subscription = {
  id: number;
  path: string;
  args: JSONValue;
  journal: string | null;
  /** null: never re-run on commits (the query could not be resolved at all) */
  readSet: ReadSet | null;
  /** snapshot ts the current result reflects */
  ts: bigint;
  /** serialized last modification, to skip sending unchanged results */
  last: string;
};

type Modification =
  | { type: "QueryUpdated"; queryId: number; value: JSONValue; logLines: string[]; journal: string | null }
  | {
      type: "QueryFailed";
      queryId: number;
      errorMessage: string;
      logLines: string[];
      errorData?: JSONValue;
      journal: string | null;
    }
  | { type: "QueryRemoved"; queryId: number };

type MutationResponseMsg = Record<string, JSONValue> & { type: "MutationResponse" };

class ProtocolError extends Error {}

export type SyncServerOptions = {
  engine: Engine;
  callers: CallerResolver;
  log?: (line: string) => void;
  /** print function log lines (`[path] line`), as the CLI does */
  onLogLines?: (kind: string, path: string, lines: string[]) => void;
};

export class SyncServer {
  private readonly engine: Engine;
  private readonly connections = new Set<Connection>();
  private readonly commits: CommitEvent[] = [];
  /** commits at or below this ts have been dropped from the log */
  private logFloor: bigint;
  private flushScheduled = false;
  private readonly unsubscribe: () => void;
  private readonly pingTimer: NodeJS.Timeout;
  /** shared query executions for one target ts */
  private shared: { ts: bigint; runs: Map<string, Promise<QueryResult>> } = { ts: -1n, runs: new Map() };
  /** (sessionId + caller → requestId → response) for mutation dedupe on reconnect */
  private readonly mutationResults = new Map<string, Map<number, Promise<MutationResponseMsg>>>();

  constructor(readonly opts: SyncServerOptions) {
    this.engine = opts.engine;
    this.logFloor = this.engine.currentTs();
    this.unsubscribe = this.engine.onCommit((event) => {
      this.commits.push(event);
      if (this.commits.length > MAX_COMMIT_LOG) {
        const dropped = this.commits.splice(0, this.commits.length - MAX_COMMIT_LOG);
        this.logFloor = dropped[dropped.length - 1].ts;
      }
      this.scheduleFlush();
    });
    this.pingTimer = setInterval(() => {
      const now = Date.now();
      for (const c of this.connections) if (now - c.lastSendAt >= PING_AFTER_MS) c.send({ type: "Ping" });
    }, PING_CHECK_MS);
    this.pingTimer.unref();
  }

  handleConnection(ws: WebSocket, _req: IncomingMessage): void {
    const conn = new Connection(this, ws);
    this.connections.add(conn);
    ws.on("close", () => {
      conn.closed = true;
      this.connections.delete(conn);
      this.trimLog();
    });
    ws.on("error", () => {
      /* a broken socket just closes; never let it reach the process */
    });
  }

  get connectionCount(): number {
    return this.connections.size;
  }

  close(): void {
    this.unsubscribe();
    clearInterval(this.pingTimer);
    for (const c of this.connections) {
      c.closed = true;
      try {
        c.ws.close(1001, "server shutting down");
      } catch {
        /* already closed */
      }
    }
    this.connections.clear();
  }

  log(line: string): void {
    this.opts.log?.(line);
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      // trim here rather than after every refresh: it walks every subscription
      this.trimLog();
      for (const c of this.connections) c.requestRefresh();
    });
  }

  /** Whether a query that reflects `sinceTs` may change with commits up to `target`. */
  needsRerun(sub: Subscription, target: bigint): boolean {
    if (sub.readSet === null) return false;
    if (sub.ts < this.logFloor) return true;
    // commits are appended in ts order; binary search for the first one after sub.ts
    let lo = 0;
    let hi = this.commits.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.commits[mid].ts <= sub.ts) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < this.commits.length; i++) {
      const c = this.commits[i];
      if (c.ts > target) break;
      if (this.engine.readSetIntersects(sub.readSet, c.writes)) return true;
    }
    return false;
  }

  /** Run a query, sharing the execution with other connections asking the same at the same ts. */
  runQueryShared(target: bigint, caller: Caller, path: string, args: JSONValue, journal: string | null): Promise<QueryResult> {
    if (this.shared.ts !== target) this.shared = { ts: target, runs: new Map() };
    const key = JSON.stringify([path, args, caller.identity, journal]);
    let run = this.shared.runs.get(key);
    if (!run) {
      run = this.engine.runQuery({ path, args, identity: caller.identity, journal, internal: caller.admin });
      this.shared.runs.set(key, run);
      // failures (engine exceptions) must not be replayed to later callers
      run.catch(() => this.shared.runs.delete(key));
    }
    return run;
  }

  /** Drop commits that every live query already reflects. */
  trimLog(): void {
    let min: bigint | null = null;
    for (const c of this.connections) {
      for (const s of c.queries.values()) if (s.readSet !== null && (min === null || s.ts < min)) min = s.ts;
    }
    if (min === null) min = this.engine.currentTs();
    let n = 0;
    while (n < this.commits.length && this.commits[n].ts <= min) n++;
    if (n > 0) {
      this.logFloor = this.commits[n - 1].ts > this.logFloor ? this.commits[n - 1].ts : this.logFloor;
      this.commits.splice(0, n);
    }
  }

  /**
   * A remembered mutation response for a resend. `caller` is part of the key: a session id is
   * just a value the client picked, so another connection (another user, or nobody signed in)
   * presenting the same (sessionId, requestId) must never receive this caller's result.
   */
  mutationResult(sessionId: string, caller: Caller, requestId: number): Promise<MutationResponseMsg> | undefined {
    const key = dedupeKey(sessionId, caller);
    const session = this.mutationResults.get(key);
    if (!session) return undefined;
    // refresh LRU position
    this.mutationResults.delete(key);
    this.mutationResults.set(key, session);
    return session.get(requestId);
  }

  rememberMutation(sessionId: string, caller: Caller, requestId: number, result: Promise<MutationResponseMsg>): void {
    const key = dedupeKey(sessionId, caller);
    let session = this.mutationResults.get(key);
    if (!session) {
      session = new Map();
      this.mutationResults.set(key, session);
      if (this.mutationResults.size > DEDUPE_SESSIONS) {
        const oldest = this.mutationResults.keys().next().value;
        if (oldest !== undefined) this.mutationResults.delete(oldest);
      }
    }
    session.set(requestId, result);
    if (session.size > DEDUPE_REQUESTS_PER_SESSION) {
      const oldest = session.keys().next().value;
      if (oldest !== undefined) session.delete(oldest);
    }
  }
}

class Connection {
  closed = false;
  lastSendAt = Date.now();
  sessionId: string | null = null;
  caller: Caller = ANONYMOUS;
  /** what the client's RemoteQuerySet holds: the endVersion of the last Transition sent */
  sent: StateVersion = { querySet: 0, ts: 0n, identity: 0 };
  readonly queries = new Map<number, Subscription>();
  /** everything the connection tells the client, in message order */
  private queue: Promise<void> = Promise.resolve();
  /**
   * When the next mutation may start: after the previous one committed (not when its writes are
   * stored, so one client's mutations pipeline) and after Connect/Authenticate, which change the caller.
   */
  private mutationGate: Promise<unknown> = Promise.resolve();
  private refreshQueued = false;

  constructor(
    private readonly server: SyncServer,
    readonly ws: WebSocket,
  ) {
    ws.on("message", (data, isBinary) => this.onMessage(data, isBinary));
  }

  private get engine(): Engine {
    return this.server.opts.engine;
  }

  send(message: Record<string, unknown>): void {
    if (this.closed || this.ws.readyState !== this.ws.OPEN) return;
    this.lastSendAt = Date.now();
    this.ws.send(JSON.stringify(message, (_k, v: unknown) => (typeof v === "bigint" ? encodeTs(v) : v)));
  }

  fatal(error: string): void {
    if (this.closed) return;
    this.server.log(`sync: closing connection: ${error}`);
    this.send({ type: "FatalError", error });
    this.closed = true;
    try {
      this.ws.close(1008, error.slice(0, 120));
    } catch {
      /* already closed */
    }
  }

  private enqueue(task: () => Promise<void> | void, opts: { changesCaller?: boolean } = {}): void {
    this.queue = this.queue.then(async () => {
      if (this.closed) return;
      try {
        await task();
      } catch (e) {
        if (e instanceof ProtocolError) this.fatal(e.message);
        else this.fatal(`Internal error: ${describeError(e)}`);
      }
    });
    if (opts.changesCaller) this.mutationGate = this.queue;
  }

  requestRefresh(): void {
    if (this.refreshQueued || this.queries.size === 0) return;
    this.refreshQueued = true;
    this.enqueue(async () => {
      this.refreshQueued = false;
      await this.refresh(false);
    });
  }

  private onMessage(data: unknown, isBinary: boolean): void {
    if (this.closed) return;
    let raw: string;
    if (isBinary) return this.fatal("Binary messages are not part of the sync protocol");
    if (Buffer.isBuffer(data)) raw = data.toString("utf8");
    else if (Array.isArray(data)) raw = Buffer.concat(data as Buffer[]).toString("utf8");
    else if (data instanceof ArrayBuffer) raw = Buffer.from(data).toString("utf8");
    else raw = String(data);
    // before JSON.parse and anything recursive: hostile nesting must not reach the stack
    if (jsonTextTooDeep(raw, MAX_JSON_TEXT_DEPTH)) return this.fatal(tooDeepMessage("Message"));
    let msg: unknown;
    try {
      msg = JSON.parse(raw);
    } catch {
      return this.fatal("Malformed message: not JSON");
    }
    if (msg === null || typeof msg !== "object" || Array.isArray(msg)) {
      return this.fatal("Malformed message: expected a JSON object");
    }
    const m = msg as Record<string, unknown>;
    const size = raw.length;
    switch (m.type) {
      case "Connect":
        this.connectSeen = true;
        return this.enqueue(() => this.onConnect(m), { changesCaller: true });
      case "ModifyQuerySet":
        return this.requireConnected(() => this.enqueue(() => this.onModifyQuerySet(m)));
      case "Mutation":
        return this.requireConnected(() => this.onMutation(m, size));
      case "Action":
        return this.requireConnected(() => this.onAction(m, size));
      case "Authenticate":
        return this.requireConnected(() => this.enqueue(() => this.onAuthenticate(m), { changesCaller: true }));
      case "Event":
        // client telemetry; nothing to do with it here
        return;
      default:
        return this.fatal(`Unknown message type: ${JSON.stringify(m.type)?.slice(0, 60)}`);
    }
  }

  /** Connect is queued, so check once it ran; messages before any Connect are a protocol error. */
  private connectSeen = false;
  private requireConnected(next: () => void): void {
    if (!this.connectSeen) return this.fatal("First message must be Connect");
    next();
  }

  private onConnect(m: Record<string, unknown>): void {
    if (typeof m.sessionId !== "string" || m.sessionId === "") throw new ProtocolError("Connect: sessionId must be a string");
    if (this.sessionId !== null) throw new ProtocolError("Connect sent twice");
    this.sessionId = m.sessionId;
  }

  private async onModifyQuerySet(m: Record<string, unknown>): Promise<void> {
    const base = m.baseVersion;
    const next = m.newVersion;
    if (typeof base !== "number" || typeof next !== "number" || !Array.isArray(m.modifications)) {
      throw new ProtocolError("ModifyQuerySet: baseVersion, newVersion and modifications are required");
    }
    if (base !== this.sent.querySet) {
      throw new ProtocolError(`ModifyQuerySet: base version ${base} does not match the current version ${this.sent.querySet}`);
    }
    if (!Number.isInteger(next) || next <= base) {
      throw new ProtocolError(`ModifyQuerySet: new version ${next} must be greater than base version ${base}`);
    }
    const target = this.engine.currentTs();
    const mods: Modification[] = [];
    const adds: Promise<void>[] = [];
    const seen = new Set<number>();
    for (const mod of m.modifications as unknown[]) {
      if (mod === null || typeof mod !== "object") throw new ProtocolError("ModifyQuerySet: malformed modification");
      const q = mod as Record<string, unknown>;
      if (typeof q.queryId !== "number" || !Number.isInteger(q.queryId) || q.queryId < 0) {
        throw new ProtocolError("ModifyQuerySet: queryId must be a nonnegative integer");
      }
      const queryId = q.queryId;
      if (seen.has(queryId)) throw new ProtocolError(`ModifyQuerySet: query ${queryId} modified twice`);
      seen.add(queryId);
      if (q.type === "Add") {
        if (this.queries.has(queryId)) throw new ProtocolError(`ModifyQuerySet: query ${queryId} already exists`);
        if (typeof q.udfPath !== "string") throw new ProtocolError("ModifyQuerySet: udfPath must be a string");
        if (q.componentPath !== undefined && q.componentPath !== null && q.componentPath !== "") {
          throw new ProtocolError("Components are not supported by local-backend");
        }
        const journal = typeof q.journal === "string" ? q.journal : null;
        const sub: Subscription = { id: queryId, path: q.udfPath, args: {}, journal, readSet: null, ts: target, last: "" };
        this.queries.set(queryId, sub);
        adds.push(
          this.initialRun(sub, q.udfPath, q.args, target).then((mod) => {
            mods.push(mod);
          }),
        );
      } else if (q.type === "Remove") {
        // removing an unknown query is harmless (it may have failed to add); Convex tolerates it
        this.queries.delete(queryId);
        mods.push({ type: "QueryRemoved", queryId });
      } else {
        throw new ProtocolError(`ModifyQuerySet: unknown modification type ${JSON.stringify(q.type)}`);
      }
    }
    await Promise.all(adds);
    // bring the rest of the set to the same ts so the whole state is consistent
    const refreshed = await this.refreshOthers(target, seen);
    mods.push(...refreshed);
    this.sendTransition({ querySet: next, ts: this.maxTs(target), identity: this.sent.identity }, mods);
  }

  private async initialRun(sub: Subscription, udfPath: string, rawArgs: unknown, target: bigint): Promise<Modification> {
    const tooDeep = argsDepthError(rawArgs);
    if (tooDeep !== null) return this.fail(sub, errorOutcome(tooDeep));
    const size = JSON.stringify(rawArgs ?? null).length;
    if (size > MAX_ARGS_BYTES) return this.fail(sub, errorOutcome(argsTooLargeMessage(size)));
    const unwrapped = unwrapArgs(rawArgs);
    if (!unwrapped.ok) return this.fail(sub, errorOutcome(unwrapped.message));
    sub.args = unwrapped.args;
    const resolved = resolveFunction(this.engine, udfPath, "query", this.caller);
    if (!resolved.ok) return this.fail(sub, resolved.outcome);
    sub.path = resolved.path;
    return this.runSub(sub, target);
  }

  /** A query that could not even be resolved: reported once, never re-run on commits. */
  private fail(sub: Subscription, outcome: FunctionOutcome): Modification {
    sub.readSet = null;
    return this.modification(sub, outcome, null);
  }

  private async runSub(sub: Subscription, target: bigint): Promise<Modification> {
    let result: QueryResult;
    try {
      result = await this.server.runQueryShared(target, this.caller, sub.path, sub.args, sub.journal);
    } catch (e) {
      // an engine exception is reported like a failed query; keep re-running on later commits
      sub.ts = target;
      return this.modification(sub, errorOutcome(`Internal error: ${describeError(e)}`), sub.journal);
    }
    sub.readSet = result.readSet;
    sub.ts = result.ts > target ? result.ts : target;
    if (result.journal !== null) sub.journal = result.journal;
    this.server.opts.onLogLines?.("query", sub.path, result.outcome.logLines);
    return this.modification(sub, result.outcome, result.journal);
  }

  private modification(sub: Subscription, outcome: FunctionOutcome, journal: string | null): Modification {
    const mod: Modification =
      outcome.status === "success"
        ? { type: "QueryUpdated", queryId: sub.id, value: outcome.value, logLines: outcome.logLines, journal }
        : {
            type: "QueryFailed",
            queryId: sub.id,
            errorMessage: outcome.errorMessage,
            logLines: outcome.logLines,
            ...(outcome.errorData !== undefined ? { errorData: outcome.errorData } : {}),
            journal,
          };
    return mod;
  }

  /** Re-run queries (other than `skip`) whose reads changed up to `target`. */
  private async refreshOthers(target: bigint, skip: Set<number> | null, all = false): Promise<Modification[]> {
    const runs: Promise<Modification | null>[] = [];
    for (const sub of this.queries.values()) {
      if (skip?.has(sub.id)) continue;
      if (!all && (sub.ts >= target || !this.server.needsRerun(sub, target))) {
        if (sub.ts < target) sub.ts = target;
        continue;
      }
      if (all && sub.readSet === null) continue;
      runs.push(
        this.runSub(sub, target).then((mod) => {
          // skip results identical to what the client already has
          const key = JSON.stringify(mod);
          if (key === sub.last) return null;
          sub.last = key;
          return mod;
        }),
      );
    }
    const mods = await Promise.all(runs);
    return mods.filter((m): m is Modification => m !== null);
  }

  private maxTs(target: bigint): bigint {
    return target > this.sent.ts ? target : this.sent.ts;
  }

  private sendTransition(end: StateVersion, modifications: Modification[]): void {
    for (const mod of modifications) {
      if (mod.type === "QueryRemoved") continue;
      const sub = this.queries.get(mod.queryId);
      if (sub) sub.last = JSON.stringify(mod);
    }
    this.send({
      type: "Transition",
      startVersion: { ...this.sent, ts: this.sent.ts },
      endVersion: end,
      modifications,
    });
    this.sent = end;
  }

  /** Re-run affected queries; send a Transition if something changed or `force` (mutations). */
  private async refresh(force: boolean): Promise<void> {
    const target = this.engine.currentTs();
    const mods = await this.refreshOthers(target, null);
    // nothing changed for this client and no mutation waiting: no need to wake it up
    if (mods.length > 0 || force) this.sendTransition({ ...this.sent, ts: this.maxTs(target) }, mods);
  }

  private async onAuthenticate(m: Record<string, unknown>): Promise<void> {
    const base = m.baseVersion;
    if (typeof base !== "number" || !Number.isInteger(base) || base < 0) {
      throw new ProtocolError("Authenticate: baseVersion must be a nonnegative integer");
    }
    // The client bumps its identity version locally when it drops a token after an AuthError
    // without telling us, so a base ahead of ours is legitimate; one behind ours is not.
    if (base < this.sent.identity) {
      throw new ProtocolError(`Authenticate: base version ${base} is older than the current identity version ${this.sent.identity}`);
    }
    let caller: Caller;
    try {
      if (m.tokenType === "None") caller = ANONYMOUS;
      else if (m.tokenType === "User") {
        if (typeof m.value !== "string") throw new ProtocolError("Authenticate: value must be a string");
        caller = await this.server.opts.callers.user(m.value);
      } else if (m.tokenType === "Admin") {
        if (typeof m.value !== "string") throw new ProtocolError("Authenticate: value must be a string");
        caller = this.server.opts.callers.admin(m.value, m.impersonating);
      } else {
        throw new ProtocolError(`Authenticate: unknown tokenType ${JSON.stringify(m.tokenType)}`);
      }
    } catch (e) {
      if (e instanceof ProtocolError) throw e;
      const error = e instanceof AuthVerificationError ? e.message : `Could not verify token: ${describeError(e)}`;
      this.server.log(`sync: authentication failed: ${error}`);
      this.send({ type: "AuthError", error, baseVersion: base, authUpdateAttempted: true });
      // never keep serving the previous identity after a failed switch
      if (this.caller !== ANONYMOUS) {
        this.caller = ANONYMOUS;
        const target = this.engine.currentTs();
        const mods = await this.refreshOthers(target, null, true);
        this.sendTransition({ ...this.sent, ts: this.maxTs(target) }, mods);
      }
      return;
    }
    this.caller = caller;
    const target = this.engine.currentTs();
    const mods = await this.refreshOthers(target, null, true);
    this.sendTransition({ querySet: this.sent.querySet, ts: this.maxTs(target), identity: base + 1 }, mods);
  }

  private validateCall(m: Record<string, unknown>, kind: string): { requestId: number; udfPath: string } {
    if (typeof m.requestId !== "number" || !Number.isInteger(m.requestId) || m.requestId < 0) {
      throw new ProtocolError(`${kind}: requestId must be a nonnegative integer`);
    }
    if (typeof m.udfPath !== "string") throw new ProtocolError(`${kind}: udfPath must be a string`);
    if (m.componentPath !== undefined && m.componentPath !== null && m.componentPath !== "") {
      throw new ProtocolError("Components are not supported by local-backend");
    }
    return { requestId: m.requestId, udfPath: m.udfPath };
  }

  private onMutation(m: Record<string, unknown>, size: number): void {
    let requestId: number;
    let udfPath: string;
    try {
      ({ requestId, udfPath } = this.validateCall(m, "Mutation"));
    } catch (e) {
      return this.fatal(describeError(e));
    }
    // Runs as soon as the previous mutation committed; its response goes out in message order.
    const started = this.mutationGate.then(async (): Promise<{ expired: true } | { response: Promise<MutationResponseMsg> } | null> => {
      if (this.closed) return null;
      const sessionId = this.sessionId!;
      if (callerExpired(this.caller)) return { expired: true };
      const caller = this.caller;
      const known = this.server.mutationResult(sessionId, caller, requestId);
      if (known) return { response: known };
      const run = this.startMutation(requestId, udfPath, m.args, size);
      this.server.rememberMutation(sessionId, caller, requestId, run.response);
      await run.committed;
      return { response: run.response };
    });
    this.mutationGate = started.catch(() => undefined);
    this.enqueue(async () => {
      const r = await started;
      if (!r) return;
      if ("expired" in r) {
        // not executed: the client refreshes its token and resends the mutation
        this.send({ type: "AuthError", error: "Token expired", baseVersion: this.sent.identity, authUpdateAttempted: false });
        return;
      }
      this.send(await r.response);
      // the client resolves the mutation only once a Transition reaches its ts
      await this.refresh(true);
    });
  }

  /** Starts a mutation: `committed` settles when the next one may run, `response` when it may be sent. */
  private startMutation(
    requestId: number,
    udfPath: string,
    rawArgs: unknown,
    size: number,
  ): { committed: Promise<unknown>; response: Promise<MutationResponseMsg> } {
    const prepared = this.prepareCall("mutation", udfPath, rawArgs, size);
    if ("outcome" in prepared) {
      const response = Promise.resolve(mutationResponse(requestId, prepared.outcome));
      return { committed: response, response };
    }
    const ts = this.engine.currentTs();
    const pipelined = this.engine.runMutationPipelined(prepared.req);
    const response = pipelined
      .then((p) => p.result)
      .then(
        (r) => {
          this.server.opts.onLogLines?.("mutation", prepared.path, r.outcome.logLines);
          return mutationResponse(requestId, { ...r.outcome, ts: r.ts });
        },
        (e) => mutationResponse(requestId, { ...errorOutcome(`Internal error: ${describeError(e)}`), ts }),
      );
    return { committed: pipelined.catch(() => undefined), response };
  }

  /** Checks a call's size, arguments and function; either the request to run or the outcome to report. */
  private prepareCall(
    kind: "mutation" | "action",
    udfPath: string,
    rawArgs: unknown,
    size: number,
  ): { req: CallRequest; path: string } | { outcome: FunctionOutcome & { ts: bigint } } {
    const ts = this.engine.currentTs();
    if (size > MAX_ARGS_BYTES + 1024) return { outcome: { ...errorOutcome(argsTooLargeMessage(size)), ts } };
    const tooDeep = argsDepthError(rawArgs);
    if (tooDeep !== null) return { outcome: { ...errorOutcome(tooDeep), ts } };
    const unwrapped = unwrapArgs(rawArgs);
    if (!unwrapped.ok) return { outcome: { ...errorOutcome(unwrapped.message), ts } };
    const resolved = resolveFunction(this.engine, udfPath, kind, this.caller);
    if (!resolved.ok) return { outcome: { ...resolved.outcome, ts } };
    return { req: { path: resolved.path, args: unwrapped.args, identity: this.caller.identity, internal: this.caller.admin }, path: resolved.path };
  }

  private async callAction(udfPath: string, rawArgs: unknown, size: number): Promise<FunctionOutcome> {
    const prepared = this.prepareCall("action", udfPath, rawArgs, size);
    if ("outcome" in prepared) return prepared.outcome;
    try {
      const r = await this.engine.runAction(prepared.req);
      this.server.opts.onLogLines?.("action", prepared.path, r.outcome.logLines);
      return r.outcome;
    } catch (e) {
      return errorOutcome(`Internal error: ${describeError(e)}`);
    }
  }

  private onAction(m: Record<string, unknown>, size: number): void {
    let requestId: number;
    let udfPath: string;
    try {
      ({ requestId, udfPath } = this.validateCall(m, "Action"));
    } catch (e) {
      return this.fatal(describeError(e));
    }
    if (callerExpired(this.caller)) {
      this.send({ type: "AuthError", error: "Token expired", baseVersion: this.sent.identity, authUpdateAttempted: false });
      return;
    }
    // Actions are not ordered with the query set or mutations (Convex doesn't either) and may run
    // long, so they run beside the queue; a response is not part of the versioned state.
    void this.callAction(udfPath, m.args, size).then((outcome) => {
      this.send(
        outcome.status === "success"
          ? { type: "ActionResponse", requestId, success: true, result: outcome.value, logLines: outcome.logLines }
          : {
              type: "ActionResponse",
              requestId,
              success: false,
              result: outcome.errorMessage,
              logLines: outcome.logLines,
              ...(outcome.errorData !== undefined ? { errorData: outcome.errorData } : {}),
            },
      );
    });
  }
}

/**
 * Who made a mutation request, for dedupe: the verified token identity (tokenIdentifier, which
 * already names issuer and subject), admin-key callers with whoever they impersonate, or nobody.
 */
function dedupeKey(sessionId: string, caller: Caller): string {
  const who = caller.admin
    ? `admin:${caller.identity?.tokenIdentifier ?? ""}`
    : caller.identity
      ? `user:${caller.identity.tokenIdentifier}`
      : "anonymous";
  return JSON.stringify([sessionId, who]);
}

function mutationResponse(requestId: number, outcome: FunctionOutcome & { ts: bigint }): MutationResponseMsg {
  if (outcome.status === "success") {
    return { type: "MutationResponse", requestId, success: true, result: outcome.value, ts: encodeTs(outcome.ts), logLines: outcome.logLines };
  }
  return {
    type: "MutationResponse",
    requestId,
    success: false,
    result: outcome.errorMessage,
    logLines: outcome.logLines,
    ...(outcome.errorData !== undefined ? { errorData: outcome.errorData } : {}),
  };
}
