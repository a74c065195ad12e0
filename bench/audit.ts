/**
 * Audit log benchmark (`npm run bench:audit`), issue 39: how long an audited action takes to show
 * on the live audit page. A fresh embedded backend, an account administrator subscribed to the
 * log's first page (`audit.list`, what /audit-log shows) over the WebSocket client, while the same
 * administrator creates voters (each one audited): one at a time with pauses of 0–200 ms (so the
 * actions land anywhere in the sealer's 250 ms buckets), then in bursts of 20 at once. For each,
 * the time from the mutation's answer to its entry in the subscription. Goal: ≤ 1 s. Then the
 * chain is verified end to end.
 *   BENCH_AUDIT_ACTIONS=200  BENCH_AUDIT_BURSTS=10
 */
import fs from "node:fs";
import { performance } from "node:perf_hooks";
import { api } from "../convex/_generated/api";
import { benchSession, startBenchBackend } from "./session";
import { speedIndexLine } from "./speedIndex";
import { runBench } from "./run";

const ACTIONS = Number(process.env.BENCH_AUDIT_ACTIONS ?? 200);
const BURSTS = Number(process.env.BENCH_AUDIT_BURSTS ?? 10);
const BURST = 20;
const ADMIN_KEY = "bench-audit-admin";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const line = (name: string, xs: number[]) =>
  `  ${name.padEnd(34)} n=${xs.length}  p50 ${pct(xs, 50).toFixed(0)} ms  p95 ${pct(xs, 95).toFixed(0)} ms  p99 ${pct(xs, 99).toFixed(0)} ms  max ${Math.max(...xs).toFixed(0)} ms`;

async function main() {
  console.log(speedIndexLine());
  const { backend, dir } = await startBenchBackend("audit", ADMIN_KEY);
  try {
    const { http, socket } = await benchSession(
      backend,
      { email: "bench-audit@example.org", firstName: "Audrey", lastName: "Admin" },
      ADMIN_KEY,
    );
    // entry target id → when the mutation answered; filled in when the entry shows
    const answered = new Map<string, number>();
    const shown = new Map<string, number>();
    const waiters = new Map<string, () => void>();
    socket.onUpdate(api.audit.list, { paginationOpts: { numItems: 50, cursor: null } }, (res) => {
      const now = performance.now();
      for (const e of res.page) {
        if (shown.has(e.target.id)) continue;
        shown.set(e.target.id, now);
        waiters.get(e.target.id)?.();
      }
    });
    const visible = (id: string) =>
      shown.has(id) ? Promise.resolve() : new Promise<void>((r) => waiters.set(id, () => r()));
    const create = async (n: number) => {
      const id: string = await http.mutation(api.voters.create, {
        fields: { first_name: `Audited${n}`, last_name: "Voter" },
      });
      answered.set(id, performance.now());
      return id;
    };
    const latency = (ids: string[]) => ids.map((id) => shown.get(id)! - answered.get(id)!);

    // warm-up: the first chain start, the subscription
    await visible(await create(-1));

    const single: string[] = [];
    for (let i = 0; i < ACTIONS; i++) {
      const id = await create(i);
      single.push(id);
      await visible(id);
      await sleep(Math.random() * 200);
    }
    const burst: string[] = [];
    for (let b = 0; b < BURSTS; b++) {
      const ids = await Promise.all(Array.from({ length: BURST }, (_, i) => create(ACTIONS + b * BURST + i)));
      await Promise.all(ids.map(visible));
      burst.push(...ids);
      await sleep(300);
    }
    console.log("audited action (voters.create) → its entry on the live audit page (goal ≤ 1,000 ms):");
    console.log(line("one at a time", latency(single)));
    console.log(line(`bursts of ${BURST} at once`, latency(burst)));
    const verified = await http.action(api.audit.verify, {});
    console.log(`chain verify: ${JSON.stringify(verified)}`);
    await socket.close();
  } finally {
    await backend.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

runBench(main);
