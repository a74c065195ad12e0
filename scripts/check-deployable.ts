/**
 * `npm run check:deployable` (part of `npm test`): bundles convex/ the way `npx convex deploy`
 * does, offline, and fails on what the deploy (or our rules for it) would refuse.
 *
 * It runs the `convex` package's own bundler code (node_modules/convex/dist/esm/bundler:
 * `entryPointsByEnvironment`, `bundle`, `bundleSchema`, `bundleAuthConfig`, and for diagnosis
 * `innerEsbuild` + the import tracer behind `npx convex deploy --debug-node-apis`) with the
 * package's own esbuild, exactly as `bundleImplementations` in the CLI calls it:
 * - files without "use node" are bundled for Convex's default runtime (platform "browser"): a Node
 *   built-in (`fs`, `node:crypto`, …) or a Node-only package reached from one of them fails the
 *   bundle, and every offending import is reported with the import chain that reaches it;
 * - "use node" files are bundled for Node (platform "node", chunks in `_deps/node`);
 * - `convex.config.ts` is bundled like the CLI's component discovery: a component (`app.use`, an
 *   imported `convex.config`) is refused, because components need the hosted codegen (DESIGN.md §1).
 * The bundled modules are then analysed in a fresh Node process the way Convex's executor analyses
 * them after upload (import each module, classify its exports by `isQuery`/`invokeQuery`, …,
 * `isPublic`/`isInternal`, read `exportArgs()` and `exportReturns()`), and refused are:
 * - a public or internal query, mutation or action without argument validators (`args`);
 * - a public one with `args` but without a return validator (`returns`): what the browser receives
 *   is checked by Convex and typed from that validator (FunctionReturnType), one source for the
 *   shape. Functions a library defines (Convex Auth's `auth:signIn`, …) are named in `returnsExempt`;
 * - a query or mutation in a "use node" file (Convex: "Only actions can be defined in Node.js");
 * - a module that throws while being imported, and an `http` module whose default export is not
 *   an `httpRouter()`.
 *
 * The CLI's dist imports a few modules that the npm package does not install (they are bundled
 * into its `cli.bundle.cjs`): Sentry telemetry, the `ora` spinner, chalk 5 and its config finder.
 * They are replaced by small stubs when the bundler code is loaded; the bundling logic is the
 * package's own.
 *
 * Usage: `tsx scripts/check-deployable.ts [functionsDir]` (default: the project's `convex/`, or
 * `functions` from convex.json).
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import { builtinModules, createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import * as esbuild from "esbuild";

/** One reason the folder would not deploy (or breaks a rule of ours for deploying it). */
export type Problem = {
  kind:
    | "entry-points"
    | "node-api"
    | "bundle"
    | "component"
    | "no-args"
    | "no-returns"
    | "node-query-or-mutation"
    | "analyze"
    | "http-router";
  /** the file at fault, relative to the functions folder's parent ("convex/voters.ts") */
  file: string;
  message: string;
};

export type DeployableReport = {
  problems: Problem[];
  /** entry points per runtime, as the CLI splits them */
  entryPoints: { isolate: number; node: number };
  /** modules the CLI would upload (entry points and shared chunks), per runtime */
  modules: { isolate: number; node: number; schema: number; authConfig: number };
  /** registered functions found in the bundled modules */
  functions: { public: number; internal: number; http: number };
  /** runtimes whose functions could not be analysed because their bundle failed */
  notAnalysed: ("isolate" | "node")[];
  ms: number;
};

export type CheckOptions = {
  /** `node.externalPackages` of convex.json (packages installed on the server instead of bundled) */
  externalPackages?: string[];
  /** public functions ("module:name") defined by a library, whose results are its contract: not refused for lacking `returns` */
  returnsExempt?: string[];
};

/** Convex Auth's public functions (convex/auth.ts: `convexAuth()` builds them, not convex/functions.ts). */
export const CONVEX_AUTH_FUNCTIONS = ["auth:signIn", "auth:signOut", "auth:isAuthenticated"];

