/**
 * Bundles the app's convex/ folder with esbuild and imports the result. Bare package imports
 * stay external but are rewritten to absolute paths resolved from the functions folder, so the
 * bundle (written under the data dir) shares the app's single `convex` copy with everything else.
 * A second bundle of the modules without "use node", built for Convex's runtime (platform
 * browser, like `npx convex deploy`), is evaluated in the function realm (realm.ts): queries and
 * mutations run from there, where the engine can stop them after 1 s.
 */
import * as esbuild from "esbuild";
import fs from "node:fs";
import path from "node:path";
import { builtinModules } from "node:module";
import { pathToFileURL } from "node:url";
import type { FunctionKind, FunctionVisibility } from "./engine-api.js";
import type { NodeAction } from "./node-executor.js";
import { FunctionRealm, type RealmFunction } from "./realm.js";
import { registerBundleDir, registerBundleFile, unregisterBundleDir } from "./stack-frames.js";
import type { ValidatorJSON } from "./validators.js";

export type RegisteredFunction = {
  path: string;
  kind: FunctionKind;
  visibility: FunctionVisibility;
  // The registered function object from convex/server (invokeQuery/invokeMutation/...).
  fn: any;
  args: ValidatorJSON | null;
  returns: ValidatorJSON | null;
  /** the same query or mutation in the function realm; absent when it runs in Node's realm */
  realm?: { realm: FunctionRealm; fn: RealmFunction };
  /** an action of a "use node" module: runs in the node executor (node-executor.ts) */
  node?: NodeAction;
  /** an action of Convex's runtime: its bundled module, run in the action pool (action-pool.ts) */
  pooled?: NodeAction;
};

export type LoadedModules = {
  functions: Map<string, RegisteredFunction>;
  // Module default exports as the app defines them (SchemaDefinition, HttpRouter, Crons, config).
  schema: any;
  http: any;
  crons: any;
  authConfig: any;
  errors: string[];
  /** the folder of this build's bundled modules */
  bundleDir: string;
  /** the bundled http module (its router runs in the action pool), if there is one */
  httpFile: string | null;
  /** the function realm's bundle, evaluated again when only the environment changed */
  realmBundle: RealmBundle | null;
};

type RealmBundle = { code: string; filename: string; map: string | null };

const SOURCE_EXT = /\.(ts|tsx|js|jsx|mjs|cjs|mts|cts)$/;
const BUILTINS = new Set(builtinModules);

function listEntryPoints(functionsDir: string): string[] {
  const out: string[] = [];
  const walk = (dir: string, rel: string) => {
    for (const ent of fs.readdirSync(dir, { withFileTypes: true })) {
      if (ent.name.startsWith(".") || ent.name.startsWith("#")) continue;
      const relPath = rel ? `${rel}/${ent.name}` : ent.name;
      if (ent.isDirectory()) {
        if (ent.name === "_generated" || ent.name === "node_modules") continue;
        walk(path.join(dir, ent.name), relPath);
        continue;
      }
      if (!SOURCE_EXT.test(ent.name) || ent.name.endsWith(".d.ts")) continue;
      const base = ent.name.replace(SOURCE_EXT, "");
      // Convex only treats files without extra dots as function modules (auth.config.ts is read separately).
      if (base.includes(".") && relPath !== "auth.config.ts" && relPath !== "auth.config.js") continue;
      out.push(relPath);
    }
  };
  walk(functionsDir, "");
  return out.sort();
}

