/**
 * Client address for http actions: the embedded backend is the deployment's proxy, so every http
 * action request carries `X-Forwarded-For: <TCP peer address>`, replacing whatever the client
 * sent (apps rate-limit on its first entry; it must not be spoofable). With `trustProxy` (CLI
 * `--trust-proxy`, a trusted reverse proxy in front) the client's header is kept.
 */
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFixture } from "../../local-backend/protocol/helpers";

type Backend = Awaited<ReturnType<typeof startFixture>>;

/** What the fixture's `/forwarded-for` http action saw, for request headers given as raw pairs. */
function echo(backend: Backend, rawHeaders: Array<[string, string]>): Promise<string> {
  return new Promise((resolve, reject) => {
    // node:http rather than fetch: it can send the header twice
    // (raw header arrays get no default headers, so Host is given here)
    const host = new URL(backend.siteUrl).host;
    const req = http.request(`${backend.siteUrl}/forwarded-for`, {
      method: "GET",
      headers: [["Host", host], ...rawHeaders].flat(),
      agent: false,
    });
    req.on("response", (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (body += d));
      res.on("end", () =>
        res.statusCode === 200 ? resolve(body) : reject(new Error(`status ${res.statusCode}: ${body}`)),
      );
    });
    req.on("error", reject);
    req.end();
  });
}

describe("X-Forwarded-For on http actions (default)", () => {
  let backend: Backend;
  beforeAll(async () => {
    backend = await startFixture();
  });
  afterAll(async () => {
    await backend?.stop();
  });

  it("is the TCP peer address when the client sends none", async () => {
    expect(await echo(backend, [])).toBe("127.0.0.1");
  });

  it("replaces a spoofed value", async () => {
    expect(await echo(backend, [["X-Forwarded-For", "6.6.6.6"]])).toBe("127.0.0.1");
    expect(await echo(backend, [["x-forwarded-for", "6.6.6.6, 10.0.0.1"]])).toBe("127.0.0.1");
    expect(
      await echo(backend, [
        ["X-Forwarded-For", "6.6.6.6"],
        ["X-Forwarded-For", "7.7.7.7"],
      ]),
    ).toBe("127.0.0.1");
  });

  it("is set for fetch() callers too", async () => {
    const r = await fetch(`${backend.siteUrl}/forwarded-for`, { headers: { "X-Forwarded-For": "1.2.3.4" } });
    expect(await r.text()).toBe("127.0.0.1");
  });
});

describe("X-Forwarded-For on http actions with trustProxy", () => {
  let backend: Backend;
  beforeAll(async () => {
    backend = await startFixture({ trustProxy: true });
  });
  afterAll(async () => {
    await backend?.stop();
  });

  it("keeps the proxy's header", async () => {
    expect(await echo(backend, [["X-Forwarded-For", "6.6.6.6, 10.0.0.1"]])).toBe("6.6.6.6, 10.0.0.1");
  });

  it("falls back to the TCP peer when there is none", async () => {
    expect(await echo(backend, [])).toBe("127.0.0.1");
  });
});
