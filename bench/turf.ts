/**
 * Turf benchmark (`npm run bench:turf`, issue 37), on a fresh embedded backend through the app's
 * functions, on a synthetic county's houses (one door each, its voter placed where the house is):
 *   1. live count while drawing: the doors and voters of a polygon over ~half the doors (BENCH_DOORS
 *      = 100,000 → ~50,000; goal ≤ 200 ms per answer, through HTTP);
 *   2. auto-cut: all doors into turfs of BENCH_TARGET doors (goal ≤ 15 s for 100,000; ≥ 95 % of
 *      turfs within ±20 % of the target);
 *   3. walking order of 150 doors: the pure ordering (goal ≤ 300 ms; route ≤ 1.15× a 2-opt route
 *      over the doors) and making a walk list of them on the server (which orders them);
 *   4. districts: BENCH_DISTRICT_VOTERS geocoded voters assigned to 5 boundary layers (goal ≤ 2 min
 *      for 1,000,000; bench/turfDistricts.ts, on a fresh backend; 0 skips it);
 * then the machine's speed index and the largest per-transaction use against Convex's limits.
 *   BENCH_DOORS=100000  BENCH_TARGET=150  BENCH_DISTRICT_VOTERS=1000000
 */
import fs from "node:fs";
import os from "node:os";
import { performance } from "node:perf_hooks";
import { convexToJson } from "convex/values";
import { makeFunctionReference } from "convex/server";
import { api } from "../convex/_generated/api";
import type { Id } from "../convex/_generated/dataModel";
import { doorAddress } from "../convex/lib/turf/doorAddress";
import { routeLength, twoOptReference, walkOrder } from "../convex/lib/turf/walkOrder";
import { seededRandom, syntheticCounty, type SyntheticHouse } from "../tests/support/syntheticCounty";
import { benchSession, startBenchBackend } from "./session";
import { speedIndexLine } from "./speedIndex";
import { benchDistricts } from "./turfDistricts";
import { formatTransactionStats } from "./txStats";
import { runBench } from "./run";

/** A voter's phone (E.164, as the app keeps it). */
const phoneOf = (i: number) => `+1217${String(2_000_000 + i).padStart(7, "0")}`;
const DOORS = Number(process.env.BENCH_DOORS ?? 100_000);
const TARGET = Number(process.env.BENCH_TARGET ?? 150);
const SEED_BATCH = 500;
const ADMIN_KEY = "bench-turf-admin";
const internalMutation = (name: string) => makeFunctionReference<"mutation", Record<string, unknown>, unknown>(name);
const ms = (x: number) => `${Math.round(x)} ms`;
const s = (x: number) => `${(x / 1000).toFixed(1)} s`;
const median = (xs: number[]) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** A rectangle ring [lng, lat] over a share of the houses' extent. */
function rect(houses: SyntheticHouse[], x0: number, y0: number, x1: number, y1: number): number[][] {
  let [w, s_, e, n] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const h of houses) {
    w = Math.min(w, h.lng);
    e = Math.max(e, h.lng);
    s_ = Math.min(s_, h.lat);
    n = Math.max(n, h.lat);
  }
  const lng = (f: number) => w + (e - w) * f;
  const lat = (f: number) => s_ + (n - s_) * f;
  return [
    [lng(x0), lat(y0)],
    [lng(x1), lat(y0)],
    [lng(x1), lat(y1)],
    [lng(x0), lat(y1)],
  ];
}

