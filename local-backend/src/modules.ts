/**
 * The app's functions: bundling and importing the functions folder (module top-level code sees
 * the backend env vars), applying its schema to the catalog, the registry of loaded functions by
 * canonical path, http router, crons and auth config, and reloading on file or env changes (a
 * failed build keeps the previous modules).
 */
import type { JSONValue } from "convex/values";
import fs from "node:fs";
import type { Catalog, SchemaInfo } from "./catalog.js";
import type { FunctionInfo } from "./engine-api.js";
import type { CronSpec } from "./engine-host.js";
import { NODE_ACTION_TIMEOUT_MS } from "./limits.js";
import {
  canonicalizePath,
  loadModules,
  pruneBuilds,
  reevaluateModules,
  type LoadedModules,
  type RegisteredFunction,
} from "./loader.js";
import { ActionPool } from "./action-pool.js";
import { NodeExecutor } from "./node-executor.js";
import { formatLogArgs, installRuntime, runScopes, type RunScope } from "./runtime.js";
import { unregisterBundleFile } from "./stack-frames.js";

/** What module loading needs of the engine. */
export type ModulesHost = {
  readonly functionsDir: string;
  /** where bundles are written */
  readonly cacheDir: string;
  readonly catalog: Catalog;
  /** takes the engine's write lock (the schema changes the catalog); resolves to its release */
  writeLock(): Promise<() => void>;
  functionEnv(): Record<string, string>;
  emitLog(line: string): void;
  isStopped(): boolean;
  /** after each successful load (the scheduler re-reads crons) */
  onLoaded(): void;
};

export class FunctionModules {
  private loaded: LoadedModules | null = null;
  private watcher: fs.FSWatcher | null = null;
  private reloadTimer: NodeJS.Timeout | null = null;
  private reloading: Promise<void> | null = null;
  /** a reload waits for the one running to end */
  private reloadQueued = false;
  /** whether the queued reload has only the environment to take in (no file changed) */
  private queuedEnvOnly = true;
  /** the function realm bundle of the build before the one in use (its source map goes with the next build) */
  private retiredRealmFile: string | null = null;
  private executor: NodeExecutor | null = null;
  private pool: ActionPool | null = null;

  constructor(private readonly host: ModulesHost) {}

