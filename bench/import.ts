/**
 * Import benchmark (`npm run bench:import`). Generates realistic voter files (faker; NC-style
 * layout, 67 columns) of 100k and 1M rows, starts a fresh embedded backend on the app's convex/
 * folder in a temp dir, signs up a campaign manager, and imports each file through the SAME
 * client code path as the browser: file-backed Blob → encoding detection → papaparse streaming →
 * runImport → imports.appendBatch over a Convex client. The backend runs in a child process so the
 * client's and the backend's peak RSS are measured separately. Prints rows/s end to end, the
 * final counts and how busy the backend's main thread was (it runs the mutations; a writer thread
 * stores each committed batch meanwhile) and the database's size per voter. Rows are matched to
 * existing voters by the state voter ID (the standard rule). Goals: ≥ 10,000 rows/s sustained;
 * client memory < 500 MB.
 *
 *   BENCH_ROWS=100000,5000000   row counts (default both; each file is imported into the same organisation)
 *   BENCH_BATCH=1000            the most rows per appendBatch (default: the runner's, as in the browser)
 *   BENCH_KEEP=1                keep the temp dir (its data/ is the database) for a closer look
 *   BENCH_LOG_MS=1000           log the progress this often (default every 10 s)
 *   BENCH_PROFILE=dir           write CPU profiles of the backend's threads there
 */
import Database from "better-sqlite3";
import { fork, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { ConvexClient, ConvexHttpClient } from "convex/browser";
import WebSocket from "ws";
import { api } from "../convex/_generated/api";
import { startBackend } from "../local-backend/src/server";
import { configureBackendEnv, signInTicket } from "../scripts/backend-env";
import { formatTransactionStats } from "./txStats";
import { speedIndex, speedIndexLine } from "./speedIndex";
import { backendExecArgv } from "./backendProcess";
import type { ImportTransport } from "../src/lib/import/runner";
import { importVoterFile, writeVoterFile } from "./voterFile";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SIZES = (process.env.BENCH_ROWS ?? "100000,5000000").split(",").map(Number);
const BATCH = process.env.BENCH_BATCH ? Number(process.env.BENCH_BATCH) : undefined;
const mb = (b: number) => `${(b / 1048576).toFixed(0)} MB`;

let peakRss = 0;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 100);

function dirBytes(dir: string): number {
  let total = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    total += e.isDirectory() ? dirBytes(p) : fs.statSync(p).size;
  }
  return total;
}

/**
 * Where the database's bytes go: SQLite's pages per table and index (dbstat), and within the one
 * index-entry table the entries and key bytes of each index. Read from a second, read-only
 * connection while the backend runs (WAL mode lets it).
 */
function diskBreakdown(dataDir: string, voters: number): string {
  const db = new Database(path.join(dataDir, "db.sqlite3"), { readonly: true, fileMustExist: true });
  try {
    const per = (bytes: number) =>
      voters
        ? `${Math.round(bytes / voters)
            .toLocaleString()
            .padStart(6)} B/voter`
        : "";
    const lines: string[] = [];
    const pages = db
      .prepare("SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY bytes DESC")
      .all() as { name: string; bytes: number }[];
    for (const r of pages.filter((r) => r.bytes >= 1 << 20))
      lines.push(`${r.name.padEnd(34)} ${mb(r.bytes).padStart(9)}  ${per(r.bytes)}`);
    const wal = path.join(dataDir, "db.sqlite3-wal");
    if (fs.existsSync(wal))
      lines.push(
        `${"(write-ahead log)".padEnd(34)} ${mb(fs.statSync(wal).size).padStart(9)}  ${per(fs.statSync(wal).size)}`,
      );
    const entries = db
      .prepare(
        // an entry stored in a part (index-parts.ts) is counted with its index; its key there omits the first value
        `SELECT x.tbl || '.' || x.name AS name, COUNT(*) AS n, SUM(LENGTH(e.k)) AS key
         FROM (SELECT CASE WHEN i < 0 THEN (SELECT parts.i FROM parts WHERE parts.p = -idx.i) ELSE i END AS ix, k FROM idx) e
         JOIN indexes x ON x.id = e.ix GROUP BY e.ix ORDER BY key DESC`,
      )
      .all() as { name: string; n: number; key: number }[];
    for (const r of entries.filter((r) => r.key >= 1 << 20))
      lines.push(
        `  idx ${r.name.padEnd(30)} ${r.n.toLocaleString().padStart(9)} entries, keys ${mb(r.key)}  ${per(r.key)}`,
      );
    const docs = db
      .prepare(
        "SELECT t.name AS name, COUNT(*) AS n, SUM(LENGTH(d.json)) AS bytes FROM documents d JOIN tables t ON t.number = d.tbl GROUP BY d.tbl ORDER BY bytes DESC",
      )
      .all() as { name: string; n: number; bytes: number }[];
    for (const r of docs.filter((r) => r.bytes >= 1 << 20))
      lines.push(
        `  documents ${r.name.padEnd(24)} ${r.n.toLocaleString().padStart(9)} rows, JSON ${mb(r.bytes)}  ${per(r.bytes)}`,
      );
    return lines.join("\n");
  } finally {
    db.close();
  }
}

