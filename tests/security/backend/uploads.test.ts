/**
 * Storage uploads (`POST /api/storage/upload?token=…`): the token is checked before a byte of the
 * body is read (a forged token cannot make the server receive, let alone buffer, a large body);
 * accepted bodies are streamed to a file, capped in size (413) and in number at once (503).
 *
 * "Not read" is shown without clocks: the client streams a body generated on the fly with
 * backpressure and stops as soon as a response arrives. A server that refuses up front answers
 * while the client has sent only what fits in socket buffers; one that reads first answers only
 * after the whole body.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anyApi } from "convex/server";
import { ConvexHttpClient } from "convex/browser";
import { startFixture } from "../../local-backend/protocol/helpers";

const MiB = 1024 * 1024;

type UploadResult = { status: number; body: string; headers: http.IncomingHttpHeaders; sent: number };

type UploadOptions = {
  /** bytes to send in total */
  total: number;
  /** declare `Content-Length: total` (default: chunked, the size is unknown to the server) */
  contentLength?: number;
  chunkSize?: number;
  /** wait for this before sending anything after the first chunk */
  hold?: Promise<void>;
  /** called once the server sent `100 Continue` (the request reached the handler) */
  onContinue?: () => void;
};

/**
 * POSTs a body generated on the fly, honouring backpressure, and stops sending once a response
 * arrives. `sent` is how much the client had handed to the socket by then.
 */
function streamUpload(url: string, opts: UploadOptions): Promise<UploadResult> {
  const chunk = Buffer.alloc(opts.chunkSize ?? 256 * 1024, 0x61);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { "Content-Type": "application/octet-stream" };
    if (opts.contentLength !== undefined) headers["Content-Length"] = String(opts.contentLength);
    if (opts.onContinue) headers.Expect = "100-continue";
    const req = http.request(url, { method: "POST", headers, agent: false });
    let sent = 0;
    let responded = false;
    let settled = false;
    const wake: Array<() => void> = [];
    const wakeAll = () => wake.splice(0).forEach((f) => f());
    req.on("response", (res) => {
      responded = true;
      wakeAll();
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (body += d));
      const done = () => {
        if (settled) return;
        settled = true;
        resolve({ status: res.statusCode ?? 0, body, headers: res.headers, sent });
        req.destroy();
      };
      res.on("end", done);
      res.on("close", done);
      res.on("error", done);
    });
    req.on("error", (e) => {
      wakeAll();
      if (!responded && !settled) {
        settled = true;
        reject(e);
      }
    });
    req.on("drain", wakeAll);
    const pump = async () => {
      while (sent < opts.total && !responded && !settled) {
        const n = Math.min(chunk.length, opts.total - sent);
        req.write(n === chunk.length ? chunk : chunk.subarray(0, n));
        sent += n;
        if (opts.hold && sent === n) await opts.hold;
        if (req.writableNeedDrain && !responded) await new Promise<void>((r) => wake.push(r));
      }
      if (!responded && !settled) req.end();
    };
    if (opts.onContinue) {
      req.on("continue", () => {
        opts.onContinue!();
        void pump();
      });
      req.flushHeaders();
    } else {
      void pump();
    }
  });
}

async function uploadUrl(backend: { cloudUrl: string }): Promise<string> {
  return await new ConvexHttpClient(backend.cloudUrl).mutation(anyApi.protocol.misc.generateUploadUrl, {});
}

function forgedUrl(backend: { cloudUrl: string }): string {
  const payload = Buffer.from(JSON.stringify({ exp: Date.now() + 3_600_000, n: "00" })).toString("base64url");
  return `${backend.cloudUrl}/api/storage/upload?token=${payload}.${Buffer.alloc(32).toString("base64url")}`;
}

function leftovers(dataDir: string): string[] {
  return fs.readdirSync(path.join(dataDir, "files")).filter((f) => f.startsWith("."));
}

async function storedCount(backend: { cloudUrl: string }): Promise<number> {
  const rows: unknown[] = await new ConvexHttpClient(backend.cloudUrl).query(anyApi.files.list, {});
  return rows.length;
}

