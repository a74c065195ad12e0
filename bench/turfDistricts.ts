/**
 * Districts benchmark (issue 37, part of `npm run bench:turf`): on a fresh embedded backend, five
 * boundary layers of a synthetic county (precincts, state house, state senate, congressional,
 * county: tests/support/districtLayers.ts) are uploaded the browser's way (GeoJSON to storage,
 * rows in batches, finish), BENCH_VOTERS voters (default 1,000,000) placed at random points of the
 * county are seeded, and the assignment chain (districts.run: every voter to its district of each
 * layer, membership rows and live tallies) is timed to its end (goal ≤ 2 min for 1M voters × 5
 * layers). Then a check of the tallies against what was seeded, and the largest per-transaction
 * use against Convex's limits.
 *   BENCH_VOTERS=1000000   `npx tsx bench/turfDistricts.ts`
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { convexToJson } from "convex/values";
import type { ConvexHttpClient } from "convex/browser";
import { makeFunctionReference, type FunctionReturnType } from "convex/server";
import { api } from "../convex/_generated/api";
import type { Id } from "../convex/_generated/dataModel";
import { BOUNDARIES_PER_BATCH } from "../convex/model/mapData";
import { COUNTY_BOX, FIVE_LAYERS, gridLayer, layerGeoJson } from "../tests/support/districtLayers";
import { seededRandom } from "../tests/support/syntheticCounty";
import { benchSession, startBenchBackend } from "./session";
import { speedIndexLine } from "./speedIndex";
import { formatTransactionStats } from "./txStats";
import { runBench } from "./run";

const ADMIN_KEY = "bench-districts-admin";
const SEED_BATCH = 1000;
const PARTIES = ["Democrat", "Republican", "Independent", "Green Party", "Libertarian", ""];
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const internalMutation = (name: string) => makeFunctionReference<"mutation", Record<string, unknown>, unknown>(name);

export type DistrictsBenchResult = {
  voters: number;
  assignMs: number;
  votersPerSecond: number;
  districts: number;
};

/** Seeds `voters` placed voters and 5 boundary layers on a fresh backend and times their assignment. */
export async function benchDistricts(
  voters = Number(process.env.BENCH_VOTERS ?? 1_000_000),
): Promise<DistrictsBenchResult> {
  console.log(speedIndexLine());
  const { backend, dir } = await startBenchBackend("districts", ADMIN_KEY);
  try {
    console.log(
      `districts bench  ${voters.toLocaleString()} voters × ${FIVE_LAYERS.length} layers  node ${process.version}  ${os.cpus()[0]?.model ?? ""} × ${os.cpus().length}`,
    );
    const email = "bench-districts@example.org";
    const { http, admin, socket } = await benchSession(
      backend,
      { email, firstName: "Bench", lastName: "Districts" },
      ADMIN_KEY,
    );
    await socket.close();
    const orgId = (await admin.mutation(internalMutation("seed:orgOfUser"), { email })) as Id<"organizations">;

    // 1. the five layers, as the browser stores them
    const l0 = performance.now();
    let districts = 0;
    for (const tiger of FIVE_LAYERS) {
      const layer = gridLayer(tiger);
      districts += layer.boundaries.length;
      const uploadUrl = await http.action(api.mapData.generateUploadUrl, {});
      const res = await fetch(uploadUrl, {
        method: "POST",
        headers: { "Content-Type": "application/geo+json" },
        body: layerGeoJson(layer),
      });
      const { storageId } = (await res.json()) as { storageId: Id<"_storage"> };
      const layerId = await http.action(api.mapData.createLayer, {
        storageId,
        kind: "boundaries",
        tigerLayer: tiger,
        name: layer.name,
        fileName: `${layer.name}.geojson`,
        nameField: "NAME",
        features: layer.boundaries.length,
        addressable: 0,
        bbox: [...COUNTY_BOX],
        replaces: null,
      });
      for (let i = 0; i < layer.boundaries.length; i += BOUNDARIES_PER_BATCH)
        await http.mutation(api.mapData.appendBoundaries, {
          layerId,
          boundaries: layer.boundaries.slice(i, i + BOUNDARIES_PER_BATCH),
        });
      await http.mutation(api.mapData.finish, { layerId });
    }
    await waitForRun(http, 0);
    console.log(
      `1. ${FIVE_LAYERS.length} boundary layers, ${districts} districts stored in ${s(performance.now() - l0)}`,
    );

    // 2. placed voters, seeded in-process (no assignment: the bulk writer's run comes next)
    const random = seededRandom(37);
    const [w, south, e, n] = COUNTY_BOX;
    const t0 = performance.now();
    for (let done = 0; done < voters; done += SEED_BATCH) {
      const batch = Array.from({ length: Math.min(SEED_BATCH, voters - done) }, (_, i) => ({
        fields: {
          first_name: `Voter${done + i}`,
          last_name: "Bench",
          party_affiliation: PARTIES[Math.floor(random() * PARTIES.length)] || undefined,
          status: random() < 0.85 ? "Active" : "Inactive",
          vote_history: [
            ...(random() < 0.6 ? [{ election: "2024 General", date: "2024-11-05" }] : []),
            ...(random() < 0.3 ? [{ election: "2022 General", date: "2022-11-08" }] : []),
          ],
        },
        lng: w + (e - w) * random(),
        lat: south + (n - south) * random(),
      }));
      const r = await backend.engine.runMutation({
        path: "seed:insertPlacedVoters",
        args: convexToJson({ orgId, voters: batch }),
        identity: null,
        internal: true,
      });
      if (r.outcome.status !== "success") throw new Error(`seed: ${r.outcome.errorMessage}`);
    }
    console.log(`2. seeded ${voters.toLocaleString()} placed voters in ${s(performance.now() - t0)}`);
    backend.engine.transactionStats({ reset: true });

    // 3. the assignment chain
    const a0 = performance.now();
    await http.mutation(api.districts.run, {});
    const run = await waitForRun(http, voters);
    const assignMs = performance.now() - a0;
    const perSecond = Math.round(voters / (assignMs / 1000));
    console.log(
      `3. assigned ${run.processed.toLocaleString()} voters (${run.changed.toLocaleString()} memberships written) to ${FIVE_LAYERS.length} layers in ${s(assignMs)}: ${perSecond.toLocaleString()} voters/s  (goal for 1M: ≤ 120 s, ≥ 8,334/s)`,
    );
    // every voter counted once per layer (the county holds them all)
    for (const kind of ["precinct", "house", "senate", "congress", "county"] as const) {
      const { districts: rows } = await http.query(api.districts.list, { kind });
      const total = rows.reduce((sum, d) => sum + d.voters, 0);
      if (total !== voters) throw new Error(`${kind}: ${total} voters counted, ${voters} seeded`);
    }
    console.log(`   tallies: each of the 5 layers counts all ${voters.toLocaleString()} voters`);
    // 4. again, nothing changed: what an import's or a geocoding run's re-assignment costs per voter (reads only)
    const r0 = performance.now();
    await http.mutation(api.districts.run, {});
    const again = await waitForRun(http, voters);
    console.log(
      `4. assigned again, ${again.changed.toLocaleString()} changed, in ${s(performance.now() - r0)}: ${Math.round(voters / ((performance.now() - r0) / 1000)).toLocaleString()} voters/s`,
    );
    console.log(formatTransactionStats(backend.engine.transactionStats()));
    return { voters, assignMs, votersPerSecond: perSecond, districts };
  } finally {
    await backend.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

type Overview = FunctionReturnType<typeof api.districts.overview>;

/** Waits for the newest assignment run to end with every layer's districts in place (a run over `atLeast` voters). */
async function waitForRun(http: ConvexHttpClient, atLeast: number): Promise<NonNullable<Overview["run"]>> {
  let last = 0;
  const start = performance.now();
  for (;;) {
    const { run, kinds } = await http.query(api.districts.overview, {});
    const layers = kinds.filter((k) => k.outlines).length;
    if (run && run.status === "done" && run.total >= atLeast && layers === FIVE_LAYERS.length) return run;
    if (performance.now() - last > 15_000 && run) {
      last = performance.now();
      console.log(`   … ${run.processed.toLocaleString()} assigned, ${s(performance.now() - start)}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  runBench(benchDistricts);
}
