/**
 * Bundles the app's convex/ folder with esbuild and imports the result. Bare package imports
 * stay external but are rewritten to absolute paths resolved from the functions folder, so the
 * bundle (written under the data dir) shares the app's single `convex` copy with everything else.
 */
import * as esbuild from "esbuild";
import fs from "node:fs";
import path from "node:path";
import { builtinModules } from "node:module";
import { pathToFileURL } from "node:url";
import type { FunctionKind, FunctionVisibility } from "./engine-api.js";
import type { ValidatorJSON } from "./validators.js";

export type RegisteredFunction = {
  path: string;
  kind: FunctionKind;
  visibility: FunctionVisibility;
  // The registered function object from convex/server (invokeQuery/invokeMutation/...).
  fn: any;
  args: ValidatorJSON | null;
  returns: ValidatorJSON | null;
};

export type LoadedModules = {
  functions: Map<string, RegisteredFunction>;
  // Module default exports as the app defines them (SchemaDefinition, HttpRouter, Crons, config).
  schema: any;
  http: any;
  crons: any;
  authConfig: any;
  errors: string[];
};

const SOURCE_EXT = /\.(ts|tsx|js|jsx|mjs|cjs|mts|cts)$/;
const BUILTINS = new Set(builtinModules);

export function listEntryPoints(functionsDir: string): string[] {
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
  let [mod, name] = p.includes(":") ? [p.slice(0, p.lastIndexOf(":")), p.slice(p.lastIndexOf(":") + 1)] : [p, "default"];
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

  const loaded: LoadedModules = { functions: new Map(), schema: null, http: null, crons: null, authConfig: null, errors: [] };
  for (const entry of entries) {
    const modulePath = entry.replace(SOURCE_EXT, "");
    const file = path.join(outdir, `${modulePath}.mjs`);
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
    if (modulePath === "http") loaded.http = mod.default ?? null;
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
      loaded.functions.set(fnPath, { path: fnPath, kind: info.kind, visibility: info.visibility, fn: value, args, returns });
    }
  }
  // Older builds are not needed once the new one is imported; keep the directory small.
  for (const old of fs.readdirSync(cacheDir)) {
    const full = path.join(cacheDir, old);
    if (full !== outdir && old.startsWith(`build-${process.pid}-`)) fs.rmSync(full, { recursive: true, force: true });
  }
  return loaded;
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
