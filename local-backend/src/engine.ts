/**
 * The embedded Convex-compatible engine: loads a convex/ folder, runs queries, mutations,
 * actions and http actions against SQLite, and reports commits for reactivity.
 * Generic: it never knows about the app's tables.
 */
import { convexToJson, jsonToConvex, type JSONValue, type Value } from "convex/values";
import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import type {
  CallRequest,
  CommitEvent,
  Engine,
  EngineOptions,
  FunctionInfo,
  FunctionOutcome,
  PipelinedMutation,
  QueryResult,
  ReadSet,
  UserIdentity,
  WriteSet,
} from "./engine-api.js";
import {
  Catalog,
  SystemError,
  Tx,
  parseDoc,
  validateDocument,
  validateFields,
  type BaseLayer,
  type Doc,
  type Pending,
  type SchemaInfo,
} from "./database.js";
import { decodeId } from "./ids.js";
import { canonicalizePath, loadModules, type LoadedModules, type RegisteredFunction } from "./loader.js";
import { END_CURSOR, QueryManager, type SerializedQuery } from "./query.js";
import { ReadSetImpl, WriteSetImpl, intersects } from "./readset.js";
import { RWLock, formatLogArgs, installRuntime, realNow, scopeStorage, seededRandom, type RunScope, type SyscallHandler } from "./runtime.js";
import { Store } from "./storage.js";
import type { DocWrite } from "./storage-types.js";
import { checkValue } from "./validators.js";
import { Scheduler } from "./scheduler.js";

const MAX_ARGS_BYTES = 8 * 1024 * 1024;
const TABLE_NAME_RE = /^[a-zA-Z][a-zA-Z0-9_]*$/;
const UPLOAD_TOKEN_TTL_MS = 60 * 60 * 1000;
/** files being received in `dataDir/files`; leftovers of a crash are removed at start */
const UPLOAD_TMP_PREFIX = ".upload-";

type RunKind = "query" | "mutation" | "action" | "httpAction";

/** Carries a failed nested call through the asyncSyscall boundary (`data` set for ConvexError). */
class NestedCallError extends Error {
  constructor(
    message: string,
    readonly data?: JSONValue,
  ) {
    super(message);
  }
}

type Failure = { errorMessage: string; errorData?: JSONValue };

function isConvexError(e: unknown): e is Error & { data: unknown } {
  return typeof e === "object" && e !== null && Symbol.for("ConvexError") in e;
}

function convexErrorData(e: { data: unknown }): JSONValue {
  if (typeof e.data === "string") {
    // invokeFunction serialised it already
    try {
      return JSON.parse(e.data) as JSONValue;
    } catch {
      return e.data;
    }
  }
  return convexToJson((e.data ?? null) as Value);
}

/** Turns anything thrown by a function run into what the client sees. */
function toFailure(e: unknown): Failure {
  if (e instanceof NestedCallError) {
    return e.data !== undefined ? { errorMessage: `Uncaught ConvexError: ${e.message}`, errorData: e.data } : { errorMessage: e.message };
  }
  if (isConvexError(e)) return { errorMessage: `Uncaught ConvexError: ${e.message}`, errorData: convexErrorData(e) };
  if (e instanceof SystemError) return { errorMessage: e.message };
  if (e instanceof Error) {
    if (/^(ArgumentValidationError|ReturnsValidationError):/.test(e.message)) return { errorMessage: e.message };
    return { errorMessage: `Uncaught ${e.name || "Error"}: ${e.message}` };
  }
  return { errorMessage: `Uncaught ${String(e)}` };
}

/** What a failing nested call rejects with (the library rebuilds a ConvexError from `data`). */
function toNestedError(e: unknown): NestedCallError {
  if (e instanceof NestedCallError) return e;
  if (isConvexError(e)) return new NestedCallError(e.message, convexErrorData(e));
  if (e instanceof Error) return new NestedCallError(e.message);
  return new NestedCallError(String(e));
}

function resolveCommitTs(v: Value, ts: bigint): Value {
  if (v === null || typeof v !== "object") return v;
  if (v.constructor?.name === "CommitTsPlaceholder") return ts;
  if (v instanceof ArrayBuffer) return v;
  if (Array.isArray(v)) return v.map((x) => resolveCommitTs(x, ts));
  const out: Record<string, Value> = {};
  for (const [k, x] of Object.entries(v)) out[k] = resolveCommitTs(x as Value, ts);
  return out;
}

function sha256Base64(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("base64");
}

type RunOptions = {
  kind: RunKind;
  fnPath: string;
  identity: UserIdentity | null;
  tx: Tx | null;
  logLines: string[];
  journal?: { endCursor: string | null } | null;
  scheduledJobId?: string | null;
  visibility?: "public" | "internal";
  depth: number;
};

/** One function execution: owns its syscall dispatch, query streams and log capture. */
class Run implements SyscallHandler {
  readonly queries: QueryManager | null;
  readonly requestId = randomUUID();
  newJournal: string | null = null;
  readonly now: number;
  readonly scope: RunScope;

  constructor(
    readonly engine: EngineImpl,
    readonly o: RunOptions,
  ) {
    this.queries = o.tx ? new QueryManager(o.tx) : null;
    this.now = realNow();
    const transactional = o.kind === "query" || o.kind === "mutation";
    this.scope = {
      handler: this,
      now: transactional ? this.now : null,
      random: transactional ? seededRandom(this.now ^ 0x5bd1e995) : null,
      log: (level, args) => this.log(level, args),
      env: engine.functionEnv(),
      allowFetch: !transactional,
    };
  }

  get tx(): Tx {
    if (!this.o.tx) throw new Error("This operation is only available in queries and mutations.");
    return this.o.tx;
  }

  private log(level: string, args: unknown[]) {
    const tag = level === "log" ? "LOG" : level.toUpperCase();
    const line = `[${tag}] ${formatLogArgs(args)}`;
    this.o.logLines.push(line);
    this.engine.emitLog(`${this.o.fnPath} ${line}`);
  }

  // ----- sync syscalls -----
  syscall(op: string, argsStr: string): string {
    const args = JSON.parse(argsStr);
    switch (op) {
      case "1.0/queryStream": {
        const queryId = this.queriesOrThrow().start(args.query as SerializedQuery);
        return `{"queryId":${queryId}}`;
      }
      case "1.0/queryCleanup":
        this.queriesOrThrow().cleanup(args.queryId);
        return "{}";
      case "1.0/db/normalizeId": {
        const { table, idString } = args as { table: string; idString: string };
        const tn = this.engine.catalog.tableNumber(table);
        const d = typeof idString === "string" ? decodeId(idString) : null;
        return JSON.stringify({ id: d && tn !== undefined && d.tableNumber === tn ? idString : null });
      }
      case "1.0/getSnapshotTs":
        return JSON.stringify(convexToJson(this.engine.currentTs()));
      default:
        throw new Error(`Unknown syscall "${op}"`);
    }
  }

  private queriesOrThrow(): QueryManager {
    if (!this.queries) throw new Error("The database is not available in actions. Use ctx.runQuery or ctx.runMutation.");
    return this.queries;
  }