describe("uploads with default limits", () => {
  let backend: Awaited<ReturnType<typeof startFixture>>;
  beforeAll(async () => {
    backend = await startFixture();
  });
  afterAll(async () => {
    await backend?.stop();
  });

  it.each([
    ["chunked", undefined],
    ["with Content-Length", 200 * MiB],
  ])("refuses a forged token before reading a 200 MB body (%s)", async (_name, contentLength) => {
    const total = 200 * MiB;
    const r = await streamUpload(forgedUrl(backend), { total, contentLength });
    // Convex's refusal: 401 StorageTokenInvalid
    expect(r.status).toBe(401);
    expect(r.body).toMatch(/StoreFileAuthorization token/i);
    // the answer came while the client was still sending: the body was not consumed
    expect(r.sent).toBeLessThan(total / 4);
    expect(leftovers(backend.dataDir)).toEqual([]);
    // and the backend still works
    expect(await storedCount(backend)).toBe(0);
  });

  it("refuses an upload without a token or with an expired token, also before reading", async () => {
    const none = await streamUpload(`${backend.cloudUrl}/api/storage/upload`, { total: 100 * MiB });
    expect(none.status).toBe(400);
    expect(none.sent).toBeLessThan(25 * MiB);
    const valid = new URL(await uploadUrl(backend));
    const [payload, mac] = valid.searchParams.get("token")!.split(".");
    const expired = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload, "base64url").toString()), exp: 1 }),
    ).toString("base64url");
    const r = await streamUpload(`${backend.cloudUrl}/api/storage/upload?token=${expired}.${mac}`, {
      total: 100 * MiB,
    });
    expect(r.status).toBe(401);
    expect(r.sent).toBeLessThan(25 * MiB);
  });

  it("answers a declared size over the default cap (100 MiB) with 413 at once", async () => {
    const r = await streamUpload(await uploadUrl(backend), { total: 150 * MiB, contentLength: 150 * MiB });
    expect(r.status).toBe(413);
    expect(JSON.parse(r.body).message).toMatch(/maximum upload size is 104857600 bytes = 100 MiB/);
    expect(r.sent).toBeLessThan((150 * MiB) / 4);
  });

  it("stores a valid streamed upload intact and leaves no temp file", async () => {
    const total = 20 * MiB + 123;
    const r = await streamUpload(await uploadUrl(backend), { total });
    expect(r.status).toBe(200);
    const { storageId } = JSON.parse(r.body) as { storageId: string };
    const meta: { size: number; sha256: string } = await new ConvexHttpClient(backend.cloudUrl).query(
      anyApi.files.meta,
      { storageId },
    );
    const expected = createHash("sha256");
    let left = total;
    const chunk = Buffer.alloc(256 * 1024, 0x61);
    while (left > 0) {
      const n = Math.min(chunk.length, left);
      expected.update(chunk.subarray(0, n));
      left -= n;
    }
    expect(meta).toMatchObject({ size: total, sha256: expected.digest("base64") });
    const served = await fetch(`${backend.cloudUrl}/api/storage/${storageId}`);
    expect(Number(served.headers.get("content-length"))).toBe(total);
    await served.arrayBuffer();
    expect(leftovers(backend.dataDir)).toEqual([]);
  });
});

describe("configured upload limits", () => {
  let backend: Awaited<ReturnType<typeof startFixture>>;
  beforeAll(async () => {
    backend = await startFixture({ maxUploadBytes: 1 * MiB, maxConcurrentUploads: 1 });
  });
  afterAll(async () => {
    await backend?.stop();
  });

  it("answers 413 with the limit for a declared size over the cap", async () => {
    const r = await streamUpload(await uploadUrl(backend), { total: 2 * MiB, contentLength: 2 * MiB });
    expect(r.status).toBe(413);
    expect(JSON.parse(r.body)).toMatchObject({ code: "PayloadTooLarge" });
    expect(JSON.parse(r.body).message).toMatch(/2097152 bytes; the maximum upload size is 1048576 bytes = 1 MiB/);
  });

  it("answers 413 once a chunked body goes over the cap, storing nothing", async () => {
    const before = await storedCount(backend);
    const r = await streamUpload(await uploadUrl(backend), { total: 64 * MiB, chunkSize: 64 * 1024 });
    expect(r.status).toBe(413);
    expect(JSON.parse(r.body).message).toMatch(/more than 1048576 bytes; the maximum upload size is 1048576 bytes/);
    expect(r.sent).toBeLessThan(16 * MiB);
    expect(await storedCount(backend)).toBe(before);
    expect(leftovers(backend.dataDir)).toEqual([]);
  });

  it("accepts an upload of exactly the cap", async () => {
    const r = await streamUpload(await uploadUrl(backend), { total: 1 * MiB });
    expect(r.status).toBe(200);
  });

  it("answers 503 to an upload beyond the concurrency cap, and accepts again once a slot frees", async () => {
    let release!: () => void;
    const hold = new Promise<void>((r) => (release = r));
    let accepted!: () => void;
    const inHandler = new Promise<void>((r) => (accepted = r));
    // first upload: reaches the handler (100 Continue), sends one chunk, then waits
    const first = streamUpload(await uploadUrl(backend), {
      total: 512 * 1024,
      chunkSize: 64 * 1024,
      hold,
      onContinue: accepted,
    });
    await inHandler;

    const second = await streamUpload(await uploadUrl(backend), { total: 1024 });
    expect(second.status).toBe(503);
    expect(JSON.parse(second.body)).toMatchObject({ code: "TooManyConcurrentUploads" });
    expect(JSON.parse(second.body).message).toMatch(/maximum is 1 at once/);
    expect(second.headers["retry-after"]).toBeDefined();

    release();
    expect((await first).status).toBe(200);
    const third = await streamUpload(await uploadUrl(backend), { total: 1024 });
    expect(third.status).toBe(200);
  });
});