// ---------------------------------------------------------------------------------------------
// The convex package's bundler

type Message = {
  text: string;
  location: { file: string; line: number; column: number } | null;
  notes: { text: string }[];
};
type BundledModule = { path: string; source: string; environment: "isolate" | "node"; sourceMap?: string };
type Metafile = { inputs: Record<string, { bytes: number; imports: { path: string; original?: string }[] }> };
type BundleResult = { modules: BundledModule[]; metafile: Metafile | null; externalDependencies: Map<string, string> };
type CrashArgs = { exitCode: number; errorType?: string; printedMessage: string | null };
type Ctx = {
  fs: unknown;
  crash(args: CrashArgs): Promise<never>;
  flushAndExit(code: number, err?: unknown): Promise<never>;
  registerCleanup(fn: unknown): string;
  removeCleanup(handle: string): null;
  bigBrainAuth(): null;
  _updateBigBrainAuth(): void;
  deprecationMessagePrinted: boolean;
};
type ConvexBundler = {
  nodeFs: unknown;
  entryPointsByEnvironment(ctx: Ctx, dir: string): Promise<{ isolate: string[]; node: string[] }>;
  bundle(options: {
    ctx: Ctx;
    dir: string;
    entryPoints: string[];
    generateSourceMaps: boolean;
    platform: "browser" | "node";
    chunksFolder?: string;
    externalPackagesAllowList?: string[];
    extraConditions?: string[];
    splitting?: boolean;
  }): Promise<BundleResult>;
  bundleSchema(ctx: Ctx, dir: string, extraConditions: string[]): Promise<{ modules: BundledModule[] }>;
  bundleAuthConfig(ctx: Ctx, dir: string): Promise<{ modules: BundledModule[] }>;
  innerEsbuild(options: {
    entryPoints: string[];
    platform: "browser";
    dir: string;
    extraConditions: string[];
    generateSourceMaps: boolean;
    plugins: esbuild.Plugin[];
    chunksFolder: string;
    logLevel: esbuild.LogLevel;
  }): Promise<unknown>;
  isEsbuildBuildError(e: unknown): boolean;
  dependencyTrackerPlugin(): {
    plugin: esbuild.Plugin;
    tracer: { traceImportChains(entryPoint: string, file: string): string[][] };
  };
  serverOnlyPlugin: esbuild.Plugin;
  wasmPlugin: esbuild.Plugin;
};

/** What the CLI's `ctx.crash` reported: its printed message (esbuild prints its own errors). */
class Crash extends Error {
  constructor(readonly printedMessage: string | null) {
    super(printedMessage ?? "the Convex CLI stopped (esbuild printed the errors above)");
  }
}

const ctx: Ctx = {
  fs: null,
  crash: async (args) => {
    throw new Crash(args.printedMessage);
  },
  flushAndExit: async (code) => {
    throw new Crash(`the Convex CLI exited with code ${code}`);
  },
  registerCleanup: () => "",
  removeCleanup: () => null,
  bigBrainAuth: () => null,
  _updateBigBrainAuth: () => {},
  deprecationMessagePrinted: false,
};

/** Resolves packages as the project does (this script lives in its scripts/). */
const projectRequire = createRequire(import.meta.url);

function convexPackageDir(): string {
  return path.dirname(projectRequire.resolve("convex/package.json"));
}

/**
 * Modules the CLI's dist imports but the npm package does not install (its shipped CLI is one
 * bundle that contains them). Only what the bundler functions touch is implemented.
 */