  // ----- async syscalls -----
  async asyncSyscall(op: string, argsStr: string): Promise<string> {
    const args = JSON.parse(argsStr);
    switch (op) {
      case "1.0/get":
        return this.get(args);
      case "1.0/insert":
        return this.insert(args, argsStr);
      case "1.0/shallowMerge":
        return this.patchOrReplace(args, "patch");
      case "1.0/replace":
        return this.patchOrReplace(args, "replace");
      case "1.0/remove":
        return this.remove(args);
      case "1.0/queryStreamNext":
        return this.queriesOrThrow().next(args.queryId);
      case "1.0/queryPage":
        return this.page(args);
      case "1.0/count":
        return JSON.stringify(this.queriesOrThrow().count(args.table));
      case "1.0/getUserIdentity":
        return JSON.stringify(this.o.identity);
      case "1.0/runUdf":
        return this.runUdf(args);
      case "1.0/actions/query":
        return this.actionCall("query", args);
      case "1.0/actions/mutation":
        return this.actionCall("mutation", args);
      case "1.0/actions/action":
        return this.actionCall("action", args);
      case "1.0/schedule":
        return JSON.stringify(this.engine.scheduler.schedule(this.tx, args));
      case "1.0/cancel_job":
        this.engine.scheduler.cancel(this.tx, args.id);
        return JSON.stringify({});
      case "1.0/actions/schedule":
        this.requireAction(op);
        return JSON.stringify(await this.engine.systemWrite((tx) => this.engine.scheduler.schedule(tx, args)));
      case "1.0/actions/cancel_job":
        this.requireAction(op);
        await this.engine.systemWrite((tx) => this.engine.scheduler.cancel(tx, args.id));
        return JSON.stringify({});
      case "1.0/storageGenerateUploadUrl":
        return JSON.stringify(this.engine.generateUploadUrl());
      case "1.0/storageGetUrl":
        return JSON.stringify(await this.withReadTx((tx) => this.engine.storageUrl(tx, args.storageId)));
      case "1.0/storageGetMetadata":
        return JSON.stringify(await this.withReadTx((tx) => this.engine.storageMetadata(tx, args.storageId)));
      case "1.0/storageDelete":
        if (this.o.tx) this.engine.deleteStorage(this.o.tx, args.storageId);
        else await this.engine.systemWrite((tx) => this.engine.deleteStorage(tx, args.storageId));
        return JSON.stringify({});
      case "1.0/storageStore": {
        this.requireAction(op);
        const bytes = Buffer.from(args.blob as string, "base64");
        return JSON.stringify(await this.engine.storeBytes(bytes, (args.contentType as string) || null, args.sha256));
      }
      case "1.0/storageGet": {
        this.requireAction(op);
        const blob = await this.engine.getStorageBlob(args.storageId);
        return JSON.stringify(blob ? { blob: Buffer.from(blob.body).toString("base64"), contentType: blob.contentType } : null);
      }
      case "1.0/getFunctionMetadata":
        return JSON.stringify({ name: this.o.fnPath, componentPath: "" });
      case "1.0/getRequestMetadata":
        if (this.o.kind === "query") {
          throw new Error("getRequestMetadata() can only be called from a mutation, action or HTTP action.");
        }
        return JSON.stringify({
          ip: null,
          userAgent: null,
          requestId: this.requestId,
          scheduledFunctionId: this.o.scheduledJobId ?? null,
          authToken: null,
        });
      case "1.0/getDeploymentMetadata":
        return JSON.stringify({ name: "local", region: null, class: "s16" });
      case "1.0/getTransactionMetrics":
        if (!this.o.tx) {
          throw new Error("getTransactionMetrics() can only be called from a query or mutation.");
        }
        return JSON.stringify(this.engine.transactionMetrics());
      case "1.0/createFunctionHandle": {
        const name = args.name ?? args.functionHandle;
        return JSON.stringify(`function://;${canonicalizePath(String(name))}`);
      }
      case "1.0/auditLog":
        return JSON.stringify(null);
      case "1.0/actions/vectorSearch":
        this.requireAction(op);
        return JSON.stringify(await this.engine.vectorSearch(args.query));
      default:
        throw new Error(`Unknown async syscall "${op}"`);
    }
  }

  jsSyscall(op: string, args: Record<string, unknown>): unknown {
    switch (op) {
      case "storage/storeBlob": {
        const blob = args.blob as Blob;
        return (async () => {
          const bytes = new Uint8Array(await blob.arrayBuffer());
          const sha = (args.options as { sha256?: string } | undefined)?.sha256;
          return this.engine.storeBytes(bytes, blob.type || null, sha);
        })();
      }
      case "storage/getBlob":
        return (async () => {
          const r = await this.engine.getStorageBlob(args.storageId as string);
          if (!r) return null;
          return new Blob([new Uint8Array(r.body)], { type: r.contentType ?? "" });
        })();
      default:
        throw new Error(`Unknown JS syscall "${op}"`);
    }
  }

  private requireAction(op: string) {
    if (this.o.kind !== "action" && this.o.kind !== "httpAction") throw new Error(`${op} can only be used in actions.`);
  }

  private async withReadTx<T>(fn: (tx: Tx) => T): Promise<T> {
    if (this.o.tx) return fn(this.o.tx);
    return this.engine.withReadLock(() => fn(new Tx(this.engine.hooks, false)));
  }

  private resolveTable(idArg: unknown, tableArg: unknown, method: string): { id: string; table: string } {
    const id = jsonToConvex(idArg as JSONValue);
    if (typeof id !== "string") throw new Error(`Invalid argument \`id\` for \`db.${method}\`, expected string but got '${typeof id}'`);
    const decoded = decodeId(id);
    const table = decoded ? this.engine.catalog.names.get(decoded.tableNumber) : undefined;
    if (!decoded || table === undefined) {
      throw new Error(`Invalid argument \`id\` for \`db.${method}\`: Unable to decode ID: "${id}" is not a valid document ID.`);
    }
    if (typeof tableArg === "string" && tableArg !== table) {
      throw new Error(`Invalid argument \`id\` for \`db.${method}\`: expected an ID for table "${tableArg}" but got an ID for table "${table}".`);
    }
    return { id, table };
  }

  private get(args: { id: JSONValue; table?: string; isSystem?: boolean }): string {
    const tx = this.tx;
    const id = jsonToConvex(args.id);
    if (typeof id !== "string") throw new Error(`Invalid argument \`id\` for \`db.get\`, expected string but got '${typeof id}'`);
    const decoded = decodeId(id);
    if (!decoded) {
      if (typeof args.table === "string") {
        throw new Error(`Invalid argument \`id\` for \`db.get\`: Unable to decode ID: "${id}" is not a valid document ID.`);
      }
      // Convex returns null for ids of tables that do not exist; undecodable strings are errors.
      throw new Error(`Invalid argument \`id\` for \`db.get\`: Unable to decode ID: "${id}" is not a valid document ID.`);
    }
    const table = this.engine.catalog.names.get(decoded.tableNumber);
    if (typeof args.table === "string" && table !== undefined && table !== args.table) {
      throw new Error(`Invalid argument \`id\` for \`db.get\`: expected an ID for table "${args.table}" but got an ID for table "${table}".`);
    }
    const r = tx.get(id);
    if (!r) return "null";
    return r.json ?? JSON.stringify(convexToJson(r.doc));
  }

  private insert(args: { table: string; value: JSONValue }, argsStr: string): string {
    const tx = this.tx;
    const table = args.table;
    if (typeof table !== "string" || !TABLE_NAME_RE.test(table)) {
      if (typeof table === "string" && table.startsWith("_")) throw new Error("System tables (prefixed with `_`) are read-only.");
      throw new Error(`Invalid table name: "${table}". Table names must be valid identifiers.`);
    }
    const value = jsonToConvexShared(args.value) as Doc;
    if (value === null || typeof value !== "object" || Array.isArray(value)) throw new Error("insert() expects an object");
    for (const k of Object.keys(value)) {
      if (k.startsWith("_")) throw new Error(`Field names starting with "_" are reserved for system fields: "${k}"`);
    }
    // `value` holds no system fields (checked above), so it is the document minus _id/_creationTime.
    validateFields(this.engine.catalog, table, value);
    // args.value is convexToJson(value) (the client encoded it): the stored JSON is built from it
    // once, here, and also tells whether the value holds a commit-timestamp placeholder.
    const id = tx.insert(table, value, undefined, args.value as Record<string, JSONValue>, insertValueText(argsStr, table, args));
    return `{"_id":"${id}"}`;
  }

