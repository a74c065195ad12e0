/**
 * The layering rule (ARCHITECTURE.md "Rules"): which part of the tree may import which. Each
 * import is resolved to the file or folder it names (relative, `@/` = src/, `@convex/` = convex/)
 * and checked against the zones below; a broken rule is reported with the reason for it.
 */
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
const SRC = path.join(ROOT, "src");
const CONVEX = path.join(ROOT, "convex");

/** convex/ files that are not public function modules (or may import them: the router). */
const CONVEX_NON_PUBLIC = new Set(["functions", "schema", "http", "crons", "auth.config", "convex.config"]);

function resolveSpec(file, spec) {
  if (spec.startsWith("@/")) return path.join(SRC, spec.slice(2));
  if (spec.startsWith("@convex/")) return path.join(CONVEX, spec.slice(8));
  if (spec.startsWith(".")) return path.resolve(path.dirname(file), spec);
  return null;
}

/** The zone of a path: "ui", "lib", "session", "app", "feature:<name>", "convex-model", … */
function zoneOf(p) {
  const inSrc = path.relative(SRC, p);
  if (!inSrc.startsWith("..")) {
    const [top, second] = inSrc.split(path.sep);
    if (top === "features") return second ? `feature:${second.replace(/\.(tsx?|js)$/, "")}` : "features";
    return top.replace(/\.(tsx?|js)$/, "");
  }
  const inConvex = path.relative(CONVEX, p);
  if (!inConvex.startsWith("..")) {
    const parts = inConvex.split(path.sep);
    if (parts.length === 1) {
      const name = parts[0].replace(/\.(ts|js)$/, "");
      return CONVEX_NON_PUBLIC.has(name) ? `convex-${name}` : "convex-public";
    }
    return `convex-${parts[0]}`;
  }
  if (!path.relative(path.join(ROOT, "local-backend"), p).startsWith("..")) return "local-backend";
  return "other";
}

/** The reason an import from zone `from` to `to` (file `target`) is refused, or null. */
function violation(from, to, target) {
  const feature = (z) => z.startsWith("feature:");
  if (from === "ui" && (feature(to) || to === "features" || to === "app" || to === "session")) {
    return "ui/ holds shared pieces every feature can use: it never imports from features/, app/ or session/.";
  }
  if (from === "lib" && (feature(to) || to === "features" || to === "app" || to === "session" || to === "ui")) {
    return "lib/ is pure utilities: it imports nothing from features/, app/, session/ or ui/.";
  }
  if (from === "session" && (feature(to) || to === "features" || to === "app")) {
    return "session/ (who is signed in, their role and mode) sits below the features: it never imports from features/ or app/.";
  }
  if (feature(from) && to === "app") {
    return "Features never import from app/ (routes, shell, providers). What features share about the signed-in user lives in session/.";
  }
  if (feature(from) && feature(to) && from !== to) {
    const rel = path.relative(path.join(SRC, "features", to.slice(8)), target);
    if (rel !== "" && rel !== "index" && rel !== "index.ts") {
      return `A feature uses another only through its public index (@/features/${to.slice(8)}); shared code moves up to ui/ or lib/.`;
    }
  }
  if (
    from === "local-backend" &&
    (to.startsWith("convex") || ["ui", "lib", "session", "app", "features"].includes(to) || feature(to))
  ) {
    return "local-backend/ is a generic Convex-compatible backend: it never imports the app (convex/ or src/).";
  }
  if (from === "convex-model" && (to === "convex-public" || to === "convex-functions" || to === "convex-http")) {
    return "convex/model/ is domain logic called by the public modules: it never imports them (move the shared piece into model/).";
  }
  if (from === "convex-public" && to === "convex-public") {
    return "A public Convex module never imports another: put the shared logic in convex/model/ and call it from both.";
  }
  return null;
}

function check(context, node, spec) {
  if (typeof spec !== "string") return;
  const file = context.filename;
  const target = resolveSpec(file, spec);
  if (target === null) return;
  const from = zoneOf(file);
  const to = zoneOf(target);
  const message = violation(from, to, target);
  if (message) context.report({ node, message: `${message} (${spec})` });
  else if (spec.startsWith("../../../") && file.startsWith(SRC)) {
    context.report({
      node,
      message: `Import across the tree with an alias (@/ for src/, @convex/ for convex/), not ../../../ (${spec}).`,
    });
  }
}

export default {
  rules: {
    layering: {
      meta: { type: "problem", schema: [] },
      create(context) {
        return {
          ImportDeclaration: (node) => check(context, node.source, node.source.value),
          ExportNamedDeclaration: (node) => node.source && check(context, node.source, node.source.value),
          ExportAllDeclaration: (node) => check(context, node.source, node.source.value),
          ImportExpression: (node) => node.source.type === "Literal" && check(context, node.source, node.source.value),
        };
      },
    },
  },
};
