/**
 * Deeply nested values: Convex allows a nesting depth of 64 (the arguments object is level 1).
 * Deeper arguments are refused with a clear error before anything recursive touches them, over
 * the HTTP API (400) and the sync protocol (an error response for the request, or FatalError for a
 * frame too deep to parse at all), and the backend keeps serving.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anyApi } from "convex/server";
import { ConvexHttpClient } from "convex/browser";
import { RawSyncClient, startFixture } from "../../local-backend/protocol/helpers";
import { jsonTextTooDeep, valueDepth } from "../../../local-backend/src/net-common";

let backend: Awaited<ReturnType<typeof startFixture>>;

beforeAll(async () => {
  backend = await startFixture();
});
afterAll(async () => {
  await backend?.stop();
});

/** JSON text of `n` nested arrays: `[[[…]]]` (nesting depth n). */
function nestedText(n: number): string {
  return "[".repeat(n) + "]".repeat(n);
}

/** A value of nesting depth n (n nested arrays), built without recursion. */
function nestedValue(n: number): unknown {
  let v: unknown = [];
  for (let i = 1; i < n; i++) v = [v];
  return v;
}

/** The backend still answers: round trips through the HTTP API and the site. */
async function stillUp() {
  const http = new ConvexHttpClient(backend.cloudUrl);
  expect(await http.query(anyApi.protocol.misc.double, { n: 1 })).toBe(2);
  const hello = await fetch(`${backend.siteUrl}/hello`);
  expect(hello.status).toBe(200);
}

