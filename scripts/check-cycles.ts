/**
 * `npm run check:cycles` (part of `npm test`): fails when modules of src/, convex/ or
 * local-backend/src/ import each other in a cycle. Type-only imports count too: they vanish at
 * runtime, but a cycle of types is still two files that cannot be understood one without the
 * other (a narrow interface in a third file breaks it).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const TREES = ["src", "convex", "local-backend/src"];
const EXTENSIONS = [".ts", ".tsx"];

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (name === "_generated" || name === "node_modules") continue;
    if (statSync(full).isDirectory()) out.push(...sourceFiles(full));
    else if (EXTENSIONS.some((e) => name.endsWith(e)) && !name.endsWith(".d.ts")) out.push(full);
  }
  return out;
}

/** The file a relative specifier names, or null (packages, aliases outside the trees, assets). */
function resolve(from: string, spec: string, aliases: Record<string, string>): string | null {
  let base: string | null = null;
  if (spec.startsWith(".")) base = path.resolve(path.dirname(from), spec);
  for (const [prefix, target] of Object.entries(aliases))
    if (spec.startsWith(prefix)) base = path.join(target, spec.slice(prefix.length));
  if (base === null) return null;
  const stripped = base.replace(/\.js$/, "");
  for (const candidate of [
    stripped,
    ...EXTENSIONS.map((e) => stripped + e),
    ...EXTENSIONS.map((e) => path.join(stripped, "index" + e)),
  ]) {
    try {
      if (statSync(candidate).isFile() && EXTENSIONS.some((e) => candidate.endsWith(e))) return candidate;
    } catch {
      // not this one
    }
  }
  return null;
}

/** Every module a file imports or re-exports from. */
function imports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, false);
  const specs: string[] = [];
  for (const node of source.statements) {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      specs.push(node.moduleSpecifier.text);
    }
  }
  return specs;
}

/** Strongly connected components of more than one file (Tarjan), plus files importing themselves. */
function cycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    indices.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!indices.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indices.get(w)!));
    }
    if (low.get(v) === indices.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!indices.has(v)) visit(v);
  return found;
}

const aliases = { "@/": path.join(root, "src/"), "@convex/": path.join(root, "convex/") };
const graph = new Map<string, string[]>();
for (const tree of TREES) {
  for (const file of sourceFiles(path.join(root, tree))) {
    graph.set(
      file,
      imports(file)
        .map((s) => resolve(file, s, aliases))
        .filter((f): f is string => f !== null),
    );
  }
}
const found = cycles(graph);
if (found.length > 0) {
  console.error(`Import cycles (${found.length}):`);
  for (const c of found) console.error(`  ${c.map((f) => path.relative(root, f)).join(" ↔ ")}`);
  process.exit(1);
}
console.log(`No import cycles among ${graph.size} modules of ${TREES.join(", ")}.`);
