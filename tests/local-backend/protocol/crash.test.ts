/**
 * Crash safety: the CLI runs as a child process, mutations stream in, the process is SIGKILLed
 * mid-stream, and after a restart on the same data dir every acknowledged mutation is present
 * and none is half-applied (each mutation writes a pair of documents).
 */
import Database from "better-sqlite3";
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { anyApi } from "convex/server";
import { ConvexHttpClient } from "convex/browser";
import { FIXTURE_DIR, REPO_ROOT, tempDir } from "./helpers";

const CLI = path.join(REPO_ROOT, "local-backend", "src", "cli.ts");

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
});

/**
 * Spawn the CLI on a free port and wait for its ready line. Node itself with tsx's loader, not the
 * `tsx` wrapper: a signal to the wrapper would leave the backend running.
 */
function spawnBackend(dataDir: string): Promise<{ child: ChildProcess; cloud: string; stdout: () => string }> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", CLI, "--functions", FIXTURE_DIR, "--data", dataDir, "--port", "0"],
    {
      cwd: REPO_ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  children.push(child);
  let out = "";
  let err = "";
  return new Promise((resolve, reject) => {
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      const m = /local-backend ready: cloud=(\S+) site=(\S+)/.exec(out);
      if (m) resolve({ child, cloud: m[1], stdout: () => out });
    });
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.once("exit", (code) => reject(new Error(`backend exited (${code}) before ready:\n${err}`)));
  });
}

describe("crash safety", () => {
  it("keeps every acknowledged mutation and no partial one after SIGKILL", async () => {
    const dataDir = tempDir();
    const first = await spawnBackend(dataDir);
    expect(
      first
        .stdout()
        .trim()
        .split("\n")
        .filter((l) => l.startsWith("local-backend ready")),
    ).toHaveLength(1);

    const acknowledged: number[] = [];
    const killAfter = 40;
    let killed = false;
    const writers = Array.from({ length: 4 }, (_, w) =>
      (async () => {
        const client = new ConvexHttpClient(first.cloud, { logger: false });
        for (let i = 0; i < 1000 && !killed; i++) {
          const n = w * 10_000 + i;
          try {
            await client.mutation(anyApi.protocol.misc.insertPair, { channel: "crash", n });
            acknowledged.push(n);
            if (acknowledged.length === killAfter && !killed) {
              killed = true;
              first.child.kill("SIGKILL"); // other writers still have mutations in flight
            }
          } catch {
            return; // the process is gone
          }
        }
      })(),
    );
    await Promise.all(writers);
    await new Promise<void>((r) =>
      first.child.exitCode !== null || first.child.signalCode !== null ? r() : first.child.once("exit", () => r()),
    );
    expect(first.child.signalCode).toBe("SIGKILL");

    const second = await spawnBackend(dataDir);
    const client = new ConvexHttpClient(second.cloud, { logger: false });
    const bodies: string[] = await client.query(anyApi.protocol.misc.allInChannel, { channel: "crash" });
    const present = new Set(bodies);
    for (const n of acknowledged) {
      expect(present.has(`${n}-a`) && present.has(`${n}-b`)).toBe(true);
    }
    // atomicity: every pair is complete
    for (const b of bodies) {
      const [n, half] = b.split("-");
      expect(present.has(`${n}-${half === "a" ? "b" : "a"}`)).toBe(true);
    }
    expect(acknowledged.length).toBeGreaterThanOrEqual(killAfter);

    // clean shutdown on SIGTERM
    const exited = new Promise<number | null>((r) => second.child.once("exit", (code) => r(code)));
    second.child.kill("SIGTERM");
    expect(await exited).toBe(0);
  });

  it("keeps a mutation acknowledged once journaled, although the kill came before the database had it", async () => {
    const dataDir = tempDir();
    const first = await spawnBackend(dataDir);
    const client = new ConvexHttpClient(first.cloud, { logger: false });
    await client.mutation(anyApi.protocol.misc.insertPair, { channel: "journal", n: 0 });
    const blocker = new Database(path.join(dataDir, "db.sqlite3"));
    const stored = () => blocker.prepare("SELECT count(*) AS c FROM documents WHERE json LIKE '%\"journal\"%'").get();
    // the writer applies the first pair (it may hold a batch back for a moment to group it with the next)
    for (let i = 0; i < 250 && (stored() as { c: number }).c < 2; i++) await new Promise((r) => setTimeout(r, 20));
    // another connection holds the database's write lock: the writer thread can apply nothing
    blocker.exec("BEGIN IMMEDIATE");
    try {
      for (let n = 1; n <= 5; n++)
        expect(await client.mutation(anyApi.protocol.misc.insertPair, { channel: "journal", n })).toBe(n);
      expect(stored()).toEqual({ c: 2 });
      first.child.kill("SIGKILL");
      await new Promise<void>((r) => first.child.once("exit", () => r()));
    } finally {
      blocker.exec("COMMIT");
      blocker.close();
    }
    const second = await spawnBackend(dataDir);
    const bodies: string[] = await new ConvexHttpClient(second.cloud, { logger: false }).query(
      anyApi.protocol.misc.allInChannel,
      { channel: "journal" },
    );
    expect(bodies.sort()).toEqual(["0-a", "0-b", "1-a", "1-b", "2-a", "2-b", "3-a", "3-b", "4-a", "4-b", "5-a", "5-b"]);
  });

  it("prints function log lines tagged with the function path", async () => {
    const dataDir = tempDir();
    const b = await spawnBackend(dataDir);
    const client = new ConvexHttpClient(b.cloud, { logger: false });
    await client.mutation(anyApi.protocol.misc.logSomething, { text: "tagged-line" });
    // stdout is a pipe: wait for the line rather than assuming it arrived with the response
    const pattern = /protocol\/misc:logSomething.*logged: tagged-line/;
    await new Promise<void>((resolve) => {
      const check = () => {
        if (pattern.test(b.stdout())) {
          b.child.stdout!.off("data", check);
          resolve();
        }
      };
      b.child.stdout!.on("data", check);
      check();
    });
    expect(b.stdout()).toMatch(pattern);
  });

  it("stays up when a function leaves a rejected promise nobody handles (Node would end the process)", async () => {
    const b = await spawnBackend(tempDir("lb-stray-"));
    const client = new ConvexHttpClient(b.cloud);
    expect(await client.query(anyApi.limits.strayQuick, {})).toBe(1);
    await new Promise((r) => setTimeout(r, 300));
    expect(b.child.exitCode).toBeNull();
    expect(await client.query(anyApi.limits.strayQuick, {})).toBe(1);
  });
});
