/**
 * A connection's query set: the subscriptions the client asked for (ModifyQuerySet), their runs
 * and re-runs after commits (only those whose read set a later commit touched; unchanged results
 * are not sent), and the Transitions that carry them. `sent` is what the client holds: every
 * Transition starts exactly there. Callers run everything that sends a Transition on the
 * connection's one queue.
 */
import type { JSONValue } from "convex/values";
import type { Engine, FunctionOutcome, QueryResult } from "./engine-api.js";
import {
  MAX_ARGS_BYTES,
  argsDepthError,
  argsTooLargeMessage,
  describeError,
  errorOutcome,
  resolveFunction,
  unwrapArgs,
  type Caller,
} from "./net-common.js";
import { clientErrorMessage, wsRequestId } from "./outcome.js";
import { encodeTs } from "./net-common.js";
import { ProtocolError, type Modification, type StateVersion, type Subscription } from "./sync-protocol.js";

/**
 * The JSON text of query results, made once per result: the sessions subscribed to one query with
 * one caller share its result object (sync.ts runQueryShared), and a Transition to a hundred of
 * them serialized the same value three hundred times (its change check, its `last`, the message).
 */
const resultTexts = new WeakMap<object, string>();

function valueText(v: unknown): string {
  if (v === null || typeof v !== "object") return JSON.stringify(v ?? null);
  let text = resultTexts.get(v);
  if (text === undefined) resultTexts.set(v, (text = JSON.stringify(v)));
  return text;
}

/** A modification as it goes over the wire (also what the change check compares). */
function modificationText(mod: Modification): string {
  if (mod.type !== "QueryUpdated") return JSON.stringify(mod);
  return `{"type":"QueryUpdated","queryId":${mod.queryId},"value":${valueText(mod.value)},"logLines":${JSON.stringify(mod.logLines)},"journal":${JSON.stringify(mod.journal ?? null)}}`;
}

function versionText(v: StateVersion): string {
  return `{"querySet":${v.querySet},"ts":${JSON.stringify(encodeTs(v.ts))},"identity":${v.identity}}`;
}

/** What a query set needs of the sync server. */
export interface QuerySetHost {
  readonly engine: Engine;
  /** whether a query that reflects `sub.ts` may change with commits up to `target` */
  needsRerun(sub: Subscription, target: bigint): boolean;
  /** runs a query, sharing the run with other connections asking the same at the same ts */
  runQueryShared(
    target: bigint,
    caller: Caller,
    path: string,
    args: JSONValue,
    journal: string | null,
  ): Promise<QueryResult>;
  onLogLines(kind: string, path: string, lines: string[]): void;
}

export class QuerySet {
  /** what the client's RemoteQuerySet holds: the endVersion of the last Transition sent */
  sent: StateVersion = { querySet: 0, ts: 0n, identity: 0 };
  readonly queries = new Map<number, Subscription>();

  constructor(
    private readonly host: QuerySetHost,
    private readonly send: (message: Record<string, unknown> | string) => void,
    /** the connection's current caller */
    private readonly caller: () => Caller,
    /** the connection's session id (Connect), for the request ids of failed queries */
    private readonly sessionId: () => string | null = () => null,
  ) {}

