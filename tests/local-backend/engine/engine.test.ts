import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CommitEvent, Engine } from "../../../local-backend/src/engine-api";
import { caller, startEngine, tempDir, waitFor } from "./helpers";
import { firstBatchFor } from "../../../local-backend/src/index-stream";

type Doc = Record<string, any>;

describe("engine: documents, queries, transactions", () => {
  let engine: Engine & { dataDir: string };
  let c: ReturnType<typeof caller>;
  const commits: CommitEvent[] = [];
  beforeAll(async () => {
    engine = await startEngine({ scheduler: false });
    engine.onCommit((e) => commits.push(e));
    c = caller(engine);
  });
  afterAll(async () => {
    await engine.stop();
  });

  it("registers functions by canonical path", () => {
    const paths = engine.listFunctions().map((f) => f.path);
    expect(paths).toContain("messages:list");
    expect(paths).toContain("messages:page");
    expect(engine.getFunction("messages.js:send")?.kind).toBe("mutation");
    expect(engine.getFunction("users:internalCreate")?.visibility).toBe("internal");
    expect(paths.some((p) => p.startsWith("_generated"))).toBe(false);
  });

  it("inserts, reads, patches, replaces and deletes", async () => {
    const id = (await c.mutation("messages:send", { channel: "crud", body: "one", author: "a" })) as string;
    const doc = (await c.query("messages:get", { id })) as Doc;
    expect(doc).toMatchObject({ _id: id, body: "one", channel: "crud", author: "a" });
    expect(typeof doc._creationTime).toBe("number");
    await c.mutation("messages:edit", { id, body: "two" });
    expect(((await c.query("messages:get", { id })) as Doc).body).toBe("two");
    const uid = (await c.mutation("users:create", { name: "Ann", email: "ann@x", age: 30 })) as string;
    const replaced = (await c.mutation("users:replaceUser", { id: uid, name: "Ann B", email: "annb@x" })) as Doc;
    expect(replaced).toEqual({ _id: uid, _creationTime: replaced._creationTime, name: "Ann B", email: "annb@x" });
    const patched = (await c.mutation("users:setAge", { id: uid, age: 31 })) as Doc;
    expect(patched.age).toBe(31);
    const unset = (await c.mutation("users:setAge", { id: uid })) as Doc;
    expect("age" in unset).toBe(false);
    await c.mutation("messages:remove", { id });
    expect(await c.query("messages:get", { id })).toBeNull();
  });

  it("creation times strictly increase and full scans follow them", async () => {
    for (let i = 0; i < 5; i++) await c.mutation("messages:send", { channel: "order", body: `m${i}`, author: "a" });
    const all = (await c.query("messages:all")) as Doc[];
    for (let i = 1; i < all.length; i++) expect(all[i]._creationTime).toBeGreaterThan(all[i - 1]._creationTime);
    const latest = (await c.query("messages:latest", { n: 2 })) as Doc[];
    expect(latest.map((d) => d.body)).toEqual(["m4", "m3"]);
  });

  it("index ranges with eq/gt/gte/lt/lte in both orders", async () => {
    const items = [1, 2, 3, 4, 5].map((n) => ({ kind: "r", n }));
    await c.mutation("items:insertMany", { items: [...items, { kind: "s", n: 3 }] });
    const run = async (
      lo: number | undefined,
      hi: number | undefined,
      loInclusive: boolean,
      hiInclusive: boolean,
      order: "asc" | "desc",
    ) =>
      ((await c.query("items:range", { kind: "r", lo, hi, loInclusive, hiInclusive, order } as never)) as Doc[]).map(
        (d) => d.n,
      );
    expect(await run(2, 4, true, true, "asc")).toEqual([2, 3, 4]);
    expect(await run(2, 4, false, false, "asc")).toEqual([3]);
    expect(await run(2, undefined, false, false, "desc")).toEqual([5, 4, 3]);
    expect(await run(undefined, 2, false, true, "asc")).toEqual([1, 2]);
    expect(await run(undefined, undefined, false, false, "desc")).toEqual([5, 4, 3, 2, 1]);
  });

  it("evaluates negation and arithmetic in filters", async () => {
    await c.mutation("items:insertMany", {
      items: [
        { kind: "neg", n: 2 },
        { kind: "neg", n: 10 },
      ],
    });
    const r = ((await c.query("items:filtered", { which: "neg", x: -5 })) as Doc[]).filter((d) => d.kind === "neg");
    expect(r.map((d) => d.n)).toEqual([10]);
  });

  it("rejects malformed index ranges and unknown indexes", async () => {
    const bad = await c.queryOutcome("items:badRange");
    expect(bad.status).toBe("error");
    expect(bad.status === "error" && bad.errorMessage).toMatch(/Incorrect field used in `withIndex`/);
    const unknown = await c.queryOutcome("items:unknownIndex");
    expect(unknown.status === "error" && unknown.errorMessage).toMatch(/Index items\.nope not found/);
  });

  it("optional fields index as undefined (missing sorts first)", async () => {
    await c.mutation("users:create", { name: "NoAge", email: "noage@x" });
    await c.mutation("users:create", { name: "Old", email: "old@x", age: 80 });
    const missing = (await c.query("users:withoutAge")) as Doc[];
    expect(missing.map((u) => u.name)).toContain("NoAge");
    const all = (await c.query("users:byAgeRange", {})) as Doc[];
    expect(all[0].age).toBeUndefined();
    expect(all[all.length - 1].age).toBe(80);
  });

  it("unique() throws when two rows match, first() returns the first", async () => {
    await c.mutation("items:insertMany", {
      items: [
        { kind: "dup", n: 1 },
        { kind: "dup", n: 2 },
      ],
    });
    const r = (await c.query("items:firstAndUnique", { kind: "dup" })) as Doc;
    expect(r.first.n).toBe(1);
    expect(r.uniqueError).toMatch(/unique\(\) query returned more than one result/);
  });

  it("a throwing mutation writes nothing", async () => {
    const before = commits.length;
    const out = await c.mutationOutcome("tx:insertThenThrow", { name: "ghost" });
    expect(out.status).toBe("error");
    expect(out.status === "error" && out.errorMessage).toBe("Uncaught Error: boom after insert");
    expect(await c.query("tx:getCounter", { name: "ghost" })).toBeNull();
    expect(commits.length).toBe(before);
  });

  it("nested mutations roll back alone; parent reads its own writes", async () => {
    const r = (await c.mutation("tx:parentCatchesChild")) as Doc;
    expect(r.caught).toBe("child failed");
    expect(r.names).toContain("ok-child");
    expect(r.names).not.toContain("bad-child");
    expect(r.viaQuery).toBe(7);
    expect(await c.query("tx:getCounter", { name: "bad-child" })).toBeNull();
    expect(await c.query("tx:getCounter", { name: "parent" })).toBe(1);
    expect(await c.mutation("tx:readOwnWrites")).toEqual({ values: [6], afterDelete: 0 });
  });

  it("serializes concurrent read-modify-write mutations", async () => {
    await Promise.all(Array.from({ length: 20 }, () => c.mutation("tx:increment", { name: "conc" })));
    expect(await c.query("tx:getCounter", { name: "conc" })).toBe(20);
  });

  it("ConvexError data reaches the caller, also through actions", async () => {
    const out = await c.mutationOutcome("tx:convexError");
    expect(out.status === "error" && out.errorData).toEqual({ code: "NOPE", n: 3 });
    expect(await c.action("actions:catchConvexError")).toEqual({ data: { code: "NOPE", n: 3 } });
    await c.mutation("users:create", { name: "Dup", email: "dup@x" });
    const dup = await c.mutationOutcome("users:create", { name: "Dup", email: "dup@x" });
    expect(dup.status === "error" && dup.errorData).toEqual({ code: "EMAIL_TAKEN", email: "dup@x" });
  });

  it("validates arguments, return values and schema with clear messages", async () => {
    const missing = await c.mutationOutcome("messages:send", { channel: "x", author: "y" });
    expect(missing.status === "error" && missing.errorMessage).toMatch(
      /^ArgumentValidationError: Object is missing the required field `body`/,
    );
    const wrongType = await c.mutationOutcome("messages:send", { channel: 5, body: "b", author: "y" });
    expect(wrongType.status === "error" && wrongType.errorMessage).toBe(
      "ArgumentValidationError: Value does not match validator.\nPath: .channel\nValue: 5\nValidator: v.string()",
    );
    const extra = await c.mutationOutcome("messages:send", { channel: "x", body: "b", author: "y", z: 1 });
    expect(extra.status === "error" && extra.errorMessage).toMatch(/extra field `z`/);
    const ret = await c.queryOutcome("users:typedName", { bad: true });
    expect(ret.status === "error" && ret.errorMessage).toMatch(
      /^ReturnsValidationError: Value does not match validator/,
    );
    expect(await c.query("users:typedName", { bad: false })).toBe("ok");
    const schema = await c.mutationOutcome("users:writeInvalid");
    expect(schema.status === "error" && schema.errorMessage).toMatch(
      /Failed to insert or update a document in table "users" because it does not match the schema: Value does not match validator.\nPath: .email/,
    );
  });

  it("ids: v.id and normalizeId reject other tables; invalid ids never crash", async () => {
    const mid = (await c.mutation("messages:send", { channel: "ids", body: "b", author: "a" })) as string;
    const uid = (await c.mutation("users:create", { name: "I", email: "ids@x" })) as string;
    expect(await c.query("tx:ids", { id: mid })).toEqual({ asMessage: mid, asUser: null });
    expect(await c.query("tx:ids", { id: "garbage" })).toEqual({ asMessage: null, asUser: null });
    const wrong = await c.queryOutcome("messages:get", { id: uid });
    expect(wrong.status === "error" && wrong.errorMessage).toMatch(
      /^ArgumentValidationError: Found ID ".*" from table `users`/,
    );
    const bad = await c.queryOutcome("messages:get", { id: "nope" });
    expect(bad.status === "error" && bad.errorMessage).toMatch(/ArgumentValidationError/);
    expect(((await c.query("tx:getAny", { id: uid })) as Doc).name).toBe("I");
    const garbage = await c.queryOutcome("tx:getAny", { id: "zzzz" });
    expect(garbage.status === "error" && garbage.errorMessage).toMatch(/Unable to decode ID/);
    const typed = await c.queryOutcome("tx:getTyped", { id: mid });
    expect(typed.status === "error" && typed.errorMessage).toMatch(/expected an ID for table "users"/);
  });

  it("unknown functions, internal functions, wrong kinds and oversized args are errors, not crashes", async () => {
    const unknown = await c.queryOutcome("nope:nothing");
    expect(unknown.status === "error" && unknown.errorMessage).toMatch(
      /Could not find public function for 'nope:nothing'/,
    );
    const internal = await c.mutationOutcome("users:internalCreate", { name: "x", email: "y" });
    expect(internal.status).toBe("error");
    const kind = await c.queryOutcome("messages:send", {});
    expect(kind.status === "error" && kind.errorMessage).toMatch(/defined as Mutation/);
    const big = await c.mutationOutcome("messages:send", {
      channel: "x",
      body: "a".repeat(9 * 1024 * 1024),
      author: "y",
    });
    expect(big.status === "error" && big.errorMessage).toMatch(/too large/);
    const notObject = await engine.runQuery({ path: "messages:list", args: [1, 2] as never, identity: null });
    expect(notObject.outcome.status).toBe("error");
  });

  it("queries have a fixed clock and no fetch; logs are captured", async () => {
    expect(await c.query("tx:clock")).toEqual({ same: true, random: true });
    const f = await c.queryOutcome("actions:fetchInQuery");
    expect(f.status === "error" && f.errorMessage).toMatch(/fetch\(\)/);
    const logs = await c.actionOutcome("actions:logs");
    expect(logs.logLines).toEqual(["[LOG] 'hello' { a: 1 }", "[ERROR] 'bad thing'"]);
  });

  it("identity propagates into nested calls from actions", async () => {
    const who = caller(engine, {
      subject: "user-9",
      issuer: "https://issuer",
      tokenIdentifier: "https://issuer|user-9",
    });
    expect(await who.action("actions:roundTrip", { channel: "ident" })).toEqual({ who: "user-9", count: 1 });
    expect(await c.query("actions:whoami")).toBeNull();
  });

  it("count() reflects inserts and deletes", async () => {
    const n = (await c.query("messages:count")) as number;
    const id = (await c.mutation("messages:send", { channel: "cnt", body: "b", author: "a" })) as string;
    expect(await c.query("messages:count")).toBe(n + 1);
    await c.mutation("messages:remove", { id });
    expect(await c.query("messages:count")).toBe(n);
  });

  it("http actions route through the router; 404 otherwise", async () => {
    const hello = await engine.runHttpAction(new Request("http://127.0.0.1:3211/hello"));
    expect(await hello.text()).toBe("hello from http://127.0.0.1:3211");
    const post = await engine.runHttpAction(
      new Request("http://127.0.0.1:3211/messages", {
        method: "POST",
        body: JSON.stringify({ channel: "http", body: "b", author: "h" }),
      }),
    );
    expect(post.status).toBe(201);
    expect(((await c.query("messages:list", { channel: "http" })) as Doc[]).length).toBe(1);
    const prefixed = await engine.runHttpAction(new Request("http://127.0.0.1:3211/echo/a/b"));
    expect(await prefixed.text()).toBe("/echo/a/b");
    const missing = await engine.runHttpAction(new Request("http://127.0.0.1:3211/nothing"));
    expect(missing.status).toBe(404);
  });
});