type ThreadCpu = { engineMs: number; kernelMs: number };
/**
 * From Linux's per-thread accounting (/proc/self/task/<tid>/stat, clock ticks of 10 ms): CPU time
 * of this process's main thread (the engine), and kernel time over all its threads; null
 * elsewhere. Beside the event loop's busy time it tells CPU used from time spent waiting for a core.
 */
function threadCpu(): ThreadCpu | null {
  try {
    let kernel = 0;
    let engine = 0;
    for (const tid of fs.readdirSync("/proc/self/task")) {
      let stat: string;
      try {
        stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
      } catch {
        continue; // a thread that just ended
      }
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const [user, sys] = [Number(f[11]) * 10, Number(f[12]) * 10];
      kernel += sys;
      if (Number(tid) === process.pid) engine = user + sys;
    }
    return { engineMs: engine, kernelMs: kernel };
  } catch {
    return null;
  }
}

/** Child process: the embedded backend, reporting its peak RSS and main-thread busy time on request. */
async function backendRole() {
  let peak = 0;
  setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 100).unref();
  let since = performance.eventLoopUtilization();
  let cpuSince = process.cpuUsage();
  let threadsSince = threadCpu();
  const backend = await startBackend({
    functionsDir: path.join(root, "convex"),
    dataDir: process.env.BENCH_DATA!,
    port: 0,
  });
  await configureBackendEnv(backend.engine, { siteUrl: "http://127.0.0.1:1" });
  process.on("message", (m: { type: string }) => {
    if (m.type === "rss") {
      const elu = performance.eventLoopUtilization(since);
      since = performance.eventLoopUtilization();
      const cpu = process.cpuUsage(cpuSince);
      cpuSince = process.cpuUsage();
      const threads = threadCpu();
      const delta =
        threads && threadsSince
          ? { engineMs: threads.engineMs - threadsSince.engineMs, kernelMs: threads.kernelMs - threadsSince.kernelMs }
          : null;
      threadsSince = threads;
      process.send!({
        type: "rss",
        peak,
        rss: process.memoryUsage().rss,
        busyMs: elu.active,
        cpuMs: (cpu.user + cpu.system) / 1000,
        threads: delta,
      });
      peak = process.memoryUsage().rss;
    } else if (m.type === "stats") {
      process.send!({ type: "stats", text: formatTransactionStats(backend.engine.transactionStats({ reset: true })) });
    } else if (m.type === "stop") {
      void backend.stop().then(() => process.exit(0));
    }
  });
  process.send!({ type: "ready", url: backend.cloudUrl, siteUrl: backend.siteUrl });
}

let mutationMs = 0;
/** rows of each appendBatch sent (the client sizes them by the server's time, batchSizer.ts) */
let batchRows: number[] = [];
let activeBatches = 0;
let activeSince = 0;
/**
 * Wraps the transport to separate server time from client time: `mutationMs` is the wall time
 * during which at least one appendBatch was in flight (batches are pipelined, so round trips overlap).
 */
function timed(t: ImportTransport): ImportTransport {
  return {
    ...t,
    appendBatch: async (a) => {
      batchRows.push(a.rows.length);
      if (activeBatches++ === 0) activeSince = performance.now();
      try {
        return await t.appendBatch(a);
      } finally {
        if (--activeBatches === 0) mutationMs += performance.now() - activeSince;
      }
    },
  };
}

function ask<T>(child: ChildProcess, type: string): Promise<T> {
  return new Promise((resolve) => {
    child.once("message", (m) => resolve(m as T));
    child.send({ type });
  });
}

