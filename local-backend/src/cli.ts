/**
 * local-backend command line.
 *
 *   tsx local-backend/src/cli.ts [--functions convex] [--data .local-backend] [--port 3210]
 *        [--site-port <port+1>] [--host 127.0.0.1] [--reset] [--watch] [--no-scheduler]
 *        [--admin-key KEY] [--quiet] [--allowed-origins URL,URL] [--trust-proxy]
 *        [--max-upload-bytes N] [--max-concurrent-uploads N] [--relax-limits]
 *   tsx local-backend/src/cli.ts env set NAME VALUE | env list | env remove NAME   [--data …]
 *   tsx local-backend/src/cli.ts export --out file.jsonl | import --in file.jsonl  [--data …]
 *
 * When serving, exactly one line `local-backend ready: cloud=<url> site=<url>` is printed once
 * both ports accept connections (scripts and tests wait for it). Function log lines are printed
 * on stdout as `<path> [LOG] <message>`; `--quiet` silences them.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { parseArgs } from "node:util";
import type { Engine } from "./engine-api.js";
import { createEngine } from "./engine.js";
import { startBackend } from "./server.js";

const USAGE = `usage:
  cli.ts [--functions DIR] [--data DIR] [--port N] [--site-port N] [--host H] [--reset] [--watch]
         [--no-scheduler] [--admin-key KEY] [--quiet]
         [--allowed-origins URL,URL] [--trust-proxy] [--max-upload-bytes N[KiB|MiB|GiB]]
         [--max-concurrent-uploads N] [--relax-limits]
  cli.ts env set NAME VALUE | env list | env remove NAME   [--data DIR] [--functions DIR]
  cli.ts export --out FILE.jsonl | import --in FILE.jsonl   [--data DIR] [--functions DIR]`;

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

function parse() {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        functions: { type: "string", default: "convex" },
        data: { type: "string", default: ".local-backend" },
        port: { type: "string", default: "3210" },
        "site-port": { type: "string" },
        host: { type: "string", default: "127.0.0.1" },
        reset: { type: "boolean", default: false },
        watch: { type: "boolean", default: false },
        "no-scheduler": { type: "boolean", default: false },
        "admin-key": { type: "string" },
        quiet: { type: "boolean", default: false },
        "allowed-origins": { type: "string" },
        "trust-proxy": { type: "boolean", default: false },
        "max-upload-bytes": { type: "string" },
        "max-concurrent-uploads": { type: "string" },
        // benchmarks only: queries and mutations are not held to Convex's limits
        "relax-limits": { type: "boolean", default: false },
        out: { type: "string" },
        in: { type: "string" },
        help: { type: "boolean", short: "h", default: false },
      },
    });
  } catch (e) {
    fail(`${e instanceof Error ? e.message : String(e)}\n${USAGE}`);
  }
}

function parsePort(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) fail(`${flag} must be a port number, got ${value}`);
  return n;
}

/** `104857600`, `100MiB`, `100M`, `512KiB`, `1GiB` → bytes. */
function parseBytes(value: string, flag: string): number {
  const m = /^\s*(\d+)\s*(?:(k|m|g)(?:i?b)?|b)?\s*$/i.exec(value);
  if (!m) fail(`${flag} must be a byte count such as 104857600 or 100MiB, got ${value}`);
  const scale = { k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[(m[2] ?? "").toLowerCase()] ?? 1;
  const n = Number(m[1]) * scale;
  if (!Number.isSafeInteger(n) || n <= 0) fail(`${flag} must be a positive byte count, got ${value}`);
  return n;
}

function parsePositiveInt(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) fail(`${flag} must be a positive integer, got ${value}`);
  return n;
}

/** `--allowed-origins a,b` (or LOCAL_BACKEND_ALLOWED_ORIGINS): origins given CORS credentials. */
function parseOrigins(value: string | undefined): string[] {
  if (value === undefined) return [];
  const origins = value
    .split(",")
    .map((o) => o.trim())
    .filter((o) => o !== "");
  for (const o of origins) {
    let ok = false;
    try {
      ok = new URL(o).origin !== "null";
    } catch {
      ok = false;
    }
    if (!ok) fail(`--allowed-origins: not an origin (scheme://host[:port]): ${o}`);
  }
  return origins;
}

/** `--reset` deletes a directory tree; refuse anything that is obviously not a data dir. */
function resetDataDir(dir: string): void {
  const resolved = path.resolve(dir);
  const forbidden = new Set([path.parse(resolved).root, os.homedir(), process.cwd()]);
  if (forbidden.has(resolved)) fail(`refusing to --reset ${resolved}`);
  fs.rmSync(resolved, { recursive: true, force: true });
}

/** An engine on the data dir for offline commands (no ports, no scheduler). */
async function offlineEngine(functionsDir: string, dataDir: string): Promise<Engine> {
  const engine = createEngine({
    functionsDir: path.resolve(functionsDir),
    dataDir: path.resolve(dataDir),
    cloudUrl: "http://127.0.0.1:3210",
    siteUrl: "http://127.0.0.1:3211",
    scheduler: false,
    log: (line) => process.stderr.write(`${line}\n`),
  });
  await engine.start();
  return engine;
}

