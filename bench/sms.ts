/**
 * SMS benchmark (`npm run bench:sms`), against a local fake Twilio on the embedded backend:
 *   1. 100,000 recipients (20 groups of 5,000) enqueued by the fan-out chain, with live progress
 *      read through a subscription (goal ≤ 10 s)
 *   2. drain rate against the fake provider, unthrottled (pace 1,000 segments/s, above what the
 *      sender reaches)
 *   3. the configured pace kept over 10,000 sends (goal within ±2 %)
 * Then the largest per-transaction use against Convex's limits.
 *   BENCH_RECIPIENTS=100000  BENCH_SENDS=10000  BENCH_RATE=200
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { makeFunctionReference } from "convex/server";
import { api } from "../convex/_generated/api";
import type { Id } from "../convex/_generated/dataModel";
import { startBackend } from "../local-backend/src/server";
import { configureBackendEnv } from "../scripts/backend-env";
import { middayTimeZone } from "../tests/support/middayTimeZone";
import { ACCOUNT_SID, AUTH_TOKEN, FakeTwilio, FROM } from "../tests/support/fakeTwilio";
import { benchSession } from "./session";
import { formatTransactionStats } from "./txStats";
import { speedIndexLine } from "./speedIndex";
import { runBench } from "./run";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const RECIPIENTS = Number(process.env.BENCH_RECIPIENTS ?? 100_000);
const SENDS = Number(process.env.BENCH_SENDS ?? 10_000);
const RATE = Number(process.env.BENCH_RATE ?? 200);
const ADMIN_KEY = "bench-sms-admin";
const internalMutation = (name: string) => makeFunctionReference<"mutation", Record<string, unknown>, unknown>(name);

async function main() {
  console.log(speedIndexLine());
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "precinct-bench-sms-"));
  const fake = new FakeTwilio();
  await fake.start();
  const backend = await startBackend({
    functionsDir: path.join(root, "convex"),
    dataDir: dir,
    port: 0,
    adminKey: ADMIN_KEY,
  });
  await configureBackendEnv(backend.engine, { siteUrl: "http://127.0.0.1:1" });
  for (const [k, v] of Object.entries({
    TWILIO_ACCOUNT_SID: ACCOUNT_SID,
    TWILIO_AUTH_TOKEN: AUTH_TOKEN,
    TWILIO_PHONE_NUMBER: FROM,
    TWILIO_API_BASE_URL: fake.url,
    AUTH_LOG_LEVEL: "ERROR",
  }))
    backend.engine.env.set(k, v);
  console.log(`sms bench  dir=${dir}  node ${process.version}  ${os.cpus()[0]?.model ?? ""}`);

  const { http, socket, admin } = await benchSession(
    backend,
    { email: "bench-sms@example.org", firstName: "Bench", lastName: "Sender" },
    ADMIN_KEY,
  );
  const orgId = (await admin.mutation(internalMutation("seed:orgOfUser"), {
    email: "bench-sms@example.org",
  })) as Id<"organizations">;
  const orgName = (await http.query(api.sms.overview, {})).orgName;
  const body = `${orgName}: polls are open until 8pm. Reply STOP to opt out`;

  // voters and groups (seeded with the admin key)
  const t0 = performance.now();
  const groups: Id<"voterGroups">[] = [];
  const perGroup = 5_000;
  for (let g = 0; g * perGroup < RECIPIENTS; g++) {
    const ids: Id<"voters">[] = [];
    for (let b = 0; b < perGroup; b += 1_000) {
      const voters = Array.from({ length: 1_000 }, (_, i) => {
        const n = g * perGroup + b + i;
        return { first_name: `V${n}`, last_name: "Bench", phone: `+1555${String(n).padStart(7, "0")}` };
      });
      ids.push(...((await admin.mutation(internalMutation("seed:insertVoters"), { orgId, voters })) as Id<"voters">[]));
    }
    groups.push(
      (await admin.mutation(internalMutation("seed:createGroup"), {
        orgId,
        name: `Bench ${g}`,
        description: null,
        voterIds: ids,
      })) as Id<"voterGroups">,
    );
  }
  console.log(
    `seeded ${RECIPIENTS.toLocaleString()} voters in ${groups.length} groups in ${((performance.now() - t0) / 1000).toFixed(1)}s`,
  );
  await http.mutation(api.sms.saveSettings, {
    settings: {
      quietStart: 0,
      quietEnd: 24,
      defaultTimeZone: middayTimeZone(),
      profile: "short_code",
      segmentsPerSecond: 1000,
    },
  });

  // 1. fan-out of 100k recipients, progress read live through a subscription
  const big = await http.mutation(api.smsCampaigns.create, {
    name: "Bench 100k",
    description: null,
    body,
    voterGroups: groups,
    individualVoters: [],
  });
  const t1 = performance.now();
  const sendId = await http.mutation(api.sms.start, { campaignId: big });
  await http.mutation(api.sms.pause, { sendId }); // measure the fan-out alone
  let updates = 0;
  let lastShown = 0;
  await new Promise<void>((resolve) => {
    const unsub = socket.onUpdate(api.sms.progress, { sendId }, (p) => {
      if (!p) return;
      updates++;
      if (performance.now() - lastShown > 2000) {
        lastShown = performance.now();
        console.log(`  … ${p.counts.queued.toLocaleString()} queued`);
      }
      if (!p.preparing) {
        unsub();
        resolve();
      }
    });
  });
  const enqueueSecs = (performance.now() - t1) / 1000;
  const queued = (await http.query(api.sms.progress, { sendId }))!.counts.queued;
  console.log(
    `1. enqueued ${queued.toLocaleString()} recipients in ${enqueueSecs.toFixed(1)}s (${Math.round(queued / enqueueSecs).toLocaleString()}/s; goal ≤ 10 s) — ${updates} live progress updates`,
  );
  await http.mutation(api.sms.cancel, { sendId });

  if (process.env.BENCH_ONLY_ENQUEUE) {
    await socket.close();
    await backend.stop();
    await fake.stop();
    return;
  }

  // 2. drain rate, unthrottled
  const drainSend = async (count: number) => {
    const campaignId = await http.mutation(api.smsCampaigns.create, {
      name: `Drain ${count}`,
      description: null,
      body,
      voterGroups: groups.slice(0, Math.ceil(count / perGroup)),
      individualVoters: [],
    });
    const before = fake.messages.length;
    const start = performance.now();
    const id = await http.mutation(api.sms.start, { campaignId });
    await new Promise<void>((resolve) => {
      const unsub = socket.onUpdate(api.sms.progress, { sendId: id }, (p) => {
        if (p && p.status === "completed") {
          unsub();
          resolve();
        }
      });
    });
    const secs = (performance.now() - start) / 1000;
    return { secs, sent: fake.messages.slice(before) };
  };
  await http.mutation(api.sms.saveSettings, {
    settings: {
      quietStart: 0,
      quietEnd: 24,
      defaultTimeZone: middayTimeZone(),
      profile: "short_code",
      segmentsPerSecond: 1000,
    },
  });
  const unthrottled = await drainSend(SENDS);
  console.log(
    `2. drained ${unthrottled.sent.length.toLocaleString()} messages unthrottled in ${unthrottled.secs.toFixed(1)}s: ${Math.round(unthrottled.sent.length / unthrottled.secs)} messages/s end to end`,
  );

  // 3. the configured pace over SENDS sends
  await http.mutation(api.sms.saveSettings, {
    settings: {
      quietStart: 0,
      quietEnd: 24,
      defaultTimeZone: middayTimeZone(),
      profile: "short_code",
      segmentsPerSecond: RATE,
    },
  });
  const paced = await drainSend(SENDS);
  const times = paced.sent.map((m) => m.createdAt).sort((a, b) => a - b);
  const measured = (times.length - 1) / ((times[times.length - 1] - times[0]) / 1000);
  const error = ((measured - RATE) / RATE) * 100;
  console.log(
    `3. pace ${RATE} segments/s over ${paced.sent.length.toLocaleString()} sends: measured ${measured.toFixed(2)}/s, error ${error >= 0 ? "+" : ""}${error.toFixed(2)} % (goal ±2 %)`,
  );

  console.log(formatTransactionStats(backend.engine.transactionStats()));
  await socket.close();
  await backend.stop();
  await fake.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}

runBench(main);