const STUBS: Record<string, string> = {
  "@sentry/node": `export function captureMessage() {} export function captureException() {} export async function close() { return true; }`,
  ora: `export default function ora() { const s = { text: "", start: () => s, stop: () => s, fail: () => s, succeed: () => s, clear: () => s }; return s; }`,
  chalk: `const paint = new Proxy(function (s) { return String(s); }, { get: () => paint }); export const chalkStderr = paint; export default paint;`,
  "find-up": `import fs from "node:fs"; import path from "node:path";
    export async function findUp(name, { cwd = process.cwd(), type = "file" } = {}) {
      for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
        const candidate = path.join(dir, name);
        try { const st = fs.statSync(candidate); if (type === "directory" ? st.isDirectory() : st.isFile()) return candidate; } catch {}
        if (path.dirname(dir) === dir) return undefined;
      }
    }`,
  // cli/lib/utils/utils.js pulls in the whole CLI; the bundler needs only this of it (for node.externalPackages).
  "convex-cli-utils": `import { findUp } from "find-up";
    export async function findParentConfigs() {
      const parentPackageJson = await findUp("package.json");
      const parentConvexJson = parentPackageJson && (await findUp("convex.json", { cwd: parentPackageJson }));
      return { parentPackageJson, parentConvexJson };
    }`,
};

let bundlerPromise: Promise<ConvexBundler> | null = null;

/** Loads the convex package's bundler code (bundled once per process with the stubs above). */
function loadConvexBundler(): Promise<ConvexBundler> {
  bundlerPromise ??= (async () => {
    const pkg = convexPackageDir();
    const dist = path.join(pkg, "dist", "esm");
    // The CLI's own esbuild (convex pins its version), never the project's.
    const convexEsbuild = createRequire(path.join(pkg, "package.json")).resolve("esbuild");
    const entry = [
      `export { nodeFs, entryPointsByEnvironment, bundle, bundleSchema, bundleAuthConfig } from ${JSON.stringify(path.join(dist, "bundler/index.js"))};`,
      `export { innerEsbuild, isEsbuildBuildError } from ${JSON.stringify(path.join(dist, "bundler/debugBundle.js"))};`,
      `export { default as dependencyTrackerPlugin } from ${JSON.stringify(path.join(dist, "bundler/depgraph.js"))};`,
      `export { serverOnlyPlugin } from ${JSON.stringify(path.join(dist, "bundler/serverOnly.js"))};`,
      `export { wasmPlugin } from ${JSON.stringify(path.join(dist, "bundler/wasm.js"))};`,
    ].join("\n");
    const stubs: esbuild.Plugin = {
      name: "convex-cli-stubs",
      setup(build) {
        build.onResolve({ filter: /^esbuild$/ }, () => ({ path: convexEsbuild, external: true }));
        build.onResolve({ filter: /cli\/lib\/utils\/utils\.js$/ }, () => ({
          path: "convex-cli-utils",
          namespace: "stub",
        }));
        build.onResolve({ filter: /^(@sentry\/node|ora|chalk|find-up)$/ }, (args) => ({
          path: args.path,
          namespace: "stub",
        }));
        build.onLoad({ filter: /.*/, namespace: "stub" }, (args) => ({
          contents: STUBS[args.path],
          loader: "js",
          resolveDir: dist,
        }));
      },
    };
    const result = await esbuild.build({
      stdin: { contents: entry, resolveDir: dist, loader: "js" },
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      write: false,
      logLevel: "silent",
      plugins: [stubs],
    });
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "precinct-convex-bundler-"));
    try {
      const file = path.join(tmp, "bundler.mjs");
      fs.writeFileSync(file, result.outputFiles[0].text);
      const loaded = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as ConvexBundler;
      ctx.fs = loaded.nodeFs;
      return loaded;
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  })();
  return bundlerPromise;
}

// ---------------------------------------------------------------------------------------------
// Analysis of the bundled modules (a fresh Node process, like Convex's executor after upload)

type AnalyzedFunction = {
  name: string;
  udfType: "query" | "mutation" | "action" | "httpAction";
  visibility: "public" | "internal" | null;
  args: any;
  returns: any;
};
type AnalyzedModule = { path: string; error?: string; functions: AnalyzedFunction[]; defaultIsRouter: boolean };

