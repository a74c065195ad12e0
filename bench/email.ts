/**
 * Email blast benchmark (`npm run bench:email`), on the embedded backend against a local fake of
 * Resend (tests/support/fakeResend.ts):
 *   1. 100,000 recipients (20 groups of 5,000) resolved and enqueued by the fan-out chain (the
 *      send paused, so the enqueue is measured alone), progress read through a subscription
 *   2. the drain of those 100,000 to the fake provider, unthrottled (batches of 100), emails/s
 *   3. the configured pace (EMAIL_BATCHES_PER_SECOND, Resend's default 2/s) kept over 20 batches
 *   4. 1,000,000 provider events recorded for the campaign (the webhook's own code, in batches),
 *      then the Statistics query timed (goal < 200 ms), and 200 signed webhooks through HTTP
 * Then the largest per-transaction use against Convex's limits.
 *   BENCH_RECIPIENTS=100000  BENCH_EVENTS=1000000
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
import { FakeResend, postWebhook, RESEND_KEY, WEBHOOK_SECRET } from "../tests/support/fakeResend";
import { SENDABLE, SETTINGS } from "../tests/lib/email/blastSupport";
import { benchSession } from "./session";
import { formatTransactionStats } from "./txStats";
import { speedIndexLine } from "./speedIndex";
import { runBench } from "./run";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const RECIPIENTS = Number(process.env.BENCH_RECIPIENTS ?? 100_000);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const ADMIN_KEY = "bench-email-admin";
const internalMutation = (name: string) => makeFunctionReference<"mutation", Record<string, unknown>, unknown>(name);
const secs = (t: number) => (performance.now() - t) / 1000;

function median(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}
function p95(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length * 0.95)];
}

async function main() {
  console.log(speedIndexLine());
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "precinct-bench-email-"));
  const fake = new FakeResend();
  await fake.start();
  const backend = await startBackend({
    functionsDir: path.join(root, "convex"),
    dataDir: dir,
    port: 0,
    adminKey: ADMIN_KEY,
  });
  await configureBackendEnv(backend.engine, { siteUrl: "http://127.0.0.1:1" });
  const env = (pace: string) => {
    for (const [k, v] of Object.entries({
      RESEND_API_KEY: RESEND_KEY,
      RESEND_BASE_URL: fake.url,
      RESEND_WEBHOOK_SECRET: WEBHOOK_SECRET,
      EMAIL_BATCHES_PER_SECOND: pace,
      AUTH_LOG_LEVEL: "ERROR",
    }))
      backend.engine.env.set(k, v);
  };
  env("1000");
  console.log(`email bench  dir=${dir}  node ${process.version}  ${os.cpus()[0]?.model ?? ""}`);

  const { http, socket, admin } = await benchSession(
    backend,
    { email: "bench-email@example.org", firstName: "Bench", lastName: "Sender" },
    ADMIN_KEY,
  );
  const orgId = (await admin.mutation(internalMutation("seed:orgOfUser"), {
    email: "bench-email@example.org",
  })) as Id<"organizations">;

  const t0 = performance.now();
  const groups: Id<"voterGroups">[] = [];
  const perGroup = Math.min(5_000, RECIPIENTS);
  for (let g = 0; g * perGroup < RECIPIENTS; g++) {
    const ids: Id<"voters">[] = [];
    for (let b = 0; b < perGroup; b += 1_000) {
      const voters = Array.from({ length: Math.min(1_000, perGroup) }, (_, i) => {
        const n = g * perGroup + b + i;
        return { first_name: `V${n}`, last_name: "Bench", email: `v${n}@bench.example.org`, city: "Portland" };
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
    `seeded ${RECIPIENTS.toLocaleString()} voters with email in ${groups.length} groups in ${secs(t0).toFixed(1)}s`,
  );

  const campaign = async (name: string, groupIds: Id<"voterGroups">[]) => {
    const id = await http.mutation(api.emailCampaigns.create, { ...SETTINGS, name, blocks: JSON.stringify(SENDABLE) });
    await http.mutation(api.emailBlasts.updateSetup, { id, edits: [{ field: "groupIds", base: [], value: groupIds }] });
    return id;
  };
  const until = (
    id: Id<"emailCampaigns">,
    done: (p: { status: string; counts: { queued: number; sent: number } }) => boolean,
    onTick?: (p: { counts: { queued: number; sent: number } }) => void,
  ) =>
    new Promise<void>((resolve) => {
      const unsub = socket.onUpdate(api.emailBlasts.progress, { id }, (p) => {
        if (!p) return;
        onTick?.(p);
        if (done(p)) {
          unsub();
          resolve();
        }
      });
    });

  // 1. resolve and enqueue 100k recipients (the send paused at once: the fan-out alone)
  const big = await campaign("Bench 100k", groups);
  const t1 = performance.now();
  const { sendId } = await http.mutation(api.emailBlasts.send, { id: big });
  await http.mutation(api.emailBlasts.control, { sendId: sendId!, action: "pause" });
  let shown = 0;
  let updates = 0;
  await until(
    big,
    (p) => p.counts.queued >= RECIPIENTS,
    (p) => {
      updates++;
      if (performance.now() - shown > 2000) {
        shown = performance.now();
        console.log(`  … ${p.counts.queued.toLocaleString()} queued`);
      }
    },
  );
  const enqueueSecs = secs(t1);
  console.log(
    `1. resolved and enqueued ${RECIPIENTS.toLocaleString()} recipients in ${enqueueSecs.toFixed(1)}s (${Math.round(RECIPIENTS / enqueueSecs).toLocaleString()}/s) — ${updates} live progress updates`,
  );

  // 2. drain to the fake provider, unthrottled
  const t2 = performance.now();
  await http.mutation(api.emailBlasts.control, { sendId: sendId!, action: "resume" });
  shown = performance.now();
  await until(
    big,
    (p) => p.status === "completed",
    (p) => {
      if (performance.now() - shown > 5000) {
        shown = performance.now();
        console.log(`  … ${p.counts.sent.toLocaleString()} sent`);
      }
    },
  );
  const drainSecs = secs(t2);
  const calls = fake.requests.filter((r) => r.path === "/emails/batch").length;
  console.log(
    `2. drained ${fake.emails.length.toLocaleString()} emails in ${calls.toLocaleString()} batch calls in ${drainSecs.toFixed(1)}s: ${Math.round(fake.emails.length / drainSecs).toLocaleString()} emails/s (${(calls / drainSecs).toFixed(1)} batches/s)`,
  );

  // 3. the configured pace: Resend's default 2 batch calls a second, over 20 batches
  env("2");
  const paced = await campaign("Paced", [groups[0]]);
  const before = fake.requests.length;
  await http.mutation(api.emailBlasts.send, { id: paced });
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      if (fake.requests.slice(before).filter((r) => r.path === "/emails/batch").length >= 21) {
        clearInterval(timer);
        resolve();
      }
    }, 50);
  });
  const batchTimes = fake.requests
    .slice(before)
    .filter((r) => r.path === "/emails/batch")
    .map((r) => r.at)
    .slice(0, 21);
  const rate = (batchTimes.length - 1) / ((batchTimes[batchTimes.length - 1] - batchTimes[0]) / 1000);
  console.log(`3. pace 2 batches/s (200 emails/s): measured ${rate.toFixed(2)} batches/s over 20 batches`);
  const pacedSend = (await http.query(api.emailBlasts.progress, { id: paced }))!;
  await http.mutation(api.emailBlasts.control, { sendId: pacedSend.sendId, action: "cancel" });

  // 4. a million events, then the Statistics query
  const ids = fake.emails.slice(0, RECIPIENTS).map((e) => e.id);
  const kinds = [
    "email.delivered",
    "email.opened",
    "email.opened",
    "email.clicked",
    "email.clicked",
    "email.delivered",
    "email.opened",
    "email.clicked",
    "email.opened",
    "email.clicked",
  ] as const;
  const links = [
    "https://example.org/rsvp",
    "https://example.org/donate",
    "https://example.org/volunteer",
    "https://example.org/events",
    "https://example.org/news",
    "https://example.org/about",
  ];
  const t4 = performance.now();
  const BATCH = 500;
  let recorded = 0;
  for (let start = 0; start < EVENTS; start += BATCH) {
    const events = [];
    for (let n = start; n < Math.min(EVENTS, start + BATCH); n++) {
      const type = kinds[Math.floor(n / ids.length) % kinds.length];
      events.push({
        eventId: `bench_${n}`,
        type,
        emailId: ids[n % ids.length],
        at: Date.now(),
        ...(type === "email.clicked" ? { url: links[n % links.length] } : {}),
      });
    }
    await admin.mutation(internalMutation("emailWebhooks:applyBatch"), { events });
    recorded += events.length;
    if (recorded % 100_000 === 0)
      console.log(
        `  … ${recorded.toLocaleString()} events recorded (${Math.round(recorded / secs(t4)).toLocaleString()}/s)`,
      );
  }
  console.log(
    `4a. recorded ${recorded.toLocaleString()} provider events in ${secs(t4).toFixed(1)}s (${Math.round(recorded / secs(t4)).toLocaleString()}/s, the webhook's own code in batches of ${BATCH})`,
  );
  const times: number[] = [];
  const stats = (await http.query(api.emailBlasts.statistics, { id: big }))!;
  for (let i = 0; i < 200; i++) {
    const t = performance.now();
    await http.query(api.emailBlasts.statistics, { id: big });
    times.push(performance.now() - t);
  }
  console.log(
    `4b. Statistics at ${recorded.toLocaleString()} events / ${RECIPIENTS.toLocaleString()} recipients: median ${median(times).toFixed(1)} ms, p95 ${p95(times).toFixed(1)} ms over 200 queries (goal < 200 ms)`,
  );
  console.log(
    `    ${JSON.stringify({ sent: stats.sent, delivered: stats.delivered, opened: stats.opened, clicked: stats.clicked, topLinks: stats.topLinks.length })}`,
  );
  const t5 = performance.now();
  for (let i = 0; i < 200; i++) {
    const res = await postWebhook(backend.siteUrl, { type: "email.opened", emailId: ids[i] });
    if (!res.ok) throw new Error(`webhook ${res.status}`);
  }
  console.log(
    `4c. 200 signed webhooks over HTTP (svix verification, dedupe, counters): ${(secs(t5) * 5).toFixed(1)} ms each`,
  );

  console.log(formatTransactionStats(backend.engine.transactionStats()));
  await socket.close();
  await backend.stop();
  await fake.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}

runBench(main);