describe("engine: reactivity", () => {
  let engine: Engine & { dataDir: string };
  let c: ReturnType<typeof caller>;
  const commits: CommitEvent[] = [];
  beforeAll(async () => {
    engine = await startEngine({ scheduler: false });
    engine.onCommit((e) => commits.push(e));
    c = caller(engine);
  });
  afterAll(async () => {
    await engine.stop();
  });

  it("read sets intersect only writes in the ranges read", async () => {
    await c.mutation("messages:send", { channel: "r1", body: "x", author: "a" });
    const q = await engine.runQuery({ path: "messages:list", args: { channel: "r1" }, identity: null });
    await c.mutation("messages:send", { channel: "r2", body: "x", author: "a" });
    expect(engine.readSetIntersects(q.readSet, commits.at(-1)!.writes)).toBe(false);
    const id = (await c.mutation("messages:send", { channel: "r1", body: "y", author: "a" })) as string;
    expect(engine.readSetIntersects(q.readSet, commits.at(-1)!.writes)).toBe(true);
    // Moving a document out of the range is a write to the range (old key).
    const q2 = await engine.runQuery({ path: "messages:list", args: { channel: "r1" }, identity: null });
    await c.mutation("messages:remove", { id });
    expect(engine.readSetIntersects(q2.readSet, commits.at(-1)!.writes)).toBe(true);
    // A point read of a document is invalidated by a patch of it, and not by others.
    const other = (await c.mutation("messages:send", { channel: "r3", body: "p", author: "a" })) as string;
    const g = await engine.runQuery({ path: "messages:get", args: { id: other }, identity: null });
    await c.mutation("messages:send", { channel: "r3", body: "q", author: "a" });
    expect(engine.readSetIntersects(g.readSet, commits.at(-1)!.writes)).toBe(false);
    await c.mutation("messages:edit", { id: other, body: "changed" });
    expect(engine.readSetIntersects(g.readSet, commits.at(-1)!.writes)).toBe(true);
  });

  it("take(n) only depends on the rows it read", async () => {
    for (let i = 0; i < 3; i++) await c.mutation("messages:send", { channel: "t", body: `${i}`, author: "a" });
    const q = await engine.runQuery({ path: "messages:latest", args: { n: 2 }, identity: null });
    // Inserting a newer message changes the latest two.
    await c.mutation("messages:send", { channel: "t", body: "new", author: "a" });
    expect(engine.readSetIntersects(q.readSet, commits.at(-1)!.writes)).toBe(true);
  });

  it("take(n) and first() read a first batch of their size, and read on past rows the transaction deleted", async () => {
    expect([0, 1, 2, 3, 5, 8, 100].map((n) => firstBatchFor(n))).toEqual([1, 1, 2, 4, 8, 8, 8]);
    expect(firstBatchFor(null)).toBe(8);
    for (let i = 0; i < 7; i++) await c.mutation("messages:send", { channel: "fb", body: `m${i}`, author: "a" });
    // the first batch (2, then 1) holds only deleted rows: the stream reads on
    expect(await c.mutation("messages:dropAndTake", { channel: "fb", drop: 2, n: 2 })).toEqual({
      taken: ["m4", "m3"],
      first: "m4",
    });
    expect(await c.mutation("messages:dropAndTake", { channel: "fb", drop: 3, n: 3 })).toEqual({
      taken: ["m1", "m0"],
      first: "m1",
    });
  });

  it("search reads are invalidated by writes to the table", async () => {
    const q = await engine.runQuery({ path: "messages:search", args: { query: "zebra" }, identity: null });
    await c.mutation("messages:send", { channel: "s", body: "zebra crossing", author: "a" });
    expect(engine.readSetIntersects(q.readSet, commits.at(-1)!.writes)).toBe(true);
  });

  it("timestamps are monotonic and returned by mutations", async () => {
    const a = await engine.runMutation({
      path: "messages:send",
      args: { channel: "ts", body: "1", author: "a" },
      identity: null,
    });
    const b = await engine.runMutation({
      path: "messages:send",
      args: { channel: "ts", body: "2", author: "a" },
      identity: null,
    });
    expect(b.ts).toBeGreaterThan(a.ts);
    expect(engine.currentTs()).toBe(b.ts);
    const failed = await engine.runMutation({ path: "tx:insertThenThrow", args: { name: "n" }, identity: null });
    expect(failed.ts).toBe(b.ts);
  });
});