/** Runs in the child: imports each module and reads its exports as the Node executor's `analyzeModule` does. */
const ANALYZER = `
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
const [, , base, listFile, outFile, environment] = process.argv;
const has = (v, k) => Object.prototype.hasOwnProperty.call(v, k);
const out = [];
for (const modulePath of JSON.parse(fs.readFileSync(listFile, "utf8"))) {
  const file = path.join(base, modulePath);
  if (environment === "node") globalThis.require = createRequire(file);
  const entry = { path: modulePath, functions: [], defaultIsRouter: false };
  try {
    const mod = await import(pathToFileURL(file).href);
    for (const [name, value] of Object.entries(mod)) {
      if (value === undefined || value === null) continue;
      let udfType;
      if (has(value, "isAction") && has(value, "invokeAction")) udfType = "action";
      else if (has(value, "isQuery") && has(value, "invokeQuery")) udfType = "query";
      else if (has(value, "isMutation") && has(value, "invokeMutation")) udfType = "mutation";
      else if (has(value, "isHttp") && (has(value, "invokeHttpEndpoint") || has(value, "invokeHttpAction"))) udfType = "httpAction";
      else continue;
      let args = null;
      if (has(value, "exportArgs") && typeof value.exportArgs === "function") {
        const exported = value.exportArgs();
        if (typeof exported === "string") args = JSON.parse(exported);
      }
      let returns = null;
      if (has(value, "exportReturns") && typeof value.exportReturns === "function") {
        const exported = value.exportReturns();
        if (typeof exported === "string") returns = JSON.parse(exported);
      }
      const visibility = has(value, "isPublic") && !has(value, "isInternal") ? "public" : has(value, "isInternal") && !has(value, "isPublic") ? "internal" : null;
      entry.functions.push({ name, udfType, visibility, args, returns });
    }
    const def = mod.default;
    entry.defaultIsRouter = !!def && typeof def === "object" && def.isRouter === true;
  } catch (e) {
    entry.error = e && e.stack ? String(e.stack).split("\\n").slice(0, 4).join("\\n") : String(e);
  }
  out.push(entry);
}
fs.writeFileSync(outFile, JSON.stringify(out));
process.exit(0);
`;

/** Environment of a fresh deployment: the executor's sanitised variables plus Convex's system ones. */
function deploymentEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    CONVEX_CLOUD_URL: "https://deployable-check.convex.cloud",
    CONVEX_SITE_URL: "https://deployable-check.convex.site",
  };
  for (const name of ["PATH", "PWD", "LANG", "NODE_PATH", "TZ"])
    if (process.env[name] !== undefined) env[name] = process.env[name];
  return env;
}

/** Writes the uploaded modules to `base` and analyses `entries` of them in one Node process. */
async function analyze(
  work: string,
  name: string,
  modules: BundledModule[],
  entries: string[],
  environment: "isolate" | "node",
): Promise<AnalyzedModule[]> {
  if (entries.length === 0) return [];
  const base = path.join(work, name);
  for (const m of modules) {
    const file = path.join(base, m.path);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, m.source);
  }
  fs.writeFileSync(path.join(base, "package.json"), JSON.stringify({ type: "module" }));
  const analyzer = path.join(work, "analyze.mjs");
  if (!fs.existsSync(analyzer)) fs.writeFileSync(analyzer, ANALYZER);
  const list = path.join(work, `${name}.modules.json`);
  const out = path.join(work, `${name}.analysis.json`);
  fs.writeFileSync(list, JSON.stringify(entries));
  await new Promise<void>((resolve, reject) => {
    execFile(
      process.execPath,
      [analyzer, base, list, out, environment],
      { env: deploymentEnv(), cwd: base, timeout: 60_000, maxBuffer: 16 * 1024 * 1024 },
      (err, _stdout, stderr) => {
        if (err) reject(new Error(`analysing the ${environment} modules failed: ${err.message}\n${stderr}`));
        else resolve();
      },
    );
  });
  return JSON.parse(fs.readFileSync(out, "utf8")) as AnalyzedModule[];
}

// ---------------------------------------------------------------------------------------------
// The check

