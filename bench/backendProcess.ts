/**
 * The node flags of a bench's forked backend: those of the process running it, with the young
 * generation `npm start` gives the backend (package.json's start script), so the backend is
 * measured as it runs. The bench's own process (the client) keeps its flags. BENCH_BACKEND_ARGS
 * adds flags for a closer look (e.g. "--trace-gc").
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export function backendExecArgv(): string[] {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: { start: string } };
  const semi = /--max-semi-space-size=\d+/.exec(pkg.scripts.start)?.[0];
  const rest = process.execArgv.filter((a) => !a.startsWith("--max-semi-space-size"));
  const extra = process.env.BENCH_BACKEND_ARGS?.split(" ").filter(Boolean) ?? [];
  return [...rest, ...(semi ? [semi] : []), ...extra];
}
