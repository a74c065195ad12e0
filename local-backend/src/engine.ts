/**
 * The embedded Convex-compatible engine: loads a convex/ folder, runs queries, mutations,
 * actions and http actions against SQLite, and reports commits for reactivity.
 * Generic: it never knows about the app's tables.
 *
 * This file is the composition. It builds the parts (store, catalog, commit pipeline, modules,
 * env vars, file storage, scheduler, function runner), hands each the narrow host it declares
 * (the syscall runner's and the scheduler's are in engine-host.ts), and implements the Engine
 * contract (engine-api.ts) by delegating to them. No part imports this file.
 */
import type { JSONValue } from "convex/values";
import fs from "node:fs";
import path from "node:path";
import { exportJsonl, importJsonl, type BackupHost } from "./backup.js";
import { Catalog } from "./catalog.js";
import { CommitPipeline } from "./commit.js";
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
import { EnvStore, secureDataDir } from "./env-store.js";
import { FileStorage } from "./file-storage.js";
import { FunctionRunner } from "./functions.js";
import { CONVEX_LIMITS, RELAXED_LIMITS } from "./limits.js";
import { FunctionModules } from "./modules.js";
import { intersects, type WriteSetImpl } from "./readset.js";
import { installRuntime, runScopes } from "./runtime.js";
import { Scheduler } from "./scheduler.js";
import { Store } from "./storage.js";
import type { Tx } from "./transaction.js";
import { TransactionStatsRecorder, type TransactionStats } from "./tx-metrics.js";
import { vectorSearch } from "./vector-search.js";
import { SnapshotHistory } from "./snapshots.js";

export class EngineImpl implements Engine {
  readonly store: Store;
  readonly catalog: Catalog;
  readonly commits: CommitPipeline;
  readonly files: FileStorage;
  /** backend environment variables (Engine.env) */
  readonly env: EnvStore;
  readonly modules: FunctionModules;
  readonly scheduler: Scheduler;
  readonly functions: FunctionRunner;
  readonly filesDir: string;
  readonly snapshots: SnapshotHistory;
  private readonly backup: BackupHost;
  private readonly stats: TransactionStatsRecorder;
  private stopped = false;

  constructor(readonly opts: EngineOptions) {
    // env.json holds signing keys: the data directory is its owner's only
    const notSecured = secureDataDir(opts.dataDir);
    if (notSecured)
      this.emitLog(`[data] could not restrict ${opts.dataDir} to its owner (mode 0700, env.json 0600): ${notSecured}`);
    this.filesDir = path.join(opts.dataDir, "files");
    const cacheDir = path.join(opts.dataDir, "cache");
    fs.mkdirSync(this.filesDir, { recursive: true });
    fs.mkdirSync(cacheDir, { recursive: true });
    const store = (this.store = new Store(opts.dataDir));
    const catalog = (this.catalog = new Catalog(store));
    catalog.load();

    const isStopped = () => this.stopped;
    const emitLog = (line: string) => this.emitLog(line);
    const commits = (this.commits = new CommitPipeline({ store, catalog, emitLog, isStopped }));
    // reads at a pinned timestamp (consistentQuery): recent commits' previous versions, on demand
    const snapshots = (this.snapshots = new SnapshotHistory(() => commits.currentTs(), commits.hooks));
    commits.onCommit((e) => snapshots.onCommit(e.ts, e.writes as WriteSetImpl));
    const readTx = () => commits.readTx();
    const withReadLock = <T>(fn: () => T | Promise<T>) => commits.withReadLock(fn);
    const systemWrite = <T>(fn: (tx: Tx) => T) => commits.systemWrite(fn);
    const getMeta = (key: string) => store.getMeta(key);
    const setMeta = (key: string, value: string) => store.setMeta(key, value);
    const functionEnv = () => this.env.functionEnv();

    this.files = new FileStorage(
      { catalog, cloudUrl: opts.cloudUrl, getMeta, setMeta, isStopped, readTx, withReadLock, systemWrite },
      this.filesDir,
    );
    this.env = new EnvStore(opts.dataDir, opts, () => this.modules.envChanged());
    this.modules = new FunctionModules({
      functionsDir: opts.functionsDir,
      cacheDir,
      catalog,
      writeLock: () => commits.exclusive(),
      functionEnv,
      emitLog,
      isStopped,
      onLoaded: () => this.scheduler.onModulesLoaded(),
    });
    this.scheduler = new Scheduler({
      catalog,
      // the runner is built below; these run only once the engine has started
      calls: {
        runMutationTop: (req, o) => this.functions.runMutationTop(req, o),
        runActionTop: (req, o) => this.functions.runActionTop(req, o),
      },
      functionKind: (p) => this.modules.lookup(p)?.kind,
      cronSpecs: () => this.modules.cronSpecs(),
      getMeta,
      setMeta,
      isStopped,
      emitLog,
      readTx,
      systemWrite,
      onCommit: (listener) => commits.onCommit(listener),
    });
    const limits = opts.relaxLimits ? RELAXED_LIMITS : CONVEX_LIMITS;
    if (opts.relaxLimits)
      this.emitLog("[limits] relaxed: queries and mutations are not held to Convex's limits (benchmarks only)");
    this.stats = new TransactionStatsRecorder(limits);
    this.functions = new FunctionRunner({
      limits,
      actionTimeoutsMs: opts.actionTimeoutsMs,
      placement: opts.functionPlacement,
      stats: this.stats,
      commits,
      modules: this.modules,
      files: this.files,
      services: {
        catalog,
        scheduler: this.scheduler,
        files: this.files,
        currentTs: () => commits.currentTs(),
        functionEnv,
        emitLog,
        readTx,
        withReadLock,
        systemWrite,
        vectorSearch: (query) => vectorSearch({ catalog, store, withReadLock }, query),
      },
    });
    this.backup = {
      catalog,
      store,
      filesDir: this.filesDir,
      writeLock: () => commits.exclusive(),
      systemWrite,
      noteCreationTime: (ct) => commits.noteCreationTime(ct),
      imported: () => this.scheduler.kick(),
    };
  }

