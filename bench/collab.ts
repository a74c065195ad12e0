/**
 * Co-editing benchmark (`npm run bench:collab`). Starts the embedded backend on the app's convex/
 * folder in a temp dir (loopback only), signs members in, and drives ConvexYjsProvider instances on
 * `ConvexClient`s over WebSocket (src/lib/collab), printing:
 *   1. update round trip between two clients: a local edit in one document → applied in the other
 *      (goal p50 < 50 ms, p99 < 150 ms on the embedded backend);
 *   2. the same with 30 editors on one document, all typing at once (each edit timed to each of
 *      the 29 others), and whether all 30 copies converged;
 *   3. loading a document with 10,000 past updates (a fresh client until synced) before and after
 *      compaction, with the compaction's time and per-transaction usage against Convex's limits.
 * BENCH_COLLAB_UPDATES=<n> changes the 10,000; BENCH_COLLAB_EDITORS=<n> the 30.
 */
import os from "node:os";
import { convexToJson, jsonToConvex } from "convex/values";
import * as Y from "yjs";
import { api } from "../convex/_generated/api";
import { ConvexYjsProvider } from "../src/lib/collab/convexYjsProvider";
import { startAppBackendInProcess, type AppMember, type InProcessAppBackend } from "../tests/support/appBackend";
import { formatTransactionStats } from "./txStats";
import { speedIndexLine } from "./speedIndex";
import { runBench } from "./run";

const PAST_UPDATES = Number(process.env.BENCH_COLLAB_UPDATES ?? 10_000);
const EDITORS = Number(process.env.BENCH_COLLAB_EDITORS ?? 30);
const ROUND_TRIPS = 300;

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
function stats(samples: number[]): string {
  const s = [...samples].sort((a, b) => a - b);
  return `p50 ${pct(s, 50).toFixed(1)} ms  p99 ${pct(s, 99).toFixed(1)} ms  (n=${s.length})`;
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function open(app: InProcessAppBackend, member: AppMember, room: string) {
  const client = app.client(member);
  const doc = new Y.Doc();
  const provider = new ConvexYjsProvider(client, room, doc);
  return { client, doc, provider };
}

/** Resolves when `predicate` holds, checked on each change of `doc`. */
function when(doc: Y.Doc, predicate: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    if (predicate()) return resolve();
    const check = () => {
      if (!predicate()) return;
      doc.off("update", check);
      resolve();
    };
    doc.on("update", check);
  });
}

async function roundTrips(app: InProcessAppBackend, members: AppMember[]) {
  const room = await app.campaignRoom(members[0].orgId);
  const a = open(app, members[0], room);
  const b = open(app, members[1], room);
  await Promise.all([a.provider.whenSynced, b.provider.whenSynced]);
  const samples: number[] = [];
  for (let i = 0; i < ROUND_TRIPS + 20; i++) {
    const [from, to] = i % 2 === 0 ? [a, b] : [b, a];
    const arrived = when(to.doc, () => to.doc.getMap("m").get("n") === i);
    const t0 = performance.now();
    from.doc.getMap("m").set("n", i);
    await arrived;
    if (i >= 20) samples.push(performance.now() - t0);
    // a pause between edits, as typing has: each edit goes out on its own
    await sleep(35);
  }
  a.provider.destroy();
  b.provider.destroy();
  await Promise.all([a.client.close(), b.client.close()]);
  return samples;
}

async function manyEditors(app: InProcessAppBackend, members: AppMember[], editors: number, seconds: number) {
  const room = await app.campaignRoom(members[0].orgId);
  const peers = Array.from({ length: editors }, (_, i) => open(app, members[i % members.length], room));
  await Promise.all(peers.map((p) => p.provider.whenSynced));
  const samples: number[] = [];
  // each peer records, for every other editor's stamp it sees change, how long it took
  peers.forEach((p, i) => {
    const seen = new Map<string, number>();
    p.doc.getMap<number>("stamps").observe((e) => {
      const now = performance.now();
      for (const key of e.keysChanged) {
        if (key === `e${i}`) continue;
        const t = p.doc.getMap<number>("stamps").get(key);
        if (t === undefined || seen.get(key) === t) continue;
        seen.set(key, t);
        samples.push(now - t);
      }
    });
  });
  let edits = 0;
  const until = performance.now() + seconds * 1000;
  await Promise.all(
    peers.map(async (p, i) => {
      await sleep(Math.random() * 500);
      while (performance.now() < until) {
        p.doc.transact(() => {
          const body = p.doc.getText("body");
          body.insert(Math.floor(Math.random() * (body.length + 1)), `${i}.`);
          p.doc.getMap<number>("stamps").set(`e${i}`, performance.now());
        });
        edits += 1;
        // about two edits a second each, like people typing in bursts
        await sleep(300 + Math.random() * 400);
      }
    }),
  );
  await Promise.all(peers.map((p) => p.provider.flush()));
  const first = peers[0].doc;
  const converged = await Promise.race([
    Promise.all(
      peers.map((p) =>
        when(
          p.doc,
          () =>
            p.doc.getText("body").toJSON() === first.getText("body").toJSON() &&
            p.provider.cursor === peers[0].provider.cursor,
        ),
      ),
    ).then(() => true),
    sleep(20_000).then(() => false),
  ]);
  for (const p of peers) p.provider.destroy();
  await Promise.all(peers.map((p) => p.client.close()));
  return { samples, edits, converged };
}

