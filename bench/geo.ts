/**
 * Geography benchmark (`npm run bench:geo`), on the embedded backend through the app's functions:
 *   1. a synthetic county of ~60,000 street segments as a TIGER EDGES shapefile zip: parsed the
 *      browser's way (shpjs → layer detection → rows; goal with 2: ≤ 30 s) and stored (the drawing
 *      copy to file storage, the rows in batches of SEGMENTS_PER_BATCH, finish);
 *   2. geocoding the voter file: BENCH_VOTERS voters (default 1,000,000) with addresses on those
 *      streets, placed by the run a new streets layer starts (goal ≤ 5 min, ≥ 3,300 voters/s);
 * then the qualities and the largest per-transaction use against Convex's limits. The map's tile
 * cutting is `npm run bench:geo-map`.
 *   BENCH_VOTERS=1000000  BENCH_BLOCKS=173
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { ConvexHttpClient } from "convex/browser";
import { makeFunctionReference } from "convex/server";
import { api } from "../convex/_generated/api";
import type { Id } from "../convex/_generated/dataModel";
import { segmentRow, streetsDrawing, zipCentres, type SegmentRow } from "../convex/lib/geo/rows";
import { detectLayer, toStreetSegments } from "../convex/lib/geo/tiger";
import { SEGMENTS_PER_BATCH } from "../convex/model/mapData";
import { startBackend } from "../local-backend/src/server";
import { configureBackendEnv, signInTicket } from "../scripts/backend-env";
import { readShapefileZip } from "../src/lib/geo/readLayer";
import { shapefileZip } from "../tests/support/shapefileZip";
import { seededRandom, syntheticCounty } from "../tests/support/syntheticCounty";
import { speedIndexLine } from "./speedIndex";
import { formatTransactionStats } from "./txStats";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const VOTERS = Number(process.env.BENCH_VOTERS ?? 1_000_000);
const BLOCKS = Number(process.env.BENCH_BLOCKS ?? 173);
const SEED_BATCH = 1000;
const ADMIN_KEY = "bench-geo-admin";
const internalMutation = (name: string) => makeFunctionReference<"mutation", Record<string, unknown>, unknown>(name);
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function main() {
  console.log(speedIndexLine());
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "precinct-bench-geo-"));
  const backend = await startBackend({
    functionsDir: path.join(root, "convex"),
    dataDir: path.join(dir, "data"),
    port: 0,
    adminKey: ADMIN_KEY,
    allowedOrigins: [],
  });
  await configureBackendEnv(backend.engine, { siteUrl: "http://127.0.0.1:1" });
  backend.engine.env.set("AUTH_LOG_LEVEL", "ERROR");
  console.log(
    `geo bench  ${VOTERS.toLocaleString()} voters, ${BLOCKS} × ${BLOCKS} blocks  node ${process.version}  ${os.cpus()[0]?.model ?? ""} × ${os.cpus().length}`,
  );
  const http = new ConvexHttpClient(backend.cloudUrl, { logger: false });
  const email = "bench-geo@example.org";
  const signed = (await http.action(api.auth.signIn, {
    provider: "password",
    params: {
      flow: "signUp",
      email,
      password: "correct-horse-42",
      firstName: "Bench",
      lastName: "Mapper",
      ticket: await signInTicket(backend.siteUrl),
    },
  })) as { tokens?: { token: string } | null };
  http.setAuth(signed.tokens!.token);
  const admin = new ConvexHttpClient(backend.cloudUrl, { logger: false });
  (admin as unknown as { setAdminAuth(k: string): void }).setAdminAuth(ADMIN_KEY);
  const orgId = (await admin.mutation(internalMutation("seed:orgOfUser"), { email })) as Id<"organizations">;

  // the county and its voters (voters first: the streets layer's run places them)
  const county = syntheticCounty(36, "EDGES", { blocks: BLOCKS });
  const zip = shapefileZip(county.edges, "tl_2024_17167_edges");
  const random = seededRandom(7);
  const t0 = performance.now();
  for (let done = 0; done < VOTERS; done += SEED_BATCH) {
    const voters = Array.from({ length: Math.min(SEED_BATCH, VOTERS - done) }, (_, i) => {
      const h = county.houses[Math.floor(random() * county.houses.length)];
      return {
        first_name: `Voter${done + i}`,
        last_name: "Bench",
        address: `${h.number} ${h.fullName}`,
        city: county.city,
        state: county.state,
        zip: h.zip,
      };
    });
    await admin.mutation(internalMutation("seed:insertVoters"), { orgId, voters });
  }
  console.log(`seeded ${VOTERS.toLocaleString()} voters in ${s(performance.now() - t0)}`);
  backend.engine.transactionStats({ reset: true });

  // 1. parse (the browser's path, here in Node) and store
  const p0 = performance.now();
  const layers = await readShapefileZip(zip);
  if (!Array.isArray(layers)) throw new Error(layers.error);
  const detection = detectLayer(layers[0].fields);
  if ("error" in detection) throw new Error(detection.error);
  const layer = toStreetSegments(layers[0].features, detection);
  if ("error" in layer) throw new Error(layer.error);
  const rows = layer.segments.map(segmentRow).filter((r): r is SegmentRow => r !== null);
  const drawing = streetsDrawing(layer.segments);
  const parseMs = performance.now() - p0;
  const s0 = performance.now();
  const uploadUrl = await http.action(api.mapData.generateUploadUrl, {});
  const res = await fetch(uploadUrl, {
    method: "POST",
    headers: { "Content-Type": "application/geo+json" },
    body: drawing,
  });
  const { storageId } = (await res.json()) as { storageId: Id<"_storage"> };
  const layerId = await http.action(api.mapData.createLayer, {
    storageId,
    kind: "streets",
    tigerLayer: detection.kind === "streets" ? detection.tigerLayer : null,
    name: "Bench county streets",
    fileName: "tl_2024_17167_edges.zip",
    nameField: null,
    features: rows.length,
    addressable: rows.filter((r) => r.lFrom !== undefined || r.rFrom !== undefined).length,
    bbox: null,
    replaces: null,
    zipCentres: zipCentres(layer.segments),
  });
  // two batches in flight, as the browser sends them
  const batches: SegmentRow[][] = [];
  for (let i = 0; i < rows.length; i += SEGMENTS_PER_BATCH) batches.push(rows.slice(i, i + SEGMENTS_PER_BATCH));
  for (const b of batches) await http.mutation(api.mapData.appendSegments, { layerId, segments: b });
  await http.mutation(api.mapData.finish, { layerId });
  const storeMs = performance.now() - s0;
  console.log(
    `1. streets layer: ${layers[0].features.length.toLocaleString()} edges (${(zip.byteLength / 1048576).toFixed(1)} MB zip), ${rows.length.toLocaleString()} named segments, drawing copy ${(drawing.length / 1048576).toFixed(1)} MB`,
  );
  console.log(
    `   parse ${s(parseMs)} + store ${s(storeMs)} (${batches.length} batches) = ${s(parseMs + storeMs)}  (goal ≤ 30 s)`,
  );

  // 2. the run the new layer started
  const g0 = performance.now();
  let status = await http.query(api.geocode.status, {});
  let lastPrint = 0;
  while (status.run?.status === "running") {
    await new Promise((r) => setTimeout(r, 500));
    status = await http.query(api.geocode.status, {});
    if (performance.now() - lastPrint > 15_000) {
      lastPrint = performance.now();
      console.log(`   … ${status.run!.processed.toLocaleString()} placed, ${s(performance.now() - g0)}`);
    }
  }
  const geoMs = performance.now() - g0;
  const run = status.run!;
  console.log(
    `2. geocoded ${run.processed.toLocaleString()} voters in ${s(geoMs)}: ${Math.round(run.processed / (geoMs / 1000)).toLocaleString()} voters/s (goals ≤ 5 min, ≥ 3,300/s)  status ${run.status}`,
  );
  console.log(
    `   qualities: exact range ${run.counts.exact.toLocaleString()}, interpolated ${run.counts.interpolated.toLocaleString()}, street only ${run.counts.streetOnly.toLocaleString()}, ZIP centre ${run.counts.zipCentroid.toLocaleString()}, failed ${run.counts.failed.toLocaleString()}`,
  );
  console.log(formatTransactionStats(backend.engine.transactionStats()));
  await backend.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
