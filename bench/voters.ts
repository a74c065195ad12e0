/**
 * Voter benchmark (`npm run bench:voters`). Starts a fresh embedded backend on the app's convex/
 * folder in a temp dir (loopback only), signs up one organisation, seeds VOTERS voters (default
 * 1,000,000; e.g. VOTERS=5000000 for a statewide file, VOTERS=20000 for a quick run; BENCH_VOTERS
 * is read too) through an internal mutation (2,000 per call) and prints, for each of
 *   1. list pages (50): the first page (newest first), filters (party + status index, a state
 *      status code), full-text searches (a name, a prefix, a phone typed with punctuation)
 *   2. the list's total (voters.count, every page followed to the end as the browser does): from
 *      the tally, counted in index pages for a status code, and a search (capped at 1,024)
 *   3. adding 10,000 voters to a group ("select all matching", server pages of 500)
 * the server time (the engine running the function in-process) and the end-to-end client time
 * (ConvexHttpClient over HTTP with the user's JWT). Goals: list page < 150 ms, search < 100 ms.
 */
import { faker } from "@faker-js/faker";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ConvexHttpClient } from "convex/browser";
import { convexToJson, jsonToConvex, type Value } from "convex/values";
import { api } from "../convex/_generated/api";
import { startBackend } from "../local-backend/src/server";
import type { UserIdentity } from "../local-backend/src/engine-api";
import { configureBackendEnv, signInTicket } from "../scripts/backend-env";
import { formatTransactionStats } from "./txStats";
import { speedIndexLine } from "./speedIndex";
import { runBench } from "./run";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const TOTAL = Number(process.env.VOTERS ?? process.env.BENCH_VOTERS ?? 1_000_000);
const PER_CALL = 2_000;
const GROUP_ADD = Math.min(10_000, TOTAL);
const REPEATS = 15;
const PARTIES = ["Democrat", "Republican", "Independent", "Green Party", "Libertarian"];
const STATUSES = ["Active", "Active", "Active", "Inactive", "Pending", "Suspended"];
/** State status codes as in NC's file: mostly active, some removed, denied, inactive. */
const STATUS_CODES = ["A", "A", "A", "A", "A", "A", "I", "I", "R", "D"];
/** Repeats of a count that reads pages (a status code over millions of voters takes a while). */
const COUNT_REPEATS = 3;

const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
function p50(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

// Pools keep generation cheap: a million faker calls would dominate the run.
faker.seed(42);
const firstNames = Array.from({ length: 3000 }, () => faker.person.firstName());
const lastNames = Array.from({ length: 5000 }, () => faker.person.lastName());
const cities = Array.from({ length: 500 }, () => faker.location.city());
function voter(i: number) {
  const first = firstNames[i % firstNames.length];
  const last = lastNames[(i * 7919) % lastNames.length];
  return {
    first_name: first,
    last_name: last,
    email: `${first}.${last}.${i}@example.org`.toLowerCase().replace(/[^a-z0-9.@]/g, ""),
    phone: `555${String(i).padStart(7, "0")}`,
    party_affiliation: PARTIES[i % PARTIES.length],
    status: STATUSES[(i * 31) % STATUSES.length],
    precinct: `P-${String(i % 60).padStart(3, "0")}`,
    city: cities[i % cities.length],
    state_voter_history: i % 5,
    status_code: STATUS_CODES[(i * 13) % STATUS_CODES.length],
  };
}

/** One retry when a pooled keep-alive connection went stale during the long seed (ECONNRESET). */
async function retry<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (!(e instanceof TypeError) || !String(e.message).includes("fetch failed")) throw e;
    return await fn();
  }
}