  private patchOrReplace(args: { id: JSONValue; value: JSONValue; table?: string }, mode: "patch" | "replace"): string {
    const tx = this.tx;
    const method = mode === "patch" ? "patch" : "replace";
    const { id, table } = this.resolveTable(args.id, args.table, method);
    if (table.startsWith("_")) throw new Error("System tables (prefixed with `_`) are read-only.");
    const current = tx.get(id);
    if (!current) throw new Error(`${mode === "patch" ? "Patch" : "Replace"} on nonexistent document ID ${id}`);
    const raw = args.value as Record<string, JSONValue>;
    if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
      throw new Error(`Invalid argument \`value\` for \`db.${method}\`: expected an object`);
    }
    const next: Doc = mode === "patch" ? Object.assign({}, current.doc) : { _id: current.doc._id, _creationTime: current.doc._creationTime };
    for (const [k, vJson] of Object.entries(raw)) {
      const isUndef = vJson !== null && typeof vJson === "object" && !Array.isArray(vJson) && "$undefined" in vJson;
      if (k === "_id" || k === "_creationTime") {
        const given = isUndef ? undefined : jsonToConvex(vJson);
        if (given !== undefined && given !== current.doc[k]) {
          throw new Error(`Provided \`${k}\` field value ${JSON.stringify(vJson)} does not match the document's ${k === "_id" ? "ID" : "creation time"}.`);
        }
        continue;
      }
      if (isUndef) delete next[k];
      else next[k] = jsonToConvex(vJson);
    }
    validateDocument(this.engine.catalog, table, next);
    tx.write(id, table, next, JSON.stringify(raw).includes('"$commitTs"'));
    return JSON.stringify({});
  }

  private remove(args: { id: JSONValue; table?: string }): string {
    const tx = this.tx;
    const { id, table } = this.resolveTable(args.id, args.table, "delete");
    if (table.startsWith("_")) throw new Error("System tables (prefixed with `_`) are read-only.");
    if (!tx.get(id)) throw new Error(`Delete on nonexistent document ID ${id}`);
    tx.write(id, table, null, false);
    return JSON.stringify({});
  }

  private page(args: any): string {
    const qm = this.queriesOrThrow();
    qm.paginateCalls++;
    if (qm.paginateCalls > 1) {
      throw new Error(
        "This query or mutation function ran multiple paginated queries. Convex only supports a single paginated query in each function.",
      );
    }
    let endCursor: string | null = args.endCursor ?? null;
    const journaled = endCursor === null && this.o.journal ? this.o.journal.endCursor : null;
    if (journaled) endCursor = journaled;
    const { json, continueCursor } = qm.page({ ...args, endCursor });
    if (this.o.kind === "query" && this.o.depth === 0 && args.endCursor == null) {
      this.newJournal = JSON.stringify({ endCursor: journaled ?? continueCursor });
    }
    return json;
  }

  private async runUdf(args: { udfType: string; name?: string; functionHandle?: string; args: JSONValue }): Promise<string> {
    const name = args.name ?? (args.functionHandle ? args.functionHandle.replace(/^function:\/\/[^;]*;/, "") : undefined);
    if (!name) throw new Error("runUdf requires a function name");
    const kind = args.udfType === "mutation" ? "mutation" : "query";
    if (kind === "mutation" && this.o.kind !== "mutation") throw new Error("ctx.runMutation can only be called from mutations.");
    try {
      const value = await this.engine.runNested(this, kind, canonicalizePath(name), args.args, args.udfType === "snapshotQuery");
      return JSON.stringify(value);
    } catch (e) {
      throw toNestedError(e);
    }
  }

  private async actionCall(kind: "query" | "mutation" | "action", args: { name?: string; functionHandle?: string; args: JSONValue }) {
    this.requireAction(`ctx.run${kind[0].toUpperCase()}${kind.slice(1)}`);
    const name = args.name ?? (args.functionHandle ? args.functionHandle.replace(/^function:\/\/[^;]*;/, "") : undefined);
    if (!name) throw new Error("Function reference without a name");
    const path = canonicalizePath(name);
    const req = { path, args: args.args, identity: this.o.identity };
    let out: { outcome: FunctionOutcome };
    if (kind === "query") out = await this.engine.runQueryTop(req, null, this.o.logLines, this.o.depth + 1);
    else if (kind === "mutation") out = await this.engine.runMutationTop(req, { logLines: this.o.logLines, internalAllowed: true });
    else out = await this.engine.runActionTop(req, { logLines: this.o.logLines, internalAllowed: true, depth: this.o.depth + 1 });
    if (out.outcome.status === "success") return JSON.stringify(out.outcome.value);
    const o = out.outcome;
    if (o.errorData !== undefined) throw new NestedCallError(o.errorMessage.replace(/^Uncaught ConvexError: /, ""), o.errorData);
    throw new NestedCallError(o.errorMessage.replace(/^Uncaught Error: /, ""));
  }
}

type EnvStore = Record<string, string>;

export class EngineImpl implements Engine {
  readonly store: Store;
  readonly catalog: Catalog;
  readonly hooks;
  readonly scheduler: Scheduler;
  private modules: LoadedModules | null = null;
  private lock = new RWLock();
  private lastTs = 0n;
  private lastCreationTime = 0;
  /** committed transactions the writer thread has not stored yet, oldest first */
  private inflight: BaseLayer[] = [];
  private listeners = new Set<(e: CommitEvent) => void>();
  private envVars: EnvStore = {};
  private secret: Buffer;
  private watcher: fs.FSWatcher | null = null;
  private reloadTimer: NodeJS.Timeout | null = null;
  private reloading: Promise<void> | null = null;
  private stopped = false;
  readonly filesDir: string;
  private readonly cacheDir: string;

  constructor(readonly opts: EngineOptions) {
    this.filesDir = path.join(opts.dataDir, "files");
    this.cacheDir = path.join(opts.dataDir, "cache");
    fs.mkdirSync(this.filesDir, { recursive: true });
    fs.mkdirSync(this.cacheDir, { recursive: true });
    this.store = new Store(opts.dataDir);
    this.catalog = new Catalog(this.store);
    this.catalog.load();
    this.lastTs = BigInt(this.store.getMeta("ts") ?? "0");
    this.lastCreationTime = Number(this.store.getMeta("creationTime") ?? "0");
    let secret = this.store.getMeta("secret");
    if (!secret) {
      secret = randomBytes(32).toString("hex");
      this.store.setMeta("secret", secret);
    }
    this.secret = Buffer.from(secret, "hex");
    this.envVars = this.readEnv();
    this.hooks = {
      catalog: this.catalog,
      store: this.store,
      nextCreationTime: () => {
        const now = realNow();
        this.lastCreationTime = now > this.lastCreationTime ? now : this.lastCreationTime + 0.001;
        return this.lastCreationTime;
      },
      baseLayers: () => this.inflight.slice(),
    };
    this.store.onFailure = (e) => this.emitLog(`[storage] ${e.message}`);
    this.store.onDurable = (ticket) => {
      let n = 0;
      while (n < this.inflight.length && this.inflight[n].ticket <= ticket) n++;
      if (n > 0) this.inflight.splice(0, n);
    };
    this.scheduler = new Scheduler(this);
  }

  // ----- lifecycle -----

  async start(): Promise<void> {
    installRuntime();
    for (const f of fs.readdirSync(this.filesDir)) {
      if (f.startsWith(UPLOAD_TMP_PREFIX)) fs.rmSync(path.join(this.filesDir, f), { force: true });
    }
    for (const t of ["_scheduled_functions", "_storage"]) this.catalog.ensureTable(t);
    await this.load();
    if (this.opts.watch) this.startWatching();
    if (this.opts.scheduler !== false) await this.scheduler.start();
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.watcher?.close();
    if (this.reloadTimer) clearTimeout(this.reloadTimer);
    await this.scheduler.stop();
    // Wait for in-flight commits before closing the database.
    const release = await this.lock.write();
    try {
      await this.store.close();
    } finally {
      release();
    }
  }

