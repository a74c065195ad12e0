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
 *
 * This file is the server: connections, the commit log, flushes, pings, shared query runs. A
 * connection's messages are in sync-session.ts, its query set and Transitions in
 * sync-queries.ts, mutation de-duplication in sync-dedupe.ts.
 */
import type { IncomingMessage } from "node:http";
import type { WebSocket } from "ws";
import type { JSONValue } from "convex/values";
import type { CommitEvent, Engine, QueryResult } from "./engine-api.js";
import type { CallerResolver } from "./net-caller.js";
import type { Caller } from "./net-common.js";
import { MutationDedupe } from "./sync-dedupe.js";
import type { Subscription } from "./sync-protocol.js";
import { Connection, type SessionHost } from "./sync-session.js";

/** The client reconnects when it hears nothing for 60 s; Convex pings after 15 s of silence. */
const PING_AFTER_MS = 15_000;
const PING_CHECK_MS = 5_000;
/** commit-log entries kept for reactivity; older queries are conservatively re-run */
const MAX_COMMIT_LOG = 20_000;
/** a message above this is refused outright; smaller oversized args get a per-request error */
export const MAX_WS_MESSAGE_BYTES = 64 * 1024 * 1024;

export type SyncServerOptions = {
  engine: Engine;
  callers: CallerResolver;
  log?: (line: string) => void;
  /** print function log lines (`[path] line`), as the CLI does */
  onLogLines?: (kind: string, path: string, lines: string[]) => void;
};

export class SyncServer implements SessionHost {
  readonly engine: Engine;
  readonly callers: CallerResolver;
  private readonly connections = new Set<Connection>();
  private readonly commits: CommitEvent[] = [];
  /** commits at or below this ts have been dropped from the log */
  private logFloor: bigint;
  private flushScheduled = false;
  private readonly unsubscribe: () => void;
  private readonly pingTimer: NodeJS.Timeout;
  /** shared query executions for one target ts */
  private shared: { ts: bigint; runs: Map<string, Promise<QueryResult>> } = { ts: -1n, runs: new Map() };
  /** mutation results remembered for resends after a reconnect */
  readonly dedupe = new MutationDedupe();

  constructor(readonly opts: SyncServerOptions) {
    this.engine = opts.engine;
    this.callers = opts.callers;
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

  onLogLines(kind: string, path: string, lines: string[]): void {
    this.opts.onLogLines?.(kind, path, lines);
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
  runQueryShared(
    target: bigint,
    caller: Caller,
    path: string,
    args: JSONValue,
    journal: string | null,
  ): Promise<QueryResult> {
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
}