const NODE_API_HINT =
  'Every file without "use node" runs there; move the code that needs Node into a file starting with "use node" (such a file may define only actions) and call it through ctx.runAction.';

function isNodeBuiltin(spec: string): boolean {
  return spec.startsWith("node:") || builtinModules.includes(spec.split("/")[0]);
}

/**
 * Why the default-runtime bundle failed, with the import chains — what
 * `npx convex deploy --debug-node-apis` (`debugIsolateBundlesSerially`) reports, for every error
 * at once instead of stopping at the first.
 */
async function diagnoseIsolate(
  cli: ConvexBundler,
  dir: string,
  entryPoints: string[],
  show: (abs: string) => string,
): Promise<Problem[]> {
  /** One file of ours that reaches Node built-ins: directly, or through a Node-only package. */
  type Cause = {
    file: string;
    pkg: string | null;
    builtins: Map<string, number | null>;
    entries: Set<string>;
    chain: string[] | null;
    other: string | null;
  };
  const causes = new Map<string, Cause>();
  const inNodeModules = (f: string) => f.includes(`${path.sep}node_modules${path.sep}`);
  const packageOf = (f: string) => {
    const [first, second] = f.slice(f.lastIndexOf(`${path.sep}node_modules${path.sep}`) + 14).split(path.sep);
    return first.startsWith("@") ? `${first}/${second}` : first;
  };
  // One build of every entry point with the CLI's import tracer: esbuild reports each unresolvable
  // import once, and the traced import graph tells which entry points reach it and how.
  const { plugin, tracer } = cli.dependencyTrackerPlugin();
  let errors: Message[] = [];
  try {
    await cli.innerEsbuild({
      entryPoints,
      platform: "browser",
      generateSourceMaps: true,
      chunksFolder: "_deps",
      extraConditions: [],
      dir,
      plugins: [cli.serverOnlyPlugin, plugin, cli.wasmPlugin],
      logLevel: "silent",
    });
  } catch (error) {
    if (!cli.isEsbuildBuildError(error)) throw error;
    errors = (error as { errors: Message[] }).errors;
  }
  for (const e of errors) {
    const where = e.location ? path.resolve(e.location.file) : null;
    const imported = /"([^"]+)"/.exec(e.text)?.[1] ?? "";
    const nodeApi =
      isNodeBuiltin(imported) || e.notes.some((n) => n.text.includes("Are you trying to bundle for node?"));
    const reaching = entryPoints
      .map((entryPoint) =>
        where === entryPoint ? [entryPoint] : where ? tracer.traceImportChains(entryPoint, where)[0] : undefined,
      )
      .filter((chain): chain is string[] => chain !== undefined);
    // Without a traced chain (or a location) the error still counts, on the file it names.
    if (reaching.length === 0) reaching.push([where ?? dir]);
    for (const chain of reaching) {
      const entryPoint = chain[0];
      // Blame the last of our files on the way: the one that imports the Node-only package, or the file itself.
      const firstPackage = chain.findIndex(inNodeModules);
      const file = firstPackage > 0 ? chain[firstPackage - 1] : (where ?? dir);
      const pkg = firstPackage > 0 ? packageOf(chain[firstPackage]) : null;
      const key = nodeApi ? `${file}\0${pkg}` : `${where}\0${e.text}`;
      const other = nodeApi
        ? null
        : `${where ? show(where) : show(dir)}${e.location ? `:${e.location.line}` : ""}: ${e.text}`;
      const cause = causes.get(key) ?? { file, pkg, builtins: new Map(), entries: new Set(), chain: null, other };
      causes.set(key, cause);
      if (nodeApi && !cause.builtins.has(imported))
        cause.builtins.set(imported, pkg ? null : (e.location?.line ?? null));
      cause.entries.add(entryPoint);
      if (chain.length > 1 && (cause.chain === null || chain.length < cause.chain.length)) cause.chain = chain;
    }
  }
  return [...causes.values()].map((c) => {
    const entries = [...c.entries].map(show);
    const from =
      entries.length <= 4 ? entries.join(", ") : `${entries.slice(0, 3).join(", ")} and ${entries.length - 3} more`;
    const via = c.chain ? ` (${c.chain.map(show).join(" → ")})` : "";
    if (c.other !== null)
      return {
        kind: "bundle",
        file: show(c.file),
        message: `${c.other} — bundled for Convex's default runtime from ${from}${via}.`,
      };
    const builtins = [...c.builtins]
      .map(([name, line]) => `"${name}"${line === null ? "" : ` (line ${line})`}`)
      .join(", ");
    const what = c.pkg
      ? `the Node-only package "${c.pkg}" (it imports the Node built-ins ${builtins})`
      : `the Node built-in${c.builtins.size > 1 ? "s" : ""} ${builtins}`;
    return {
      kind: "node-api",
      file: show(c.file),
      message: `${show(c.file)} imports ${what}, but it runs in Convex's default runtime, which has no Node APIs: it is bundled from ${from}${via}. ${NODE_API_HINT}`,
    };
  });
}