  /**
   * Bundles and imports the functions folder, applies its schema and swaps the modules in. With
   * `envOnly` (the files did not change), the loaded build's top-level code runs again instead
   * (loader.ts reevaluateModules).
   */
  async load(envOnly = false) {
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
      log: (level, args) => this.host.emitLog(`[module import] [${level.toUpperCase()}] ${formatLogArgs(args)}`),
      env: this.host.functionEnv(),
      allowFetch: true,
    };
    if (envOnly && this.loaded) {
      const current = this.loaded;
      this.loaded = await runScopes.run(loadScope, () => reevaluateModules(current, this.host.functionsDir));
      this.warmNodeExecutor(this.loaded);
      this.warmActionPool(this.loaded);
      this.host.onLoaded();
      return;
    }
    const loaded = await runScopes.run(loadScope, () => loadModules(this.host.functionsDir, this.host.cacheDir));
    for (const err of loaded.errors) this.host.emitLog(`[loader] ${err}`);
    // a reload whose modules did not all import keeps the functions that work (as Convex refuses
    // such a push); the first load goes on with what loaded, its errors logged
    const failedImports = loaded.errors.filter((e) => e.startsWith("Failed to load module"));
    if (this.loaded && failedImports.length > 0) throw new Error(`${failedImports.length} module(s) did not load`);
    const release = await this.host.writeLock();
    const previous = this.loaded;
    try {
      this.applySchema(loaded.schema);
      this.loaded = loaded;
    } finally {
      release();
    }
    // only once the new build is in use: until then calls still run the old one's files
    pruneBuilds(this.host.cacheDir, [loaded.bundleDir, ...(previous ? [previous.bundleDir] : [])]);
    if (this.retiredRealmFile) unregisterBundleFile(this.retiredRealmFile);
    this.retiredRealmFile = previous?.realmBundle?.filename ?? null;
    this.warmNodeExecutor(loaded);
    this.warmActionPool(loaded);
    this.host.onLoaded();
  }

  /** The pool "use node" actions run in (started with the first modules that have some). */
  nodeExecutor(): NodeExecutor {
    if (!this.executor) {
      this.executor = new NodeExecutor({
        functionsDir: this.host.functionsDir,
        timeoutMs: NODE_ACTION_TIMEOUT_MS,
        emitLog: (line) => this.host.emitLog(line),
      });
    }
    return this.executor;
  }

  /** The pool actions and http actions of Convex's runtime run in (off the engine's thread). */
  actionPool(): ActionPool {
    if (!this.pool)
      this.pool = new ActionPool({ functionsDir: this.host.functionsDir, emitLog: (line) => this.host.emitLog(line) });
    return this.pool;
  }

  /** The pool's workers started with the new build's action and http modules imported; old ones retire. */
  private warmActionPool(loaded: LoadedModules): void {
    const files = new Set<string>();
    for (const f of loaded.functions.values()) if (f.pooled) files.add(f.pooled.file);
    if (loaded.httpFile) files.add(loaded.httpFile);
    if (files.size === 0 && !this.pool && !loaded.realmBundle) return;
    const pool = this.actionPool();
    pool.retire();
    // heavy queries and mutations run in the pool too (functions.ts): it gets the build's realm bundle
    pool.setRealm(loaded.realmBundle ? { ...loaded.realmBundle, functionsDir: this.host.functionsDir } : null);
    if (files.size > 0 && !this.host.isStopped()) pool.warm([...files], loaded.bundleDir, this.host.functionEnv());
  }

  /** the bundled http module and its build's folder (its router runs in the action pool) */
  httpModule(): { file: string; bundleDir: string } | null {
    return this.loaded?.httpFile ? { file: this.loaded.httpFile, bundleDir: this.loaded.bundleDir } : null;
  }

  /** A worker ready for the first "use node" action, with the new build's Node modules imported. */
  private warmNodeExecutor(loaded: LoadedModules): void {
    const files = new Set<string>();
    for (const f of loaded.functions.values()) if (f.node) files.add(f.node.file);
    if (files.size === 0 && !this.executor) return;
    const executor = this.nodeExecutor();
    // workers holding an older build's modules are not reused
    executor.dropIdle();
    if (files.size > 0 && !this.host.isStopped()) executor.warm([...files], loaded.bundleDir, this.host.functionEnv());
  }

  private applySchema(schema: any) {
    let info: SchemaInfo | null = null;
    if (schema && typeof schema.export === "function") info = JSON.parse(schema.export()) as SchemaInfo;
    this.host.catalog.schema = info;
    this.host.catalog.schemaByTable = new Map((info?.tables ?? []).map((t) => [t.tableName, t]));
    for (const t of info?.tables ?? []) this.host.catalog.ensureTable(t.tableName);
    for (const table of this.host.catalog.tables.keys()) {
      for (const change of this.host.catalog.syncIndexes(table)) this.host.emitLog(`[schema] ${change}`);
    }
  }

  /** Reloads when files under the functions folder change (debounced). */
  watch() {
    try {
      this.watcher = fs.watch(this.host.functionsDir, { recursive: true }, (_event, file) => {
        if (file && (String(file).includes("_generated") || String(file).startsWith("."))) return;
        if (this.reloadTimer) clearTimeout(this.reloadTimer);
        this.reloadTimer = setTimeout(() => {
          this.reloadTimer = null;
          void this.reload();
        }, 150);
      });
    } catch (e) {
      this.host.emitLog(`[watch] cannot watch ${this.host.functionsDir}: ${(e as Error).message}`);
    }
  }

  /**
   * Rebuilds and swaps modules; on a build error the previous modules stay active. Reloads run one
   * after another, and calls while one waits to start join it (it reads the files and the
   * environment as they are when it starts): concurrent loads would prune each other's builds.
   */
  async reload(reason: "watch" | "env" = "watch"): Promise<void> {
    if (this.host.isStopped()) return;
    if (this.reloadQueued && this.reloading) {
      if (reason === "watch") this.queuedEnvOnly = false;
      return this.reloading;
    }
    this.reloadQueued = true;
    this.queuedEnvOnly = reason === "env";
    const next = (this.reloading ?? Promise.resolve()).then(async () => {
      this.reloadQueued = false;
      if (this.host.isStopped()) return;
      try {
        await this.load(this.queuedEnvOnly);
        this.host.emitLog(
          reason === "env" ? "[env] environment changed: functions reloaded" : "[watch] functions reloaded",
        );
      } catch (e) {
        this.host.emitLog(`[${reason}] reload failed, keeping previous functions: ${(e as Error).message}`);
      }
    });
    this.reloading = next;
    try {
      await next;
    } finally {
      if (this.reloading === next) this.reloading = null;
    }
  }

  /** Resolves once no reload is due or running (a test's environment outlives the reload its env change started). */
  async idle(): Promise<void> {
    while (this.reloadTimer || this.reloading) {
      if (this.reloading) await this.reloading;
      else await new Promise((r) => setTimeout(r, 10));
    }
  }

  /** Re-imports soon (env vars changed: auth.config.ts and other module-level code read them). */
  envChanged() {
    if (!this.loaded || this.host.isStopped()) return;
    if (this.reloadTimer) clearTimeout(this.reloadTimer);
    this.reloadTimer = setTimeout(() => {
      this.reloadTimer = null;
      void this.reload("env");
    }, 50);
  }

  /** Stops watching and cancels a pending reload. */
  close() {
    this.watcher?.close();
    if (this.reloadTimer) clearTimeout(this.reloadTimer);
    void this.executor?.close();
    void this.pool?.close();
  }

  listFunctions(): FunctionInfo[] {
    return [...(this.loaded?.functions.values() ?? [])].map((f) => ({
      path: f.path,
      kind: f.kind,
      visibility: f.visibility,
    }));
  }

  getFunction(p: string): FunctionInfo | undefined {
    const f = this.lookup(p);
    return f ? { path: f.path, kind: f.kind, visibility: f.visibility } : undefined;
  }

  lookup(p: string): RegisteredFunction | undefined {
    if (typeof p !== "string") return undefined;
    return this.loaded?.functions.get(canonicalizePath(p));
  }

  authProviders(): JSONValue[] {
    const cfg = this.loaded?.authConfig;
    const providers = cfg?.providers;
    if (!Array.isArray(providers)) return [];
    return providers.map((p: unknown) => JSON.parse(JSON.stringify(p)) as JSONValue);
  }

  httpRouter(): any {
    return this.loaded?.http ?? null;
  }

  cronSpecs(): Record<string, CronSpec> {
    return this.loaded?.crons?.crons ?? {};
  }
}
