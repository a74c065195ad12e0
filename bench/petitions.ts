/**
 * Petition benchmark (`npm run bench:petitions`): a fresh embedded backend, one organisation with
 * 1,000,000 voters (names from pools, addresses, registration status), and a petition of 10,000
 * signer lines imported 200 at a time (as the CSV import sends them): 80 % written by voters the way people write (nicknames,
 * initials, capitals, abbreviated streets, ZIP+4), 20 % by people who are not in the file. Prints
 * the time from the first line entered to the last line decided (goal ≤ 30 s), the verdicts, the
 * precision of automatic accepts and the recall against the known writers, and the largest
 * per-transaction use against Convex's limits.
 *   BENCH_VOTERS=1000000  BENCH_LINES=10000
 */
import { faker } from "@faker-js/faker";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { ConvexClient, ConvexHttpClient } from "convex/browser";
import { convexToJson } from "convex/values";
import WebSocket from "ws";
import { api } from "../convex/_generated/api";
import type { Id } from "../convex/_generated/dataModel";
import { startBackend } from "../local-backend/src/server";
import { configureBackendEnv, signInTicket } from "../scripts/backend-env";
import { formatTransactionStats } from "./txStats";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const VOTERS = Number(process.env.BENCH_VOTERS ?? 1_000_000);
const LINES = Number(process.env.BENCH_LINES ?? 10_000);
const PER_CALL = 2_000;
const LINES_PER_CALL = 200;

faker.seed(20);
const FORMAL = ["William", "Robert", "Richard", "James", "Margaret", "Elizabeth", "Katherine", "Jennifer", "Michael", "Patricia", "Thomas", "Joseph"];
const NICK: Record<string, string> = { William: "Bill", Robert: "Bob", Richard: "Rick", James: "Jim", Margaret: "Peggy", Elizabeth: "Liz", Katherine: "Kate", Jennifer: "Jenny", Michael: "Mike", Patricia: "Pat", Thomas: "Tom", Joseph: "Joe" };
const firstNames = [...FORMAL, ...Array.from({ length: 3000 }, () => faker.person.firstName())];
const lastNames = Array.from({ length: 20_000 }, () => faker.person.lastName());
const streets = Array.from({ length: 4000 }, () => faker.location.street().replace(/ (Street|Avenue|Road|Drive|Lane|Court|Way|Place|Boulevard)$/, ""));
const TYPES: [string, string][] = [["Street", "St"], ["Avenue", "Ave"], ["Road", "Rd"], ["Drive", "Dr"], ["Lane", "Ln"], ["Court", "Ct"]];

function voterAt(i: number) {
  const first = firstNames[(i * 7) % firstNames.length];
  const last = lastNames[(i * 7919) % lastNames.length];
  // one household per address: house numbers along a street, streets in turn, a ZIP per street
  const streetNo = Math.floor(i / 9000);
  const type = TYPES[streetNo % TYPES.length];
  const number = 1 + (i % 9000);
  const street = streets[streetNo % streets.length];
  const zip = String(97000 + (streetNo % 400));
  return {
    fields: {
      first_name: first,
      last_name: last,
      address: `${number} ${street} ${type[0]}, Portland, OR ${zip}`,
      state: "OR",
      zip,
      status: i % 19 === 0 ? "Inactive" : "Active",
      registration_date: "2012-04-01",
    },
    parts: { first, last, number, street, type, zip },
  };
}

