/**
 * Sign map benchmark (`npm run bench:signs`): 100,000 signs of one organisation across a metro
 * area, on the embedded backend, with the production build of the app in Chromium. Prints:
 *   1. seeding rate (the app's bookkeeping: per-tile counts, timer);
 *   2. the map's viewport query on the server at city, region and street zooms (what it reads);
 *   3. in Chromium: navigation → clusters drawn on /signs-map (goal < 1 s), cold and warm;
 *   4. each status filter: click → the map and its count show the filtered signs;
 *   5. zooming into a street: click → individual markers drawn;
 * then the largest per-transaction use against Convex's limits.
 *   BENCH_SIGNS=100000
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { makeFunctionReference } from "convex/server";
import { api } from "../convex/_generated/api";
import type { Id } from "../convex/_generated/dataModel";
import { formatTransactionStats } from "./txStats";
import { openBrowserApp, outDirIn } from "./browserApp";
import { benchSession, startBenchBackend } from "./session";
import { speedIndexLine } from "./speedIndex";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SIGNS = Number(process.env.BENCH_SIGNS ?? 100_000);
const BATCH = 250;
const ADMIN_KEY = "bench-signs-admin";
const WEB_PORT = Number(process.env.BENCH_WEB_PORT ?? 4390);
const internalMutation = (name: string) => makeFunctionReference<"mutation", Record<string, unknown>, unknown>(name);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x: number) => `${x.toFixed(0)} ms`;

/** A deterministic pseudo-random stream (the same signs every run). */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function main() {
  console.log(speedIndexLine());
  const webOrigin = `http://127.0.0.1:${WEB_PORT}`;
  const { backend, dir } = await startBenchBackend("signs", ADMIN_KEY, webOrigin);
  console.log(
    `signs bench  ${SIGNS.toLocaleString()} signs  node ${process.version}  ${os.cpus()[0]?.model ?? ""} × ${os.cpus().length}`,
  );

  const email = "bench-signs@example.org";
  const { http, admin, socket, tokens } = await benchSession(
    backend,
    { email, firstName: "Bench", lastName: "Mapper" },
    ADMIN_KEY,
  );
  await socket.close();
  const orgId = (await admin.mutation(internalMutation("seed:orgOfUser"), { email })) as Id<"organizations">;
  const me = await http.query(api.viewer.me, {});
  const campaignId = await http.mutation(api.signs.createCampaign, { name: "Yes on Measure 12" });

  // 1. seed: 60 neighbourhoods around Portland, signs scattered around each
  const rand = rng(42);
  const hoods = Array.from({ length: 60 }, () => ({
    lat: 45.38 + rand() * 0.3,
    lng: -122.95 + rand() * 0.5,
    spread: 0.004 + rand() * 0.02,
  }));
  const now = Date.now();
  const day = 24 * 3600_000;
  const t0 = performance.now();
  for (let done = 0; done < SIGNS; done += BATCH) {
    const signs = Array.from({ length: Math.min(BATCH, SIGNS - done) }, (_, i) => {
      const h = hoods[Math.floor(rand() * hoods.length)];
      const r = rand();
      const placed = r < 0.2 ? now + (1 + rand() * 20) * day : now - rand() * 30 * day;
      return {
        address: `${100 + ((done + i) % 9000)} Bench St, Portland, OR 97204`,
        latitude: h.lat + (rand() - 0.5) * h.spread,
        longitude: h.lng + (rand() - 0.5) * h.spread * 1.4,
        datePlaced: placed,
        dateRemoval: placed + (30 + rand() * 60) * day,
        removed: r > 0.9,
      };
    });
    await admin.mutation(internalMutation("seed:insertSigns"), { orgId, createdBy: me.userId, campaignId, signs });
  }
  const seedS = (performance.now() - t0) / 1000;
  console.log(
    `1. seeded ${SIGNS.toLocaleString()} signs in ${seedS.toFixed(1)} s (${Math.round(SIGNS / seedS).toLocaleString()} signs/s, batches of ${BATCH})`,
  );

  // 2. the viewport query on the server
  const views = {
    "region (zoom 9)": { south: 44.9, west: -123.8, north: 46.0, east: -121.6, zoom: 9 },
    "city (zoom 12)": { south: 45.43, west: -122.82, north: 45.58, east: -122.53, zoom: 12 },
    "street (zoom 16)": { south: 45.515, west: -122.685, north: 45.522, east: -122.667, zoom: 16 },
  };
  console.log("2. mapView on the server (median of 15):");
  for (const [name, b] of Object.entries(views)) {
    const times: number[] = [];
    let last: Awaited<ReturnType<typeof http.query<typeof api.signs.mapView>>> | null = null;
    for (let i = 0; i < 15; i++) {
      const s = performance.now();
      last = await http.query(api.signs.mapView, { ...b, status: "All" });
      times.push(performance.now() - s);
    }
    console.log(
      `   ${name.padEnd(17)} ${ms(median(times)).padStart(7)}  → ${last!.points.length ? `${last!.points.length.toLocaleString()} points` : `${last!.cells.length.toLocaleString()} cells`} for ${last!.inView.toLocaleString()} signs in view`,
    );
  }

  // 3–5. the app in Chromium
  const app = await openBrowserApp({ root, outDir: outDirIn(dir), port: WEB_PORT, backend, tokens });
  const { context } = app;
  // in-page timeline: when each part first appears, in ms since the navigation started
  {
    await context.addInitScript(() => {
      const seen: Record<string, number> = {};
      const w = window as unknown as { __tl: Record<string, number> };
      w.__tl = seen;
      const probes: [string, string][] = [
        ["shell", "nav"],
        ["map", ".leaflet-container"],
        ["basemap", "canvas"],
        ["cluster", ".sign-cluster"],
      ];
      new MutationObserver(() => {
        for (const [k, sel] of probes)
          if (!(k in seen) && document.querySelector(sel)) seen[k] = Math.round(performance.now());
      }).observe(document, { childList: true, subtree: true, characterData: true });
    });
  }
  const page = await context.newPage();
  const firstRender = async () => {
    const start = performance.now();
    await page.goto(`${webOrigin}/signs-map`);
    await page.locator(".sign-cluster").first().waitFor({ state: "visible", timeout: 30_000 });
    const wall = performance.now() - start;
    const tl = await page.evaluate(() => (window as unknown as { __tl: Record<string, number> }).__tl);
    return { wall, tl };
  };
  const cold = await firstRender();
  const warm = [];
  for (let i = 0; i < 3; i++) warm.push(await firstRender());
  const inView = await page.getByTestId("signs.inView").textContent();
  const show = (r: { wall: number; tl: Record<string, number> }) =>
    `clusters at ${ms(r.tl.cluster)} (shell ${ms(r.tl.shell)}, map ${ms(r.tl.map)}, basemap ${r.tl.basemap ? ms(r.tl.basemap) : "later"}; harness wall ${ms(r.wall)})`;
  const warmMid = [...warm].sort((a, b) => a.tl.cluster - b.tl.cluster)[1];
  console.log(`3. /signs-map first render, navigation start → clusters drawn (goal < 1 s), ${inView}:`);
  console.log(`   cold: ${show(cold)}`);
  console.log(`   warm (median of 3): ${show(warmMid)}`);
  await page.screenshot({ path: path.join(process.env.SHOTS_DIR ?? dir, "bench-signs-100k.png") });

  console.log("4. status filter: click → map count and clusters updated");
  const counter = page.getByTestId("signs.inView");
  for (const status of ["Active", "Scheduled", "Removed", "All"]) {
    const before = await counter.textContent();
    const start = performance.now();
    await page
      .getByRole("group", { name: "Status" })
      .getByRole("button", { name: new RegExp(`^${status}`) })
      .click();
    await page.waitForFunction(
      (b) => document.querySelector('[data-testid="signs.inView"]')?.textContent !== b,
      before,
      { timeout: 15_000 },
    );
    await page.locator(".sign-cluster").first().waitFor({ state: "visible" });
    console.log(
      `   ${status.padEnd(9)} ${ms(performance.now() - start).padStart(7)}  (${await counter.textContent()})`,
    );
  }

  // 5. zoom into the densest cluster until single signs show
  await page.goto(`${webOrigin}/signs-map`);
  await page.locator(".sign-cluster").first().waitFor({ state: "visible" });
  let clicks = 0;
  const zoomStart = performance.now();
  while ((await page.locator("path.sign-marker").count()) === 0 && clicks < 8) {
    const before = await counter.textContent();
    // the cluster nearest the map's centre
    const target = await page.evaluate(() => {
      const box = document.querySelector(".leaflet-container")!.getBoundingClientRect();
      let best: [number, number] | null = null;
      let bestDistance = Infinity;
      for (const el of document.querySelectorAll(".sign-cluster")) {
        const r = el.getBoundingClientRect();
        const d = Math.hypot(
          r.left + r.width / 2 - (box.left + box.width / 2),
          r.top + r.height / 2 - (box.top + box.height / 2),
        );
        if (d < bestDistance) [best, bestDistance] = [[r.left + r.width / 2, r.top + r.height / 2], d];
      }
      return best;
    });
    if (!target) break;
    await page.mouse.click(target[0], target[1]);
    clicks++;
    await page
      .waitForFunction((b) => document.querySelector('[data-testid="signs.inView"]')?.textContent !== b, before, {
        timeout: 15_000,
      })
      .catch(() => {});
  }
  await page.locator("path.sign-marker").first().waitFor({ state: "attached", timeout: 15_000 });
  console.log(
    `5. into a cluster down to single markers: ${clicks} clicks, ${ms((performance.now() - zoomStart) / clicks)} per click on average (${await counter.textContent()})`,
  );
  await page.screenshot({ path: path.join(process.env.SHOTS_DIR ?? dir, "bench-signs-street.png") });

  await app.close();
  console.log(formatTransactionStats(backend.engine.transactionStats()));
  await backend.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