async function postRaw(path: string, body: string) {
  const res = await fetch(`${backend.cloudUrl}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body,
  });
  const text = await res.text();
  let json: Record<string, unknown> | undefined;
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    json = undefined;
  }
  return { status: res.status, text, json };
}

async function connected(): Promise<RawSyncClient> {
  const raw = new RawSyncClient(backend.cloudUrl);
  await raw.opened;
  raw.connect();
  return raw;
}

describe("HTTP API", () => {
  it.each(["/api/mutation", "/api/action", "/api/query"])(
    "refuses a 100k-deep argument to %s with 400 and keeps serving",
    async (path) => {
      const fn = {
        "/api/mutation": "protocol/misc:sink",
        "/api/action": "protocol/misc:echoAction",
        "/api/query": "protocol/misc:echo",
      }[path]!;
      const key = path === "/api/mutation" ? "payload" : "value";
      const r = await postRaw(
        path,
        `{"path":"${fn}","args":[{"${key}":${nestedText(100_000)}}],"format":"convex_encoded_json"}`,
      );
      expect(r.status).toBe(400);
      expect(String(r.json?.message)).toMatch(/nested too deeply.*64/);
      await stillUp();
    },
  );

  it("accepts arguments nested exactly 64 levels and refuses 65", async () => {
    // args object (level 1) → payload: 63 nested arrays = depth 64
    const ok = await postRaw(
      "/api/mutation",
      JSON.stringify({
        path: "protocol/misc:sink",
        args: [{ payload: nestedValue(63) }],
        format: "convex_encoded_json",
      }),
    );
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({ status: "success", value: null });
    const tooDeep = await postRaw(
      "/api/mutation",
      JSON.stringify({
        path: "protocol/misc:sink",
        args: [{ payload: nestedValue(64) }],
        format: "convex_encoded_json",
      }),
    );
    expect(tooDeep.status).toBe(400);
    expect(String(tooDeep.json?.message)).toMatch(/nested too deeply.*64/);
    // also without the protocol's [args] wrapper (/api/function takes the object itself)
    const fn = await postRaw(
      "/api/function",
      JSON.stringify({ path: "protocol/misc:echo", args: { value: nestedValue(64) } }),
    );
    expect(fn.status).toBe(400);
    await stillUp();
  });

  it("refuses deep nesting anywhere in the body, also objects, before parsing it", async () => {
    const deepObject = '{"a":'.repeat(50_000) + "1" + "}".repeat(50_000);
    const r = await postRaw("/api/query", `{"path":"protocol/misc:echo","args":[{"value":${deepObject}}]}`);
    expect(r.status).toBe(400);
    expect(String(r.json?.message)).toMatch(/nested too deeply/);
    const junk = await postRaw(
      "/api/query",
      `{"path":"protocol/misc:echo","args":[{}],"extra":${nestedText(100_000)}}`,
    );
    expect(junk.status).toBe(400);
    // brackets inside strings are not nesting
    const inString = await postRaw(
      "/api/query",
      JSON.stringify({ path: "protocol/misc:echo", args: [{ value: nestedText(10_000) }] }),
    );
    expect(inString.status).toBe(200);
    expect(inString.json?.value).toBe(nestedText(10_000));
    await stillUp();
  });
});

describe("sync protocol", () => {
  it("answers a 100k-deep Mutation frame with FatalError and keeps serving", async () => {
    const raw = await connected();
    raw.sendRaw(
      `{"type":"Mutation","requestId":0,"udfPath":"protocol/misc:sink","args":[{"payload":${nestedText(100_000)}}]}`,
    );
    const fatal = await raw.next((m) => m.type === "FatalError");
    expect(String(fatal.error)).toMatch(/nested too deeply.*64/);
    await raw.closed;
    await stillUp();
  });

  it("answers 100k-deep ModifyQuerySet and Action frames with FatalError", async () => {
    for (const frame of [
      `{"type":"ModifyQuerySet","baseVersion":0,"newVersion":1,"modifications":[{"type":"Add","queryId":0,"udfPath":"protocol/misc:echo","args":[{"value":${nestedText(100_000)}}]}]}`,
      `{"type":"Action","requestId":0,"udfPath":"protocol/misc:echoAction","args":[{"value":${nestedText(100_000)}}]}`,
    ]) {
      const raw = await connected();
      raw.sendRaw(frame);
      expect(String((await raw.next((m) => m.type === "FatalError")).error)).toMatch(/nested too deeply/);
      await raw.closed;
    }
    await stillUp();
  });

  it("fails a Mutation, Action or query with arguments deeper than 64 and keeps the connection", async () => {
    const raw = await connected();
    raw.send({ type: "Mutation", requestId: 1, udfPath: "protocol/misc:sink", args: [{ payload: nestedValue(64) }] });
    const mutation = await raw.next((m) => m.type === "MutationResponse" && m.requestId === 1);
    expect(mutation.success).toBe(false);
    expect(String(mutation.result)).toMatch(/nested too deeply.*64/);

    raw.send({
      type: "Action",
      requestId: 2,
      udfPath: "protocol/misc:echoAction",
      args: [{ value: nestedValue(100) }],
    });
    const action = await raw.next((m) => m.type === "ActionResponse" && m.requestId === 2);
    expect(action.success).toBe(false);
    expect(String(action.result)).toMatch(/nested too deeply.*64/);

    raw.send({
      type: "ModifyQuerySet",
      baseVersion: 0,
      newVersion: 1,
      modifications: [
        { type: "Add", queryId: 0, udfPath: "protocol/misc:echo", args: [{ value: nestedValue(64) }] },
        { type: "Add", queryId: 1, udfPath: "protocol/misc:echo", args: [{ value: nestedValue(63) }] },
      ],
    });
    const t = await raw.next((m) => m.type === "Transition" && (m.endVersion as { querySet: number }).querySet === 1);
    const mods = t.modifications as Array<{ type: string; queryId: number; errorMessage?: string; value?: unknown }>;
    const failed = mods.find((m) => m.queryId === 0)!;
    expect(failed.type).toBe("QueryFailed");
    expect(failed.errorMessage).toMatch(/nested too deeply.*64/);
    // depth 64 exactly is fine
    const ok = mods.find((m) => m.queryId === 1)!;
    expect(ok.type).toBe("QueryUpdated");
    expect(JSON.stringify(ok.value)).toBe(JSON.stringify(nestedValue(63)));

    // the connection still works
    raw.send({ type: "Mutation", requestId: 3, udfPath: "protocol/misc:sink", args: [{ payload: nestedValue(63) }] });
    expect((await raw.next((m) => m.type === "MutationResponse" && m.requestId === 3)).success).toBe(true);
    raw.close();
    await stillUp();
  });
});

describe("http actions (site URL)", () => {
  it("passes a 100k-deep JSON body to the app without recursing over it; the backend stays up", async () => {
    const res = await fetch(`${backend.siteUrl}/messages`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: `{"channel":${nestedText(100_000)},"body":"x","author":"y"}`,
    });
    // the app's own handler fails on it (its runMutation refuses the value): an http action error
    expect(res.status).toBeGreaterThanOrEqual(400);
    await res.text();
    await stillUp();
  });
});

describe("the depth checks themselves", () => {
  it("scans raw JSON text (strings and bytes) without counting brackets inside strings", () => {
    const cases: Array<[string, number]> = [
      ["[]", 1],
      ['{"a":[{"b":1}]}', 3],
      ['["[[[[", "}}}"]', 1],
      ['["a\\\\", [[]]]', 3], // an escaped backslash ends right before the closing quote
      ['["\\"[[[[", [[]]]', 3], // an escaped quote does not end the string
      ['"[[[[', 0], // unterminated string: left to JSON.parse
    ];
    for (const [text, depth] of cases) {
      for (const input of [text, new TextEncoder().encode(text)]) {
        expect(jsonTextTooDeep(input, depth), text).toBe(false);
        expect(jsonTextTooDeep(input, depth - 1), text).toBe(depth > 0);
      }
    }
    expect(jsonTextTooDeep(`{"é😀[":${"[".repeat(300)}`, 256)).toBe(true);
  });

  it("measures parsed values iteratively", () => {
    expect(valueDepth(1, 64)).toBe(0);
    expect(valueDepth({}, 64)).toBe(1);
    expect(valueDepth({ a: [1, { b: null }], c: "[[[" }, 64)).toBe(3);
    expect(valueDepth(nestedValue(1_000_000), 64)).toBe(65);
  });
});
