#!/usr/bin/env node
/**
 * `npm test`: every gate — typecheck, lint (with the layering rule), formatting (prettier --check),
 * dead code (knip: no unused file, export, type or dependency), the import-cycle check and the
 * deployability check (convex/ bundled as `npx convex deploy` does; it also refuses a public
 * function without a `returns` validator), side by side; then
 * unit/function/backend tests (vitest), then
 * Playwright e2e in Debian's Chromium against the app on the embedded backend. Ends with one
 * "N passed, N failed" line summing vitest and Playwright.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
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

/** Runs the steps side by side (each mostly one core), printing each one's output once it ends. */
async function runTogether(steps) {
  await Promise.all(
    steps.map(
      ([name, cmd, args]) =>
        new Promise((resolve) => {
          const child = spawn(cmd, args, { stdio: ["ignore", "pipe", "pipe"] });
          const chunks = [];
          child.stdout.on("data", (c) => chunks.push(c));
          child.stderr.on("data", (c) => chunks.push(c));
          child.on("close", (status) => {
            console.log(`\n▶ ${name}: ${cmd} ${args.join(" ")}`);
            process.stdout.write(Buffer.concat(chunks));
            if (status !== 0) failedSteps.push(name);
            resolve();
          });
        }),
    ),
  );
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
await runTogether(gates);

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
