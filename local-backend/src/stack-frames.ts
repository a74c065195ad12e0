/**
 * The user's stack frames of an error, as Convex reports them (`JsError::from_frames` in
 * crates/common/src/errors.rs): each V8 frame mapped through the bundle's source map to the
 * app's source, paths relative to the bundle's output folder as `npx convex deploy` builds it
 * (`out/`, so `convex/messages.ts` shows as `../convex/messages.ts`), frames without a source map
 * (engine code, Node internals, packages the engine imports from node_modules) dropped, and the
 * leading and trailing frames inside the `convex` library's own harness omitted. The machine's
 * absolute paths never appear.
 *
 * Bundles are registered by file (the function realm's bundle, whose map is handed in) or by
 * folder (the esbuild output of the functions folder, whose files carry inline maps read on first
 * use). Uses only Node built-ins: the Node-action worker (node-executor-worker.ts) bundles it.
 */
import fs from "node:fs";
import { SourceMap, type SourceMapPayload } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

type MappedFile = { map: SourceMap | null; sourcesDir: string; functionsDir: string };

const files = new Map<string, MappedFile>();
const dirs = new Map<string, string>();

/** Frames in files under `dir` (the esbuild output of `functionsDir`, inline source maps) are the user's. */
export function registerBundleDir(dir: string, functionsDir: string): void {
  dirs.set(path.resolve(dir), path.resolve(functionsDir));
}

/** Forgets a bundle folder (its build was replaced) and the maps read from it. */
export function unregisterBundleDir(dir: string): void {
  const d = path.resolve(dir);
  dirs.delete(d);
  for (const f of files.keys()) if (f.startsWith(d + path.sep)) files.delete(f);
}

/** A bundle evaluated from memory under `file` (the function realm); `sourcesDir`: what its map's sources are relative to. */
export function registerBundleFile(
  file: string,
  map: SourceMapPayload,
  sourcesDir: string,
  functionsDir: string,
): void {
  files.set(file, { map: new SourceMap(map), sourcesDir, functionsDir: path.resolve(functionsDir) });
}

export function unregisterBundleFile(file: string): void {
  files.delete(file);
}

const INLINE_MAP = "//# sourceMappingURL=data:application/json;base64,";

function mappedFile(file: string): MappedFile | null {
  const known = files.get(file);
  if (known) return known;
  const dir = [...dirs.keys()].find((d) => file.startsWith(d + path.sep));
  if (dir === undefined) return null;
  let map: SourceMap | null = null;
  try {
    const text = fs.readFileSync(file, "utf8");
    const at = text.lastIndexOf(INLINE_MAP);
    if (at >= 0) {
      const payload = JSON.parse(
        Buffer.from(text.slice(at + INLINE_MAP.length).trim(), "base64").toString("utf8"),
      ) as SourceMapPayload;
      map = new SourceMap(payload);
    }
  } catch {
    map = null;
  }
  const entry = { map, sourcesDir: path.dirname(file), functionsDir: dirs.get(dir)! };
  files.set(file, entry);
  return entry;
}

/**
 * How Convex shows a source file: relative to the deploy bundle's output folder (`out/` beside
 * the functions folder, `out/<folder>/` for a module in a subfolder, `out/_deps/` for shared code).
 */
function displayPath(source: string, functionsDir: string): string {
  const root = path.dirname(functionsDir);
  const rel = path.relative(functionsDir, source);
  const inside = rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel);
  const outDir = path.join(root, "out", inside ? path.dirname(rel) : "_deps");
  return path.relative(outDir, source).split(path.sep).join("/");
}

/** Frames inside the library's function harness; Convex omits them at both ends. */
function omittable(display: string): boolean {
  return (
    display.includes("convex/src/server/impl") ||
    display.includes("convex/dist/esm/server/impl") ||
    display.includes("udf-runtime/src")
  );
}

const FRAME = /^\s*at (?:(.*?) \((.+)\)|(.+))$/;
const LOCATION = /^(.*):(\d+):(\d+)$/;
const SOURCE = /\.(ts|tsx|js|jsx|mjs|cjs|mts|cts)$/;

/** One V8 stack line mapped to the user's source, or null when it is not in a registered bundle. */
function mapFrame(line: string): string | null {
  const m = FRAME.exec(line);
  if (!m) return null;
  // V8 writes a frame of a function without a name as its bare location (`async ` before it when
  // the frame awaits); Convex writes `<anonymous> (location)`
  const awaiting = m[3]?.startsWith("async ") ?? false;
  const fn = m[1] ?? (awaiting ? "async <anonymous>" : "<anonymous>");
  const loc = LOCATION.exec(m[2] ?? (awaiting ? m[3].slice("async ".length) : m[3]));
  if (!loc) return null;
  let file = loc[1];
  if (file.startsWith("file://")) {
    try {
      file = fileURLToPath(file);
    } catch {
      return null;
    }
  }
  const mapped = mappedFile(file);
  if (!mapped?.map) {
    // already mapped by the process's own source-map support (tsx, vitest): an app source file
    const functionsDir = [...dirs.values(), ...[...files.values()].map((f) => f.functionsDir)].find((d) =>
      file.startsWith(d + path.sep),
    );
    if (functionsDir === undefined || !SOURCE.test(file)) return null;
    return `    at ${fn || "<anonymous>"} (${displayPath(file, functionsDir)}:${loc[2]}:${loc[3]})`;
  }
  const entry = mapped.map.findEntry(Number(loc[2]) - 1, Number(loc[3]) - 1) as {
    originalSource?: string;
    originalLine?: number;
    originalColumn?: number;
  };
  if (entry.originalSource === undefined || entry.originalLine === undefined || entry.originalColumn === undefined)
    return null;
  const src = entry.originalSource.startsWith("file://")
    ? fileURLToPath(entry.originalSource)
    : path.resolve(mapped.sourcesDir, entry.originalSource);
  return `    at ${fn || "<anonymous>"} (${displayPath(src, mapped.functionsDir)}:${entry.originalLine + 1}:${entry.originalColumn + 1})`;
}

/** The user's frames of `stack` (V8's text), Convex-formatted ("    at handler (../convex/x.ts:3:9)"). */
export function userFrames(stack: unknown): string[] {
  if (typeof stack !== "string") return [];
  const out: string[] = [];
  for (const line of stack.split("\n")) {
    if (!line.startsWith("    at ")) continue;
    const frame = mapFrame(line);
    if (frame === null) continue;
    if (out.length === 0 && omittable(frame)) continue;
    out.push(frame);
  }
  while (out.length > 0 && omittable(out[out.length - 1])) out.pop();
  return out;
}
