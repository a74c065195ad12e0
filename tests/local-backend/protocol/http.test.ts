/**
 * HTTP API through the real ConvexHttpClient plus raw fetches for status codes, CORS and storage.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anyApi } from "convex/server";
import { ConvexHttpClient } from "convex/browser";
import { startFixture } from "./helpers";

let backend: Awaited<ReturnType<typeof startFixture>>;
let http: ConvexHttpClient;

beforeAll(async () => {
  backend = await startFixture({ adminKey: "test-admin-key" });
  http = new ConvexHttpClient(backend.cloudUrl);
});
afterAll(async () => {
  await backend?.stop();
});

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${backend.cloudUrl}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, text, json: json as Record<string, unknown>, headers: res.headers };
}

describe("HTTP API", () => {
  it("runs queries, mutations and actions through ConvexHttpClient", async () => {
    const id = await http.mutation(anyApi.messages.send, { channel: "h", body: "one", author: "http" });
    expect(typeof id).toBe("string");
    const rows = await http.query(anyApi.messages.list, { channel: "h" });
    expect(rows.map((r: { body: string }) => r.body)).toEqual(["one"]);
    await http.action(anyApi.protocol.misc.sendViaAction, { channel: "h", body: "two" });
    expect(await http.query(anyApi.messages.list, { channel: "h" })).toHaveLength(2);
    // /api/function dispatches on the function's kind
    const fn = await post("/api/function", {
      path: "protocol/misc:double",
      args: { n: 4 },
      format: "convex_encoded_json",
    });
    expect(fn.json).toMatchObject({ status: "success", value: 8 });
  });

  it("answers failures with status 560 and Convex's error shape", async () => {
    const r = await post("/api/mutation", {
      path: "protocol/misc:failWithData",
      args: [{}],
      format: "convex_encoded_json",
    });
    expect(r.status).toBe(560);
    expect(r.json.status).toBe("error");
    expect(r.json.errorData).toEqual({ code: "NOPE", detail: 42 });
    await expect(http.mutation(anyApi.protocol.misc.failWithData, {})).rejects.toMatchObject({
      data: { code: "NOPE", detail: 42 },
    });
  });

  it("refuses internal functions from outside and checks the admin key", async () => {
    const r = await post("/api/query", { path: "protocol/misc:secret", args: [{}] });
    expect(r.status).toBe(560);
    expect(String(r.json.errorMessage)).toMatch(/Could not find public function for 'protocol\/misc:secret'/);
    const admin = await post(
      "/api/query",
      { path: "protocol/misc:double", args: [{ n: 2 }] },
      { Authorization: "Convex test-admin-key" },
    );
    expect(admin.status).toBe(200);
    expect(admin.json.value).toBe(4);
    // Convex answers a wrong admin key with 403 BadDeployKey
    const wrongKey = await post(
      "/api/query",
      { path: "protocol/misc:double", args: [{ n: 2 }] },
      { Authorization: "Convex nope" },
    );
    expect(wrongKey.status).toBe(403);
    // Like `npx convex run`, an admin-key caller may run internal functions; a bad key still may not.
    const adminInternal = await post(
      "/api/query",
      { path: "protocol/misc:secret", args: [{}] },
      { Authorization: "Convex test-admin-key" },
    );
    expect(adminInternal.status).toBe(200);
    const badKeyInternal = await post(
      "/api/query",
      { path: "protocol/misc:secret", args: [{}] },
      { Authorization: "Convex nope" },
    );
    expect(badKeyInternal.status).toBe(403);
  });

  it("rejects calling a function as the wrong kind", async () => {
    const r = await post("/api/query", { path: "messages:send", args: [{ channel: "x", body: "y", author: "z" }] });
    expect(r.status).toBe(560);
    expect(String(r.json.errorMessage)).toMatch(/as Query, but it is defined as Mutation/);
  });

  it("serves /version, CORS headers and preflight", async () => {
    const v = await fetch(`${backend.cloudUrl}/version`);
    expect(v.status).toBe(200);
    const pre = await fetch(`${backend.cloudUrl}/api/mutation`, {
      method: "OPTIONS",
      headers: {
        Origin: "http://app.example",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type,convex-client,authorization",
      },
    });
    expect(pre.status).toBe(204);
    // bearer-token auth needs no credentials: any origin gets *, none is reflected by default
    // (tests/security/backend/cors.test.ts covers the allow-list)
    expect(pre.headers.get("access-control-allow-origin")).toBe("*");
    expect(pre.headers.get("access-control-allow-headers")).toMatch(/authorization/);
    const r = await post(
      "/api/query",
      { path: "messages:list", args: [{ channel: "cors" }] },
      { Origin: "http://app.example" },
    );
    expect(r.headers.get("access-control-allow-origin")).toBe("*");
    expect(r.headers.get("access-control-allow-credentials")).toBeNull();
  });

  it("uploads to storage and serves the blob with its content type", async () => {
    const uploadUrl: string = await http.mutation(anyApi.protocol.misc.generateUploadUrl, {});
    expect(uploadUrl.startsWith(backend.cloudUrl)).toBe(true);
    const payload = new TextEncoder().encode("hello storage");
    const up = await fetch(uploadUrl, { method: "POST", headers: { "Content-Type": "text/plain" }, body: payload });
    expect(up.status).toBe(200);
    const { storageId } = (await up.json()) as { storageId: string };
    const url: string | null = await http.query(anyApi.protocol.misc.fileUrl, { storageId });
    expect(url).not.toBeNull();
    const got = await fetch(url!);
    expect(got.status).toBe(200);
    expect(got.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await got.text()).toBe("hello storage");
    // not a storage id: Convex's 400 InvalidStoragePath; a forged token: 401 StorageTokenInvalid
    const missing = await fetch(`${backend.cloudUrl}/api/storage/not-a-real-id`);
    expect(missing.status).toBe(400);
    const badToken = await fetch(`${backend.cloudUrl}/api/storage/upload?token=forged`, { method: "POST", body: "x" });
    expect(badToken.status).toBe(401);
  });
});
