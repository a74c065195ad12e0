/**
 * Canvassing benchmark (`npm run bench:canvass`, issue 38). Starts the app's backend in this
 * process on a new data dir, seeds a synthetic county's voters and doors, walk lists of at most 50
 * canvassers each with a script survey, then has every canvasser sync their outbox over their own
 * WebSocket client as their day goes: a result every 2 minutes of the day (the day compressed
 * BENCH_CANVASS_SPEEDUP times), each sent when recorded, except in spells without signal (the
 * backlog goes at once when signal returns, up to 100 a call); a batch now and then sent again, as
 * an outbox does when an acknowledgement is lost; once in the day, at a random point, everything sent
 * so far sent again (a reinstalled app's restored outbox); the whole outbox once more at the end. Prints:
 *   1. recorded / duplicate / refused outcomes, and the check: every action recorded exactly once
 *      (0 lost, 0 duplicated), read back from the events and from the dashboard's tallies;
 *   2. sync → the organiser's live dashboard showing it: p50 / p99 (goal p99 ≤ 1 s), measured on the
 *      organiser's subscription to each list's dashboard (the canvasser's attempts reaching the count
 *      their sync made);
 *   3. the dashboard query on a list with BENCH_CANVASS_DASH attempts (goal ≤ 200 ms);
 * then the largest per-transaction use against Convex's limits.
 *   BENCH_CANVASSERS=200 BENCH_CANVASS_RESULTS=300 BENCH_CANVASS_DASH=100000 BENCH_CANVASS_SPEEDUP=120
 * BENCH_PROFILE=dir writes a CPU profile of the engine's thread over the syncs (step 2) there.
 */
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import type { FunctionArgs } from "convex/server";
import { api } from "../convex/_generated/api";
import type { Id } from "../convex/_generated/dataModel";
import { RESULT_CODES, type ResultCode } from "../convex/lib/canvass";
import { startAppBackendInProcess, type AppMember } from "../tests/support/appBackend";
import { seededRandom, syntheticCounty } from "../tests/support/syntheticCounty";
import { seedVoters } from "../tests/support/turfSeed";
import { formatTransactionStats } from "./txStats";
import { speedIndexLine } from "./speedIndex";
import { runBench } from "./run";

const CANVASSERS = Number(process.env.BENCH_CANVASSERS ?? 200);
const RESULTS = Number(process.env.BENCH_CANVASS_RESULTS ?? 300);
const DASH_ATTEMPTS = Number(process.env.BENCH_CANVASS_DASH ?? 100_000);
/**
 * How much faster than real time the canvassers' day runs: at 120, a result every 2 minutes of a
 * 10-hour day comes every second, and 200 canvassers send 200 results a second at the start of
 * their shifts (a real peak is a few a second).
 */
const SPEEDUP = Number(process.env.BENCH_CANVASS_SPEEDUP ?? 120);
/** A result every 2 minutes; a spell without signal follows 1 in 30 results and lasts 2–20 minutes (of the day). */
const RESULT_EVERY_MS = 120_000;
const NO_SIGNAL_CHANCE = 1 / 30;
const NO_SIGNAL_MS = [120_000, 1_200_000] as const;
/** Canvassers per walk list (a list has at most 50) and doors per list (a turf holds at most 2,500). */
const PER_LIST = 50;
const LIST_DOORS = 1_000;
const SEED_BATCH = 400;

type SyncEvent = FunctionArgs<typeof api.canvass.sync>["events"][number];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
function stats(samples: number[]): string {
  const s = [...samples].sort((a, b) => a - b);
  return `p50 ${pct(s, 50).toFixed(0)} ms  p99 ${pct(s, 99).toFixed(0)} ms  max ${s[s.length - 1].toFixed(0)} ms  (n=${s.length})`;
}
const s = (msv: number) => `${(msv / 1000).toFixed(1)} s`;