  isStopped() {
    return this.stopped;
  }

  private async load() {
    installRuntime();
    // Module top-level code (auth.config.ts, constants) may read process.env.
    const loadScope: RunScope = {
      handler: {
        syscall: () => {
          throw new Error("Convex APIs cannot be used while modules are being imported");
        },
        asyncSyscall: () => Promise.reject(new Error("Convex APIs cannot be used while modules are being imported")),
        jsSyscall: () => {
          throw new Error("Convex APIs cannot be used while modules are being imported");
        },
      },
      now: null,
      random: null,
      log: (level, args) => this.emitLog(`[module import] [${level.toUpperCase()}] ${formatLogArgs(args)}`),
      env: this.functionEnv(),
      allowFetch: true,
    };
    const loaded = await scopeStorage.run(loadScope, () => loadModules(this.opts.functionsDir, this.cacheDir));
    for (const err of loaded.errors) this.emitLog(`[loader] ${err}`);
    const release = await this.lock.write();
    try {
      this.applySchema(loaded.schema);
      this.modules = loaded;
    } finally {
      release();
    }
    this.scheduler.onModulesLoaded();
  }

  private applySchema(schema: any) {
    let info: SchemaInfo | null = null;
    if (schema && typeof schema.export === "function") info = JSON.parse(schema.export()) as SchemaInfo;
    this.catalog.schema = info;
    this.catalog.schemaByTable = new Map((info?.tables ?? []).map((t) => [t.tableName, t]));
    for (const t of info?.tables ?? []) this.catalog.ensureTable(t.tableName);
    for (const table of this.catalog.tables.keys()) {
      for (const change of this.catalog.syncIndexes(table)) this.emitLog(`[schema] ${change}`);
    }
  }

  private startWatching() {
    try {
      this.watcher = fs.watch(this.opts.functionsDir, { recursive: true }, (_event, file) => {
        if (file && (String(file).includes("_generated") || String(file).startsWith("."))) return;
        if (this.reloadTimer) clearTimeout(this.reloadTimer);
        this.reloadTimer = setTimeout(() => void this.reload(), 150);
      });
    } catch (e) {
      this.emitLog(`[watch] cannot watch ${this.opts.functionsDir}: ${(e as Error).message}`);
    }
  }

  /** Rebuilds and swaps modules; on a build error the previous modules stay active. */
  async reload(reason: "watch" | "env" = "watch"): Promise<void> {
    if (this.stopped) return;
    if (this.reloading) await this.reloading;
    this.reloading = (async () => {
      try {
        await this.load();
        this.emitLog(reason === "env" ? "[env] environment changed: functions reloaded" : "[watch] functions reloaded");
      } catch (e) {
        this.emitLog(`[${reason}] reload failed, keeping previous functions: ${(e as Error).message}`);
      }
    })();
    await this.reloading;
    this.reloading = null;
  }

  emitLog(line: string) {
    const log = this.opts.log;
    // Outside the run's scope, so the sink's own console use is not captured as function output.
    if (log) scopeStorage.exit(() => log(line));
  }

  // ----- env -----