describe("engine: pagination", () => {
  let engine: Engine & { dataDir: string };
  let c: ReturnType<typeof caller>;
  beforeAll(async () => {
    engine = await startEngine({ scheduler: false });
    c = caller(engine);
    for (let i = 0; i < 10; i++) await c.mutation("messages:send", { channel: "p", body: `m${i}`, author: "a" });
  });
  afterAll(async () => {
    await engine.stop();
  });

  it("pages cover the range exactly once", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let guard = 0; guard < 10; guard++) {
      const r = (await c.query("messages:page", { channel: "p", paginationOpts: { numItems: 3, cursor } })) as Doc;
      seen.push(...r.page.map((d: Doc) => d.body));
      if (r.isDone) break;
      cursor = r.continueCursor;
    }
    expect(seen).toEqual(["m9", "m8", "m7", "m6", "m5", "m4", "m3", "m2", "m1", "m0"]);
  });

  it("a journaled page stays gapless while rows are inserted and deleted", async () => {
    const first = await engine.runQuery({
      path: "messages:page",
      args: { channel: "p", paginationOpts: { numItems: 3, cursor: null } },
      identity: null,
    });
    const page1 = first.outcome.status === "success" ? (first.outcome.value as Doc) : null;
    expect(page1!.page.map((d: Doc) => d.body)).toEqual(["m9", "m8", "m7"]);
    expect(first.journal).not.toBeNull();
    const second = await engine.runQuery({
      path: "messages:page",
      args: { channel: "p", paginationOpts: { numItems: 3, cursor: page1!.continueCursor } },
      identity: null,
    });
    const page2 = (second.outcome as { value: Doc }).value;
    expect(page2.page.map((d: Doc) => d.body)).toEqual(["m6", "m5", "m4"]);
    // Delete m8 and insert a newer message: page 1 re-run with its journal keeps its end (m7).
    const m8 = page1!.page[1]._id;
    await c.mutation("messages:remove", { id: m8 });
    await c.mutation("messages:send", { channel: "p", body: "m10", author: "a" });
    const rerun = await engine.runQuery({
      path: "messages:page",
      args: { channel: "p", paginationOpts: { numItems: 3, cursor: null } },
      identity: null,
      journal: first.journal,
    });
    expect(((rerun.outcome as { value: Doc }).value.page as Doc[]).map((d) => d.body)).toEqual(["m10", "m9", "m7"]);
    expect(rerun.journal).toBe(first.journal);
    const rerun2 = await engine.runQuery({
      path: "messages:page",
      args: { channel: "p", paginationOpts: { numItems: 3, cursor: page1!.continueCursor } },
      identity: null,
      journal: second.journal,
    });
    expect(((rerun2.outcome as { value: Doc }).value.page as Doc[]).map((d) => d.body)).toEqual(["m6", "m5", "m4"]);
  });

  it("filtered pagination and maximumRowsRead", async () => {
    await c.mutation("items:insertMany", {
      items: Array.from({ length: 12 }, (_, i) => ({ kind: i % 3 === 0 ? "x" : "y", n: i })),
    });
    const r = (await c.query("items:pageAll", { cursor: null, numItems: 2, kind: "x" })) as Doc;
    expect(r.page.map((d: Doc) => d.n)).toEqual([0, 3]);
    const r2 = (await c.query("items:pageAll", { cursor: r.continueCursor, numItems: 5, kind: "x" })) as Doc;
    expect(r2.page.map((d: Doc) => d.n)).toEqual([6, 9]);
    expect(r2.isDone).toBe(true);
  });

  it("a cursor continues only the query it came from, as on Convex (InvalidCursor)", async () => {
    const r = (await c.query("items:pageAll", { cursor: null, numItems: 1, kind: "x" })) as Doc;
    const INVALID =
      "InvalidCursor: Tried to run a query starting from a cursor, but it looks like this cursor is from a different query.";
    // another filter value, no filter: other queries
    await expect(c.query("items:pageAll", { cursor: r.continueCursor, numItems: 1, kind: "y" })).rejects.toThrow(
      INVALID,
    );
    await expect(c.query("items:pageAll", { cursor: r.continueCursor, numItems: 1 })).rejects.toThrow(INVALID);
    // the same query continues, whatever the page size
    const next = (await c.query("items:pageAll", { cursor: r.continueCursor, numItems: 3, kind: "x" })) as Doc;
    expect(next.page.map((d: Doc) => d.kind)).toEqual(["x", "x", "x"]);
    await expect(c.query("items:pageAll", { cursor: "not a cursor", numItems: 1 })).rejects.toThrow(/Invalid cursor/);
  });
});

