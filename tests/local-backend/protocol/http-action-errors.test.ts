/**
 * Failed http actions answer as Convex does: 500 with the JSON body
 * `{ code: "[Request ID: …] Server Error: <message>", trace, data? }`, `data` being a
 * ConvexError's data, so an http-action caller receives it (a text/plain body loses it).
 *
 * The body is built by http-action-error.ts; the engine's runHttpAction (functions.ts) must answer
 * a thrown error with `httpActionErrorResponse(failure, requestId)`. Until it does, the fetch tests
 * below are skipped (see `wired`).
 */
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { convexToJson, jsonToConvex, type JSONValue } from "convex/values";
import { httpActionErrorBody } from "../../../local-backend/src/http-action-error";
import { startFixture, tempDir } from "./helpers";

const APP_DIR = fileURLToPath(new URL("./fidelity-app/convex", import.meta.url));
const FUNCTIONS_TS = fileURLToPath(new URL("../../../local-backend/src/functions.ts", import.meta.url));
const wired = fs.readFileSync(FUNCTIONS_TS, "utf8").includes("httpActionErrorResponse");

describe("Convex's http action error body", () => {
  it("carries the message, the trace and a ConvexError's data", () => {
    const data = convexToJson({ code: "QUOTA", remaining: 0n });
    expect(
      httpActionErrorBody(
        {
          errorMessage: 'Uncaught ConvexError: {"code":"QUOTA"}',
          errorData: data,
          frames: ["    at handler (../convex/http.ts:3:9)"],
        },
        "0123456789abcdef",
      ),
    ).toEqual({
      code: '[Request ID: 0123456789abcdef] Server Error: Uncaught ConvexError: {"code":"QUOTA"}',
      trace: 'Uncaught ConvexError: {"code":"QUOTA"}\n    at handler (../convex/http.ts:3:9)\n',
      data,
    });
    expect(httpActionErrorBody({ errorMessage: "Uncaught Error: boom" }, "r")).toEqual({
      code: "[Request ID: r] Server Error: Uncaught Error: boom",
      trace: "Uncaught Error: boom\n",
    });
  });
});

describe.skipIf(!wired)("failed http actions over HTTP", () => {
  let backend: Awaited<ReturnType<typeof startFixture>>;
  beforeAll(async () => {
    backend = await startFixture({ functionsDir: APP_DIR, dataDir: tempDir() });
  });
  afterAll(async () => {
    await backend?.stop();
  });

  it("a ConvexError's data reaches the caller as JSON", async () => {
    const res = await fetch(`${backend.siteUrl}/convex-error`, { method: "POST" });
    expect(res.status).toBe(500);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    const body = (await res.json()) as { code: string; trace: string; data: JSONValue };
    expect(body.code).toMatch(/^\[Request ID: [0-9a-f]+\] Server Error: Uncaught ConvexError: /);
    expect(jsonToConvex(body.data)).toEqual({ code: "QUOTA", remaining: 0n, tags: ["a", "b"] });
    const text = (await (await fetch(`${backend.siteUrl}/convex-error-string`)).json()) as { data: JSONValue };
    expect(text.data).toBe("plain message");
  });

  it("other errors have a code and a trace but no data", async () => {
    const res = await fetch(`${backend.siteUrl}/error`);
    expect(res.status).toBe(500);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body.code).toMatch(/^\[Request ID: [0-9a-f]+\] Server Error: Uncaught Error: boom$/);
    expect(String(body.trace)).toMatch(/^Uncaught Error: boom\n/);
    expect(body).not.toHaveProperty("data");
  });
});