/** "messages.js:list" → "messages:list", "messages" → "messages:default". */
export function canonicalizePath(p: string): string {
  let [mod, name] = p.includes(":")
    ? [p.slice(0, p.lastIndexOf(":")), p.slice(p.lastIndexOf(":") + 1)]
    : [p, "default"];
  mod = mod.replace(/^\.\//, "").replace(SOURCE_EXT, "");
  if (!name) name = "default";
  return `${mod}:${name}`;
}

let buildCounter = 0;

export async function loadModules(functionsDir: string, cacheDir: string): Promise<LoadedModules> {
  const entries = listEntryPoints(functionsDir);
  const outdir = path.join(cacheDir, `build-${process.pid}-${Date.now()}-${buildCounter++}`);
  fs.mkdirSync(outdir, { recursive: true });
  const resolveFromApp: esbuild.Plugin = {
    name: "external-packages-absolute",
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.pluginData?.fromPlugin) return undefined;
        const spec = args.path;
        if (spec.startsWith("node:") || BUILTINS.has(spec) || BUILTINS.has(spec.split("/")[0])) {
          return { path: spec, external: true };
        }
        const resolved = await build.resolve(spec, {
          kind: args.kind,
          resolveDir: args.resolveDir || functionsDir,
          pluginData: { fromPlugin: true },
        });
        if (resolved.errors.length > 0 || !resolved.path) return undefined;
        if (!resolved.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        return { path: pathToFileURL(resolved.path).href, external: true };
      });
    },
  };
  const result = await esbuild.build({
    absWorkingDir: functionsDir,
    entryPoints: entries.map((e) => path.join(functionsDir, e)),
    outbase: functionsDir,
    outdir,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    sourcemap: "inline",
    outExtension: { ".js": ".mjs" },
    logLevel: "silent",
    plugins: [resolveFromApp],
    conditions: ["convex", "module", "import", "node"],
    // Bundled CJS helpers may call require(); give the ESM output a real one.
    banner: { js: "import { createRequire as __pcr } from 'node:module'; const require = __pcr(import.meta.url);" },
  });
  if (result.errors.length > 0) {
    throw new Error(`Bundling ${functionsDir} failed:\n${result.errors.map((e) => e.text).join("\n")}`);
  }

  // errors thrown by this build's code are reported with the user's frames (stack-frames.ts)
  registerBundleDir(outdir, functionsDir);
  const loaded: LoadedModules = {
    functions: new Map(),
    schema: null,
    http: null,
    crons: null,
    authConfig: null,
    errors: [],
    bundleDir: outdir,
    httpFile: null,
    realmBundle: null,
  };
  for (const entry of entries) {
    const modulePath = entry.replace(SOURCE_EXT, "");
    const file = path.join(outdir, `${modulePath}.mjs`);
    const useNode = isUseNode(path.join(functionsDir, entry));
    let mod: Record<string, any>;
    try {
      mod = await import(pathToFileURL(file).href);
    } catch (e) {
      const msg = `Failed to load module ${entry}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`;
      loaded.errors.push(msg);
      continue;
    }
    if (modulePath === "schema") {
      loaded.schema = mod.default ?? null;
      continue;
    }
    if (modulePath === "auth.config") {
      loaded.authConfig = mod.default ?? null;
      continue;
    }
    if (modulePath === "crons") loaded.crons = mod.default ?? null;
    if (modulePath === "http") {
      loaded.http = mod.default ?? null;
      loaded.httpFile = useNode ? null : file;
    }
    for (const [exportName, value] of Object.entries(mod)) {
      const info = describeFunction(value);
      if (!info) continue;
      const fnPath = `${modulePath}:${exportName}`;
      let args: ValidatorJSON | null = null;
      let returns: ValidatorJSON | null = null;
      try {
        if (typeof value.exportArgs === "function") args = JSON.parse(value.exportArgs());
        if (typeof value.exportReturns === "function") returns = JSON.parse(value.exportReturns());
      } catch (e) {
        loaded.errors.push(`Invalid validators for ${fnPath}: ${(e as Error).message}`);
        continue;
      }
      if (args && args.type === "any") args = null;
      const bundled = info.kind === "action" ? { file, exportName, modulePath, bundleDir: outdir } : undefined;
      const where = bundled ? (useNode ? { node: bundled } : { pooled: bundled }) : {};
      loaded.functions.set(fnPath, {
        path: fnPath,
        kind: info.kind,
        visibility: info.visibility,
        fn: value,
        args,
        returns,
        ...where,
      });
    }
  }
  try {
    loaded.realmBundle = await bundleRealm(functionsDir, entries);
    attachRealm(
      loaded.functions,
      new FunctionRealm(loaded.realmBundle.code, functionsDir, loaded.realmBundle.filename),
    );
  } catch (e) {
    loaded.errors.push(
      `The function realm could not be loaded; queries and mutations run without the 1 s execution limit: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
  return loaded;
}

/** Points each query and mutation at its copy in `realm`. */
function attachRealm(functions: Map<string, RegisteredFunction>, realm: FunctionRealm): void {
  for (const f of functions.values()) {
    if (f.kind !== "query" && f.kind !== "mutation") continue;
    const [modulePath, exportName] = [
      f.path.slice(0, f.path.lastIndexOf(":")),
      f.path.slice(f.path.lastIndexOf(":") + 1),
    ];
    const fn = realm.modules[modulePath]?.[exportName] as any;
    if (
      fn &&
      (f.kind === "query"
        ? fn.isQuery && typeof fn.invokeQuery === "function"
        : fn.isMutation && typeof fn.invokeMutation === "function")
    ) {
      f.realm = { realm, fn };
    } else delete f.realm;
  }
}

let envGeneration = 0;

/**
 * The same build with its module top-level code run again under the current environment, without
 * bundling or importing the build again (an import of Node's realm is never freed): the function
 * realm is evaluated anew (queries and mutations), and auth.config is imported afresh. Actions and
 * http actions re-import the build in new pool workers (modules.ts). The registry, schema, http
 * routes and crons stay those of the build's first import.
 */
export async function reevaluateModules(previous: LoadedModules, functionsDir: string): Promise<LoadedModules> {
  const functions = new Map([...previous.functions].map(([p, f]) => [p, { ...f }]));
  const next: LoadedModules = { ...previous, functions, errors: [] };
  const authFile = path.join(previous.bundleDir, "auth.config.mjs");
  if (fs.existsSync(authFile)) {
    const mod = await import(`${pathToFileURL(authFile).href}?env=${++envGeneration}`);
    next.authConfig = mod.default ?? null;
  }
  if (previous.realmBundle)
    attachRealm(functions, new FunctionRealm(previous.realmBundle.code, functionsDir, previous.realmBundle.filename));
  return next;
}

/**
 * Deletes this process's builds in `cacheDir` but the ones in `keep` (the build in use and the one
 * before it, whose files an action dispatched just before the swap may still import).
 */
export function pruneBuilds(cacheDir: string, keep: string[]): void {
  for (const old of fs.readdirSync(cacheDir)) {
    const full = path.join(cacheDir, old);
    if (!keep.includes(full) && old.startsWith(`build-${process.pid}-`)) {
      unregisterBundleDir(full);
      fs.rmSync(full, { recursive: true, force: true });
    }
  }
}

const USE_NODE = /^(?:\s|\/\/[^\n]*\n|\/\*[\s\S]*?\*\/)*(["'])use node\1/;

function isUseNode(file: string): boolean {
  try {
    return USE_NODE.test(fs.readFileSync(file, "utf8"));
  } catch {
    return false;
  }
}

let realmCounter = 0;

/** Bundles the modules Convex runs in its own runtime (no "use node"), for the function realm. */
async function bundleRealm(functionsDir: string, entries: string[]): Promise<RealmBundle> {
  const modules = entries.filter((e) => !/^auth\.config\.[a-z]+$/.test(e) && !isUseNode(path.join(functionsDir, e)));
  const contents =
    modules.map((e, i) => `import * as m${i} from ${JSON.stringify(`./${e}`)};`).join("\n") +
    `\nglobalThis.__lbModules = {${modules.map((e, i) => `${JSON.stringify(e.replace(SOURCE_EXT, ""))}: m${i}`).join(", ")}};\n`;
  const builtinsExternal: esbuild.Plugin = {
    name: "node-builtins-external",
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, (args) =>
        args.path.startsWith("node:") || BUILTINS.has(args.path) || BUILTINS.has(args.path.split("/")[0])
          ? { path: args.path, external: true }
          : undefined,
      );
    },
  };
  const result = await esbuild.build({
    stdin: { contents, resolveDir: functionsDir, sourcefile: "functions-realm-entry.js", loader: "js" },
    absWorkingDir: functionsDir,
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    target: "es2022",
    conditions: ["convex", "module"],
    define: { "process.env.NODE_ENV": '"production"' },
    keepNames: true,
    logLevel: "silent",
    plugins: [builtinsExternal],
    // not written: the outfile only anchors the map's sources (relative to the functions folder)
    outfile: path.join(functionsDir, "functions-realm.js"),
    sourcemap: "external",
  });
  if (result.errors.length > 0) throw new Error(result.errors.map((e) => e.text).join("\n"));
  const js = result.outputFiles.find((f) => f.path.endsWith(".js"))!;
  const map = result.outputFiles.find((f) => f.path.endsWith(".map"));
  // a name of its own per build, so a stack frame finds this build's source map
  const filename = path.join(functionsDir, `(functions realm bundle ${++realmCounter}).js`);
  if (map) registerBundleFile(filename, JSON.parse(map.text), functionsDir, functionsDir);
  return { code: js.text, filename, map: map?.text ?? null };
}

function describeFunction(value: any): { kind: FunctionKind; visibility: FunctionVisibility } | null {
  if (value === null || (typeof value !== "function" && typeof value !== "object")) return null;
  const visibility: FunctionVisibility = value.isInternal ? "internal" : "public";
  if (value.isQuery && typeof value.invokeQuery === "function") return { kind: "query", visibility };
  if (value.isMutation && typeof value.invokeMutation === "function") return { kind: "mutation", visibility };
  if (value.isAction && typeof value.invokeAction === "function") return { kind: "action", visibility };
  if (value.isHttp && typeof value.invokeHttpAction === "function") return { kind: "httpAction", visibility: "public" };
  return null;
}