async function main() {
  console.log(speedIndexLine());
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "precinct-bench-import-"));
  console.log(
    `import bench  dir=${dir}  node ${process.version}  ${os.cpus()[0]?.model ?? ""}  batch=${BATCH ?? "the runner's"}`,
  );
  const files: Record<number, string> = {};
  for (const n of SIZES) {
    const t0 = performance.now();
    files[n] = path.join(dir, `voters-${n}.csv`);
    // in a process of its own: the generator's garbage is not the import client's memory
    const gen = fork(fileURLToPath(import.meta.url), [], {
      env: { ...process.env, BENCH_ROLE: "generate", BENCH_FILE: files[n], BENCH_N: String(n) },
    });
    const code = await new Promise<number | null>((resolve) => gen.once("exit", resolve));
    if (code !== 0) throw new Error(`generating the voter file failed (exit ${code})`);
    console.log(
      `generated ${n.toLocaleString()} rows (${mb(fs.statSync(files[n]).size)}) in ${((performance.now() - t0) / 1000).toFixed(1)}s`,
    );
  }
  const execArgv = process.env.BENCH_PROFILE
    ? [...backendExecArgv(), "--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_PROFILE}`]
    : backendExecArgv();
  const child = fork(fileURLToPath(import.meta.url), [], {
    execArgv,
    env: { ...process.env, BENCH_ROLE: "backend", BENCH_DATA: path.join(dir, "data") },
  });
  const ready = await new Promise<{ url: string; siteUrl: string }>((resolve, reject) => {
    child.once("message", (m) => resolve(m as { url: string; siteUrl: string }));
    child.once("exit", (code) => reject(new Error(`backend exited with ${code}`)));
  });
  const client = new ConvexHttpClient(ready.url, { logger: false });
  const signed = (await client.action(api.auth.signIn, {
    provider: "password",
    params: {
      flow: "signUp",
      email: "bench@example.org",
      password: "correct-horse-42",
      firstName: "Bench",
      lastName: "Runner",
      ticket: await signInTicket(ready.siteUrl),
    },
  })) as { tokens?: { token: string } | null };
  if (!signed.tokens) throw new Error("sign-up did not return tokens");
  client.setAuth(signed.tokens.token);
  // The import itself goes over the WebSocket client, as in the browser (ConvexReactClient):
  // one client's mutations are applied in order, which lets batches be pipelined.
  const token = signed.tokens.token;
  const socket = new ConvexClient(ready.url, {
    webSocketConstructor: WebSocket as unknown as typeof globalThis.WebSocket,
    logger: false,
  });
  socket.setAuth(async () => token);
  let storedVoters = 0;
  try {
    for (const n of SIZES) {
      peakRss = process.memoryUsage().rss;
      const rssStart = peakRss;
      await ask(child, "rss");
      const clientCpu = process.cpuUsage();
      const t0 = performance.now();
      let lastLog = t0;
      const result = await importVoterFile(socket, files[n], {
        batchSize: BATCH,
        wrap: timed,
        onProgress: (p) => {
          const now = performance.now();
          if (now - lastLog > Number(process.env.BENCH_LOG_MS ?? 10_000)) {
            lastLog = now;
            console.log(
              `  … ${p.processed.toLocaleString()} rows, ${(p.processed / ((now - t0) / 1000)).toFixed(0)} rows/s, rss ${mb(process.memoryUsage().rss)}`,
            );
          }
        },
      });
      const secs = (performance.now() - t0) / 1000;
      const serverSecs = mutationMs / 1000;
      mutationMs = 0;
      const sizes = [...batchRows].sort((a, b) => a - b);
      batchRows = [];
      const doc = await client.query(api.imports.get, { importId: result.importId });
      console.log(
        `${n.toLocaleString()} rows: ${secs.toFixed(1)}s end to end, ${(n / secs).toFixed(0)} rows/s  ` +
          `imported ${doc?.imported_records.toLocaleString()} duplicates ${doc?.duplicate_records.toLocaleString()} errors ${doc?.failed_records.toLocaleString()}  ` +
          `status ${doc?.status}  (appendBatch in flight ${serverSecs.toFixed(1)}s)`,
      );
      console.log(
        `  ${sizes.length.toLocaleString()} batches, rows per batch: median ${sizes[sizes.length >> 1]}, min ${sizes[0]}, max ${sizes[sizes.length - 1]}`,
      );
      const clientCpuMs = ((c) => (c.user + c.system) / 1000)(process.cpuUsage(clientCpu));
      const be = await ask<{ peak: number; rss: number; busyMs: number; cpuMs: number; threads: ThreadCpu | null }>(
        child,
        "rss",
      );
      console.log((await ask<{ text: string }>(child, "stats")).text.replace(/^/gm, "  "));
      console.log(
        `  memory: client peak RSS ${mb(peakRss)} (at start ${mb(rssStart)}), backend peak RSS ${mb(be.peak)}`,
      );
      console.log(
        `  backend main thread busy ${(be.busyMs / 1000).toFixed(1)}s of ${secs.toFixed(1)}s (${((be.busyMs / 1000 / secs) * 100).toFixed(0)}%)`,
      );
      // CPU per row is steadier than the rate when other work shares the machine: the rate needs
      // (backend + client) ≤ 200 µs a row for 10,000 rows/s on two cores, and the engine's thread,
      // which runs every mutation, at most one core
      const perRow = (ms: number) => `${((ms * 1000) / n).toFixed(0)} µs/row`;
      const cores = os.availableParallelism();
      const ceiling = Math.min(
        (cores * n) / ((be.cpuMs + clientCpuMs) / 1000),
        be.threads ? n / (be.threads.engineMs / 1000) : Infinity,
      );
      console.log(
        `  CPU: backend ${perRow(be.cpuMs)} (every thread: engine, writer, checkpoints, GC), client ${perRow(clientCpuMs)}; ` +
          `at this CPU ${cores} cores allow at most ${Math.round(ceiling).toLocaleString()} rows/s` +
          (be.threads
            ? `\n  backend CPU by thread: engine ${perRow(be.threads.engineMs)}, the others ${perRow(be.cpuMs - be.threads.engineMs)}; in the kernel ${perRow(be.threads.kernelMs)}`
            : ""),
      );
      // the machine's speed drifts (other tenants): measured again right after, beside the first
      console.log(`  machine speed index right after the import: ${speedIndex()}`);
      storedVoters += doc?.imported_records ?? 0;
      const stored = storedVoters;
      // At rest: once the work an import starts afterwards (its voters' district assignment) is
      // done, the checkpoint thread cuts the burst's write-ahead log after an idle turn (500 ms).
      const restStart = performance.now();
      while (performance.now() - restStart < 600_000) {
        const run = (await client.query(api.districts.overview, {})).run;
        if (run?.status !== "running") break;
        await new Promise((r) => setTimeout(r, 1000));
      }
      const assigned = performance.now() - restStart;
      const wal = path.join(dir, "data", "db.sqlite3-wal");
      const walBytes = () => (fs.existsSync(wal) ? fs.statSync(wal).size : 0);
      await new Promise((r) => setTimeout(r, 1500));
      while (walBytes() > 16 * 1048576 && performance.now() - restStart < 720_000)
        await new Promise((r) => setTimeout(r, 250));
      console.log(
        `  at rest after ${((performance.now() - restStart) / 1000).toFixed(1)}s (district assignment ${(assigned / 1000).toFixed(1)}s; write-ahead log ${mb(walBytes())})`,
      );
      const bytes = dirBytes(path.join(dir, "data"));
      console.log(
        `  database: ${mb(bytes)} on disk for ${stored.toLocaleString()} voters (${stored ? Math.round(bytes / stored).toLocaleString() : "?"} bytes per voter: indexes, import records and district memberships included)`,
      );
      console.log(diskBreakdown(path.join(dir, "data"), stored).replace(/^/gm, "    "));
    }
  } finally {
    clearInterval(sampler);
    await socket.close();
    child.send({ type: "stop" });
    await new Promise((r) => child.once("exit", r));
    if (process.env.BENCH_KEEP) console.log(`  kept: ${dir}`);
    else fs.rmSync(dir, { recursive: true, force: true });
  }
}

const role = process.env.BENCH_ROLE;
void (
  role === "backend"
    ? backendRole()
    : role === "generate"
      ? writeVoterFile(process.env.BENCH_FILE!, Number(process.env.BENCH_N)).then(() => process.exit(0))
      : main()
).catch((e) => {
  console.error(e);
  process.exit(1);
});