async function loadTimes(app: InProcessAppBackend, member: AppMember, room: string, runs: number) {
  const times: number[] = [];
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    const c = open(app, member, room);
    await c.provider.whenSynced;
    times.push(performance.now() - t0);
    c.provider.destroy();
    await c.client.close();
  }
  return times;
}

async function compactionPhase(members: AppMember[] | null) {
  // the scheduler is off so the document keeps all its updates until compaction is run here
  const app = await startAppBackendInProcess({ scheduler: false });
  try {
    const m = members ?? [await app.member(["campaign_manager"], { firstName: "Load" })];
    const member = m[0];
    const room = await app.campaignRoom(member.orgId);
    const client = app.client(member);
    const doc = new Y.Doc();
    const updates: Uint8Array[] = [];
    doc.on("update", (u: Uint8Array) => updates.push(u));
    for (let i = 0; i < PAST_UPDATES; i++) {
      doc.transact(() => {
        const body = doc.getText("body");
        if (i % 10 === 9 && body.length > 20) body.delete(Math.floor(Math.random() * (body.length - 5)), 3);
        else body.insert(Math.floor(Math.random() * (body.length + 1)), `w${i} `);
        if (i % 25 === 0) doc.getMap("canvas").set(`o${i % 200}`, { x: i, y: i % 300 });
      });
    }
    const t0 = performance.now();
    for (let i = 0; i < updates.length; i += 200) {
      const batch = updates.slice(i, i + 200);
      await Promise.all(
        batch.map((u, k) =>
          client.mutation(api.yjs.push, {
            docId: room,
            sessionId: "bench-writer",
            clientSeq: i + k + 1,
            update: u.buffer.slice(u.byteOffset, u.byteOffset + u.byteLength) as ArrayBuffer,
          }),
        ),
      );
    }
    const pushS = (performance.now() - t0) / 1000;
    await client.mutation(api.yjs.ack, { docId: room, sessionId: "bench-writer", seq: updates.length });
    const bytes = updates.reduce((n, u) => n + u.byteLength, 0);
    console.log(
      `document with ${updates.length.toLocaleString()} past updates (${(bytes / 1024).toFixed(0)} KiB), pushed in ${pushS.toFixed(1)} s (${Math.round(updates.length / pushS)} pushes/s)`,
    );

    await loadTimes(app, member, room, 1); // warm-up
    const before = await loadTimes(app, member, room, 5);
    console.log(
      `  load before compaction:  median ${median(before).toFixed(0)} ms  (runs: ${before.map((t) => t.toFixed(0)).join(", ")})`,
    );

    const docRef = await app.run(
      async (ctx) => (await ctx.db.query("yDocs").collect()).find((d) => d.docId === room)!._id,
    );
    app.backend.engine.transactionStats({ reset: true });
    const c0 = performance.now();
    let steps = 0;
    type Step = { snapshotBytes: number; snapshotSeq: number; deletedThrough: number; next: string } | null;
    let last: Step = null;
    for (;;) {
      const r = await app.backend.engine.runMutation({
        path: "yjs:compact",
        args: convexToJson({ docRef: docRef }),
        identity: null,
        internal: true,
      });
      if (r.outcome.status !== "success") throw new Error(`compact: ${r.outcome.errorMessage}`);
      steps += 1;
      last = jsonToConvex(r.outcome.value) as Step;
      if (last?.next !== "now") break;
    }
    const compactMs = performance.now() - c0;
    console.log(
      `  compaction: ${steps} steps, ${compactMs.toFixed(0)} ms; snapshot ${(last!.snapshotBytes / 1024).toFixed(0)} KiB at seq ${last!.snapshotSeq}, updates deleted through ${last!.deletedThrough}`,
    );
    console.log(formatTransactionStats(app.backend.engine.transactionStats()).replace(/^/gm, "    "));
    const after = await loadTimes(app, member, room, 5);
    console.log(
      `  load after compaction:   median ${median(after).toFixed(0)} ms  (runs: ${after.map((t) => t.toFixed(0)).join(", ")})`,
    );
    // the compacted document holds the same content
    const check = open(app, member, room);
    await check.provider.whenSynced;
    console.log(
      `  content identical after compaction: ${check.doc.getText("body").toJSON() === doc.getText("body").toJSON() && JSON.stringify(check.doc.getMap("canvas").toJSON()) === JSON.stringify(doc.getMap("canvas").toJSON())}`,
    );
    check.provider.destroy();
  } finally {
    await app.stop();
  }
}

async function main() {
  console.log(speedIndexLine());
  console.log(`co-editing bench  node ${process.version}  ${os.cpus()[0]?.model ?? ""} x${os.cpus().length}`);
  const app = await startAppBackendInProcess();
  try {
    const a = await app.member(["campaign_manager"], { firstName: "Ann" });
    const members = [
      a,
      ...(await Promise.all(
        ["Ben", "Cat"].map((n) => app.member(["campaign_manager"], { orgId: a.orgId, firstName: n })),
      )),
    ];
    console.log(
      `update round trip, 2 clients:            ${stats(await roundTrips(app, members))}   goal p50 < 50 ms, p99 < 150 ms`,
    );
    app.backend.engine.transactionStats({ reset: true });
    const many = await manyEditors(app, members, EDITORS, 10);
    console.log(
      `update delivery, ${EDITORS} editors typing at once: ${stats(many.samples)}   (${many.edits} edits in 10 s, each timed to the ${EDITORS - 1} others; converged: ${many.converged})`,
    );
    console.log(formatTransactionStats(app.backend.engine.transactionStats()).replace(/^/gm, "    "));
  } finally {
    await app.stop();
  }
  await compactionPhase(null);
}

runBench(main);