const PAGES = [
  {
    id: "p1",
    title: "Page 1",
    condition: null,
    fields: [
      {
        id: "support",
        type: "radio" as const,
        label: "Will you support Lee?",
        placeholder: null,
        description: null,
        required: false,
        options: ["Yes", "No", "Undecided"],
        maxRating: null,
        ratingType: null,
        min: null,
        max: null,
        step: null,
        condition: null,
      },
    ],
  },
];

/** A canvasser's day: results door after door in walking order, two minutes apart, a third of them contacts. */
function outbox(
  who: number,
  doors: { _id: Id<"doors">; voterIds: Id<"voters">[]; lat: number; lng: number }[],
  n: number,
  random: () => number,
  start: number,
): SyncEvent[] {
  const out: SyncEvent[] = [];
  let k = Math.floor(random() * doors.length);
  for (let i = 0; i < n; i++) {
    const door = doors[k++ % doors.length];
    const r = random();
    const result: ResultCode =
      r < 0.33 ? "contacted" : r < 0.8 ? "not_home" : RESULT_CODES[2 + Math.floor(random() * 5)];
    const contacted = result === "contacted";
    out.push({
      clientId: `w${who}-${i}-${Math.floor(random() * 1e9).toString(36)}`,
      seq: i + 1,
      doorId: door._id,
      voterId: result === "deceased" || contacted ? door.voterIds[0] : null,
      result,
      answers: contacted ? { support: ["Yes", "No", "Undecided"][Math.floor(random() * 3)] } : null,
      notes: random() < 0.1 ? "Asked about the school levy" : null,
      at: start + i * 120_000,
      gps: random() < 0.5 ? { lat: door.lat + (random() - 0.5) * 0.0005, lng: door.lng, accuracy: 12 } : undefined,
    });
  }
  return out;
}