async function envCommand(args: string[], functionsDir: string, dataDir: string): Promise<void> {
  const [sub, name, value] = args;
  const engine = await offlineEngine(functionsDir, dataDir);
  try {
    switch (sub) {
      case "set":
        if (!name || value === undefined) fail("usage: env set NAME VALUE");
        engine.env.set(name, value);
        process.stdout.write(`Successfully set ${name}\n`);
        break;
      case "list":
        for (const [k, v] of Object.entries(engine.env.list())) process.stdout.write(`${k}=${v}\n`);
        break;
      case "remove":
      case "unset":
        if (!name) fail("usage: env remove NAME");
        engine.env.remove(name);
        process.stdout.write(`Successfully unset ${name}\n`);
        break;
      default:
        fail(USAGE);
    }
  } finally {
    await engine.stop();
  }
}

async function exportCommand(out: string | undefined, functionsDir: string, dataDir: string): Promise<void> {
  if (!out) fail("usage: export --out FILE.jsonl");
  const engine = await offlineEngine(functionsDir, dataDir);
  try {
    const tmp = `${out}.tmp-${process.pid}`;
    const stream = fs.createWriteStream(tmp);
    let n = 0;
    for await (const line of engine.exportJsonl()) {
      if (!stream.write(line.endsWith("\n") ? line : `${line}\n`)) {
        await new Promise<void>((r) => stream.once("drain", r));
      }
      n++;
    }
    await new Promise<void>((resolve, reject) => stream.end((e?: Error | null) => (e ? reject(e) : resolve())));
    // rename last so a failed export never leaves a truncated file under the requested name
    fs.renameSync(tmp, out);
    process.stdout.write(`Exported ${n} lines to ${out}\n`);
  } finally {
    await engine.stop();
  }
}

async function importCommand(input: string | undefined, functionsDir: string, dataDir: string): Promise<void> {
  if (!input) fail("usage: import --in FILE.jsonl");
  if (!fs.existsSync(input)) fail(`no such file: ${input}`);
  const engine = await offlineEngine(functionsDir, dataDir);
  try {
    const rl = readline.createInterface({ input: fs.createReadStream(input), crlfDelay: Infinity });
    async function* lines() {
      for await (const line of rl) if (line.trim() !== "") yield line;
    }
    const n = await engine.importJsonl(lines());
    process.stdout.write(`Imported ${n} documents from ${input}\n`);
  } finally {
    await engine.stop();
  }
}

async function serve(values: ReturnType<typeof parse>["values"]): Promise<void> {
  const dataDir = path.resolve(values.data);
  const functionsDir = path.resolve(values.functions);
  if (!fs.existsSync(functionsDir)) fail(`functions directory not found: ${functionsDir}`);
  if (values.reset) resetDataDir(dataDir);
  const port = parsePort(values.port, "--port");
  const sitePort = values["site-port"] !== undefined ? parsePort(values["site-port"], "--site-port") : undefined;
  const quiet = values.quiet;
  const backend = await startBackend({
    functionsDir,
    dataDir,
    port,
    sitePort,
    host: values.host,
    watch: values.watch,
    scheduler: !values["no-scheduler"],
    adminKey: values["admin-key"],
    allowedOrigins: parseOrigins(values["allowed-origins"] ?? process.env.LOCAL_BACKEND_ALLOWED_ORIGINS),
    trustProxy: values["trust-proxy"],
    relaxLimits: values["relax-limits"],
    maxUploadBytes:
      values["max-upload-bytes"] !== undefined
        ? parseBytes(values["max-upload-bytes"], "--max-upload-bytes")
        : undefined,
    maxConcurrentUploads:
      values["max-concurrent-uploads"] !== undefined
        ? parsePositiveInt(values["max-concurrent-uploads"], "--max-concurrent-uploads")
        : undefined,
    // The engine reports function console output as `<path> [LOG] …` (scheduled jobs and crons
    // included) together with its own notices; all of it goes to stdout like `npx convex dev`.
    log: quiet ? undefined : (line) => process.stdout.write(`${line}\n`),
  });
  process.stdout.write(`local-backend ready: cloud=${backend.cloudUrl} site=${backend.siteUrl}\n`);

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) {
      // a second signal means "now"
      process.exit(1);
    }
    stopping = true;
    process.stderr.write(`local-backend: ${signal}, stopping\n`);
    backend.stop().then(
      () => process.exit(0),
      (e: unknown) => {
        process.stderr.write(`local-backend: error while stopping: ${String(e)}\n`);
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}

async function main(): Promise<void> {
  const { values, positionals } = parse();
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const [command, ...rest] = positionals;
  switch (command) {
    case undefined:
    case "serve":
    case "dev":
      return serve(values);
    case "env":
      return envCommand(rest, values.functions, values.data);
    case "export":
      return exportCommand(values.out ?? rest[0], values.functions, values.data);
    case "import":
      return importCommand(values.in ?? rest[0], values.functions, values.data);
    default:
      fail(`unknown command ${command}\n${USAGE}`);
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`local-backend: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
