/**
 * File storage as Convex serves it (local_backend/src/storage.rs, file_storage, keybroker),
 * through the real clients and fetch: byte ranges (206 + Content-Range), Cache-Control, the upload
 * URL's `Digest: sha-256=` check, invalid upload tokens (401 StorageTokenInvalid),
 * `storage.getMetadata` (sha256 in hex, invalid ids refused) and Convex's "not found" texts.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anyApi } from "convex/server";
import { ConvexHttpClient } from "convex/browser";
import { startFixture } from "./helpers";

let backend: Awaited<ReturnType<typeof startFixture>>;
let http: ConvexHttpClient;
const BYTES = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));
let storageId: string;
let fileUrl: string;

async function uploadUrl(): Promise<string> {
  return await http.mutation(anyApi.files.generateUploadUrl, {});
}

beforeAll(async () => {
  backend = await startFixture();
  http = new ConvexHttpClient(backend.cloudUrl);
  const up = await fetch(await uploadUrl(), { method: "POST", headers: { "Content-Type": "audio/ogg" }, body: BYTES });
  storageId = ((await up.json()) as { storageId: string }).storageId;
  fileUrl = (await http.query(anyApi.fidelityB.url, { storageId })) as string;
});

afterAll(async () => {
  await backend?.stop();
});

describe("serving", () => {
  it("serves the whole file with Convex's headers", async () => {
    const res = await fetch(fileUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, max-age=2592000");
    expect(res.headers.get("accept-ranges")).toBe("bytes");
    expect(res.headers.get("content-type")).toBe("audio/ogg");
    expect(res.headers.get("content-length")).toBe("1000");
    expect(res.headers.get("digest")).toBe(`sha-256=${createHash("sha256").update(BYTES).digest("base64")}`);
    expect(Buffer.from(await res.arrayBuffer()).equals(BYTES)).toBe(true);
  });

  it("answers a byte range with 206 and Content-Range (so media can seek)", async () => {
    const res = await fetch(fileUrl, { headers: { Range: "bytes=100-199" } });
    expect(res.status).toBe(206);
    expect(res.headers.get("content-range")).toBe("bytes 100-199/1000");
    expect(res.headers.get("content-length")).toBe("100");
    expect(res.headers.get("cache-control")).toBe("private, max-age=2592000");
    expect(Buffer.from(await res.arrayBuffer()).equals(BYTES.subarray(100, 200))).toBe(true);
    const open = await fetch(fileUrl, { headers: { Range: "bytes=990-" } });
    expect(open.status).toBe(206);
    expect(open.headers.get("content-range")).toBe("bytes 990-999/1000");
    expect(Buffer.from(await open.arrayBuffer()).equals(BYTES.subarray(990))).toBe(true);
    const suffix = await fetch(fileUrl, { headers: { Range: "bytes=-5" } });
    expect(suffix.headers.get("content-range")).toBe("bytes 995-999/1000");
    expect(Buffer.from(await suffix.arrayBuffer()).equals(BYTES.subarray(995))).toBe(true);
  });

  it("refuses several ranges and a range past the end with 416", async () => {
    expect((await fetch(fileUrl, { headers: { Range: "bytes=0-1,5-6" } })).status).toBe(416);
    const past = await fetch(fileUrl, { headers: { Range: "bytes=5000-" } });
    expect(past.status).toBe(416);
    expect(past.headers.get("content-range")).toBe("bytes */1000");
  });

  it("uses Convex's texts for a missing file and for a path that is no storage id", async () => {
    const url = new URL(fileUrl);
    const removed = await http.action(anyApi.fidelityB.store, { text: "short-lived" });
    await http.mutation(anyApi.fidelityB.remove, { storageId: removed });
    const missing = await fetch(`${url.origin}/api/storage/${removed}`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ code: "FileNotFound", message: `File ${removed} not found` });
    const invalid = await fetch(`${url.origin}/api/storage/not-an-id`);
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({
      code: "InvalidStoragePath",
      message: expect.stringMatching(
        /^Invalid storage path: "not-an-id"\. Please use `storage\.getUrl\(storageId: Id<"_storage">\)`/,
      ),
    });
  });
});

describe("uploading", () => {
  it("honours a matching Digest header and refuses a mismatch with 400 Sha256Mismatch", async () => {
    const body = Buffer.from("digest me");
    const good = createHash("sha256").update(body).digest("base64");
    const ok = await fetch(await uploadUrl(), { method: "POST", headers: { Digest: `sha-256=${good}` }, body });
    expect(ok.status).toBe(200);
    const wrong = createHash("sha256").update("something else").digest("base64");
    const bad = await fetch(await uploadUrl(), { method: "POST", headers: { Digest: `sha-256=${wrong}` }, body });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({
      code: "Sha256Mismatch",
      message: `Sha256 mismatch. Expected: ${wrong} Actual: ${good}`,
    });
    const malformed = await fetch(await uploadUrl(), { method: "POST", headers: { Digest: "md5=abc" }, body });
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { code: string }).code).toBe("BadHeader");
    // nothing was stored for the refused uploads
    const stored = (await http.query(anyApi.files.list, {})) as Array<{ sha256: string }>;
    expect(stored.filter((f) => f.sha256 === good)).toHaveLength(1);
  });

  it("answers an invalid upload token with 401 StorageTokenInvalid", async () => {
    const res = await fetch(`${backend.cloudUrl}/api/storage/upload?token=forged`, { method: "POST", body: "x" });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({
      code: "StorageTokenInvalid",
      message: "Couldn't decode the StoreFileAuthorization token",
    });
    const none = await fetch(`${backend.cloudUrl}/api/storage/upload`, { method: "POST", body: "x" });
    expect(none.status).toBe(400);
  });
});

describe("storage syscalls", () => {
  it("getMetadata returns sha256 in hex", async () => {
    expect(await http.query(anyApi.fidelityB.metadata, { storageId })).toEqual({
      storageId,
      sha256: createHash("sha256").update(BYTES).digest("hex"),
      size: 1000,
      contentType: "audio/ogg",
    });
    // the _storage document keeps base64, as on Convex
    const doc = (await http.query(anyApi.files.meta, { storageId })) as { sha256: string };
    expect(doc.sha256).toBe(createHash("sha256").update(BYTES).digest("base64"));
  });

  it("refuses an invalid storage id and an id of another table with Convex's texts", async () => {
    await expect(http.query(anyApi.fidelityB.metadata, { storageId: "bogus" })).rejects.toThrow(
      "Invalid argument `storageId` for `storage.getMetadata`: Invalid storage ID: \"bogus\". Storage ID should be an\n                    Id of '_storage' table, or a UUID string.",
    );
    const messageId = (await http.mutation(anyApi.messages.send, { channel: "x", body: "y", author: "z" })) as string;
    await expect(http.query(anyApi.fidelityB.url, { storageId: messageId })).rejects.toThrow(
      "Invalid storage ID. Storage ID cannot be an ID on any table other than '_storage'.",
    );
    // a UUID names no file here
    expect(
      await http.query(anyApi.fidelityB.metadata, { storageId: "0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9" }),
    ).toBeNull();
    await expect(
      http.mutation(anyApi.fidelityB.remove, { storageId: "0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9" }),
    ).rejects.toThrow("storage id 0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9 not found");
  });
});
