/**
 * The deployability check (scripts/check-deployable.ts) refuses what `npx convex deploy` would:
 * each case is a small functions folder written to a temp dir (its node_modules links to the
 * project's, so `convex/server` resolves as in the app).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { checkDeployable, CONVEX_AUTH_FUNCTIONS, type Problem } from "../../scripts/check-deployable";

const roots: string[] = [];

/** Writes `files` under <tmp>/convex/ and returns that folder. */
function fixture(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "deployable-fixture-"));
  roots.push(root);
  fs.symlinkSync(path.resolve("node_modules"), path.join(root, "node_modules"), "dir");
  for (const [name, text] of Object.entries(files)) {
    const file = path.join(root, "convex", name);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  }
  return path.join(root, "convex");
}

afterAll(() => {
  for (const root of roots) fs.rmSync(root, { recursive: true, force: true });
});

const SCHEMA = `import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";
export default defineSchema({ notes: defineTable({ text: v.string() }) });
`;

const NOTES = `import { queryGeneric, mutationGeneric, internalMutationGeneric } from "convex/server";
import { v } from "convex/values";
export const list = queryGeneric({ args: {}, returns: v.array(v.object({ _id: v.id("notes"), _creationTime: v.number(), text: v.string() })), handler: async (ctx) => await ctx.db.query("notes").collect() });
export const add = mutationGeneric({ args: { text: v.string() }, returns: v.id("notes"), handler: async (ctx, { text }) => await ctx.db.insert("notes", { text }) });
export const purge = internalMutationGeneric({ args: { before: v.number() }, handler: async () => null });
`;

const kinds = (problems: Problem[]) => problems.map((p) => p.kind);