  /** Applies a ModifyQuerySet message and sends the Transition to the new query set version. */
  async modify(m: Record<string, unknown>): Promise<void> {
    const base = m.baseVersion;
    const next = m.newVersion;
    if (typeof base !== "number" || typeof next !== "number" || !Array.isArray(m.modifications)) {
      throw new ProtocolError("ModifyQuerySet: baseVersion, newVersion and modifications are required");
    }
    if (base !== this.sent.querySet) {
      throw new ProtocolError(
        `ModifyQuerySet: base version ${base} does not match the current version ${this.sent.querySet}`,
      );
    }
    if (!Number.isInteger(next) || next <= base) {
      throw new ProtocolError(`ModifyQuerySet: new version ${next} must be greater than base version ${base}`);
    }
    const target = this.host.engine.currentTs();
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
        const sub: Subscription = {
          id: queryId,
          path: q.udfPath,
          args: {},
          journal,
          readSet: null,
          ts: target,
          last: "",
        };
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

  private async initialRun(
    sub: Subscription,
    udfPath: string,
    rawArgs: unknown,
    target: bigint,
  ): Promise<Modification> {
    const tooDeep = argsDepthError(rawArgs);
    if (tooDeep !== null) return this.fail(sub, errorOutcome(tooDeep));
    const size = JSON.stringify(rawArgs ?? null).length;
    if (size > MAX_ARGS_BYTES) return this.fail(sub, errorOutcome(argsTooLargeMessage(size)));
    const unwrapped = unwrapArgs(rawArgs);
    if (!unwrapped.ok) return this.fail(sub, errorOutcome(unwrapped.message));
    sub.args = unwrapped.args;
    const resolved = resolveFunction(this.host.engine, udfPath, "query", this.caller());
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
      result = await this.host.runQueryShared(target, this.caller(), sub.path, sub.args, sub.journal);
    } catch (e) {
      // an engine exception is reported like a failed query; keep re-running on later commits
      sub.ts = target;
      return this.modification(sub, errorOutcome(`Internal error: ${describeError(e)}`), sub.journal);
    }
    sub.readSet = result.readSet;
    sub.ts = result.ts > target ? result.ts : target;
    if (result.journal !== null) sub.journal = result.journal;
    this.host.onLogLines("query", sub.path, result.outcome.logLines);
    return this.modification(sub, result.outcome, result.journal);
  }

  private modification(sub: Subscription, outcome: FunctionOutcome, journal: string | null): Modification {
    const mod: Modification =
      outcome.status === "success"
        ? { type: "QueryUpdated", queryId: sub.id, value: outcome.value, logLines: outcome.logLines, journal }
        : {
            type: "QueryFailed",
            queryId: sub.id,
            // a stable id per subscription, so an unchanged failure is not sent again
            errorMessage: clientErrorMessage(outcome, wsRequestId(this.sessionId(), sub.id)),
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
      if (!all && (sub.ts >= target || !this.host.needsRerun(sub, target))) {
        if (sub.ts < target) sub.ts = target;
        continue;
      }
      if (all && sub.readSet === null) continue;
      runs.push(
        this.runSub(sub, target).then((mod) => {
          // skip results identical to what the client already has
          const key = modificationText(mod);
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
    const texts: string[] = [];
    for (const mod of modifications) {
      const text = modificationText(mod);
      texts.push(text);
      if (mod.type === "QueryRemoved") continue;
      const sub = this.queries.get(mod.queryId);
      if (sub) sub.last = text;
    }
    this.send(
      `{"type":"Transition","startVersion":${versionText(this.sent)},"endVersion":${versionText(end)},"modifications":[${texts.join(",")}]}`,
    );
    this.sent = end;
  }

  /** Re-run affected queries; send a Transition if something changed or `force` (mutations). */
  async refresh(force: boolean): Promise<void> {
    const target = this.host.engine.currentTs();
    const mods = await this.refreshOthers(target, null);
    // nothing changed for this client and no mutation waiting: no need to wake it up
    if (mods.length > 0 || force) this.sendTransition({ ...this.sent, ts: this.maxTs(target) }, mods);
  }

  /**
   * Re-runs every query for a changed caller and sends a Transition to identity version
   * `identity` (null: unchanged).
   */
  async rerunAll(identity: number | null): Promise<void> {
    const target = this.host.engine.currentTs();
    const mods = await this.refreshOthers(target, null, true);
    this.sendTransition(
      { querySet: this.sent.querySet, ts: this.maxTs(target), identity: identity ?? this.sent.identity },
      mods,
    );
  }
}
