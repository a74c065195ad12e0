/** The client-side import driver with an in-memory transport: batching, resume, error decisions, cancel. */
import { describe, expect, test } from "vitest";
import { openDelimitedSource } from "@/lib/import/csvSource";
import { BATCH_LOOKUP_BUDGET } from "@convex/lib/import/rows";
import {
  ImportControl,
  MAX_BATCH_CHARS,
  runImport,
  type BatchResult,
  type ImportId,
  type ImportTransport,
  type StartArgs,
} from "@/lib/import/runner";
import type { ImportRow } from "@/lib/import/transform";
import { BatchSizer, batchRefusal, MIN_BATCH_ROWS, TARGET_BATCH_MS } from "@/lib/import/batchSizer";

const IMPORT_ID = "imp1" as ImportId;

/** Mirrors the server contract: idempotent by start row, gaps refused, names required. */
function fakeServer(opts: { failAfterBatches?: number; refusesAbove?: number; refusal?: string } = {}) {
  const state = {
    failAfterBatches: opts.failAfterBatches,
    nextRow: 1,
    processed: 0,
    imported: 0,
    duplicates: 0,
    failed: 0,
    rows: [] as ImportRow[],
    batches: 0,
    finished: false,
    started: [] as StartArgs[],
    timedOut: [] as number[],
    sizes: [] as number[],
  };
  const transport: ImportTransport = {
    start: async (a) => {
      state.started.push(a);
      return IMPORT_ID;
    },
    appendBatch: async ({ startRow, rows }): Promise<BatchResult> => {
      if (state.failAfterBatches !== undefined && state.batches >= state.failAfterBatches)
        throw new Error("connection lost");
      const counts = () => ({
        nextRow: state.nextRow,
        processed: state.processed,
        imported: state.imported,
        duplicates: state.duplicates,
        failed: state.failed,
        updated: 0,
      });
      if (startRow < state.nextRow) return { applied: false, ...counts(), errors: [] };
      if (startRow > state.nextRow) throw new Error("gap");
      // a batch too big (a slow machine's time, a transaction's reads): nothing of it is stored
      if (opts.refusesAbove !== undefined && rows.length > opts.refusesAbove) {
        state.timedOut.push(rows.length);
        throw new Error(opts.refusal ?? TIMED_OUT);
      }
      state.batches++;
      state.sizes.push(rows.length);
      const errors = [];
      for (const r of rows) {
        state.processed++;
        if (!r.fields.first_name || !r.fields.last_name) {
          state.failed++;
          errors.push({
            row: r.line,
            first_name: r.fields.first_name,
            last_name: r.fields.last_name,
            email: "",
            message: "Missing required fields (first name or last name)",
          });
        } else {
          state.imported++;
          state.rows.push(r);
        }
      }
      state.nextRow = rows[rows.length - 1].row + 1;
      return { applied: true, ...counts(), errors };
    },
    finish: async () => {
      state.finished = true;
    },
    fail: async () => undefined,
  };
  return { state, transport };
}

/** Convex's refusals of a batch too large, as the client hears them */
const TIMED_OUT = "[CONVEX M(imports:appendBatch)] Server Error\nFunction execution timed out (maximum duration: 1s)";
const TOO_MANY_READS =
  "[CONVEX M(imports:appendBatch)] [Request ID: 1f2e] Server Error\nUncaught Error: Too many reads in a single function execution (limit: 4096). Consider using smaller limits in your queries, paginating your queries, or using indexed queries with a selective index range expressions.";
/** a production deployment's: the reason redacted */
const REDACTED = "[CONVEX M(imports:appendBatch)] [Request ID: 1f2e] Server Error\n  Called by client";

const csv = (n: number, blankEvery = 0) =>
  "First,Last\n" +
  Array.from({ length: n }, (_, i) =>
    blankEvery && i % blankEvery === blankEvery - 1 ? ",Nofirst" : `F${i + 1},L${i + 1}`,
  ).join("\n") +
  "\n";
