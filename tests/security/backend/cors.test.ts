/**
 * CORS on the cloud URL: callers authenticate with bearer tokens, so no origin needs credentials.
 * Every origin gets `Access-Control-Allow-Origin: *` without `Access-Control-Allow-Credentials`;
 * only origins on the configured allow-list (`allowedOrigins`, CLI `--allowed-origins`) get their
 * origin reflected with credentials.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFixture } from "../../local-backend/protocol/helpers";

type Backend = Awaited<ReturnType<typeof startFixture>>;

async function call(backend: Backend, origin: string) {
  const preflight = await fetch(`${backend.cloudUrl}/api/query`, {
    method: "OPTIONS",
    headers: {
      Origin: origin,
      "Access-Control-Request-Method": "POST",
      "Access-Control-Request-Headers": "content-type,authorization",
    },
  });
  const post = await fetch(`${backend.cloudUrl}/api/query`, {
    method: "POST",
    headers: { Origin: origin, "Content-Type": "application/json" },
    body: JSON.stringify({ path: "protocol/misc:double", args: [{ n: 2 }], format: "convex_encoded_json" }),
  });
  expect(preflight.status).toBe(204);
  expect(post.status).toBe(200);
  await post.text();
  return { preflight: preflight.headers, post: post.headers };
}

describe("CORS without an allow-list", () => {
  let backend: Backend;
  beforeAll(async () => {
    backend = await startFixture();
  });
  afterAll(async () => {
    await backend?.stop();
  });

  it("answers any origin with * and never allows credentials", async () => {
    const { preflight, post } = await call(backend, "https://evil.example");
    for (const h of [preflight, post]) {
      expect(h.get("access-control-allow-origin")).toBe("*");
      expect(h.get("access-control-allow-credentials")).toBeNull();
    }
    // bearer tokens still work cross-origin: the requested headers are allowed
    expect(preflight.get("access-control-allow-headers")).toMatch(/authorization/);
  });

  it("answers requests without an Origin with * too", async () => {
    const r = await fetch(`${backend.cloudUrl}/version`);
    expect(r.headers.get("access-control-allow-origin")).toBe("*");
    expect(r.headers.get("access-control-allow-credentials")).toBeNull();
    await r.text();
  });
});

describe("CORS with an allow-list", () => {
  let backend: Backend;
  beforeAll(async () => {
    // written the way people type it; compared as a normalized origin
    backend = await startFixture({ allowedOrigins: ["http://App.Example:8080/", "https://other.example"] });
  });
  afterAll(async () => {
    await backend?.stop();
  });

  it("reflects an allowed origin with credentials", async () => {
    const { preflight, post } = await call(backend, "http://app.example:8080");
    for (const h of [preflight, post]) {
      expect(h.get("access-control-allow-origin")).toBe("http://app.example:8080");
      expect(h.get("access-control-allow-credentials")).toBe("true");
      expect(h.get("vary")).toMatch(/Origin/);
    }
  });

  it("answers other origins with * and no credentials", async () => {
    for (const origin of ["https://evil.example", "http://app.example:8081", "null"]) {
      const { preflight, post } = await call(backend, origin);
      for (const h of [preflight, post]) {
        expect(h.get("access-control-allow-origin")).toBe("*");
        expect(h.get("access-control-allow-credentials")).toBeNull();
        expect(h.get("vary")).toMatch(/Origin/);
      }
    }
  });
});