function lineFor(i: number, rand: () => number) {
  if (rand() < 0.2) {
    return { line: { name: `${faker.person.firstName()} ${faker.person.lastName()}`, address: `${faker.location.streetAddress()}, Portland, OR 97299`, signedOn: "2026-05-01" }, truth: null as number | null };
  }
  const v = Math.floor(rand() * VOTERS);
  const { parts } = voterAt(v);
  const style = Math.floor(rand() * 5);
  const first = style === 1 && NICK[parts.first] ? NICK[parts.first] : style === 2 ? `${parts.first[0]}.` : parts.first;
  const name = style === 3 ? `${parts.last.toUpperCase()}, ${first.toUpperCase()}` : `${first} ${parts.last}`;
  const type = style % 2 ? parts.type[1] : parts.type[0];
  const zip = style === 4 ? `${parts.zip}-0042` : parts.zip;
  return { line: { name, address: `${parts.number} ${parts.street} ${type}, Portland, OR ${zip}`, signedOn: "2026-05-01" }, truth: v };
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "precinct-bench-petitions-"));
  const backend = await startBackend({ functionsDir: path.join(ROOT, "convex"), dataDir, port: 0, log: () => {} });
  const engine = backend.engine;
  await configureBackendEnv(engine, { siteUrl: "http://127.0.0.1:1" });
  engine.env.set("AUTH_LOG_LEVEL", "ERROR");
  console.log(`petitions bench  ${VOTERS.toLocaleString()} voters, ${LINES.toLocaleString()} lines  node ${process.version}  ${os.cpus()[0]?.model ?? ""} × ${os.cpus().length}`);
  const http = new ConvexHttpClient(backend.cloudUrl, { logger: false });
  const signed = (await http.action(api.auth.signIn, {
    provider: "password",
    params: { flow: "signUp", email: "bench-petitions@example.org", password: "bench-password-1", firstName: "Bench", lastName: "Verifier", ticket: await signInTicket(backend.siteUrl) },
  })) as { tokens?: { token: string } | null };
  const token = signed.tokens!.token;
  http.setAuth(token);
  const me = await http.query(api.viewer.me, {});
  const orgId = me.org!.id;

  const seedStart = performance.now();
  const ids: Id<"voters">[] = [];
  for (let done = 0; done < VOTERS; done += PER_CALL) {
    const n = Math.min(PER_CALL, VOTERS - done);
    const r = await engine.runMutation({ path: "seed:insertVoters", args: convexToJson({ orgId, voters: Array.from({ length: n }, (_, k) => voterAt(done + k).fields) }), identity: null, internal: true });
    if (r.outcome.status !== "success") throw new Error(r.outcome.errorMessage);
    ids.push(...(r.outcome.value as Id<"voters">[]));
  }
  console.log(`seeded ${VOTERS.toLocaleString()} voters in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);

  const petitionId = await http.mutation(api.petitions.create, { name: "Bench initiative", signaturesNeeded: LINES, deadline: null, state: "OR", county: null, mode: "full" });
  const socket = new ConvexClient(backend.cloudUrl, { webSocketConstructor: WebSocket as unknown as typeof globalThis.WebSocket, logger: false });
  socket.setAuth(async () => token);
  // mulberry32: a small, well-mixed seeded generator (the same lines every run)
  let state = 7;
  const rnd = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const lines = Array.from({ length: LINES }, (_, i) => lineFor(i, rnd));

  // a transcription imported from CSV: 200 lines a call onto pages of 200; the clock runs until the last line is decided
  const pageIds: Id<"petitionPages">[] = [];
  for (let p = 0; p < Math.ceil(LINES / LINES_PER_CALL); p++) pageIds.push(await http.mutation(api.petitions.addPage, { petitionId, fileId: null, fileName: `Batch ${p + 1}` }));
  const decided = new Promise<number>((resolve) => {
    const unsubscribe = socket.onUpdate(api.petitions.list, {}, (rows) => {
      const c = rows[0]?.counts;
      if (c && c.lines === LINES && c.pending === 0) {
        unsubscribe();
        resolve(performance.now());
      }
    });
  });
  const start = performance.now();
  for (let i = 0; i < LINES; i += LINES_PER_CALL) {
    await http.mutation(api.petitions.addLines, { pageId: pageIds[i / LINES_PER_CALL], lines: lines.slice(i, i + LINES_PER_CALL).map((l) => l.line) });
  }
  const entered = performance.now();
  const end = await decided;
  const total = (end - start) / 1000;
  console.log(`entered ${LINES.toLocaleString()} lines in ${((entered - start) / 1000).toFixed(1)} s; all decided ${total.toFixed(1)} s after the first (goal ≤ 30 s): ${Math.round(LINES / total).toLocaleString()} lines/s`);

  // verdicts against the known writers
  const byKey = new Map<string, number | null>(lines.map((l) => [`${l.line.name}|${l.line.address}`, l.truth]));
  let cursor: string | null = null;
  const verdicts: Record<string, number> = {};
  let accepted = 0;
  const wrong: string[] = [];
  let correct = 0;
  let positives = 0;
  for (const l of lines) if (l.truth !== null && l.truth % 19 !== 0) positives++;
  for (;;) {
    const page: Awaited<ReturnType<typeof http.query<typeof api.petitions.exportPage>>> = await http.query(api.petitions.exportPage, { petitionId, paginationOpts: { numItems: 1000, cursor } });
    for (const r of page.page) {
      verdicts[r.status] = (verdicts[r.status] ?? 0) + 1;
      if (r.status !== "verified") continue;
      accepted++;
      const truth = byKey.get(`${r.name}|${r.address}`);
      if (truth !== null && truth !== undefined && ids[truth] === r.voterId) correct++;
      else if (wrong.length < 5) wrong.push(`${r.name} / ${r.address} → ${r.voterName} (${r.confidence})`);
    }
    if (page.isDone) break;
    cursor = page.continueCursor;
  }
  // a voter drawn twice signs twice: the second line is a duplicate, not a miss
  const duplicates = verdicts.duplicate ?? 0;
  console.log(`verdicts: ${Object.entries(verdicts).map(([k, n]) => `${k} ${n.toLocaleString()}`).join(", ")}`);
  console.log(`automatic accepts: precision ${(correct / accepted).toFixed(4)}, recall ${(correct / (positives - duplicates)).toFixed(4)} (${positives.toLocaleString()} lines by eligible voters, ${duplicates} second signatures)`);
  if (wrong.length) console.log(`wrong accepts, first ${wrong.length}:\n  ${wrong.join("\n  ")}`);
  console.log(formatTransactionStats(engine.transactionStats()));
  await socket.close();
  await backend.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