const mapping = { First: "first_name", Last: "last_name" };
/** The voter-file use the admin attested in the wizard (issue 39): sent with the start. */
const attestation = { state: "OH", use: "campaign" as const, useOther: null, attested: true };

describe("runImport", () => {
  test("sends consecutive batches and finishes with exact counts", async () => {
    const { state, transport } = fakeServer();
    const src = await openDelimitedSource(new Blob([csv(25)]), { sliceSize: 16 });
    const r = await runImport({
      attestation,
      source: src,
      transport,
      filename: "f.csv",
      mapping,
      batchSize: 10,
      errorMode: "ignore",
      sampleRows: [["F1", "L1"]],
    });
    expect(r).toMatchObject({ status: "completed", rowsRead: 25 });
    expect(state.batches).toBe(3);
    expect(state.rows.map((x) => x.row)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    expect(state.finished).toBe(true);
    expect(state.started[0].fieldDetails[0]).toMatchObject({
      column: "First",
      target: "first_name",
      fieldType: "existing",
      sample: ["F1"],
    });
    expect(state.started[0].attestation).toEqual(attestation);
  });

  test("interrupted, then resumed from nextRow: no row twice, none lost", async () => {
    const first = fakeServer({ failAfterBatches: 2 });
    await expect(
      runImport({
        attestation,
        source: await openDelimitedSource(new Blob([csv(50)])),
        transport: first.transport,
        filename: "f.csv",
        mapping,
        batchSize: 10,
      }),
    ).rejects.toThrow(/connection lost/);
    expect(first.state.nextRow).toBe(21);
    // the connection is back; the admin re-selects the same file: the runner skips rows below nextRow
    first.state.failAfterBatches = undefined;
    const resumed = await runImport({
      attestation,
      source: await openDelimitedSource(new Blob([csv(50)])),
      transport: first.transport,
      filename: "f.csv",
      mapping,
      batchSize: 10,
      resume: { importId: IMPORT_ID, nextRow: first.state.nextRow },
    });
    expect(resumed.status).toBe("completed");
    expect(first.state.rows.map((x) => x.row)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
  });

  test("ask mode: every failing row is asked about before it is sent (by its file line) until its kind is ignored", async () => {
    const asked: number[] = [];
    const decisions = ["skip", "skip", "ignore_similar"] as const;
    const { state, transport } = fakeServer();
    const r = await runImport({
      attestation,
      source: await openDelimitedSource(new Blob([csv(40, 5)])),
      transport,
      filename: "f.csv",
      mapping,
      batchSize: 10,
      errorMode: "ask",
      onRowError: async (e) => {
        // when asked, every row before the failing one is stored, and none after it
        expect(state.processed).toBe(e.row - 2);
        asked.push(e.row);
        return decisions[asked.length - 1] ?? "stop";
      },
    });
    // rows 5, 10 (same batch), 15 asked — lines 6, 11, 16 — then that kind is ignored
    expect(asked).toEqual([6, 11, 16]);
    expect(r.status).toBe("completed");
    expect(state.failed).toBe(8);
    expect(state.imported).toBe(32);
  });

  test("Stop Import keeps exactly the rows before the failing row", async () => {
    const stop = fakeServer();
    const r2 = await runImport({
      attestation,
      source: await openDelimitedSource(new Blob([csv(40, 7)])),
      transport: stop.transport,
      filename: "f.csv",
      mapping,
      batchSize: 10,
      onRowError: async () => "stop",
    });
    expect(r2.status).toBe("stopped");
    expect(stop.state.rows.map((x) => x.row)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(stop.state.failed).toBe(0);
    expect(stop.state.finished).toBe(false);
  });

  test("error rows carry the file's line numbers (blank lines and quoted line breaks counted)", async () => {
    const { state, transport } = fakeServer();
    const text = 'First,Last\nA,One\n\n"B\nmultiline",Two\n,NoFirst\n';
    const r = await runImport({
      attestation,
      source: await openDelimitedSource(new Blob([text])),
      transport,
      filename: "f.csv",
      mapping,
      errorMode: "ignore",
    });
    expect(r.status).toBe("completed");
    expect(state.rows.map((x) => [x.row, x.line])).toEqual([
      [1, 2],
      [2, 4],
    ]);
    expect(state.failed).toBe(1);
  });

  test("cancel between batches lets the batch already sent finish, with exact counts", async () => {
    const { state, transport } = fakeServer();
    const control = new ImportControl();
    const r = await runImport({
      attestation,
      source: await openDelimitedSource(new Blob([csv(50)])),
      transport,
      filename: "f.csv",
      mapping,
      batchSize: 10,
      pipeline: 2,
      control,
      onProgress: (p) => {
        if (p.processed >= 20) control.cancel();
      },
    });
    expect(r.status).toBe("cancelled");
    // Cancelled once 20 rows were confirmed; the third batch was already in flight (two at a time).
    expect(state.processed).toBe(30);
    expect(r.result.processed).toBe(state.processed);
    expect(state.finished).toBe(false);
  });

  test.each([
    ["runs out of time", TIMED_OUT],
    ["is over a transaction limit (too many reads)", TOO_MANY_READS],
    ["is refused without a reason (a production deployment)", REDACTED],
  ])("a batch that %s is sent again in halves, with the batches behind it: every row once", async (what, refusal) => {
    const { state, transport } = fakeServer({ refusesAbove: 40, refusal });
    const r = await runImport({
      attestation,
      source: await openDelimitedSource(new Blob([csv(500)])),
      transport,
      filename: "f.csv",
      mapping,
      batchSize: 200,
      errorMode: "ignore",
    });
    expect(r.status).toBe("completed");
    expect(state.timedOut.length).toBeGreaterThan(0);
    expect(Math.max(...state.sizes)).toBeLessThanOrEqual(40);
    expect(state.rows.map((x) => x.row)).toEqual(Array.from({ length: 500 }, (_, i) => i + 1));
    expect(state.processed).toBe(500);
    // over a limit, the rows' doing: refused on the way down only (200, 100, 50), never again
    if (what !== "runs out of time") expect(state.timedOut).toEqual([200, 100, 50]);
  });

  test("a batch is cut before its rows' planned lookups pass the budget, and before its values pass MAX_BATCH_CHARS", async () => {
    // rows matched by three name keys each: at most 1,000 a batch
    const names =
      "First,Last,DOB,Zip,Address\n" +
      Array.from({ length: 2_500 }, (_, i) => `F${i},L${i},1970-01-01,27701,${i} Main St`).join("\n") +
      "\n";
    const a = fakeServer();
    const r = await runImport({
      attestation,
      source: await openDelimitedSource(new Blob([names])),
      transport: a.transport,
      filename: "f.csv",
      mapping: { First: "first_name", Last: "last_name", DOB: "date_of_birth", Zip: "zip", Address: "address" },
      errorMode: "ignore",
    });
    expect(r.status).toBe("completed");
    expect(Math.max(...a.state.sizes)).toBe(BATCH_LOOKUP_BUDGET / 3);
    expect(a.state.rows.map((x) => x.row)).toEqual(Array.from({ length: 2_500 }, (_, i) => i + 1));
    // long values: a batch's characters stay within MAX_BATCH_CHARS
    const note = "x".repeat(9_000);
    const long = "First,Last,Note\n" + Array.from({ length: 600 }, (_, i) => `F${i},L${i},${note}`).join("\n") + "\n";
    const b = fakeServer();
    const chars: number[] = [];
    const transport: ImportTransport = {
      ...b.transport,
      appendBatch: async (args) => {
        chars.push(args.rows.reduce((n, row) => n + JSON.stringify(row.fields).length, 0));
        return await b.transport.appendBatch(args);
      },
    };
    await runImport({
      attestation,
      source: await openDelimitedSource(new Blob([long])),
      transport,
      filename: "f.csv",
      mapping: { First: "first_name", Last: "last_name", Note: "notes" },
      errorMode: "ignore",
    });
    expect(b.state.processed).toBe(600);
    expect(Math.max(...chars)).toBeLessThanOrEqual(MAX_BATCH_CHARS);
    expect(b.state.sizes.length).toBeGreaterThanOrEqual(Math.ceil((600 * 9_000) / MAX_BATCH_CHARS));
  });

  test("a row that alone runs out of time fails the import with the server's message", async () => {
    const { transport } = fakeServer({ refusesAbove: 0 });
    await expect(
      runImport({
        attestation,
        source: await openDelimitedSource(new Blob([csv(30)])),
        transport,
        filename: "f.csv",
        mapping,
        batchSize: 20,
        errorMode: "ignore",
      }),
    ).rejects.toThrow(/execution timed out/);
  });
});

describe("BatchSizer", () => {
  test("steers toward the target time per batch, at most doubling, within [MIN, max]", () => {
    const s = new BatchSizer(1_000);
    expect(s.size).toBe(250);
    s.observe(250, TARGET_BATCH_MS / 4); // four times faster than the target: grows, at most ×2
    expect(s.size).toBe(500);
    s.observe(500, TARGET_BATCH_MS / 4);
    expect(s.size).toBe(1_000);
    s.observe(1_000, TARGET_BATCH_MS / 8);
    expect(s.size).toBe(1_000);
    // a machine three times slower: 1,000 rows take three times the target
    for (let i = 0; i < 8; i++) s.observe(s.size, (s.size / 1_000) * 3 * TARGET_BATCH_MS);
    expect(s.size).toBeGreaterThan(300);
    expect(s.size).toBeLessThan(360);
    // the file's short last batch says nothing
    const before = s.size;
    s.observe(5, 10 * TARGET_BATCH_MS);
    expect(s.size).toBe(before);
  });

  test("a timed-out batch halves the size, down to MIN_BATCH_ROWS", () => {
    const s = new BatchSizer(1_000);
    expect(s.shrink(250)).toBe(true);
    expect(s.size).toBe(125);
    while (s.shrink(s.size));
    expect(s.size).toBe(MIN_BATCH_ROWS);
    expect(s.shrink(MIN_BATCH_ROWS)).toBe(false);
  });

  test("after a time-out the size grows back with the time; after a transaction limit it stays down", () => {
    const timed = new BatchSizer(1_000);
    timed.shrink(250, "time");
    for (let i = 0; i < 6; i++) timed.observe(timed.size, TARGET_BATCH_MS / 8);
    expect(timed.size).toBe(1_000);
    const limited = new BatchSizer(1_000);
    limited.shrink(250, "limit");
    for (let i = 0; i < 6; i++) limited.observe(limited.size, TARGET_BATCH_MS / 8);
    expect(limited.size).toBe(125);
  });

  test("Convex's time-out is the machine's; its transaction limits and a redacted refusal the rows'; nothing else counts", () => {
    const hear = (text: string) => new Error(`[CONVEX M(imports:appendBatch)] Server Error\nUncaught Error: ${text}`);
    expect(batchRefusal(hear("Function execution timed out (maximum duration: 1s)"))).toBe("time");
    for (const text of [
      "Too many reads in a single function execution (limit: 4096). Consider using smaller limits",
      "Too many documents read in a single function execution (limit: 32000).",
      "Too many bytes read in a single function execution (limit: 16777216 bytes).",
      "Too many writes in a single function execution (limit: 16000)",
      "Too many bytes written in a single function execution (limit: 16 MiB)",
      "Too many functions scheduled by this mutation (limit: 1000)",
      "Too large total size of the arguments of scheduled functions from this mutation (limit: 16777216 bytes)",
    ])
      expect(batchRefusal(hear(text))).toBe("limit");
    expect(batchRefusal(new Error(REDACTED))).toBe("limit");
    expect(batchRefusal(new Error("connection lost"))).toBeNull();
    expect(batchRefusal(new Error("This import is no longer running."))).toBeNull();
    expect(batchRefusal(hear("Rows 1 to 5 have not been imported yet."))).toBeNull();
  });
});