  // ----- lifecycle -----

  async start(): Promise<void> {
    installRuntime();
    this.files.removeTempFiles();
    for (const t of ["_scheduled_functions", "_storage"]) this.catalog.ensureTable(t);
    await this.modules.load();
    if (this.opts.watch) this.modules.watch();
    if (this.opts.scheduler !== false) await this.scheduler.start();
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.modules.close();
    await this.scheduler.stop();
    // Wait for in-flight commits before closing the database.
    const release = await this.commits.writeSection();
    try {
      await this.store.close();
    } finally {
      release();
    }
  }

  isStopped() {
    return this.stopped;
  }

  /** Rebuilds and swaps modules; on a build error the previous modules stay active. */
  reload(reason: "watch" | "env" = "watch"): Promise<void> {
    return this.modules.reload(reason);
  }

  emitLog(line: string) {
    const log = this.opts.log;
    // Outside the run's scope, so the sink's own console use is not captured as function output.
    if (log) runScopes.exit(() => log(line));
  }

  // ----- info -----

  currentTs(): bigint {
    return this.commits.currentTs();
  }

  listFunctions(): FunctionInfo[] {
    return this.modules.listFunctions();
  }

  getFunction(p: string): FunctionInfo | undefined {
    return this.modules.getFunction(p);
  }

  authProviders(): JSONValue[] {
    return this.modules.authProviders();
  }

  // ----- reactivity -----

  onCommit(listener: (event: CommitEvent) => void): () => void {
    return this.commits.onCommit(listener);
  }

  readSetIntersects(readSet: ReadSet, writes: WriteSet): boolean {
    return intersects(readSet, writes);
  }

  // ----- transactions (tools and tests: see adhoc.ts) -----

  withReadLock<T>(fn: () => T | Promise<T>): Promise<T> {
    return this.commits.withReadLock(fn);
  }

  /** Runs `fn` in its own write transaction and commits it (storage, scheduler bookkeeping, imports). */
  systemWrite<T>(fn: (tx: Tx) => T): Promise<T> {
    return this.commits.systemWrite(fn);
  }

  // ----- function execution -----

  runQuery(req: CallRequest & { journal?: string | null; ts?: bigint }): Promise<QueryResult> {
    if (req.ts !== undefined) return this.snapshots.runAt(req.ts, () => this.functions.runQuery(req));
    return this.functions.runQuery(req);
  }

  pinTs(): bigint {
    return this.snapshots.pin();
  }

  runMutation(req: CallRequest): Promise<{ outcome: FunctionOutcome; ts: bigint }> {
    return this.functions.runMutation(req);
  }

  runMutationPipelined(req: CallRequest): Promise<PipelinedMutation> {
    return this.functions.runMutationPipelined(req);
  }

  runAction(req: CallRequest): Promise<{ outcome: FunctionOutcome }> {
    return this.functions.runAction(req);
  }

  runHttpAction(request: Request, identity: UserIdentity | null = null): Promise<Response> {
    return this.functions.runHttpAction(request, identity);
  }

  /** A mutation that is not one of the loaded modules (see adhoc.ts and FunctionRunner). */
  runAdhocMutation(
    fn: { invokeMutation(args: string): Promise<string> },
    identity: UserIdentity | null = null,
  ): Promise<FunctionOutcome> {
    return this.functions.runAdhocMutation(fn, identity);
  }

  transactionStats(opts: { reset?: boolean } = {}): TransactionStats {
    const snapshot = this.stats.snapshot();
    if (opts.reset) this.stats.reset();
    return snapshot;
  }

  concurrency(): { conflicts: number; exclusiveRuns: number; pooledRuns: number } {
    return {
      conflicts: this.functions.conflicts,
      exclusiveRuns: this.functions.exclusiveRuns,
      pooledRuns: this.functions.pooledRuns,
    };
  }

  // ----- file storage -----

  checkUploadToken(token: string): boolean {
    return this.files.checkUploadToken(token);
  }

  storeUpload(token: string, body: Uint8Array, contentType: string | null): Promise<string> {
    return this.files.storeUpload(token, body, contentType);
  }

  storeUploadStream(
    token: string,
    body: AsyncIterable<Uint8Array>,
    contentType: string | null,
    expectedSha256?: string,
  ): Promise<string> {
    return this.files.storeUploadStream(token, body, contentType, expectedSha256);
  }

  uploadTokenStatus(token: string): "valid" | "invalid" | "expired" {
    return this.files.uploadTokenStatus(token);
  }

  storageFile(storageId: string): ReturnType<Engine["storageFile"]> {
    return this.files.storageFile(storageId);
  }

  getStorageBlob(storageId: string): Promise<{ body: Uint8Array; contentType: string | null } | null> {
    return this.files.getStorageBlob(storageId);
  }

  // ----- backup -----

  exportJsonl(): AsyncIterable<string> {
    return exportJsonl(this.backup);
  }

  importJsonl(lines: AsyncIterable<string>): Promise<number> {
    return importJsonl(this.backup, lines);
  }
}

export function createEngine(opts: EngineOptions): Engine {
  return new EngineImpl(opts);
}