async function main() {
  console.log(speedIndexLine());
  const lists = Math.ceil(CANVASSERS / PER_LIST);
  const county = syntheticCounty(38, "EDGES", {
    blocks: Math.max(20, Math.ceil(Math.sqrt((lists * LIST_DOORS) / 30))),
  });
  const houses = county.houses.slice(0, lists * LIST_DOORS);
  console.log(
    `canvass bench  ${CANVASSERS} canvassers × ${RESULTS} results on ${lists} lists of ≤ ${LIST_DOORS} doors  node ${process.version}  ${os.cpus()[0]?.model ?? ""} × ${os.cpus().length}`,
  );
  const app = await startAppBackendInProcess();
  try {
    const cm = await app.member(["campaign_manager"], { firstName: "Organiser" });
    const orgId = cm.orgId;
    const t0 = performance.now();
    for (let done = 0; done < houses.length; done += SEED_BATCH)
      await app.run((ctx) =>
        seedVoters(
          ctx,
          orgId,
          houses.slice(done, done + SEED_BATCH).map((house, i) => ({ house, first: `V${done + i}` })),
        ),
      );
    const surveyId = await app.run((ctx) =>
      ctx.db.insert("surveys", {
        orgId,
        name: "Doorstep script",
        description: null,
        recipient: null,
        pages: PAGES,
        settings: { allowMultipleSubmissions: false, showProgressBar: false },
        version: 1,
        submissionCount: 0,
        createdBy: cm.userId,
        updatedAt: Date.now(),
        updatedBy: cm.userId,
      }),
    );
    const canvassers: AppMember[] = [];
    for (let i = 0; i < CANVASSERS; i++)
      canvassers.push(await app.member(["volunteer"], { orgId, firstName: `Canvasser${i}` }));
    const organiser = app.client(cm);
    const listIds: Id<"walkLists">[] = [];
    const listDoors: Awaited<ReturnType<typeof doorsOf>>[] = [];
    async function doorsOf(listId: Id<"walkLists">) {
      return app.run(async (ctx) => {
        const l = (await ctx.db.get("walkLists", listId))!;
        const doors = await Promise.all(l.doorIds.map((id) => ctx.db.get("doors", id)));
        return doors
          .filter((d) => d !== null)
          .map((d) => ({ _id: d._id, voterIds: d.voterIds, lat: d.lat, lng: d.lng }));
      });
    }
    for (let l = 0; l < lists; l++) {
      const keys = new Set(houses.slice(l * LIST_DOORS, (l + 1) * LIST_DOORS).map((h) => `${h.number} ${h.fullName}`));
      const turfId = await app.run(async (ctx) => {
        const doors = (await ctx.db.query("doors").collect()).filter((d) => keys.has(`${d.number} ${d.street}`));
        return ctx.db.insert("turfs", {
          orgId,
          name: `Turf ${l + 1}`,
          doorIds: doors.map((d) => d._id),
          doors: doors.length,
          voters: doors.length,
          source: "drawn",
          sourceLabel: "drawn",
          area: null,
          filters: {},
          bbox: [0, 0, 0, 0],
          archived: false,
          createdBy: cm.userId,
          createdByName: "Organiser",
          createdAt: Date.now(),
        });
      });
      const made = await organiser.mutation(api.walkLists.create, {
        name: `List ${l + 1}`,
        turfId,
        surveyId,
        status: "Active",
        assignees: canvassers.slice(l * PER_LIST, (l + 1) * PER_LIST).map((c) => c.userId),
        leaveOutTaken: true,
      });
      listIds.push(made.id);
      listDoors.push(await doorsOf(made.id));
    }
    console.log(
      `seeded ${houses.length.toLocaleString()} voters, ${listDoors.reduce((n, d) => n + d.length, 0).toLocaleString()} doors in ${lists} lists, ${CANVASSERS} canvassers in ${s(performance.now() - t0)}`,
    );
    app.backend.engine.transactionStats({ reset: true });

    // the organiser watches every list's dashboard: a canvasser's sync is waited for until their attempts show
    const seen = new Map<string, number>();
    const waiting: { key: string; target: number; resolve: () => void }[] = [];
    const unsubscribes = listIds.map((listId) =>
      organiser.onUpdate(api.canvass.dashboard, { listId }, (board) => {
        for (const c of board.canvassers) seen.set(c.id, c.attempts);
        for (let i = waiting.length - 1; i >= 0; i--)
          if ((seen.get(waiting[i].key) ?? 0) >= waiting[i].target) {
            waiting[i].resolve();
            waiting.splice(i, 1);
          }
      }),
    );
    await sleep(500);

    // 1 + 2. everyone syncs at once, in bursts, with replays
    const random = seededRandom(38);
    const counts = { recorded: 0, duplicate: 0, refused: 0, calls: 0 };
    const refusals = new Map<string, number>();
    const latencies: number[] = [];
    const callTimes: number[] = [];
    const start = Date.now() - 12 * 3_600_000;
    const outboxes = canvassers.map((_, i) =>
      outbox(i, listDoors[Math.floor(i / PER_LIST)], RESULTS, random, start + i * 1_000),
    );
    // each canvasser's app is open and connected before they start (its first call is not timed)
    const clients = canvassers.map((member) => app.client(member));
    await Promise.all(
      clients.map(async (c, i) => {
        await c.query(api.canvass.myLists, {});
        // an empty sync: the function's first run in each of the backend's workers is not timed either
        await c.mutation(api.canvass.sync, { listId: listIds[Math.floor(i / PER_LIST)], events: [] });
      }),
    );
    const profiler = process.env.BENCH_PROFILE ? new Session() : null;
    if (profiler) {
      profiler.connect();
      await profiler.post("Profiler.enable");
      await profiler.post("Profiler.start");
    }
    const t1 = performance.now();
    await Promise.all(
      canvassers.map(async (member, i) => {
        const client = clients[i];
        const listId = listIds[Math.floor(i / PER_LIST)];
        const mine = outboxes[i];
        const r = seededRandom(1_000 + i);
        let recorded = 0;
        const send = async (events: SyncEvent[]) => {
          const tSync = performance.now();
          const res = await client.mutation(api.canvass.sync, { listId, events });
          callTimes.push(performance.now() - tSync);
          if (process.env.BENCH_CANVASS_TRACE)
            console.log(
              `  call ${i} n=${events.length} at ${(tSync - t1).toFixed(0)} took ${(performance.now() - tSync).toFixed(0)}`,
            );
          counts.calls++;
          let fresh = 0;
          for (const o of res.outcomes) {
            counts[o.status]++;
            if (o.status === "recorded") fresh++;
            if (o.status === "refused") refusals.set(o.message ?? "", (refusals.get(o.message ?? "") ?? 0) + 1);
          }
          if (fresh > 0) {
            recorded += fresh;
            const target = recorded;
            if ((seen.get(member.userId) ?? 0) >= target) latencies.push(performance.now() - tSync);
            else
              await new Promise<void>((resolve) =>
                waiting.push({
                  key: member.userId,
                  target,
                  resolve: () => {
                    latencies.push(performance.now() - tSync);
                    resolve();
                  },
                }),
              );
          }
        };
        // shifts start within the first 2 minutes (of the day); result j is recorded at `ready(j)`
        const shiftStart = t1 + (r() * RESULT_EVERY_MS) / SPEEDUP;
        const ready = (j: number) => shiftStart + (j * RESULT_EVERY_MS) / SPEEDUP;
        let k = 0;
        let signalAt = 0;
        const restoreAfter = Math.floor(r() * mine.length);
        let restored = false;
        while (k < mine.length) {
          const now = performance.now();
          if (now < signalAt) await sleep(signalAt - now);
          else if (now < ready(k)) await sleep(ready(k) - now);
          // what the outbox holds now: everything recorded so far (a backlog after a spell without signal)
          let m = k;
          while (m < mine.length && m - k < 100 && ready(m) <= performance.now()) m++;
          if (m === k) continue;
          const batch = mine.slice(k, m);
          await send(batch);
          // an acknowledgement lost: the outbox sends the same batch again
          if (r() < 0.05) await send(batch);
          k = m;
          if (!restored && k >= restoreAfter) {
            restored = true;
            for (let j = 0; j < k; j += 100) await send(mine.slice(j, Math.min(k, j + 100)));
          }
          if (r() < NO_SIGNAL_CHANCE)
            signalAt = performance.now() + (NO_SIGNAL_MS[0] + r() * (NO_SIGNAL_MS[1] - NO_SIGNAL_MS[0])) / SPEEDUP;
        }
        // the whole outbox once more (a reinstalled app's restored outbox)
        for (let j = 0; j < mine.length; j += 100) await send(mine.slice(j, j + 100));
      }),
    );
    const syncMs = performance.now() - t1;
    if (profiler) {
      const { profile } = await profiler.post("Profiler.stop");
      const file = path.join(process.env.BENCH_PROFILE!, `canvass-sync-${Date.now()}.cpuprofile`);
      writeFileSync(file, JSON.stringify(profile));
      profiler.disconnect();
      console.log(`   CPU profile of the syncs: ${file}`);
    }
    for (const u of unsubscribes) u();
    const expected = CANVASSERS * RESULTS;
    console.log(
      `\n1. ${counts.calls.toLocaleString()} sync calls in ${s(syncMs)} (${Math.round(((counts.recorded + counts.duplicate) * 1000) / syncMs)} actions/s): ${counts.recorded.toLocaleString()} recorded, ${counts.duplicate.toLocaleString()} duplicate, ${counts.refused.toLocaleString()} refused (expected ${expected.toLocaleString()} recorded)`,
    );
    for (const [m, n] of refusals) console.log(`   refused ×${n}: ${m}`);
    // read back: every client id once, the tallies adding up
    const ids = new Map<string, number>();
    let cursor: string | null = null;
    for (;;) {
      const page: { ids: string[]; cursor: string; done: boolean } = await app.run(async (ctx) => {
        const p = await ctx.db.query("canvassEvents").paginate({ cursor, numItems: 4_000 });
        return { ids: p.page.map((e) => e.clientId), cursor: p.continueCursor, done: p.isDone };
      });
      for (const id of page.ids) ids.set(id, (ids.get(id) ?? 0) + 1);
      if (page.done) break;
      cursor = page.cursor;
    }
    const all = outboxes.flat().map((e) => e.clientId);
    const lost = all.filter((id) => !ids.has(id)).length;
    const doubled = [...ids.values()].filter((n) => n > 1).length;
    let tallied = 0;
    for (const listId of listIds) tallied += (await organiser.query(api.canvass.dashboard, { listId })).list.attempts;
    console.log(
      `   events stored ${[...ids.values()].reduce((a, b) => a + b, 0).toLocaleString()}: lost ${lost}, duplicated ${doubled}; dashboard attempts ${tallied.toLocaleString()}  ${lost === 0 && doubled === 0 && tallied === expected ? "OK" : "MISMATCH"}`,
    );
    console.log(`2. sync → organiser's dashboard updated: ${stats(latencies)}  (goal p99 ≤ 1,000 ms)`);
    console.log(`   the sync call itself (to its acknowledgement): ${stats(callTimes)}`);
    const conc = app.backend.engine.concurrency();
    console.log(
      `   mutations run again after a conflict: ${conc.conflicts.toLocaleString()}, under the write lock: ${conc.exclusiveRuns.toLocaleString()}`,
    );
    console.log(formatTransactionStats(app.backend.engine.transactionStats({ reset: true })).replace(/^/gm, "   "));

    // 3. the dashboard of a list with DASH_ATTEMPTS attempts: the organiser records the rest through sync
    const listId = listIds[0];
    const doors = listDoors[0];
    let attempts = (await organiser.query(api.canvass.dashboard, { listId })).list.attempts;
    const t3 = performance.now();
    let seq = 0;
    while (attempts < DASH_ATTEMPTS) {
      const events = outbox(9_999, doors, Math.min(100, DASH_ATTEMPTS - attempts), random, 0).map((e) => {
        seq++;
        return { ...e, seq, clientId: `dash-${seq}`, at: start - 30 * 86_400_000 + seq * 40_000 };
      });
      const res = await organiser.mutation(api.canvass.sync, { listId, events });
      attempts += res.outcomes.filter((o) => o.status === "recorded").length;
    }
    if (seq > 0) console.log(`\n   ${seq.toLocaleString()} more results on "List 1" in ${s(performance.now() - t3)}`);
    // each query after a result changed the list's tallies (a cached answer would time nothing)
    const times: number[] = [];
    let board = await organiser.query(api.canvass.dashboard, { listId });
    for (let i = 0; i < 30; i++) {
      seq++;
      const [e] = outbox(9_999, doors, 1, random, 0);
      await organiser.mutation(api.canvass.sync, {
        listId,
        events: [{ ...e, seq, clientId: `dash-${seq}`, at: start - 30 * 86_400_000 + seq * 40_000 }],
      });
      const q0 = performance.now();
      board = await organiser.query(api.canvass.dashboard, { listId });
      times.push(performance.now() - q0);
    }
    console.log(
      `3. dashboard of a list with ${board.list.attempts.toLocaleString()} attempts, ${board.canvassers.length} canvassers, ${board.flags.length} flags shown: ${stats(times)}  (goal ≤ 200 ms)`,
    );
    const map: number[] = [];
    for (let i = 0; i < 10; i++) {
      const q0 = performance.now();
      await organiser.query(api.canvass.doorStatesOf, { listId });
      map.push(performance.now() - q0);
    }
    console.log(`   the map's door states (${doors.length.toLocaleString()} doors): ${stats(map)}`);
    console.log(formatTransactionStats(app.backend.engine.transactionStats({ reset: true })).replace(/^/gm, "   "));
  } finally {
    await app.stop();
  }
}

runBench(main);