function crashMessage(e: unknown): string {
  if (e instanceof Crash) return e.message.trim();
  throw e;
}

/** Refuses Convex components: bundles convex.config.ts as the CLI's component discovery does. */
async function checkComponents(cli: ConvexBundler, dir: string, show: (abs: string) => string): Promise<Problem[]> {
  const config = ["convex.config.ts", "convex.config.js"].map((f) => path.join(dir, f)).find((f) => fs.existsSync(f));
  if (!config) return [];
  const file = show(config);
  let result: BundleResult;
  try {
    result = await cli.bundle({
      ctx,
      dir,
      entryPoints: [config],
      generateSourceMaps: false,
      platform: "browser",
      splitting: false,
    });
  } catch (e) {
    return [{ kind: "component", file, message: `${file} does not bundle: ${crashMessage(e)}` }];
  }
  // The CLI finds the components an app uses among the inputs of this bundle: every other
  // `convex.config` it imports is a component definition (componentGraph → findComponentDependencies).
  const components = Object.keys(result.metafile?.inputs ?? {})
    .map((p) => path.resolve(p))
    .filter((p) => p !== config && /(^|[\\/])convex\.config\.[cm]?[jt]s$/.test(p));
  if (components.length === 0) return [];
  return [
    {
      kind: "component",
      file,
      message:
        `${file} installs Convex components (app.use of ${components.map(show).join(", ")}). ` +
        "Components need the hosted codegen and are not used here (DESIGN.md §1): use a plain library that runs inside your functions instead.",
    },
  ];
}