describe("checkDeployable", () => {
  test("a clean folder is accepted, its modules bundled per runtime and its functions counted", async () => {
    const dir = fixture({
      "schema.ts": SCHEMA,
      "notes.ts": NOTES,
      "lib/text.ts": `export const trim = (s: string) => s.trim();\n`,
    });
    const report = await checkDeployable(dir);
    expect(report.problems).toEqual([]);
    expect(report.entryPoints).toEqual({ isolate: 2, node: 0 });
    expect(report.modules.isolate).toBeGreaterThanOrEqual(2);
    expect(report.modules.schema).toBe(1);
    expect(report.functions).toEqual({ public: 2, internal: 1, http: 0 });
  });

  test("node:fs imported by a file of the default runtime is refused, with the import chain", async () => {
    const dir = fixture({
      "schema.ts": SCHEMA,
      "notes.ts": NOTES,
      "files.ts": `import { queryGeneric } from "convex/server";
import { readConfig } from "./model/config";
export const config = queryGeneric({ args: {}, handler: async () => readConfig() });
`,
      "model/config.ts": `import { readFileSync } from "node:fs";
export const readConfig = () => readFileSync("/etc/hostname", "utf8");
`,
    });
    const report = await checkDeployable(dir);
    expect(kinds(report.problems)).toContain("node-api");
    expect(report.problems.map((p) => [p.kind, p.file])).toEqual([["node-api", "convex/model/config.ts"]]);
    const problem = report.problems[0];
    expect(problem.message).toContain('convex/model/config.ts imports the Node built-in "node:fs" (line 1)');
    expect(problem.message).toContain("convex/files.ts → convex/model/config.ts");
    expect(problem.message).toContain('"use node"');
    expect(report.notAnalysed).toEqual(["isolate"]);
  });

  test("a bare Node built-in (crypto) is refused too", async () => {
    const dir = fixture({
      "hash.ts": `import { createHash } from "crypto";
import { queryGeneric } from "convex/server";
import { v } from "convex/values";
export const hash = queryGeneric({ args: { s: v.string() }, handler: async (_ctx, { s }) => createHash("sha256").update(s).digest("hex") });
`,
    });
    const report = await checkDeployable(dir);
    expect(report.problems.map((p) => [p.kind, p.file])).toEqual([["node-api", "convex/hash.ts"]]);
  });

  test('a Node-only package imported outside "use node" is refused, naming the package', async () => {
    const dir = fixture({
      "db.ts": `import Database from "better-sqlite3";
import { queryGeneric } from "convex/server";
export const open = queryGeneric({ args: {}, handler: async () => String(new Database(":memory:")) });
`,
    });
    const report = await checkDeployable(dir);
    expect(report.problems.map((p) => [p.kind, p.file])).toEqual([["node-api", "convex/db.ts"]]);
    expect(report.problems[0].message).toContain('the Node-only package "better-sqlite3"');
    expect(report.problems[0].message).toContain("convex/db.ts → node_modules/better-sqlite3/");
  });

  test('the same node:fs import in a "use node" action file is accepted', async () => {
    const dir = fixture({
      "schema.ts": SCHEMA,
      "notes.ts": NOTES,
      "files.ts": `"use node";
import { readFileSync } from "node:fs";
import { actionGeneric, internalActionGeneric } from "convex/server";
import { v } from "convex/values";
export const read = actionGeneric({ args: { file: v.string() }, returns: v.string(), handler: async (_ctx, { file }) => readFileSync(file, "utf8") });
export const size = internalActionGeneric({ args: { file: v.string() }, handler: async (_ctx, { file }) => readFileSync(file).length });
`,
    });
    const report = await checkDeployable(dir);
    expect(report.problems).toEqual([]);
    expect(report.entryPoints).toEqual({ isolate: 1, node: 1 });
    expect(report.modules.node).toBeGreaterThanOrEqual(1);
    expect(report.functions).toEqual({ public: 3, internal: 2, http: 0 });
  });

  test('a query in a "use node" file is refused: only actions run in Node.js', async () => {
    const dir = fixture({
      "files.ts": `"use node";
import { queryGeneric } from "convex/server";
import { v } from "convex/values";
export const list = queryGeneric({ args: {}, returns: v.array(v.string()), handler: async () => [] });
`,
    });
    const report = await checkDeployable(dir);
    expect(report.problems.map((p) => [p.kind, p.file])).toEqual([["node-query-or-mutation", "convex/files.ts"]]);
    expect(report.problems[0].message).toContain("Only actions can be defined in Node.js");
  });

  test('"use node" where Convex allows only its default runtime (http.ts) is refused, as the CLI does', async () => {
    const dir = fixture({
      "http.ts": `"use node";
import { httpRouter } from "convex/server";
export default httpRouter();
`,
    });
    const report = await checkDeployable(dir);
    expect(report.problems).toEqual([
      { kind: "entry-points", file: "convex", message: '"use node" directive is not allowed for http.ts.' },
    ]);
  });

  test("a component (convex.config.ts with app.use) is refused", async () => {
    const dir = fixture({
      "schema.ts": SCHEMA,
      "notes.ts": NOTES,
      "convex.config.ts": `import { defineApp } from "convex/server";
import counter from "./components/counter/convex.config";
const app = defineApp();
app.use(counter);
export default app;
`,
      "components/counter/convex.config.ts": `import { defineComponent } from "convex/server";
export default defineComponent("counter");
`,
      "components/counter/counts.ts": `import { queryGeneric } from "convex/server";
export const get = queryGeneric({ args: {}, handler: async () => 0 });
`,
    });
    const report = await checkDeployable(dir);
    expect(report.problems.map((p) => [p.kind, p.file])).toEqual([["component", "convex/convex.config.ts"]]);
    expect(report.problems[0].message).toContain("app.use of convex/components/counter/convex.config.ts");
    // The CLI leaves the component's own folder out of the app's entry points.
    expect(report.entryPoints).toEqual({ isolate: 1, node: 0 });
  });

  test("a convex.config.ts without components is accepted", async () => {
    const dir = fixture({
      "notes.ts": NOTES,
      "convex.config.ts": `import { defineApp } from "convex/server";
export default defineApp();
`,
    });
    expect((await checkDeployable(dir)).problems).toEqual([]);
  });

  test("a public or internal function without args is refused", async () => {
    const dir = fixture({
      "schema.ts": SCHEMA,
      "notes.ts": `import { queryGeneric, internalMutationGeneric, actionGeneric } from "convex/server";
import { v } from "convex/values";
export const list = queryGeneric({ handler: async (ctx) => await ctx.db.query("notes").collect() });
export const bare = queryGeneric(async () => null);
export const purge = internalMutationGeneric({ handler: async () => null });
export const anything = actionGeneric({ args: v.any(), handler: async () => null });
export const ok = queryGeneric({ args: {}, returns: v.null(), handler: async () => null });
`,
    });
    const report = await checkDeployable(dir);
    expect(kinds(report.problems)).toEqual(["no-args", "no-args", "no-args", "no-args"]);
    const text = report.problems.map((p) => p.message).join("\n");
    for (const name of ["`list`", "`bare`", "`purge`", "`anything`"]) expect(text).toContain(name);
    expect(text).not.toContain("`ok`");
    expect(text).toContain("internal mutation `purge` in convex/notes.ts");
  });

  test("a public function with arguments but no return validator is refused, naming it; internal ones and library functions are not", async () => {
    const dir = fixture({
      "schema.ts": SCHEMA,
      "notes.ts": `import { actionGeneric, internalQueryGeneric, mutationGeneric, queryGeneric } from "convex/server";
import { v } from "convex/values";
export const list = queryGeneric({ args: {}, handler: async (ctx) => await ctx.db.query("notes").collect() });
export const add = mutationGeneric({ args: { text: v.string() }, handler: async (ctx, { text }) => { await ctx.db.insert("notes", { text }); } });
export const ping = actionGeneric({ args: {}, returns: v.null(), handler: async () => null });
export const count = internalQueryGeneric({ args: {}, handler: async (ctx) => (await ctx.db.query("notes").collect()).length });
`,
      "auth.ts": `import { actionGeneric } from "convex/server";
import { v } from "convex/values";
export const signIn = actionGeneric({ args: { provider: v.string() }, handler: async () => ({ redirect: null }) });
`,
    });
    const report = await checkDeployable(dir, { returnsExempt: CONVEX_AUTH_FUNCTIONS });
    expect(report.problems.map((p) => [p.kind, p.file])).toEqual([
      ["no-returns", "convex/notes.ts"],
      ["no-returns", "convex/notes.ts"],
    ]);
    const text = report.problems.map((p) => p.message).join("\n");
    expect(text).toContain("public query `list` in convex/notes.ts has no return validator");
    expect(text).toContain("public mutation `add` in convex/notes.ts has no return validator");
    for (const name of ["`ping`", "`count`", "`signIn`"]) expect(text).not.toContain(name);
    // without the exemption, the library's function is refused like any other
    expect(kinds((await checkDeployable(dir)).problems)).toEqual(["no-returns", "no-returns", "no-returns"]);
  });

  test("the same functions with return validators are accepted", async () => {
    const dir = fixture({
      "schema.ts": SCHEMA,
      "notes.ts": `import { actionGeneric, mutationGeneric, queryGeneric } from "convex/server";
import { v } from "convex/values";
const vNote = v.object({ _id: v.id("notes"), _creationTime: v.number(), text: v.string() });
export const list = queryGeneric({ args: {}, returns: v.array(vNote), handler: async (ctx) => await ctx.db.query("notes").collect() });
export const add = mutationGeneric({ args: { text: v.string() }, returns: v.null(), handler: async (ctx, { text }) => { await ctx.db.insert("notes", { text }); return null; } });
export const ping = actionGeneric({ args: {}, returns: v.null(), handler: async () => null });
`,
    });
    const report = await checkDeployable(dir);
    expect(report.problems).toEqual([]);
    expect(report.functions).toEqual({ public: 3, internal: 0, http: 0 });
  });
});
