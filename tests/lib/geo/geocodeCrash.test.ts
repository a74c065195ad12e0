/**
 * Durability of a geocoding run across a backend kill (issue 36): the run a new streets layer
 * starts is SIGKILLed part-way through, the backend restarts on the same data and the chain goes
 * on from its committed cursor: every voter has exactly one place (0 duplicates, 0 lost), the
 * run's counts add up to the voter file, and the door build it ends with gives every placed voter
 * exactly one door.
 */
import fs from "node:fs";
import { afterAll, describe, expect, test } from "vitest";
import { ConvexHttpClient } from "convex/browser";
import { makeFunctionReference } from "convex/server";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { streetsDrawing } from "@convex/lib/geo/drawing";
import { SEGMENTS_PER_BATCH } from "@convex/lib/geo/limits";
import { segmentRow, zipCentres, type SegmentRow } from "@convex/lib/geo/rows";
import { detectLayer, toStreetSegments } from "@convex/lib/geo/tiger";
import {
  prepareDataDir,
  signIn,
  signUp,
  startAppBackend,
  stopBackend,
  until,
  type AppBackend,
} from "../../support/appBackend";
import { seededRandom, syntheticCounty } from "../../support/syntheticCounty";

const N = Number(process.env.GEOCODE_CRASH_N ?? 12_000);
const ADMIN_KEY = "geocode-crash-admin-key";
const EMAIL = "crash-geocode@example.org";
const internalMutation = (name: string) => makeFunctionReference<"mutation", Record<string, unknown>, unknown>(name);
const internalQuery = (name: string) => makeFunctionReference<"query", Record<string, unknown>, unknown>(name);
const backends: AppBackend[] = [];

afterAll(async () => {
  for (const b of backends) {
    await stopBackend(b);
    fs.rmSync(b.dataDir, { recursive: true, force: true });
  }
});

function adminOf(b: AppBackend): ConvexHttpClient {
  const admin = new ConvexHttpClient(b.cloud, { logger: false });
  (admin as unknown as { setAdminAuth(k: string): void }).setAdminAuth(ADMIN_KEY);
  return admin;
}

describe("a backend kill", () => {
  test(`mid-geocoding, ${N.toLocaleString("en-US")} voters: each placed once, each on one door`, async () => {
    const first = await startAppBackend(await prepareDataDir(), { adminKey: ADMIN_KEY });
    backends.push(first);
    const user = await signUp(first, EMAIL);
    const admin = adminOf(first);
    const orgId = (await admin.mutation(internalMutation("seed:orgOfUser"), { email: EMAIL })) as Id<"organizations">;
    const county = syntheticCounty();
    const random = seededRandom(11);
    for (let done = 0; done < N; done += 1000) {
      const voters = Array.from({ length: Math.min(1000, N - done) }, (_, i) => {
        const h = county.houses[Math.floor(random() * county.houses.length)];
        return {
          first_name: `V${done + i}`,
          last_name: "Crash",
          address: `${h.number} ${h.fullName}`,
          city: county.city,
          state: county.state,
          zip: h.zip,
        };
      });
      await admin.mutation(internalMutation("seed:insertVoters"), { orgId, voters });
    }

    // the streets layer, uploaded as the browser does; its finish starts the run
    const detection = detectLayer(Object.keys(county.edges.features[0].properties));
    if ("error" in detection) throw new Error(detection.error);
    const layer = toStreetSegments(county.edges.features, detection);
    if ("error" in layer) throw new Error(layer.error);
    const rows = layer.segments.map(segmentRow).filter((r): r is SegmentRow => r !== null);
    const url = await user.action(api.mapData.generateUploadUrl, {});
    const res = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/geo+json" },
      body: streetsDrawing(layer.segments),
    });
    const { storageId } = (await res.json()) as { storageId: Id<"_storage"> };
    const layerId = await user.action(api.mapData.createLayer, {
      storageId,
      kind: "streets",
      tigerLayer: "EDGES",
      name: "Crash county",
      fileName: "tl_2024_17167_edges.zip",
      nameField: null,
      features: rows.length,
      addressable: rows.length,
      bbox: null,
      replaces: null,
      zipCentres: zipCentres(layer.segments),
    });
    for (let i = 0; i < rows.length; i += SEGMENTS_PER_BATCH)
      await user.mutation(api.mapData.appendSegments, { layerId, segments: rows.slice(i, i + SEGMENTS_PER_BATCH) });
    await user.mutation(api.mapData.finish, { layerId });

    // killed once a quarter is placed
    const atKill = await until(
      async () => {
        const run = (await user.query(api.geocode.status, {})).run;
        return run && run.processed >= N / 4 ? run.processed : undefined;
      },
      120_000,
      "a quarter of the voters placed",
    );
    await stopBackend(first);
    expect(atKill).toBeLessThan(N);

    const second = await startAppBackend(first.dataDir, { adminKey: ADMIN_KEY });
    backends.push(second);
    const again = await signIn(second, EMAIL);
    const run = await until(
      async () => {
        const r = (await again.query(api.geocode.status, {})).run;
        return r?.status === "done" ? r : undefined;
      },
      240_000,
      "the run to finish after the restart",
    );
    expect(run.processed).toBe(N);
    const counts = run.counts;
    expect(counts.exact + counts.interpolated + counts.streetOnly + counts.zipCentroid + counts.failed).toBe(N);
    expect(counts.exact).toBe(N);

    // one place per voter, and (once the door build is done) one door per placed voter
    const check = await until(
      async () => {
        const c = (await adminOf(second).query(internalQuery("seed:placesAndDoors"), { orgId })) as {
          voters: number;
          places: number;
          placedVoters: number;
          doorVoters: number;
          distinctDoorVoters: number;
          cellDoors: number;
          doors: number;
          building: boolean;
        };
        return c.building ? undefined : c;
      },
      120_000,
      "the door build",
    );
    expect(check).toMatchObject({ voters: N, places: N, placedVoters: N, doorVoters: N, distinctDoorVoters: N });
    // the build rewrote every grid cell once at its end: each door listed in its cell
    expect(check.cellDoors).toBe(check.doors);
    expect(check.doors).toBeGreaterThan(1000);
  }, 600_000);
});