  private envFile() {
    return path.join(this.opts.dataDir, "env.json");
  }
  private readEnv(): EnvStore {
    try {
      return JSON.parse(fs.readFileSync(this.envFile(), "utf8")) as EnvStore;
    } catch {
      return {};
    }
  }
  private writeEnv() {
    const tmp = `${this.envFile()}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(this.envVars, null, 2));
    fs.renameSync(tmp, this.envFile());
  }
  functionEnv(): Record<string, string> {
    return { ...this.envVars, CONVEX_CLOUD_URL: this.opts.cloudUrl, CONVEX_SITE_URL: this.opts.siteUrl };
  }
  readonly env = {
    list: (): Record<string, string> => ({ ...this.envVars }),
    set: (name: string, value: string) => {
      if (!/^[a-zA-Z_][a-zA-Z0-9_]*$/.test(name)) throw new Error(`Invalid environment variable name: ${name}`);
      this.envVars[name] = String(value);
      this.writeEnv();
      this.envChanged();
    },
    remove: (name: string) => {
      delete this.envVars[name];
      this.writeEnv();
      this.envChanged();
    },
  };

  /** auth.config.ts and other module-level code read env vars at import time: re-import. */
  private envChanged() {
    if (!this.modules || this.stopped) return;
    if (this.reloadTimer) clearTimeout(this.reloadTimer);
    this.reloadTimer = setTimeout(() => void this.reload("env"), 50);
  }

  // ----- info -----

  currentTs(): bigint {
    return this.lastTs;
  }

  listFunctions(): FunctionInfo[] {
    return [...(this.modules?.functions.values() ?? [])].map((f) => ({ path: f.path, kind: f.kind, visibility: f.visibility }));
  }

  getFunction(p: string): FunctionInfo | undefined {
    const f = this.lookup(p);
    return f ? { path: f.path, kind: f.kind, visibility: f.visibility } : undefined;
  }

  lookup(p: string): RegisteredFunction | undefined {
    if (typeof p !== "string") return undefined;
    return this.modules?.functions.get(canonicalizePath(p));
  }

  authProviders(): JSONValue[] {
    const cfg = this.modules?.authConfig;
    const providers = cfg?.providers;
    if (!Array.isArray(providers)) return [];
    return providers.map((p: unknown) => JSON.parse(JSON.stringify(p)) as JSONValue);
  }

  httpRouter(): any {
    return this.modules?.http ?? null;
  }
  cronSpecs(): Record<string, { name: string; args: JSONValue[]; schedule: any }> {
    return this.modules?.crons?.crons ?? {};
  }

  // ----- reactivity -----

  onCommit(listener: (event: CommitEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  readSetIntersects(readSet: ReadSet, writes: WriteSet): boolean {
    return intersects(readSet, writes);
  }

  // ----- locking / transactions -----

  async withReadLock<T>(fn: () => T | Promise<T>): Promise<T> {
    const release = await this.lock.read();
    try {
      return await fn();
    } finally {
      release();
    }
  }

  /** Runs `fn` in its own write transaction and commits it (storage, scheduler bookkeeping, imports). */
  async systemWrite<T>(fn: (tx: Tx) => T): Promise<T> {
    const release = await this.lock.write();
    let result: T;
    try {
      this.assertOpen();
      const tx = new Tx(this.hooks, true);
      result = fn(tx);
      this.commit(tx);
    } finally {
      release();
    }
    await this.durable();
    return result;
  }

  /**
   * Waits until every transaction committed so far is in SQLite. Callers release the write lock
   * first, so the next transaction runs while this one is written; nobody is told about a result
   * before the writes it rests on are stored.
   */
  durable(): Promise<void> {
    return this.store.whenDurable(this.store.postedTicket);
  }

  private assertOpen() {
    if (this.stopped) throw new Error("The backend is shutting down.");
  }

  private nextTs(): bigint {
    const now = BigInt(Math.floor(realNow())) * 1_000_000n;
    return now > this.lastTs ? now : this.lastTs + 1n;
  }

  /** Applies the transaction's writes atomically. Caller holds the write lock. */
  private endReadQuietly() {
    try {
      this.store.endRead();
    } catch (e) {
      this.emitLog(`[commit] closing the read transaction failed: ${(e as Error).message}`);
    }
  }

  commit(tx: Tx): bigint {
    for (const hook of tx.beforeCommit) hook(tx);
    const pendings = tx.flatten();
    if (pendings.size === 0) {
      for (const f of tx.afterCommit) f();
      return this.lastTs;
    }
    const ts = this.nextTs();
    const writes: DocWrite[] = [];
    const writeSet = new WriteSetImpl((id) => {
      const def = this.catalog.byId.get(id);
      return def?.kind === "db" ? def : undefined;
    });
    const deltas = new Map<number, number>();
    const layer: BaseLayer = { ticket: 0, docs: new Map(), sorted: new Map() };
    for (const p of pendings.values()) {
      const w = this.buildWrite(tx, p, ts, writeSet);
      if (!w) continue;
      writes.push(w);
      layer.docs.set(p.id, {
        id: p.id,
        table: p.table,
        tableNumber: p.tableNumber,
        doc: w.doc,
        isNew: false,
        hasPlaceholder: false,
        json: w.json ?? undefined,
        keys: p.hasPlaceholder ? undefined : p.keys,
      });
      if (p.isNew && p.doc) deltas.set(p.tableNumber, (deltas.get(p.tableNumber) ?? 0) + 1);
      else if (!p.isNew && !p.doc) deltas.set(p.tableNumber, (deltas.get(p.tableNumber) ?? 0) - 1);
    }
    if (writes.length === 0) {
      for (const f of tx.afterCommit) f();
      return this.lastTs;
    }
    layer.ticket = this.store.commit(
      writes,
      [
        ["ts", ts.toString()],
        ["creationTime", String(this.lastCreationTime)],
      ],
      deltas,
    );
    this.inflight.push(layer);
    for (const [tn, d] of deltas) this.catalog.counts.set(tn, (this.catalog.counts.get(tn) ?? 0) + d);
    this.lastTs = ts;
    for (const f of tx.afterCommit) {
      try {
        f();
      } catch (e) {
        this.emitLog(`[commit] post-commit step failed: ${(e as Error).message}`);
      }
    }
    const event: CommitEvent = { ts, writes: writeSet };
    scopeStorage.exit(() => {
      for (const l of this.listeners) {
        try {
          l(event);
        } catch (e) {
          this.emitLog(`[commit] listener failed: ${(e as Error).message}`);
        }
      }
    });
    return ts;
  }

  /** The document as committed before `tx` (an unstored committed version first, else SQLite's). */
  private committedDoc(tx: Tx, id: string): { json: string; doc: Doc | null } | undefined {
    const base = tx.basePending(id);
    // a committed layer always carries the stored JSON of the documents it keeps
    if (base) return base.doc ? { json: base.json!, doc: base.doc } : undefined;
    const row = this.store.getDoc(id);
    return row ? { json: row.json, doc: null } : undefined;
  }

  /**
   * What a pending write stores (null: nothing changes). Index keys and search entries are derived
   * by the writer thread (storage), and for subscriptions lazily by the write set.
   */
  private buildWrite(tx: Tx, p: Pending, ts: bigint, writeSet: WriteSetImpl): (DocWrite & { doc: Doc | null }) | null {
    const old = p.isNew ? undefined : this.committedDoc(tx, p.id);
    if (!old && !p.doc) return null;
    const newDoc = p.doc ? (p.hasPlaceholder ? (resolveCommitTs(p.doc, ts) as Doc) : p.doc) : null;
    const json = newDoc ? (!p.hasPlaceholder && p.json !== undefined ? p.json : JSON.stringify(convexToJson(newDoc))) : null;
    if (old && json === old.json) return null;
    writeSet.addDoc(p.tableNumber, {
      table: p.table,
      old: old?.doc ?? null,
      oldJson: old && !old.doc ? old.json : null,
      doc: newDoc,
      keys: p.hasPlaceholder ? undefined : p.keys,
    });
    return { id: p.id, tableNumber: p.tableNumber, json, isNew: !old, doc: newDoc };
  }

  // ----- function execution -----

  /** JSON text of checked arguments whose JSON form was already canonical (see checkArgs). */
  private argsText = new WeakMap<object, string>();

  private checkArgs(f: RegisteredFunction, argsJson: JSONValue): Value {
    const text = JSON.stringify(argsJson ?? null);
    const size = text.length;
    if (size > MAX_ARGS_BYTES) {
      throw new SystemError(`ArgumentValidationError: Arguments for ${f.path} are too large (${size} bytes, maximum is ${MAX_ARGS_BYTES} bytes).`);
    }
    let args: Value;
    if (argsJson !== null && typeof argsJson === "object" && !Array.isArray(argsJson)) {
      // In-process callers may pass `{x: undefined}`; over the wire that field would be absent.
      argsJson = Object.fromEntries(Object.entries(argsJson).filter(([, v]) => v !== undefined));
    }
    const shape = argsJson === null || argsJson === undefined ? 0 : jsonShape(argsJson);
    try {
      args = (shape & PLAIN) !== 0 ? argsJson : jsonToConvex(argsJson ?? {});
    } catch (e) {
      throw new SystemError(`ArgumentValidationError: Invalid arguments for ${f.path}: ${(e as Error).message}`);
    }
    if (args === null || typeof args !== "object" || Array.isArray(args) || args instanceof ArrayBuffer) {
      throw new SystemError(`ArgumentValidationError: The arguments to a Convex function must be an object. Received: ${JSON.stringify(argsJson)}`);
    }
    if (f.args) {
      const err = checkValue(f.args, args, (id) => this.catalog.tableName(id));
      if (err) throw new SystemError(`ArgumentValidationError: ${err}`);
    }
    // When argsJson is already what convexToJson(args) would give, invoke() reuses its text.
    if ((shape & CANONICAL) !== 0) this.argsText.set(args, text);
    return args;
  }

  private checkReturns(f: RegisteredFunction, resultJson: JSONValue) {
    if (!f.returns) return;
    const err = checkValue(f.returns, jsonToConvex(resultJson), (id) => this.catalog.tableName(id));
    if (err) throw new SystemError(`ReturnsValidationError: ${err}`);
  }

  private resolve(p: string, kind: RunKind, internalAllowed: boolean): RegisteredFunction {
    const f = this.lookup(p);
    if (!f) {
      throw new SystemError(`Could not find public function for '${typeof p === "string" ? canonicalizePath(p) : String(p)}'. Did you forget to run \`npx convex dev\` or \`npx convex deploy\`?`);
    }
    if (f.visibility === "internal" && !internalAllowed) {
      throw new SystemError(`Could not find public function for '${f.path}'. Did you forget to run \`npx convex dev\` or \`npx convex deploy\`?`);
    }
    if (f.kind !== kind) {
      throw new SystemError(`Trying to execute ${f.path} as ${kind === "action" ? "Action" : kind === "query" ? "Query" : "Mutation"}, but it is defined as ${f.kind === "action" ? "Action" : f.kind === "query" ? "Query" : f.kind === "mutation" ? "Mutation" : "HttpAction"}.`);
    }
    return f;
  }

  private async invoke(f: RegisteredFunction, args: Value, run: Run): Promise<JSONValue> {
    installRuntime();
    const known = typeof args === "object" && args !== null ? this.argsText.get(args) : undefined;
    const argsStr = known !== undefined ? `[${known}]` : JSON.stringify([convexToJson(args)]);
    const resultStr: string = await scopeStorage.run(run.scope, () => {
      if (f.kind === "query") return f.fn.invokeQuery(argsStr);
      if (f.kind === "mutation") return f.fn.invokeMutation(argsStr);
      return f.fn.invokeAction(run.requestId, argsStr);
    });
    const result = JSON.parse(resultStr) as JSONValue;
    this.checkReturns(f, result);
    return result;
  }

  /** Nested ctx.runQuery / ctx.runMutation inside a query or mutation: same transaction. */
  async runNested(parent: Run, kind: "query" | "mutation", p: string, argsJson: JSONValue, snapshot: boolean): Promise<JSONValue> {
    const f = this.resolve(p, kind, true);
    const args = this.checkArgs(f, argsJson);
    const parentTx = parent.tx;
    let tx = parentTx;
    if (snapshot) tx = new Tx(this.hooks, false);
    const run = new Run(this, {
      kind,
      fnPath: f.path,
      identity: parent.o.identity,
      tx,
      logLines: parent.o.logLines,
      depth: parent.o.depth + 1,
      scheduledJobId: parent.o.scheduledJobId,
    });
    if (kind === "mutation") tx.pushLayer();
    try {
      const value = await this.invoke(f, args, run);
      if (kind === "mutation") tx.popLayer(true);
      return value;
    } catch (e) {
      if (kind === "mutation") tx.popLayer(false);
      throw e;
    } finally {
      if (tx !== parentTx) parentTx.readSet.merge(tx.finishReads());
    }
  }

  async runQuery(req: CallRequest & { journal?: string | null }): Promise<QueryResult> {
    let journal: { endCursor: string | null } | null = null;
    if (req.journal) {
      try {
        const parsed = JSON.parse(req.journal);
        if (parsed && typeof parsed.endCursor === "string") journal = { endCursor: parsed.endCursor };
      } catch {
        journal = null;
      }
    }
    return this.runQueryTop(req, journal, [], 0, req.internal === true);
  }

  async runQueryTop(
    req: CallRequest,
    journal: { endCursor: string | null } | null,
    logLines: string[],
    depth: number,
    internalAllowed = true,
  ): Promise<QueryResult> {
    const release = await this.lock.read();
    const tx = new Tx(this.hooks, false);
    const ts = this.lastTs;
    let outcome: FunctionOutcome;
    let newJournal: string | null = null;
    try {
      this.assertOpen();
      const f = this.resolve(req.path, "query", internalAllowed);
      const args = this.checkArgs(f, req.args);
      const run = new Run(this, { kind: "query", fnPath: f.path, identity: req.identity, tx, logLines, journal, depth });
      const value = await this.invoke(f, args, run);
      newJournal = run.newJournal;
      outcome = { status: "success", value, logLines };
    } catch (e) {
      outcome = { status: "error", ...toFailure(e), logLines };
    } finally {
      release();
    }
    // The result may rest on committed writes still being stored.
    if (tx.base.length > 0) outcome = await this.onceStored(this.durable(), outcome);
    return { outcome, readSet: tx.finishReads(), ts, journal: newJournal };
  }

  async runMutation(req: CallRequest): Promise<{ outcome: FunctionOutcome; ts: bigint }> {
    return this.runMutationTop(req, { logLines: [], internalAllowed: req.internal === true });
  }

  async runMutationTop(
    req: CallRequest,
    o: MutationRunOptions,
  ): Promise<{ outcome: FunctionOutcome; ts: bigint; skipped?: boolean }> {
    const { durable, ...r } = await this.runMutationCommitted(req, o);
    const outcome = await this.onceStored(durable, r.outcome);
    return outcome === r.outcome ? r : { outcome, ts: this.lastTs };
  }

  async runMutationPipelined(req: CallRequest): Promise<PipelinedMutation> {
    const { durable, ...r } = await this.runMutationCommitted(req, { logLines: [], internalAllowed: req.internal === true });
    const result = this.onceStored(durable, r.outcome).then((outcome) => (outcome === r.outcome ? r : { outcome, ts: this.lastTs }));
    return { result };
  }

  /** `outcome` once the writes it rests on are stored; an error outcome if storing them failed. */
  private async onceStored(durable: Promise<void>, outcome: FunctionOutcome): Promise<FunctionOutcome> {
    try {
      await durable;
      return outcome;
    } catch (e) {
      return { status: "error", ...toFailure(e), logLines: outcome.logLines };
    }
  }

  /**
   * Runs a mutation up to its commit and releases the write lock: the next mutation may run while
   * this one's writes are stored. `durable` resolves once everything it committed or read is
   * stored; nobody may hear of the outcome before.
   */
  private async runMutationCommitted(
    req: CallRequest,
    o: MutationRunOptions,
  ): Promise<{ outcome: FunctionOutcome; ts: bigint; skipped?: boolean; durable: Promise<void> }> {
    const release = await this.lock.write();
    const logLines = o.logLines;
    let result: { outcome: FunctionOutcome; ts: bigint; skipped?: boolean };
    try {
      this.assertOpen();
      const f = this.resolve(req.path, "mutation", o.internalAllowed);
      const args = this.checkArgs(f, req.args);
      const tx = new Tx(this.hooks, true);
      if (o.prepare && !o.prepare(tx)) result = { outcome: { status: "success", value: null, logLines }, ts: this.lastTs, skipped: true };
      else {
        const run = new Run(this, {
          kind: "mutation",
          fnPath: f.path,
          identity: req.identity,
          tx,
          logLines,
          depth: 0,
          scheduledJobId: o.scheduledJobId ?? null,
        });
        // One SQLite read snapshot for all of the mutation's reads (it holds the write lock).
        this.store.beginRead();
        const value = await this.invoke(f, args, run);
        o.onSuccess?.(tx);
        const ts = this.commit(tx);
        result = { outcome: { status: "success", value, logLines }, ts };
      }
    } catch (e) {
      result = { outcome: { status: "error", ...toFailure(e), logLines }, ts: this.lastTs };
    } finally {
      this.endReadQuietly();
      release();
    }
    const durable = this.durable();
    durable.catch(() => undefined);
    return { ...result, durable };
  }

  async runAction(req: CallRequest): Promise<{ outcome: FunctionOutcome }> {
    return this.runActionTop(req, { logLines: [], internalAllowed: req.internal === true, depth: 0 });
  }

  async runActionTop(
    req: CallRequest,
    o: { logLines: string[]; internalAllowed: boolean; depth: number; scheduledJobId?: string | null },
  ): Promise<{ outcome: FunctionOutcome }> {
    const logLines = o.logLines;
    try {
      this.assertOpen();
      const f = this.resolve(req.path, "action", o.internalAllowed);
      const args = this.checkArgs(f, req.args);
      const run = new Run(this, {
        kind: "action",
        fnPath: f.path,
        identity: req.identity,
        tx: null,
        logLines,
        depth: o.depth,
        scheduledJobId: o.scheduledJobId ?? null,
      });
      const value = await this.invoke(f, args, run);
      return { outcome: { status: "success", value, logLines } };
    } catch (e) {
      return { outcome: { status: "error", ...toFailure(e), logLines } };
    }
  }

  async runHttpAction(request: Request, identity: UserIdentity | null = null): Promise<Response> {
    const router = this.httpRouter();
    const url = new URL(request.url);
    const match = router && typeof router.lookup === "function" ? router.lookup(url.pathname, request.method) : null;
    if (!match) return new Response(`No HttpAction routed for ${url.pathname}`, { status: 404 });
    const [fn, method, routePath] = match as [any, string, string];
    const fnPath = `${method} ${routePath}`;
    const logLines: string[] = [];
    const run = new Run(this, { kind: "httpAction", fnPath, identity, tx: null, logLines, depth: 0 });
    try {
      this.assertOpen();
      installRuntime();
      const response = await scopeStorage.run(run.scope, () => fn.invokeHttpAction(request));
      if (!(response instanceof Response)) {
        return new Response(`Http action ${fnPath} did not return a Response`, { status: 500 });
      }
      return response;
    } catch (e) {
      const failure = toFailure(e);
      this.emitLog(`${fnPath} [ERROR] ${failure.errorMessage}`);
      return new Response(failure.errorMessage, { status: 500 });
    }
  }

  transactionMetrics() {
    const zero = { used: 0, remaining: 0 };
    return {
      bytesRead: { used: 0, remaining: 16 * 1024 * 1024 },
      bytesWritten: { used: 0, remaining: 16 * 1024 * 1024 },
      databaseQueries: { used: 0, remaining: 4096 },
      documentsRead: { used: 0, remaining: 32000 },
      documentsWritten: { used: 0, remaining: 16000 },
      functionsScheduled: { used: 0, remaining: 1000 },
      scheduledFunctionArgsBytes: { used: 0, remaining: 16 * 1024 * 1024 },
      ...{ _unused: zero },
    };
  }

  async vectorSearch(query: {
    indexName: string;
    limit?: number;
    vector: number[];
    expressions?: unknown;
  }): Promise<{ results: Array<{ _id: string; _score: number }> }> {
    const [table, indexName] = query.indexName.split(".");
    const st = this.catalog.schemaByTable.get(table);
    const vi = st?.vectorIndexes?.find((v) => v.indexDescriptor === indexName);
    if (!vi) throw new Error(`Vector index ${query.indexName} not found.`);
    const tn = this.catalog.tableNumber(table);
    if (tn === undefined) return { results: [] };
    const limit = Math.min(query.limit ?? 10, 256);
    const filter = query.expressions ?? null;
    const { evalExpr } = await import("./database.js");
    return this.withReadLock(() => {
      const scored: Array<{ _id: string; _score: number }> = [];
      for (const row of this.store.iterateTable(tn)) {
        const doc = parseDoc(row.json);
        if (filter && evalExpr(filter, doc) !== true) continue;
        const vec = doc[vi.vectorField];
        if (!Array.isArray(vec)) continue;
        let dot = 0;
        let na = 0;
        let nb = 0;
        for (let i = 0; i < query.vector.length; i++) {
          const a = query.vector[i];
          const b = vec[i] as number;
          dot += a * b;
          na += a * a;
          nb += b * b;
        }
        scored.push({ _id: row.id, _score: na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb) });
      }
      scored.sort((a, b) => b._score - a._score);
      return { results: scored.slice(0, limit) };
    });
  }

  // ----- file storage -----

  generateUploadUrl(): string {
    const payload = Buffer.from(JSON.stringify({ exp: realNow() + UPLOAD_TOKEN_TTL_MS, n: randomBytes(8).toString("hex") })).toString("base64url");
    const mac = createHmac("sha256", this.secret).update(payload).digest("base64url");
    return `${this.opts.cloudUrl}/api/storage/upload?token=${payload}.${mac}`;
  }

  private verifyToken(token: string): boolean {
    const [payload, mac] = String(token).split(".");
    if (!payload || !mac) return false;
    const expected = createHmac("sha256", this.secret).update(payload).digest();
    const given = Buffer.from(mac, "base64url");
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false;
    try {
      const { exp } = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
      return typeof exp === "number" && exp > realNow();
    } catch {
      return false;
    }
  }

  checkUploadToken(token: string): boolean {
    return this.verifyToken(token);
  }

  async storeUpload(token: string, body: Uint8Array, contentType: string | null): Promise<string> {
    if (!this.verifyToken(token)) throw new Error("Invalid or expired upload token");
    return this.storeBytes(body, contentType);
  }

  async storeUploadStream(token: string, body: AsyncIterable<Uint8Array>, contentType: string | null): Promise<string> {
    if (!this.verifyToken(token)) throw new Error("Invalid or expired upload token");
    // straight to a temp file next to the blobs, hashed on the way: memory stays bounded
    const tmp = path.join(this.filesDir, `${UPLOAD_TMP_PREFIX}${randomUUID()}`);
    const hash = createHash("sha256");
    let size = 0;
    try {
      await pipeline(
        body,
        async function* (source: AsyncIterable<Uint8Array>) {
          for await (const chunk of source) {
            hash.update(chunk);
            size += chunk.byteLength;
            yield chunk;
          }
        },
        fs.createWriteStream(tmp, { flags: "wx" }),
      );
    } catch (e) {
      await fs.promises.rm(tmp, { force: true });
      throw e;
    }
    return this.commitFile(tmp, hash.digest("base64"), size, contentType);
  }

  async storeBytes(body: Uint8Array, contentType: string | null, expectedSha?: string): Promise<string> {
    const sha256 = sha256Base64(body);
    if (expectedSha && expectedSha !== sha256) {
      throw new Error(`Hash mismatch: the provided sha256 ${expectedSha} does not match the content's ${sha256}`);
    }
    const tmp = path.join(this.filesDir, `${UPLOAD_TMP_PREFIX}${randomUUID()}`);
    await fs.promises.writeFile(tmp, body);
    return this.commitFile(tmp, sha256, body.byteLength, contentType);
  }

  /** Adds the `_storage` document for a complete temp file and moves the file into place. */
  private async commitFile(tmp: string, sha256: string, size: number, contentType: string | null): Promise<string> {
    try {
      return await this.systemWrite((tx) => {
        const fields: Doc = { sha256, size };
        if (contentType) fields.contentType = contentType;
        const id = tx.insert("_storage", fields, false);
        // Durable rename before the document commits: a crash leaves at most an orphan file.
        fs.renameSync(tmp, path.join(this.filesDir, id));
        return id;
      });
    } catch (e) {
      await fs.promises.rm(tmp, { force: true });
      throw e;
    }
  }

  private storageDoc(tx: Tx, storageId: string): Doc | null {
    if (typeof storageId !== "string") return null;
    if (this.catalog.tableName(storageId) !== "_storage") return null;
    return tx.get(storageId)?.doc ?? null;
  }

  storageUrl(tx: Tx, storageId: string): string | null {
    const doc = this.storageDoc(tx, storageId);
    return doc ? `${this.opts.cloudUrl}/api/storage/${storageId}` : null;
  }

  storageMetadata(tx: Tx, storageId: string) {
    const doc = this.storageDoc(tx, storageId);
    if (!doc) return null;
    return { storageId, sha256: doc.sha256, size: doc.size, contentType: doc.contentType ?? null };
  }

  deleteStorage(tx: Tx, storageId: string) {
    const doc = this.storageDoc(tx, storageId);
    if (!doc) throw new Error(`Storage ID "${storageId}" not found`);
    tx.write(storageId, "_storage", null, false);
    tx.afterCommit.push(() => fs.rmSync(path.join(this.filesDir, storageId), { force: true }));
  }

  async getStorageBlob(storageId: string): Promise<{ body: Uint8Array; contentType: string | null } | null> {
    if (this.stopped) return null;
    const doc = await this.withReadLock(() => this.storageDoc(new Tx(this.hooks, false), storageId));
    if (!doc) return null;
    try {
      const body = await fs.promises.readFile(path.join(this.filesDir, storageId));
      return { body: new Uint8Array(body), contentType: (doc.contentType as string | undefined) ?? null };
    } catch {
      return null;
    }
  }

  // ----- backup -----

  async *exportJsonl(): AsyncIterable<string> {
    const tables = Object.fromEntries(this.catalog.tables);
    yield JSON.stringify({ type: "tables", tables });
    for (const [name, number] of this.catalog.tables) {
      let batch: string[] = [];
      for (const row of this.store.iterateTable(number)) {
        batch.push(`{"type":"doc","table":${JSON.stringify(name)},"doc":${row.json}}`);
        if (batch.length >= 500) {
          yield* batch;
          batch = [];
        }
      }
      yield* batch;
    }
    const files = fs.readdirSync(this.filesDir).filter((f) => !f.startsWith("."));
    for (const f of files) {
      const data = fs.readFileSync(path.join(this.filesDir, f));
      yield JSON.stringify({ type: "blob", storageId: f, data: data.toString("base64") });
    }
  }

  async importJsonl(lines: AsyncIterable<string>): Promise<number> {
    let count = 0;
    let batch: Array<{ table: string; doc: Doc }> = [];
    const flush = async () => {
      if (batch.length === 0) return;
      const items = batch;
      batch = [];
      await this.systemWrite((tx) => {
        for (const { table, doc } of items) {
          const id = doc._id as string;
          const d = decodeId(id);
          if (!d) throw new Error(`Invalid document id in import: ${id}`);
          const tn = this.catalog.tableNumber(table);
          if (tn === undefined) this.catalog.ensureTable(table, d.tableNumber);
          else if (tn !== d.tableNumber) this.catalog.renumberTable(table, d.tableNumber);
          const known = tx.pending(id);
          const exists = known ? known.doc !== null : this.store.getDoc(id) !== undefined;
          const ct = doc._creationTime as number;
          if (ct > this.lastCreationTime) this.lastCreationTime = ct;
          tx.layers[0].set(id, { id, table, tableNumber: d.tableNumber, doc, isNew: !exists, hasPlaceholder: false });
        }
      });
    };
    for await (const raw of lines) {
      const line = raw.trim();
      if (!line) continue;
      const entry = JSON.parse(line);
      if (entry.type === "tables") {
        const release = await this.lock.write();
        try {
          for (const [name, number] of Object.entries(entry.tables as Record<string, number>)) {
            const have = this.catalog.tableNumber(name);
            if (have === undefined) this.catalog.ensureTable(name, number);
            else if (have !== number) this.catalog.renumberTable(name, number);
          }
        } finally {
          release();
        }
      } else if (entry.type === "doc") {
        batch.push({ table: entry.table, doc: jsonToConvex(entry.doc) as Doc });
        count++;
        if (batch.length >= 1000) await flush();
      } else if (entry.type === "blob") {
        fs.writeFileSync(path.join(this.filesDir, String(entry.storageId).replace(/[/\\]/g, "")), Buffer.from(entry.data, "base64"));
      }
    }
    await flush();
    this.scheduler.kick();
    return count;
  }

  // ----- ad-hoc code (tests, tools; see adhoc.ts) -----

  /**
   * Runs `fn`, a mutation built with convex/server's `mutationGeneric` that is not one of the
   * loaded modules, as a top-level mutation. Its ctx may also use the action-only `storage.store`
   * / `storage.get` (convex-test's `t.run` ctx offers them): a stored file joins the transaction
   * and is removed again when the mutation fails.
   */
  async runAdhocMutation(fn: { invokeMutation(args: string): Promise<string> }, identity: UserIdentity | null = null): Promise<FunctionOutcome> {
    const release = await this.lock.write();
    const logLines: string[] = [];
    const files: string[] = [];
    let outcome: FunctionOutcome;
    try {
      this.assertOpen();
      const tx = new Tx(this.hooks, true);
      const f: RegisteredFunction = { path: "_adhoc:run", kind: "mutation", visibility: "internal", fn, args: null, returns: null };
      const run = new Run(this, { kind: "mutation", fnPath: f.path, identity, tx, logLines, depth: 0 });
      const asyncSyscall = run.asyncSyscall.bind(run);
      run.asyncSyscall = async (op, argsStr) => {
        if (op !== "1.0/storageStore" && op !== "1.0/storageGet") return asyncSyscall(op, argsStr);
        const a = JSON.parse(argsStr);
        if (op === "1.0/storageGet") {
          const doc = this.storageDoc(tx, a.storageId);
          const file = path.join(this.filesDir, String(a.storageId));
          if (!doc || !fs.existsSync(file)) return "null";
          return JSON.stringify({ blob: fs.readFileSync(file).toString("base64"), contentType: doc.contentType ?? null });
        }
        const bytes = Buffer.from(a.blob as string, "base64");
        const sha256 = sha256Base64(bytes);
        const fields: Doc = { sha256, size: bytes.byteLength };
        if (a.sha256 && a.sha256 !== sha256) throw new Error(`Hash mismatch: the provided sha256 ${a.sha256} does not match the content's ${sha256}`);
        if (a.contentType) fields.contentType = a.contentType;
        const id = tx.insert("_storage", fields, false);
        files.push(path.join(this.filesDir, id));
        fs.writeFileSync(files[files.length - 1], bytes);
        return JSON.stringify(id);
      };
      const value = await this.invoke(f, {}, run);
      this.commit(tx);
      files.length = 0;
      outcome = { status: "success", value, logLines };
    } catch (e) {
      return { status: "error", ...toFailure(e), logLines };
    } finally {
      for (const file of files) fs.rmSync(file, { force: true });
      release();
    }
    return this.onceStored(this.durable(), outcome);
  }
}

