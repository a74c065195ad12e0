#!/usr/bin/env node
/**
 * `npm test`: every gate in order — typecheck, lint (with the layering rule), the import-cycle
 * check and the deployability check (convex/ bundled as `npx convex deploy` does),
 * unit/function/backend tests (vitest), then
 * Playwright e2e in Debian's Chromium against the app on the embedded backend. Ends with one
 * "N passed, N failed" line summing vitest and Playwright.
 */
import { spawnSync } from "node:child_process";
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

if (wants("typecheck")) {
  run("typecheck (app)", "npx", ["tsc", "-p", "tsconfig.json", "--noEmit"]);
  run("typecheck (convex)", "npx", ["tsc", "-p", "convex/tsconfig.json", "--noEmit"]);
}
if (wants("lint")) {
  run("lint", "npx", ["eslint", ".", "--max-warnings=0"]);
  run("import cycles", "npx", ["tsx", "scripts/check-cycles.ts"]);
  run("deployability", "npx", ["tsx", "scripts/check-deployable.ts"]);
}

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
    spawnSync("bash", ["-c", "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium"], { stdio: "inherit" });
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