describe("engine: search", () => {
  let engine: Engine & { dataDir: string };
  let c: ReturnType<typeof caller>;
  beforeAll(async () => {
    engine = await startEngine({ scheduler: false });
    c = caller(engine);
    const rows = [
      ["general", "the quick brown fox"],
      ["general", "a lazy dog sleeps"],
      ["random", "quick quick quick thinking"],
      ["general", "foxes and hounds"],
      ["random", "nothing relevant here"],
    ];
    for (const [channel, body] of rows) await c.mutation("messages:send", { channel, body, author: "s" });
  });
  afterAll(async () => {
    await engine.stop();
  });

  it("ranks by relevance, prefix-matches the last term, filters by equality", async () => {
    const quick = ((await c.query("messages:search", { query: "quick" })) as Doc[]).map((d) => d.body);
    expect(quick).toEqual(["quick quick quick thinking", "the quick brown fox"]);
    const prefix = ((await c.query("messages:search", { query: "fox" })) as Doc[]).map((d) => d.body).sort();
    expect(prefix).toEqual(["foxes and hounds", "the quick brown fox"]);
    const filtered = ((await c.query("messages:search", { query: "quick", channel: "general" })) as Doc[]).map(
      (d) => d.body,
    );
    expect(filtered).toEqual(["the quick brown fox"]);
    expect(await c.query("messages:search", { query: "   " })).toEqual([]);
    const id = (await c.mutation("messages:send", { channel: "general", body: "quick update", author: "s" })) as string;
    expect(((await c.query("messages:search", { query: "update" })) as Doc[]).map((d) => d._id)).toEqual([id]);
    await c.mutation("messages:edit", { id, body: "renamed" });
    expect(await c.query("messages:search", { query: "update" })).toEqual([]);
  });

  it("a search right after a large commit the writer holds back waits for it, apart from other requests", async () => {
    const store = (engine as unknown as { store: { behind: boolean } }).store;
    await c.mutation("messages:sendMany", { channel: "bulk", body: "walrus", count: 150 });
    expect(store.behind).toBe(true);
    const search = c.query("messages:search", { query: "walrus", channel: "bulk" });
    const plain = c.query("messages:list", { channel: "general" });
    expect(((await plain) as Doc[]).length).toBe(4);
    expect(((await search) as Doc[]).length).toBe(50); // as many as it takes: they are found
    expect(store.behind).toBe(false);
  });
});

