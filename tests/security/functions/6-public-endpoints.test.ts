/**
 * Item 6 (app side): POST /api/errors is capped per client address — not per the client-chosen
 * session id — and globally, keeps a bounded number of reports (oldest dropped), refuses deep
 * nesting with 400, and answers CORS for the app's own origin only, without credentials.
 * (Uploads, deep arguments on the HTTP API and WebSocket, backend CORS: tests/security/backend.)
 */
import { describe, expect, test } from "vitest";
import { GLOBAL_LIMIT_PER_MINUTE, MAX_REPORT_DEPTH, RATE_LIMIT_PER_MINUTE } from "@convex/errorReports";
import { fetchFrom, setEnv } from "./harness";
import { setupTest, type TestConvex } from "./setup";

const report = (sessionId: string, errors = 1) =>
  JSON.stringify({ sessionId, errors: Array.from({ length: errors }, (_, i) => ({ message: `boom ${i}` })) });

const post = (t: TestConvex, address: string, body: string, headers: Record<string, string> = {}) =>
  fetchFrom(t, address, "/api/errors", {
    method: "POST",
    body,
    headers: { "Content-Type": "application/json", ...headers },
  });

const stored = (t: TestConvex) => t.run(async (ctx) => (await ctx.db.query("errorReports").collect()).length);

describe("6. public endpoints: /api/errors", () => {
  /** Token buckets refill while a loop runs: what may have been added, at `perMinute`, since `started`. */
  const refill = (started: number, perMinute: number) => Math.ceil(((Date.now() - started) * perMinute) / 60_000) + 1;

  test("a new session id per request does not get past the per-address limit", async () => {
    const t = setupTest();
    const started = Date.now();
    const statuses: number[] = [];
    for (let i = 0; i < RATE_LIMIT_PER_MINUTE + 20; i++)
      statuses.push((await post(t, "203.0.113.5", report(`session-${i}`))).status);
    const accepted = statuses.filter((s) => s === 200).length;
    expect(statuses.slice(0, RATE_LIMIT_PER_MINUTE).every((s) => s === 200)).toBe(true);
    expect(statuses.every((s) => s === 200 || s === 429)).toBe(true);
    expect(accepted).toBeLessThanOrEqual(RATE_LIMIT_PER_MINUTE + refill(started, RATE_LIMIT_PER_MINUTE));
    expect(accepted).toBeLessThan(statuses.length);
    expect(await stored(t)).toBe(accepted);
    expect((await post(t, "203.0.113.6", report("other"))).status).toBe(200);
  });

  test("many addresses together stop at the global limit", async () => {
    const t = setupTest();
    const started = Date.now();
    let accepted = 0;
    let sent = 0;
    for (let i = 0; i < GLOBAL_LIMIT_PER_MINUTE / 25 + 8; i++) {
      sent += 25;
      if ((await post(t, `198.18.${i >> 8}.${i & 255}`, report(`s${i}`, 25))).status === 200) accepted += 25;
    }
    expect(accepted).toBeGreaterThanOrEqual(GLOBAL_LIMIT_PER_MINUTE);
    expect(accepted).toBeLessThanOrEqual(
      GLOBAL_LIMIT_PER_MINUTE + 25 * Math.ceil(refill(started, GLOBAL_LIMIT_PER_MINUTE) / 25),
    );
    expect(accepted).toBeLessThan(sent);
  });

  test("storage is bounded: past the cap the oldest reports go", async () => {
    const t = setupTest();
    await setEnv(t, { ERROR_REPORTS_MAX_STORED: "40" });
    for (let i = 0; i < 6; i++) expect((await post(t, `192.0.2.${i}`, report(`batch${i}`, 10))).status).toBe(200);
    const rows = await t.run(async (ctx) => ctx.db.query("errorReports").collect());
    expect(rows).toHaveLength(40);
    expect(new Set(rows.map((r) => r.sessionId))).toEqual(new Set(["batch2", "batch3", "batch4", "batch5"]));
  });

  test("deep nesting is refused with 400, not a crash", async () => {
    const t = setupTest();
    const deep = (n: number) =>
      `{"sessionId":"s","errors":[{"message":"m","context":${"[".repeat(n)}${"]".repeat(n)}}]}`;
    expect((await post(t, "203.0.113.7", deep(MAX_REPORT_DEPTH - 4))).status).toBe(200);
    const res = await post(t, "203.0.113.7", deep(100_000).slice(0, 60_000));
    expect(res.status).toBe(400);
    expect((await post(t, "203.0.113.7", deep(1000))).status).toBe(400);
  });

  test("CORS: only the app's own origin is allowed, never with credentials", async () => {
    const t = setupTest();
    await setEnv(t, { SITE_URL: "http://app.example.org" });
    const preflight = (origin: string) =>
      fetchFrom(t, "203.0.113.8", "/api/errors", {
        method: "OPTIONS",
        headers: { Origin: origin, "Access-Control-Request-Method": "POST" },
      });
    const own = await preflight("http://app.example.org");
    expect(own.headers.get("Access-Control-Allow-Origin")).toBe("http://app.example.org");
    expect(own.headers.get("Access-Control-Allow-Credentials")).not.toBe("true");
    const evil = await preflight("http://evil.example.com");
    expect(evil.headers.get("Access-Control-Allow-Origin")).not.toBe("http://evil.example.com");
    const posted = await post(t, "203.0.113.8", report("s"), { Origin: "http://evil.example.com" });
    expect(posted.headers.get("Access-Control-Allow-Origin")).not.toBe("http://evil.example.com");
  });
});
