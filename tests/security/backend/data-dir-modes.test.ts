/**
 * The data directory holds env.json (Convex Auth's JWT private key, the demo mailbox key, provider
 * credentials): the directory is its owner's only (0700) and env.json is written 0600. A data
 * directory an older version left world-readable is tightened when the backend starts.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startFixture, tempDir } from "../../local-backend/protocol/helpers";

const mode = (p: string) => fs.statSync(p).mode & 0o777;
const running: Array<{ stop(): Promise<void>; dataDir: string }> = [];

afterEach(async () => {
  for (const b of running.splice(0)) {
    await b.stop();
    fs.rmSync(b.dataDir, { recursive: true, force: true });
  }
});

describe.skipIf(process.platform === "win32")("data directory modes", () => {
  it("a new data directory is 0700 and env.json is written 0600", async () => {
    const dataDir = path.join(tempDir(), "data");
    const backend = await startFixture({ dataDir });
    running.push(backend);
    backend.engine.env.set("JWT_PRIVATE_KEY", "-----BEGIN PRIVATE KEY----- secret -----END PRIVATE KEY-----");
    expect(mode(dataDir)).toBe(0o700);
    expect(mode(path.join(dataDir, "env.json"))).toBe(0o600);
    // every later write keeps it so
    backend.engine.env.set("DEV_MAILBOX_KEY", "mailbox-secret");
    backend.engine.env.remove("DEV_MAILBOX_KEY");
    expect(mode(path.join(dataDir, "env.json"))).toBe(0o600);
    expect(fs.readdirSync(dataDir).filter((f) => f.startsWith("env.json."))).toEqual([]);
  });

  it("tightens a world-readable data directory and env.json on start", async () => {
    const dataDir = tempDir();
    const env = path.join(dataDir, "env.json");
    fs.writeFileSync(env, JSON.stringify({ JWT_PRIVATE_KEY: "secret" }));
    fs.chmodSync(env, 0o644);
    fs.chmodSync(dataDir, 0o755);
    const backend = await startFixture({ dataDir });
    running.push(backend);
    expect(mode(dataDir)).toBe(0o700);
    expect(mode(env)).toBe(0o600);
    // and the variables are still there
    expect(backend.engine.env.list()).toEqual({ JWT_PRIVATE_KEY: "secret" });
  });

  it("a write over a world-readable leftover temp file is still 0600", async () => {
    const dataDir = tempDir();
    fs.writeFileSync(path.join(dataDir, "env.json.tmp"), "{}");
    fs.chmodSync(path.join(dataDir, "env.json.tmp"), 0o666);
    const backend = await startFixture({ dataDir });
    running.push(backend);
    backend.engine.env.set("RESEND_API_KEY", "re_secret");
    expect(mode(path.join(dataDir, "env.json"))).toBe(0o600);
  });
});