describe("engine: storage, env, scheduler, backup", () => {
  it("stores, serves, lists and deletes files", async () => {
    const engine = await startEngine({ scheduler: false });
    const c = caller(engine);
    try {
      const id = (await c.action("files:storeText", { text: "hello file", contentType: "text/plain" })) as string;
      expect(await c.action("files:readText", { storageId: id })).toEqual({ text: "hello file", type: "text/plain" });
      expect(await c.query("files:url", { storageId: id })).toBe(`http://127.0.0.1:3210/api/storage/${id}`);
      const meta = (await c.query("files:meta", { storageId: id })) as Doc;
      expect(meta).toMatchObject({ _id: id, size: 10, contentType: "text/plain" });
      expect(meta.sha256).toBe(
        Buffer.from(await crypto.subtle.digest("SHA-256", new TextEncoder().encode("hello file"))).toString("base64"),
      );
      const url = (await c.mutation("files:generateUploadUrl")) as string;
      expect(url.startsWith("http://127.0.0.1:3210/api/storage/upload?token=")).toBe(true);
      const token = new URL(url).searchParams.get("token")!;
      const up = await engine.storeUpload(token, new TextEncoder().encode("uploaded"), "text/x-test");
      const blob = await engine.getStorageBlob(up);
      expect(Buffer.from(blob!.body).toString()).toBe("uploaded");
      expect(blob!.contentType).toBe("text/x-test");
      await expect(engine.storeUpload("bogus.token", new Uint8Array(1), null)).rejects.toThrow(/upload token/);
      expect(((await c.query("files:list")) as Doc[]).length).toBe(2);
      await c.mutation("files:attach", { storageId: up, name: "u" });
      await c.mutation("files:remove", { storageId: up });
      expect(await engine.getStorageBlob(up)).toBeNull();
      expect(await c.query("files:url", { storageId: up })).toBeNull();
    } finally {
      await engine.stop();
    }
  });

  it("env vars persist and are visible as process.env with the deployment URLs", async () => {
    const dataDir = tempDir();
    const engine = await startEngine({ dataDir, scheduler: false });
    engine.env.set("MY_SETTING", "on");
    expect(await caller(engine).query("actions:env", { name: "MY_SETTING" })).toBe("on");
    expect(await caller(engine).query("actions:env", { name: "CONVEX_SITE_URL" })).toBe("http://127.0.0.1:3211");
    expect(process.env.MY_SETTING).toBeUndefined();
    await engine.stop();
    const again = await startEngine({ dataDir, scheduler: false });
    expect(again.env.list()).toEqual({ MY_SETTING: "on" });
    again.env.remove("MY_SETTING");
    expect(await caller(again).query("actions:env", { name: "MY_SETTING" })).toBeNull();
    await again.stop();
  });

  it("reloads asked for at once run one after another: the build in use stays on disk and its actions run", async () => {
    const engine = await startEngine({ scheduler: false });
    try {
      const loads: string[] = [];
      const lines: string[] = [];
      const impl = engine as unknown as { opts: { log?: (l: string) => void } };
      impl.opts.log = (l) => lines.push(l);
      const reload = () => (engine as unknown as { reload(reason: "watch"): Promise<void> }).reload("watch");
      await Promise.all([reload(), reload(), reload(), reload()]);
      for (const l of lines) if (l.includes("functions reloaded")) loads.push(l);
      // one reload ran, the calls made meanwhile joined the one that waited to start
      expect(loads.length).toBeLessThanOrEqual(2);
      const cacheDir = path.join(engine.dataDir, "cache");
      expect(fs.readdirSync(cacheDir).length).toBeGreaterThan(0);
      expect(await caller(engine).action("actions:roundTrip", { channel: "reloads" })).toMatchObject({ count: 1 });
    } finally {
      await engine.stop();
    }
  });

  it("an environment change evaluates the modules' top-level code again, for queries and actions, without a new build", async () => {
    const engine = await startEngine({ scheduler: false });
    try {
      const builds = () => fs.readdirSync(path.join(engine.dataDir, "cache")).filter((d) => d.startsWith("build-"));
      const before = builds();
      expect(await caller(engine).query("moduleEnv:inQuery", {})).toBeNull();
      for (const value of ["first", "second"]) {
        engine.env.set("LB_MODULE_SETTING", value);
        await waitFor(
          () => caller(engine).query("moduleEnv:inQuery", {}),
          (v) => v === value,
          30_000,
        );
        expect(await caller(engine).action("moduleEnv:inAction", {})).toBe(value);
      }
      engine.env.remove("LB_MODULE_SETTING");
      await waitFor(
        () => caller(engine).query("moduleEnv:inQuery", {}),
        (v) => v === null,
        30_000,
      );
      expect(await caller(engine).action("moduleEnv:inAction", {})).toBeNull();
      expect(builds()).toEqual(before);
    } finally {
      await engine.stop();
    }
  });

  it("the host's own process.env stays writable while the runtime is installed (existing variables too)", async () => {
    const engine = await startEngine({ scheduler: false });
    try {
      process.env.LB_HOST_SETTING = "one";
      process.env.LB_HOST_SETTING = "two";
      expect(process.env.LB_HOST_SETTING).toBe("two");
      delete process.env.LB_HOST_SETTING;
      expect(process.env.LB_HOST_SETTING).toBeUndefined();
    } finally {
      await engine.stop();
    }
  });

  it("scheduled mutations run once, survive restarts, and only when the scheduler commits", async () => {
    const dataDir = tempDir();
    const engine = await startEngine({ dataDir });
    const c = caller(engine);
    await c.mutation("jobs:scheduleInsert", { delayMs: 0, note: "now" });
    await waitFor(
      () => c.query("jobs:events", { source: "scheduler" }),
      (v) => (v as Doc[]).length === 1,
    );
    const rolledBack = await c.mutationOutcome("jobs:scheduleInsert", { delayMs: 0, note: "never", fail: true });
    expect(rolledBack.status).toBe("error");
    const later = (await c.mutation("jobs:scheduleInsert", { delayMs: 700, note: "after-restart" })) as string;
    const canceled = (await c.mutation("jobs:scheduleInsert", { delayMs: 300, note: "canceled" })) as string;
    await c.mutation("jobs:cancel", { id: canceled });
    await engine.stop();

    const restarted = await startEngine({ dataDir });
    const c2 = caller(restarted);
    const events = (await waitFor(
      () => c2.query("jobs:events", { source: "scheduler" }),
      (v) => (v as Doc[]).length >= 2,
    )) as Doc[];
    await new Promise((r) => setTimeout(r, 400));
    const finalEvents = ((await c2.query("jobs:events", { source: "scheduler" })) as Doc[]).map((e) => e.note).sort();
    expect(finalEvents).toEqual(["after-restart", "now"]);
    expect(events.length).toBe(2);
    const job = (await c2.query("jobs:job", { id: later })) as Doc;
    expect(job).toMatchObject({ name: "jobs:doInsert", args: [{ note: "after-restart" }], state: { kind: "success" } });
    expect(typeof job.completedTime).toBe("number");
    expect(((await c2.query("jobs:job", { id: canceled })) as Doc).state).toEqual({ kind: "canceled" });
    await c2.mutation("jobs:scheduleAction", { note: "act" });
    await waitFor(
      () => c2.query("jobs:events", { source: "scheduler" }),
      (v) => (v as Doc[]).some((e) => e.note === "action:act"),
    );
    await restarted.stop();
  });

  it("exports and imports every table with ids preserved", async () => {
    const src = await startEngine({ scheduler: false });
    const c = caller(src);
    const mid = (await c.mutation("messages:send", { channel: "bk", body: "backup me", author: "a" })) as string;
    const uid = (await c.mutation("users:create", { name: "B", email: "b@x" })) as string;
    const fid = (await c.action("files:storeText", { text: "blob" })) as string;
    await c.mutation("items:insertMany", {
      items: [
        {
          kind: "k",
          n: 1,
          big: { $integer: Buffer.from([5, 0, 0, 0, 0, 0, 0, 0]).toString("base64") },
          data: { $bytes: "AQI=" },
        },
      ],
    });
    const lines: string[] = [];
    for await (const l of src.exportJsonl()) lines.push(l);
    await src.stop();

    const dst = await startEngine({ scheduler: false });
    async function* gen() {
      yield* lines;
    }
    const n = await dst.importJsonl(gen());
    expect(n).toBeGreaterThanOrEqual(4);
    const d = caller(dst);
    expect(((await d.query("messages:get", { id: mid })) as Doc).body).toBe("backup me");
    expect(((await d.query("users:byEmail", { email: "b@x" })) as Doc)._id).toBe(uid);
    expect(await d.action("files:readText", { storageId: fid })).toEqual({ text: "blob", type: "text/plain" });
    const items = (await d.query("items:range", {
      kind: "k",
      loInclusive: false,
      hiInclusive: false,
      order: "asc",
    })) as Doc[];
    expect(items[0].big).toEqual({ $integer: Buffer.from([5, 0, 0, 0, 0, 0, 0, 0]).toString("base64") });
    expect(((await d.query("messages:search", { query: "backup" })) as Doc[]).length).toBe(1);
    // New inserts after an import keep increasing creation times.
    const nid = (await d.mutation("messages:send", { channel: "bk", body: "after", author: "a" })) as string;
    const list = (await d.query("messages:list", { channel: "bk" })) as Doc[];
    expect(list.map((m) => m._id)).toEqual([mid, nid]);
    await dst.stop();
  });

  it("reloads changed modules in watch mode without losing data", async () => {
    const dir = tempDir();
    const fnDir = path.join(dir, "convex");
    fs.mkdirSync(fnDir);
    fs.writeFileSync(
      path.join(fnDir, "notes.ts"),
      `import { mutationGeneric, queryGeneric } from "convex/server";
export const add = mutationGeneric(async (ctx, { text }: { text: string }) => ctx.db.insert("notes", { text }));
export const list = queryGeneric(async (ctx) => (await ctx.db.query("notes").collect()).map((n) => n.text));
`,
    );
    // Resolve convex/server from the repo's node_modules.
    fs.symlinkSync(path.resolve("node_modules"), path.join(dir, "node_modules"));
    const engine = await startEngine({ functionsDir: fnDir, watch: true, scheduler: false });
    const c = caller(engine);
    await c.mutation("notes:add", { text: "kept" });
    fs.writeFileSync(
      path.join(fnDir, "notes.ts"),
      `import { mutationGeneric, queryGeneric } from "convex/server";
export const add = mutationGeneric(async (ctx, { text }: { text: string }) => ctx.db.insert("notes", { text }));
export const list = queryGeneric(async (ctx) => (await ctx.db.query("notes").collect()).map((n) => n.text.toUpperCase()));
`,
    );
    await waitFor(
      () => c.query("notes:list"),
      (v) => JSON.stringify(v) === JSON.stringify(["KEPT"]),
      10_000,
    );
    await engine.stop();
  });
});
