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
import { canonicalizePath, loadModules, type LoadedModules, type RegisteredFunction } from "./loader.js";
import { NodeExecutor } from "./node-executor.js";
import { formatLogArgs, installRuntime, scopeStorage, type RunScope } from "./runtime.js";

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
  private executor: NodeExecutor | null = null;

  constructor(private readonly host: ModulesHost) {}

  /** Bundles and imports the functions folder, applies its schema and swaps the modules in. */
  async load() {
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
    const loaded = await scopeStorage.run(loadScope, () => loadModules(this.host.functionsDir, this.host.cacheDir));
    for (const err of loaded.errors) this.host.emitLog(`[loader] ${err}`);
    const release = await this.host.writeLock();
    try {
      this.applySchema(loaded.schema);
      this.loaded = loaded;
    } finally {
      release();
    }
    this.warmNodeExecutor(loaded);
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
        this.reloadTimer = setTimeout(() => void this.reload(), 150);
      });
    } catch (e) {
      this.host.emitLog(`[watch] cannot watch ${this.host.functionsDir}: ${(e as Error).message}`);
    }
  }

  /** Rebuilds and swaps modules; on a build error the previous modules stay active. */
  async reload(reason: "watch" | "env" = "watch"): Promise<void> {
    if (this.host.isStopped()) return;
    if (this.reloading) await this.reloading;
    this.reloading = (async () => {
      try {
        await this.load();
        this.host.emitLog(reason === "env" ? "[env] environment changed: functions reloaded" : "[watch] functions reloaded");
      } catch (e) {
        this.host.emitLog(`[${reason}] reload failed, keeping previous functions: ${(e as Error).message}`);
      }
    })();
    await this.reloading;
    this.reloading = null;
  }

  /** Re-imports soon (env vars changed: auth.config.ts and other module-level code read them). */
  envChanged() {
    if (!this.loaded || this.host.isStopped()) return;
    if (this.reloadTimer) clearTimeout(this.reloadTimer);
    this.reloadTimer = setTimeout(() => void this.reload("env"), 50);
  }

  /** Stops watching and cancels a pending reload. */
  close() {
    this.watcher?.close();
    if (this.reloadTimer) clearTimeout(this.reloadTimer);
    void this.executor?.close();
  }

  listFunctions(): FunctionInfo[] {
    return [...(this.loaded?.functions.values() ?? [])].map((f) => ({ path: f.path, kind: f.kind, visibility: f.visibility }));
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