/** Bundles and analyses a Convex functions folder as `npx convex deploy` would; resolves to what it refuses. */
export async function checkDeployable(functionsDir: string, options: CheckOptions = {}): Promise<DeployableReport> {
  const started = performance.now();
  const dir = path.resolve(functionsDir);
  const returnsExempt = new Set(options.returnsExempt ?? []);
  const show = (abs: string) => {
    const rel = path.relative(dir, abs);
    if (rel.startsWith("..") || path.isAbsolute(rel)) {
      const inModules = abs.lastIndexOf(`${path.sep}node_modules${path.sep}`);
      return inModules >= 0 ? abs.slice(inModules + 1) : abs;
    }
    return path.posix.join(path.basename(dir), rel.split(path.sep).join("/"));
  };
  const report: DeployableReport = {
    problems: [],
    entryPoints: { isolate: 0, node: 0 },
    modules: { isolate: 0, node: 0, schema: 0, authConfig: 0 },
    functions: { public: 0, internal: 0, http: 0 },
    notAnalysed: [],
    ms: 0,
  };
  const problems = report.problems;
  const cli = await loadConvexBundler();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "precinct-deployable-"));
  try {
    problems.push(...(await checkComponents(cli, dir, show)));

    let entryPoints: { isolate: string[]; node: string[] };
    try {
      entryPoints = await cli.entryPointsByEnvironment(ctx, dir);
    } catch (e) {
      problems.push({ kind: "entry-points", file: show(dir), message: crashMessage(e) });
      return report;
    }
    report.entryPoints = { isolate: entryPoints.isolate.length, node: entryPoints.node.length };

    if (fs.existsSync(path.join(dir, "schema.ts")) || fs.existsSync(path.join(dir, "schema.js"))) {
      try {
        report.modules.schema = (await cli.bundleSchema(ctx, dir, [])).modules.length;
      } catch (e) {
        problems.push({
          kind: "bundle",
          file: show(path.join(dir, "schema.ts")),
          message: `the schema does not bundle: ${crashMessage(e)}`,
        });
      }
    }

    let isolate: BundleResult | null = null;
    try {
      isolate = await cli.bundle({
        ctx,
        dir,
        entryPoints: entryPoints.isolate,
        generateSourceMaps: true,
        platform: "browser",
      });
      report.modules.isolate = isolate.modules.length;
    } catch (e) {
      report.notAnalysed.push("isolate");
      const message = crashMessage(e);
      const diagnosed = await diagnoseIsolate(cli, dir, entryPoints.isolate, show);
      problems.push(
        ...(diagnosed.length > 0
          ? diagnosed
          : [{ kind: "bundle" as const, file: show(dir), message: `the default-runtime bundle failed: ${message}` }]),
      );
    }

    let node: BundleResult | null = null;
    try {
      node = await cli.bundle({
        ctx,
        dir,
        entryPoints: entryPoints.node,
        generateSourceMaps: true,
        platform: "node",
        chunksFolder: path.join("_deps", "node"),
        externalPackagesAllowList: options.externalPackages ?? [],
      });
      report.modules.node = node.modules.length;
    } catch (e) {
      report.notAnalysed.push("node");
      problems.push({ kind: "bundle", file: show(dir), message: `the "use node" bundle failed: ${crashMessage(e)}` });
    }

    try {
      report.modules.authConfig = (await cli.bundleAuthConfig(ctx, dir)).modules.length;
    } catch (e) {
      problems.push({
        kind: "bundle",
        file: show(path.join(dir, "auth.config.ts")),
        message: `the auth config does not bundle: ${crashMessage(e)}`,
      });
    }

    // The uploaded module path of each entry point ("voters.ts" → "voters.js").
    const sourceOf = new Map<string, string>();
    for (const entry of [...entryPoints.isolate, ...entryPoints.node]) {
      sourceOf.set(
        path
          .relative(dir, entry)
          .split(path.sep)
          .join("/")
          .replace(/\.[^/.]+$/, ".js"),
        entry,
      );
    }
    const runtimes: ["isolate" | "node", BundleResult | null][] = [
      ["isolate", isolate],
      ["node", node],
    ];
    const analysed = await Promise.all(
      runtimes.map(async ([environment, result]) => {
        if (!result) return [] as [AnalyzedModule, "isolate" | "node"][];
        const entries = result.modules.map((m) => m.path).filter((p) => sourceOf.has(p));
        return (await analyze(work, environment, result.modules, entries, environment)).map(
          (m) => [m, environment] as [AnalyzedModule, "isolate" | "node"],
        );
      }),
    );
    for (const [m, environment] of analysed.flat()) {
      const file = show(sourceOf.get(m.path)!);
      if (m.error) {
        problems.push({
          kind: "analyze",
          file,
          message: `${file} throws when Convex imports it (${environment} runtime): ${m.error}`,
        });
        continue;
      }
      if (m.path === "http.js" && !m.defaultIsRouter) {
        problems.push({
          kind: "http-router",
          file,
          message: `${file} must export default an httpRouter(): Convex serves http actions only through it.`,
        });
      }
      for (const fn of m.functions) {
        if (fn.udfType === "httpAction") {
          report.functions.http++;
          continue;
        }
        if (fn.visibility === "public") report.functions.public++;
        if (fn.visibility === "internal") report.functions.internal++;
        const kind = fn.udfType === "query" ? "Query" : fn.udfType === "mutation" ? "Mutation" : "Action";
        if (environment === "node" && fn.udfType !== "action") {
          problems.push({
            kind: "node-query-or-mutation",
            file,
            message: `\`${fn.name}\` defined in \`${file}\` is a ${kind} function. Only actions can be defined in Node.js: move it to a file without "use node".`,
          });
        }
        if (fn.visibility !== null && (fn.args === null || fn.args?.type === "any")) {
          problems.push({
            kind: "no-args",
            file,
            message: `${fn.visibility} ${fn.udfType} \`${fn.name}\` in ${file} has no argument validators: declare \`args\` (\`args: {}\` when it takes none) so Convex validates what callers send.`,
          });
        } else if (
          fn.visibility === "public" &&
          fn.returns === null &&
          !returnsExempt.has(`${m.path.replace(/\.js$/, "")}:${fn.name}`)
        ) {
          problems.push({
            kind: "no-returns",
            file,
            message: `public ${fn.udfType} \`${fn.name}\` in ${file} has no return validator: declare \`returns\` (derived from the table validators in convex/tables/) so Convex checks what the browser receives and its type comes from one source.`,
          });
        }
      }
    }
    return report;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
    report.ms = Math.round(performance.now() - started);
  }
}