async function main() {
  console.log(speedIndexLine());
  const { backend, dir } = await startBenchBackend("turf", ADMIN_KEY);
  // a county with at least DOORS houses (≈ 31 houses per block)
  const blocks = Math.max(20, Math.ceil(Math.sqrt(DOORS / 30)));
  const county = syntheticCounty(37, "EDGES", { blocks });
  const houses = county.houses.slice(0, DOORS);
  console.log(
    `turf bench  ${houses.length.toLocaleString()} doors (${blocks} × ${blocks} blocks), target ${TARGET}  node ${process.version}  ${os.cpus()[0]?.model ?? ""} × ${os.cpus().length}`,
  );
  const email = "bench-turf@example.org";
  const { http, admin, socket } = await benchSession(
    backend,
    { email, firstName: "Bench", lastName: "Organiser" },
    ADMIN_KEY,
  );
  await socket.close();
  const orgId = (await admin.mutation(internalMutation("seed:orgOfUser"), { email })) as Id<"organizations">;
  await admin.mutation(internalMutation("seed:setTier"), { orgId, tier: "professional" });

  const t0 = performance.now();
  const random = seededRandom(11);
  for (let done = 0; done < houses.length; done += SEED_BATCH) {
    const voters = houses.slice(done, done + SEED_BATCH).map((h, i) => ({
      fields: {
        first_name: `Voter${done + i}`,
        last_name: "Bench",
        address: `${h.number} ${h.fullName}`,
        city: county.city,
        state: county.state,
        zip: h.zip,
        party_affiliation: random() < 0.5 ? "Democrat" : "Republican",
        phone: phoneOf(done + i),
      },
      lat: h.lat,
      lng: h.lng,
    }));
    const r = await backend.engine.runMutation({
      path: "seed:insertPlacedVoters",
      args: convexToJson({ orgId, voters }),
      identity: null,
      internal: true,
    });
    if (r.outcome.status !== "success") throw new Error(`seed: ${r.outcome.errorMessage}`);
  }
  // one voter in a hundred replied STOP (their doors are packed again with the opt-out)
  const stops = houses.map((_, i) => i).filter((i) => i % 100 === 7);
  for (let k = 0; k < stops.length; k += 200)
    await admin.mutation(internalMutation("seed:optOutPhones"), {
      orgId,
      phones: stops.slice(k, k + 200).map(phoneOf),
    });
  // the grid cells are rewritten by scheduled steps after the doors change: wait until they hold every door
  const all = rect(houses, -0.01, -0.01, 1.01, 1.01);
  // (and the opt-outs have reached them)
  const reachable = houses.length - stops.length;
  while (
    (await http.query(api.turfs.countArea, { points: all })).doors < houses.length ||
    (await http.query(api.turfs.countArea, { points: all, filters: { excludeOptedOut: true } })).doors !== reachable
  )
    await new Promise((r) => setTimeout(r, 200));
  console.log(`seeded ${houses.length.toLocaleString()} placed voters and their doors in ${s(performance.now() - t0)}`);
  console.log(formatTransactionStats(backend.engine.transactionStats({ reset: true })));

  // 1. live count while drawing: a polygon over about half the doors, as a drawing grows corner by corner
  const half = rect(houses, 0, 0, 1, 0.5);
  const times: number[] = [];
  let counted = { doors: 0, voters: 0 };
  for (let k = 0; k < 7; k++) {
    // the corners of a drawing: the last one moves as the cursor does
    const ring = half.map((p, i) => (i === 2 ? [p[0] - k * 1e-5, p[1]] : p));
    const c0 = performance.now();
    counted = await http.query(api.turfs.countArea, { points: ring });
    times.push(performance.now() - c0);
  }
  console.log(
    `1. live count of a drawn polygon: ${counted.doors.toLocaleString()} doors, ${counted.voters.toLocaleString()} voters — median ${ms(median(times.slice(1)))}, worst ${ms(Math.max(...times.slice(1)))} (goal ≤ 200 ms; first ${ms(times[0])})`,
  );
  // …and with filters (the party and opt-outs, read from the packed doors)
  const filters = { parties: ["Democrat"], excludeOptedOut: true };
  const filteredTimes: number[] = [];
  let filtered = { doors: 0, voters: 0 };
  for (let k = 0; k < 7; k++) {
    const ring = half.map((p, i) => (i === 2 ? [p[0] - k * 1e-5, p[1]] : p));
    const c0 = performance.now();
    filtered = await http.query(api.turfs.countArea, { points: ring, filters });
    filteredTimes.push(performance.now() - c0);
  }
  console.log(
    `   with filters (Democrats, not opted out): ${filtered.doors.toLocaleString()} doors, ${filtered.voters.toLocaleString()} voters — median ${ms(median(filteredTimes.slice(1)))}, worst ${ms(Math.max(...filteredTimes.slice(1)))}`,
  );
  console.log(formatTransactionStats(backend.engine.transactionStats({ reset: true })));

  // 2. auto-cut every door into turfs of TARGET
  const a0 = performance.now();
  await http.mutation(api.turfs.autoCut, {
    name: "Bench",
    target: TARGET,
    points: rect(houses, -0.01, -0.01, 1.01, 1.01),
  });
  let runs = await http.query(api.turfs.autoCutRuns, {});
  while (runs[0]?.status === "running") {
    await new Promise((r) => setTimeout(r, 100));
    runs = await http.query(api.turfs.autoCutRuns, {});
  }
  const cutMs = performance.now() - a0;
  const serverMs = (runs[0].finishedAt ?? 0) - runs[0].startedAt;
  const turfs = await http.query(api.turfs.turfs, {});
  const sizes = turfs.map((t) => t.doors);
  const within = sizes.filter((n) => Math.abs(n - TARGET) <= 0.2 * TARGET).length;
  console.log(
    `2. auto-cut ${runs[0].doors.toLocaleString()} doors into ${runs[0].turfs.toLocaleString()} turfs in ${s(cutMs)} (on the server ${s(serverMs)}; goal ≤ 15 s for 100,000): ${((100 * within) / Math.max(1, sizes.length)).toFixed(1)} % within ±20 % of ${TARGET} (goal ≥ 95 %), sizes ${Math.min(...sizes)}–${Math.max(...sizes)}`,
  );
  console.log(formatTransactionStats(backend.engine.transactionStats({ reset: true })));
  // …and with filters: the Democrats' doors only
  const f0 = performance.now();
  await http.mutation(api.turfs.autoCut, {
    name: "Dems",
    target: TARGET,
    points: rect(houses, -0.01, -0.01, 1.01, 1.01),
    filters,
  });
  runs = await http.query(api.turfs.autoCutRuns, {});
  while (runs[0]?.status === "running") {
    await new Promise((r) => setTimeout(r, 100));
    runs = await http.query(api.turfs.autoCutRuns, {});
  }
  const demSizes = (await http.query(api.turfs.turfs, {}))
    .filter((t) => t.name.startsWith("Dems "))
    .map((t) => t.doors);
  const demWithin = demSizes.filter((n) => Math.abs(n - TARGET) <= 0.2 * TARGET).length;
  console.log(
    `   with filters (Democrats): ${runs[0].doors.toLocaleString()} doors into ${runs[0].turfs.toLocaleString()} turfs in ${s(performance.now() - f0)}: ${((100 * demWithin) / Math.max(1, demSizes.length)).toFixed(1)} % within ±20 %`,
  );
  console.log(formatTransactionStats(backend.engine.transactionStats({ reset: true })));

  // 3. walking order of 150 doors: the pure ordering, then a walk list made on the server
  const centre = houses[Math.floor(houses.length / 2)];
  const near = houses
    .map((h) => ({ h, d: (h.lat - centre.lat) ** 2 + ((h.lng - centre.lng) * 0.77) ** 2 }))
    .sort((a, b) => a.d - b.d)
    .slice(0, 150)
    .map(({ h }) => {
      const d = doorAddress(`${h.number} ${h.fullName}, ${county.city}, ${county.state} ${h.zip}`)!;
      return { lat: h.lat, lng: h.lng, streetKey: d.streetKey, number: d.number, unit: d.unit };
    });
  const orderTimes: number[] = [];
  let order: number[] = [];
  for (let k = 0; k < 5; k++) {
    const w0 = performance.now();
    order = walkOrder(near);
    orderTimes.push(performance.now() - w0);
  }
  const ratio = routeLength(near, order) / routeLength(near, twoOptReference(near));
  console.log(
    `3. walking order of 150 doors: ${ms(median(orderTimes))} (goal ≤ 300 ms), route ${ratio.toFixed(3)}× the 2-opt route (goal ≤ 1.15)`,
  );
  const lats = near.map((d) => d.lat);
  const lngs = near.map((d) => d.lng);
  const box = [
    [Math.min(...lngs) - 1e-6, Math.min(...lats) - 1e-6],
    [Math.max(...lngs) + 1e-6, Math.min(...lats) - 1e-6],
    [Math.max(...lngs) + 1e-6, Math.max(...lats) + 1e-6],
    [Math.min(...lngs) - 1e-6, Math.max(...lats) + 1e-6],
  ];
  const turf = await http.mutation(api.turfs.cutTurf, { name: "Walk bench", points: box, filters: {} });
  const l0 = performance.now();
  const list = await http.mutation(api.walkLists.create, {
    name: "Walk bench",
    turfId: turf.id,
    surveyId: null,
    status: "Active",
    assignees: [],
    leaveOutTaken: true,
  });
  console.log(
    `   a walk list of ${list.doors} doors made (held and ordered on the server) in ${ms(performance.now() - l0)}`,
  );
  console.log(formatTransactionStats(backend.engine.transactionStats({ reset: true })));
  await backend.stop();
  fs.rmSync(dir, { recursive: true, force: true });

  // 4. districts: BENCH_DISTRICT_VOTERS geocoded voters assigned to 5 boundary layers, on a backend of its own
  const districtVoters = Number(process.env.BENCH_DISTRICT_VOTERS ?? 1_000_000);
  if (districtVoters > 0) {
    console.log(`4. districts (bench/turfDistricts.ts), ${districtVoters.toLocaleString("en-US")} voters:`);
    await benchDistricts(districtVoters);
  }
}

runBench(main);
