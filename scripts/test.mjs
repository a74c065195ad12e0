#!/usr/bin/env node
/**
 * `npm test`: every gate — typecheck, lint (with the layering rule), formatting (prettier --check),
 * dead code (knip: no unused file, export, type or dependency), the import-cycle check and the
 * deployability check (convex/ bundled as `npx convex deploy` does; it also refuses a public
 * function without a `returns` validator), side by side; then
 * unit/function/backend tests (vitest, started once every gate but ESLint is done), then
 * Playwright e2e in Debian's Chromium against the app on the embedded backend. Ends with one
 * "N passed, N failed" line summing vitest and Playwright.
 */
import { spawn, spawnSync } from "node:child_process";
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const out = mkdtempSync(path.join(tmpdir(), "precinct-test-"));
const only = process.argv.slice(2);
const wants = (step) => only.length === 0 || only.includes(step);
let failedSteps = [];
const totals = { passed: 0, failed: 0, skipped: 0 };

function run(name, cmd, args, env = {}) {
  console.log(`\n▶ ${name}: ${cmd} ${args.join(" ")}`);
  const r = spawnSync(cmd, args, { stdio: "inherit", env: { ...process.env, ...env } });
  if (r.status !== 0) failedSteps.push(name);
  return r.status === 0;
}

/** Starts a step, its output going to a file; resolves with its status once it ends. */
function start([name, cmd, args]) {
  const file = path.join(out, `${name.replace(/\W+/g, "-")}.log`);
  const fd = openSync(file, "w");
  const child = spawn(cmd, args, { stdio: ["ignore", fd, fd] });
  closeSync(fd);
  return new Promise((resolve) => child.on("close", (status) => resolve({ name, cmd, args, file, status })));
}

/** Prints a step's output and records its failure. */
function report({ name, cmd, args, file, status }) {
  console.log(`\n▶ ${name}: ${cmd} ${args.join(" ")}`);
  process.stdout.write(readFileSync(file));
  if (status !== 0) failedSteps.push(name);
}

const gates = [];
if (wants("typecheck")) {
  gates.push(["typecheck (app)", "npx", ["tsc", "-p", "tsconfig.json", "--noEmit"]]);
  gates.push(["typecheck (convex)", "npx", ["tsc", "-p", "convex/tsconfig.json", "--noEmit"]]);
}
if (wants("lint")) {
  gates.push(["lint", "npx", ["eslint", ".", "--max-warnings=0"]]);
  gates.push(["import cycles", "npx", ["tsx", "scripts/check-cycles.ts"]]);
  gates.push(["deployability", "npx", ["tsx", "scripts/check-deployable.ts"]]);
  gates.push(["formatting", "npx", ["prettier", "--check", "--log-level=warn", "."]]);
  gates.push(["dead code", "npx", ["knip", "--no-progress"]]);
}
// Side by side (each mostly one core). ESLint takes longest (type-aware: its own TypeScript
// program), a minute alone after the others: vitest starts beside it instead of waiting.
const longest = gates.filter(([name]) => name === "lint").map(start);
for (const r of await Promise.all(gates.filter(([name]) => name !== "lint").map(start))) report(r);

if (wants("unit")) {
  const file = path.join(out, "vitest.json");
  run("vitest", "npx", ["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${file}`]);
  if (existsSync(file)) {
    const r = JSON.parse(readFileSync(file, "utf8"));
    totals.passed += r.numPassedTests ?? 0;
    totals.failed += r.numFailedTests ?? 0;
    totals.skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  }
}

for (const r of await Promise.all(longest)) report(r);

if (wants("e2e")) {
  const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  if (!existsSync(chromium)) {
    console.log("Chromium is missing: installing Debian's chromium package");
    spawnSync("bash", ["-c", "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium"], {
      stdio: "inherit",
    });
  }
  const file = path.join(out, "playwright.json");
  run("e2e (playwright)", "npx", ["playwright", "test", "--reporter=list,json"], { PLAYWRIGHT_JSON_OUTPUT_NAME: file });
  if (existsSync(file)) {
    const r = JSON.parse(readFileSync(file, "utf8"));
    totals.passed += (r.stats?.expected ?? 0) + (r.stats?.flaky ?? 0);
    totals.failed += r.stats?.unexpected ?? 0;
    totals.skipped += r.stats?.skipped ?? 0;
  }
}

console.log("");
if (failedSteps.length > 0) console.log(`Failed steps: ${failedSteps.join(", ")}`);
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failedSteps.length > 0 || totals.failed > 0 ? 1 : 0);