// ---------------------------------------------------------------------------------------------
// CLI

/** The functions folder and node.externalPackages as the CLI reads them (convex.json, else convex/). */
function projectConfig(): { dir: string; externalPackages: string[] } {
  const file = path.resolve("convex.json");
  if (!fs.existsSync(file)) return { dir: path.resolve("convex"), externalPackages: [] };
  const config = JSON.parse(fs.readFileSync(file, "utf8")) as {
    functions?: string;
    node?: { externalPackages?: string[] };
  };
  return { dir: path.resolve(config.functions ?? "convex"), externalPackages: config.node?.externalPackages ?? [] };
}

async function main() {
  const config = projectConfig();
  const dir = process.argv[2] ? path.resolve(process.argv[2]) : config.dir;
  const r = await checkDeployable(dir, {
    externalPackages: config.externalPackages,
    returnsExempt: CONVEX_AUTH_FUNCTIONS,
  });
  const name = path.relative(process.cwd(), dir) || ".";
  const modules = (runtime: "isolate" | "node", n: number) =>
    r.notAnalysed.includes(runtime) ? "bundle failed" : `${n} modules`;
  console.log(
    `${name}/ bundled as \`npx convex deploy\` does (convex ${projectRequire("convex/package.json").version}'s bundler):`,
  );
  console.log(
    `  Convex's default runtime: ${r.entryPoints.isolate} entry points → ${modules("isolate", r.modules.isolate)}`,
  );
  console.log(`  Node.js ("use node"):     ${r.entryPoints.node} entry points → ${modules("node", r.modules.node)}`);
  console.log(`  schema: ${r.modules.schema} module, auth config: ${r.modules.authConfig} module`);
  console.log(
    `Checked ${r.functions.public + r.functions.internal} registered functions (${r.functions.public} public, ${r.functions.internal} internal) for argument and return validators` +
      ` and runtime placement, ${r.functions.http} http actions; ${(r.ms / 1000).toFixed(1)} s.`,
  );
  for (const runtime of r.notAnalysed)
    console.log(
      `  (the functions of the ${runtime === "isolate" ? "default" : "Node.js"} runtime were not analysed: its bundle failed)`,
    );
  if (r.problems.length === 0) {
    console.log(
      'Deployable: no Node APIs outside "use node", no components, every function declares its argument validators and every public one its return validator.',
    );
    return;
  }
  console.error(`\nNot deployable (${r.problems.length} problem${r.problems.length === 1 ? "" : "s"}):`);
  for (const p of r.problems) console.error(`  ✗ [${p.kind}] ${p.message}`);
  process.exitCode = 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e: unknown) => {
    console.error(e instanceof Error ? (e.stack ?? e.message) : e);
    process.exitCode = 1;
  });
}
