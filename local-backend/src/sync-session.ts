/**
 * One WebSocket connection of the sync protocol: message parsing and checks, Connect and
 * Authenticate (the caller), mutations (pipelined: the next starts once the previous committed,
 * replies in order, each followed by a Transition reaching its ts; resends answered from the
 * de-duplication memory) and actions. Everything that sends a Transition runs on the
 * connection's one task queue; the query set (sync-queries.ts) builds the Transitions.
 */
import type { WebSocket } from "ws";
import type { CallRequest, Engine, FunctionOutcome } from "./engine-api.js";
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
import { PlatformError, clientErrorMessage, wsRequestId } from "./outcome.js";
import type { MutationDedupe } from "./sync-dedupe.js";
import { ProtocolError, mutationResponse, type MutationResponseMsg, type Subscription } from "./sync-protocol.js";
import { QuerySet, type QuerySetHost } from "./sync-queries.js";

/** What a connection needs of the sync server. */
export interface SessionHost extends QuerySetHost {
  readonly callers: CallerResolver;
  readonly dedupe: MutationDedupe;
  log(line: string): void;
}

export class Connection {
  closed = false;
  lastSendAt = Date.now();
  sessionId: string | null = null;
  caller: Caller = ANONYMOUS;
  readonly querySet: QuerySet;
  /** everything the connection tells the client, in message order */
  private queue: Promise<void> = Promise.resolve();
  /**
   * When the next mutation may start: after the previous one committed (not when its writes are
   * stored, so one client's mutations pipeline) and after Connect/Authenticate, which change the caller.
   */
  private mutationGate: Promise<unknown> = Promise.resolve();
  /**
   * Settles once every Connect/Authenticate received so far has run: an action reads the caller
   * only then, so each message sees the identity the messages before it set (as Convex's sync
   * worker, which handles Authenticate before it reads the next message).
   */
  private callerGate: Promise<void> = Promise.resolve();
  private refreshQueued = false;

  constructor(
    private readonly server: SessionHost,
    readonly ws: WebSocket,
  ) {
    this.querySet = new QuerySet(
      server,
      (message) => this.send(message),
      () => this.caller,
      () => this.sessionId,
    );
    ws.on("message", (data, isBinary) => this.onMessage(data, isBinary));
  }

  private get engine(): Engine {
    return this.server.engine;
  }

  /** the client's subscriptions */
  get queries(): ReadonlyMap<number, Subscription> {
    return this.querySet.queries;
  }