type MutationRunOptions = {
  logLines: string[];
  internalAllowed: boolean;
  scheduledJobId?: string | null;
  /** runs in the mutation's transaction before the function; return false to skip it */
  prepare?: (tx: Tx) => boolean;
  onSuccess?: (tx: Tx) => void;
};

export function createEngine(opts: EngineOptions): Engine {
  return new EngineImpl(opts);
}

export { END_CURSOR, ReadSetImpl };

/** jsonToConvex(v) would return a deep copy of v (plain JSON, valid field names, no `$` types) */
const PLAIN = 1;
/** and JSON.stringify(convexToJson(that copy)) === JSON.stringify(v) (keys in convexToJson order, no -0 / non-finite numbers) */
const CANONICAL = 2;

/** PLAIN | CANONICAL flags of a JSON value (0: neither). */
function jsonShape(v: unknown): number {
  switch (typeof v) {
    case "string":
    case "boolean":
      return PLAIN | CANONICAL;
    case "number":
      return Number.isFinite(v) && !Object.is(v, -0) ? PLAIN | CANONICAL : PLAIN;
    case "object": {
      if (v === null) return PLAIN | CANONICAL;
      let flags = PLAIN | CANONICAL;
      if (Array.isArray(v)) {
        if (Object.getPrototypeOf(v) !== Array.prototype) return 0;
        for (let i = 0; i < v.length; i++) {
          flags &= jsonShape(v[i]);
          if (flags === 0) return 0;
        }
        return flags;
      }
      if (Object.getPrototypeOf(v) !== Object.prototype) return 0;
      let prev: string | null = null;
      const o = v as Record<string, unknown>;
      for (const k in o) {
        if (!Object.prototype.hasOwnProperty.call(o, k) || !isPlainFieldName(k)) return 0;
        if ((flags & CANONICAL) !== 0 && !isIntegerKey(k)) {
          if (prev !== null && !(prev < k)) flags &= ~CANONICAL;
          prev = k;
        }
        flags &= jsonShape(o[k]);
        if (flags === 0) return 0;
      }
      return flags;
    }
    default:
      return 0;
  }
}
/** A field name jsonToConvex accepts that is not a `$` type tag. */
function isPlainFieldName(k: string): boolean {
  if (k.length > 1024 || k.charCodeAt(0) === 36 /* $ */) return false;
  for (let i = 0; i < k.length; i++) {
    const c = k.charCodeAt(i);
    if (c < 32 || c >= 127) return false;
  }
  return true;
}
/** jsonToConvex(v), without copying v when it is plain JSON already (v must not be modified later). */
export function jsonToConvexShared(v: JSONValue): Value {
  return (jsonShape(v) & PLAIN) !== 0 ? v : jsonToConvex(v);
}
const INTEGER_KEY_RE = /^(?:0|[1-9][0-9]*)$/;
function isIntegerKey(k: string): boolean {
  return k.length < 11 && INTEGER_KEY_RE.test(k) && Number(k) < 4294967295;
}

/**
 * The text of `args.value` inside the insert syscall's argument text, which the library built
 * with `JSON.stringify({table, value})`; undefined when the text does not have exactly that shape.
 */
function insertValueText(argsStr: string, table: string, args: object): string | undefined {
  const head = `{"table":${JSON.stringify(table)},"value":{`;
  if (!argsStr.startsWith(head) || argsStr.charCodeAt(argsStr.length - 1) !== 125 || argsStr.charCodeAt(argsStr.length - 2) !== 125) return undefined;
  let n = 0;
  for (const k in args) if (++n > 2 || (k !== "table" && k !== "value")) return undefined;
  return argsStr.slice(head.length - 1, -1);
}