async function main() {
  console.log(speedIndexLine());
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "precinct-bench-voters-"));
  const backend = await startBackend({ functionsDir: path.join(ROOT, "convex"), dataDir, port: 0, log: () => {} });
  const engine = backend.engine;
  try {
    await configureBackendEnv(engine, { siteUrl: "http://127.0.0.1:1" });
    const client = new ConvexHttpClient(backend.cloudUrl, { logger: false });

    const signUp = (await client.action(api.auth.signIn, {
      provider: "password",
      params: {
        flow: "signUp",
        email: "bench@example.org",
        password: "bench-password-1",
        firstName: "Bench",
        lastName: "Mark",
        ticket: await signInTicket(backend.siteUrl),
      },
    })) as { tokens?: { token: string } | null };
    const token = signUp.tokens?.token;
    if (!token) throw new Error("sign-up returned no token");
    client.setAuth(token);
    const claims = JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString()) as { sub: string; iss: string };
    const identity: UserIdentity = {
      subject: claims.sub,
      issuer: claims.iss,
      tokenIdentifier: `${claims.iss}|${claims.sub}`,
    };
    const me = await retry(() => client.query(api.viewer.me, {}));
    const orgId = me.org?.id;
    if (!orgId) throw new Error("no organisation after sign-up");

    const run = async (kind: "query" | "mutation", fn: string, args: Record<string, Value | undefined>) => {
      const req = { path: fn, args: convexToJson(args), identity };
      const start = performance.now();
      const r = kind === "query" ? await engine.runQuery(req) : await engine.runMutation(req);
      const ms = performance.now() - start;
      if (r.outcome.status !== "success") throw new Error(`${fn}: ${r.outcome.errorMessage}`);
      return { ms, value: jsonToConvex(r.outcome.value) as never };
    };

    // seed
    console.log(`Seeding ${TOTAL.toLocaleString()} voters (${PER_CALL} per mutation)…`);
    const seedStart = performance.now();
    for (let done = 0; done < TOTAL; done += PER_CALL) {
      const n = Math.min(PER_CALL, TOTAL - done);
      // The internal seed mutation, called in-process the way an admin-key caller may.
      const r = await engine.runMutation({
        path: "seed:insertVoters",
        args: convexToJson({ orgId, voters: Array.from({ length: n }, (_, k) => voter(done + k)) }),
        identity: null,
        internal: true,
      });
      if (r.outcome.status !== "success") throw new Error(`seed: ${r.outcome.errorMessage}`);
      if ((done / PER_CALL) % 50 === 0) process.stdout.write(`  ${done.toLocaleString()}\r`);
    }
    const seedS = (performance.now() - seedStart) / 1000;
    console.log(
      `Seeded ${TOTAL.toLocaleString()} voters in ${seedS.toFixed(1)} s (${Math.round(TOTAL / seedS).toLocaleString()} voters/s)`,
    );

    const page = { paginationOpts: { numItems: 50, cursor: null } };
    const searchTerm = lastNames[123].toLowerCase();
    const phone = voter(123).phone;
    const typedPhone = `(${phone.slice(0, 3)}) ${phone.slice(3, 6)}-${phone.slice(6)}`;
    const cases: { name: string; args: Record<string, Value | undefined> }[] = [
      { name: "first page (50, newest first)", args: page },
      { name: "filter: Democrat + Active", args: { ...page, party: "Democrat", status: "Active" } },
      { name: 'filter: status code "R"', args: { ...page, statusCode: "R" } },
      { name: `search "${searchTerm}"`, args: { ...page, search: searchTerm } },
      { name: `search prefix "${searchTerm.slice(0, 3)}"`, args: { ...page, search: searchTerm.slice(0, 3) } },
      { name: `search phone "${typedPhone}"`, args: { ...page, search: typedPhone } },
    ];
    console.log(`\n${"voters.list".padEnd(46)} server p50   client p50   rows`);
    for (const c of cases) {
      const server: number[] = [];
      const clientMs: number[] = [];
      let rows = 0;
      for (let i = 0; i < REPEATS; i++) {
        const r = await run("query", "voters:list", c.args);
        server.push(r.ms);
        rows = (r.value as { page: unknown[] }).page.length;
        const start = performance.now();
        await retry(() => client.query(api.voters.list, c.args as never));
        clientMs.push(performance.now() - start);
      }
      console.log(
        `  ${c.name.padEnd(44)} ${fmt(p50(server)).padStart(10)} ${fmt(p50(clientMs)).padStart(12)}   ${rows}`,
      );
    }

    // the list's total: every page of voters.count followed to the end, as the browser does
    type CountResult = { page: { count: number; capped: boolean }[]; isDone: boolean; continueCursor: string };
    const countCases: { name: string; args: Record<string, Value | undefined> }[] = [
      { name: "all voters (tally)", args: {} },
      { name: "Democrat + Active (tally)", args: { party: "Democrat", status: "Active" } },
      { name: 'status code "R" (index pages)', args: { statusCode: "R" } },
      { name: 'status code "A" + Democrat (index pages)', args: { statusCode: "A", party: "Democrat" } },
      { name: `search "${searchTerm}"`, args: { search: searchTerm } },
      { name: `search prefix "${searchTerm.slice(0, 3)}"`, args: { search: searchTerm.slice(0, 3) } },
    ];
    console.log(`\n${"voters.count (all pages)".padEnd(46)} server p50   client p50   total  calls`);
    for (const c of countCases) {
      const server: number[] = [];
      const clientMs: number[] = [];
      let total = "";
      let calls = 0;
      for (let i = 0; i < COUNT_REPEATS; i++) {
        let cursor: string | null = null;
        let n = 0;
        let capped = false;
        let serverMs = 0;
        calls = 0;
        for (;;) {
          const r = await run("query", "voters:count", { ...c.args, paginationOpts: { numItems: 1, cursor } });
          const v = r.value as CountResult;
          serverMs += r.ms;
          calls += 1;
          n += v.page[0].count;
          capped ||= v.page[0].capped;
          if (v.isDone) break;
          cursor = v.continueCursor;
        }
        server.push(serverMs);
        total = `${n.toLocaleString()}${capped ? "+" : ""}`;
        cursor = null;
        const start = performance.now();
        for (;;) {
          const v: CountResult = await retry(() =>
            client.query(api.voters.count, { ...c.args, paginationOpts: { numItems: 1, cursor } }),
          );
          if (v.isDone) break;
          cursor = v.continueCursor;
        }
        clientMs.push(performance.now() - start);
      }
      console.log(
        `  ${c.name.padEnd(44)} ${fmt(p50(server)).padStart(10)} ${fmt(p50(clientMs)).padStart(12)}   ${total.padStart(9)}  ${calls}`,
      );
    }

    // group add: "select all matching" in server pages of 500, until GROUP_ADD voters are in
    console.log(`\ngroups.addMatching: ${GROUP_ADD.toLocaleString()} voters, pages of 500`);
    for (const via of ["server", "client"] as const) {
      const groupId = await client.mutation(api.groups.create, { name: `Bench ${via}` });
      let cursor: string | null = null;
      let added = 0;
      let serverMs = 0;
      const start = performance.now();
      while (added < GROUP_ADD) {
        const args = { groupId, cursor, numItems: Math.min(500, GROUP_ADD - added) };
        const r: { added: number; isDone: boolean; continueCursor: string } =
          via === "server"
            ? await run("mutation", "groups:addMatching", args).then((x) => {
                serverMs += x.ms;
                return x.value;
              })
            : await retry(() => client.mutation(api.groups.addMatching, args));
        added += r.added;
        if (r.isDone) break;
        cursor = r.continueCursor;
      }
      const total = performance.now() - start;
      const groups = await client.query(api.groups.list, {});
      const count = groups.find((g) => g._id === groupId)?.memberCount;
      console.log(
        `  ${via === "server" ? "server (engine, in-process)" : "client (HTTP, end to end)"}: ${added.toLocaleString()} added in ${fmt(via === "server" ? serverMs : total)} — memberCount ${count}`,
      );
    }
    console.log(`\n${formatTransactionStats(engine.transactionStats())}`);
  } finally {
    await backend.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

runBench(main);