  /** Sends a message (a text: already serialized, see sync-queries.ts transitionText). */
  send(message: Record<string, unknown> | string): void {
    if (this.closed || this.ws.readyState !== this.ws.OPEN) return;
    this.lastSendAt = Date.now();
    this.ws.send(
      typeof message === "string"
        ? message
        : JSON.stringify(message, (_k, v: unknown) => (typeof v === "bigint" ? encodeTs(v) : v)),
    );
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

  /**
   * The platform failed a mutation (OCC, overloaded): the connection ends without a FatalError, as
   * Convex's does, so the client reconnects and sends the mutation again.
   */
  private drop(e: PlatformError): void {
    if (this.closed) return;
    this.server.log(`sync: dropping connection: ${e.code}: ${e.message}`);
    this.closed = true;
    try {
      this.ws.close(1011, e.code);
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
        else if (e instanceof PlatformError) this.drop(e);
        else this.fatal(`Internal error: ${describeError(e)}`);
      }
    });
    if (opts.changesCaller) {
      this.mutationGate = this.queue;
      this.callerGate = this.queue;
    }
  }

  requestRefresh(): void {
    if (this.refreshQueued || this.querySet.queries.size === 0) return;
    this.refreshQueued = true;
    this.enqueue(async () => {
      this.refreshQueued = false;
      await this.querySet.refresh(false);
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
        return this.requireConnected(() => this.enqueue(() => this.querySet.modify(m)));
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
    if (typeof m.sessionId !== "string" || m.sessionId === "")
      throw new ProtocolError("Connect: sessionId must be a string");
    if (this.sessionId !== null) throw new ProtocolError("Connect sent twice");
    this.sessionId = m.sessionId;
  }

  private async onAuthenticate(m: Record<string, unknown>): Promise<void> {
    const base = m.baseVersion;
    if (typeof base !== "number" || !Number.isInteger(base) || base < 0) {
      throw new ProtocolError("Authenticate: baseVersion must be a nonnegative integer");
    }
    // The client bumps its identity version locally when it drops a token after an AuthError
    // without telling us, so a base ahead of ours is legitimate; one behind ours is not.
    if (base < this.querySet.sent.identity) {
      throw new ProtocolError(
        `Authenticate: base version ${base} is older than the current identity version ${this.querySet.sent.identity}`,
      );
    }
    let caller: Caller;
    try {
      if (m.tokenType === "None") caller = ANONYMOUS;
      else if (m.tokenType === "User") {
        if (typeof m.value !== "string") throw new ProtocolError("Authenticate: value must be a string");
        caller = await this.server.callers.user(m.value);
      } else if (m.tokenType === "Admin") {
        if (typeof m.value !== "string") throw new ProtocolError("Authenticate: value must be a string");
        caller = this.server.callers.admin(m.value, m.impersonating);
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
        await this.querySet.rerunAll(null);
      }
      return;
    }
    this.caller = caller;
    await this.querySet.rerunAll(base + 1);
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
    const started = this.mutationGate.then(
      async (): Promise<{ expired: true } | { response: Promise<MutationResponseMsg> } | null> => {
        if (this.closed) return null;
        const sessionId = this.sessionId!;
        if (callerExpired(this.caller)) return { expired: true };
        const caller = this.caller;
        const known = this.server.dedupe.get(sessionId, caller, requestId);
        if (known) return { response: known };
        const run = this.startMutation(requestId, udfPath, m.args, size);
        m.args = undefined; // the engine holds them now, for as long as it needs them (functions.ts)
        this.server.dedupe.remember(sessionId, caller, requestId, run.response);
        await run.committed;
        return { response: run.response };
      },
    );
    this.mutationGate = started.catch(() => undefined);
    this.enqueue(async () => {
      const r = await started;
      if (!r) return;
      if ("expired" in r) {
        // not executed: the client refreshes its token and resends the mutation
        this.send({
          type: "AuthError",
          error: "Token expired",
          baseVersion: this.querySet.sent.identity,
          authUpdateAttempted: false,
        });
        return;
      }
      this.send(await r.response);
      // the client resolves the mutation only once a Transition reaches its ts
      await this.querySet.refresh(true);
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
      const response = Promise.resolve(mutationResponse(requestId, prepared.outcome, this.sessionId));
      return { committed: response, response };
    }
    const ts = this.engine.currentTs();
    const pipelined = this.engine.runMutationPipelined(prepared.req);
    const response = pipelined
      .then((p) => p.result)
      .then(
        (r) => {
          this.server.onLogLines("mutation", prepared.path, r.outcome.logLines);
          return mutationResponse(requestId, { ...r.outcome, ts: r.ts }, this.sessionId);
        },
        (e) => {
          if (e instanceof PlatformError) throw e;
          return mutationResponse(
            requestId,
            { ...errorOutcome(`Internal error: ${describeError(e)}`), ts },
            this.sessionId,
          );
        },
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
    return {
      req: { path: resolved.path, args: unwrapped.args, identity: this.caller.identity, internal: this.caller.admin },
      path: resolved.path,
    };
  }

  private async callAction(udfPath: string, rawArgs: unknown, size: number): Promise<FunctionOutcome> {
    const prepared = this.prepareCall("action", udfPath, rawArgs, size);
    if ("outcome" in prepared) return prepared.outcome;
    try {
      const r = await this.engine.runAction(prepared.req);
      this.server.onLogLines("action", prepared.path, r.outcome.logLines);
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
    // Actions are not ordered with the query set or mutations (Convex doesn't either) and may run
    // long, so they run beside the queue; a response is not part of the versioned state. They do
    // wait for an identity change sent before them, and run as the caller it set.
    void this.callerGate.then(async () => {
      if (this.closed) return;
      if (callerExpired(this.caller)) {
        this.send({
          type: "AuthError",
          error: "Token expired",
          baseVersion: this.querySet.sent.identity,
          authUpdateAttempted: false,
        });
        return;
      }
      const outcome = await this.callAction(udfPath, m.args, size);
      this.send(
        outcome.status === "success"
          ? { type: "ActionResponse", requestId, success: true, result: outcome.value, logLines: outcome.logLines }
          : {
              type: "ActionResponse",
              requestId,
              success: false,
              result: clientErrorMessage(outcome, wsRequestId(this.sessionId, requestId)),
              logLines: outcome.logLines,
              ...(outcome.errorData !== undefined ? { errorData: outcome.errorData } : {}),
            },
      );
    });
  }
}
