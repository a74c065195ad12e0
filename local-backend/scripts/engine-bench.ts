/**
 * Engine-level benchmark (prints figures, asserts nothing):
 *   npx tsx local-backend/scripts/engine-bench.ts [totalDocs=1000000] [batch=2000] [voters=200000]
 * - batched inserts into a table with two user indexes and a search index
 * - batched inserts of app-shaped "voters" documents (25 fields, 7 user indexes, a search index
 *   with 3 filter fields), as an import does
 * Insert rates are given per wall-clock second and per CPU second of this process (the latter is
 * steadier when other work shares the machine).
 * - indexed range query over the full table
 * - full-text search with an equality filter over the full table
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createEngine } from "../src/engine.js";

const total = Number(process.argv[2] ?? 1_000_000);
const batch = Number(process.argv[3] ?? 2000);
const totalVoters = Number(process.argv[4] ?? 200_000);
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

const work = fs.mkdtempSync(path.join(os.tmpdir(), "engine-bench-"));
const fnDir = path.join(work, "convex");
fs.mkdirSync(fnDir);
fs.symlinkSync(path.join(repoRoot, "node_modules"), path.join(work, "node_modules"));
fs.writeFileSync(
  path.join(fnDir, "schema.ts"),
  `import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";
export default defineSchema({
  docs: defineTable({ group: v.string(), n: v.number(), text: v.string() })
    .index("by_group_n", ["group", "n"])
    .index("by_n", ["n"])
    .searchIndex("search_text", { searchField: "text", filterFields: ["group"] }),
  organizations: defineTable({ name: v.string() }),
  voters: defineTable({
    orgId: v.id("organizations"),
    voter_id: v.optional(v.string()),
    first_name: v.string(),
    last_name: v.string(),
    email: v.optional(v.string()),
    phone: v.optional(v.string()),
    status: v.optional(v.string()),
    party_affiliation: v.optional(v.string()),
    precinct: v.optional(v.string()),
    address: v.optional(v.string()),
    street: v.optional(v.string()),
    city: v.optional(v.string()),
    state: v.optional(v.string()),
    zip: v.optional(v.string()),
    date_of_birth: v.optional(v.string()),
    registration_date: v.optional(v.string()),
    state_voter_history: v.optional(v.number()),
    from_state_database: v.optional(v.boolean()),
    custom_fields: v.optional(v.record(v.string(), v.string())),
    searchText: v.string(),
    emailLower: v.optional(v.string()),
    firstNameLower: v.string(),
    lastNameLower: v.string(),
    importId: v.optional(v.string()),
    updatedAt: v.number(),
  })
    .index("by_org", ["orgId"])
    .index("by_org_party", ["orgId", "party_affiliation"])
    .index("by_org_status", ["orgId", "status"])
    .index("by_org_party_status", ["orgId", "party_affiliation", "status"])
    .index("by_org_email", ["orgId", "emailLower"])
    .index("by_org_name", ["orgId", "lastNameLower", "firstNameLower"])
    .index("by_import", ["importId"])
    .searchIndex("search_text", { searchField: "searchText", filterFields: ["orgId", "party_affiliation", "status"] }),
});
`,
);
fs.writeFileSync(
  path.join(fnDir, "bench.ts"),
  `import { mutationGeneric, queryGeneric } from "convex/server";
import { v } from "convex/values";
const syll = ["ka", "lo", "mi", "ne", "ru", "ta", "vo", "shi", "pe", "zu", "da", "fe", "gi", "ho", "ju", "be", "xo", "wa", "yi", "co"];
function word(i: number) {
  return syll[i % 20] + syll[Math.floor(i / 20) % 20] + syll[Math.floor(i / 400) % 20];
}
export const insertBatch = mutationGeneric({
  args: { start: v.number(), count: v.number() },
  handler: async (ctx, { start, count }) => {
    for (let i = start; i < start + count; i++) {
      const h = (i * 2654435761) >>> 0;
      const text = [0, 1, 2, 3, 4, 5].map((k) => word((h >>> (k * 5)) % 8000)).join(" ");
      await ctx.db.insert("docs", { group: "g" + (i % 100), n: i, text });
    }
    return count;
  },
});
export const range = queryGeneric({
  args: { group: v.string(), from: v.number(), limit: v.number() },
  handler: async (ctx, { group, from, limit }) =>
    (await ctx.db.query("docs").withIndex("by_group_n", (q) => q.eq("group", group).gte("n", from)).take(limit)).length,
});
export const search = queryGeneric({
  args: { text: v.string(), group: v.optional(v.string()), limit: v.number() },
  handler: async (ctx, { text, group, limit }) =>
    (await ctx.db
      .query("docs")
      .withSearchIndex("search_text", (q) => (group ? q.search("text", text).eq("group", group) : q.search("text", text)))
      .take(limit)).length,
});
export const createOrg = mutationGeneric({ args: {}, handler: async (ctx) => ctx.db.insert("organizations", { name: "org" }) });
const FIRST = ["james", "mary", "robert", "patricia", "john", "jennifer", "michael", "linda", "david", "elizabeth", "william", "barbara"];
const LAST = ["smith", "johnson", "williams", "brown", "jones", "garcia", "miller", "davis", "rodriguez", "martinez", "hernandez", "lopez"];
const PARTY = ["Democrat", "Republican", "Independent", "Green Party", "Libertarian"];
const STATUS = ["Active", "Inactive", "Pending", "Suspended"];
export const insertVoters = mutationGeneric({
  args: { orgId: v.id("organizations"), start: v.number(), count: v.number(), importId: v.string() },
  handler: async (ctx, { orgId, start, count, importId }) => {
    const now = Date.now();
    for (let i = start; i < start + count; i++) {
      const h = (i * 2654435761) >>> 0;
      const first = FIRST[h % 12] + word(h % 8000).slice(0, 2);
      const last = LAST[(h >>> 4) % 12] + word((h >>> 8) % 8000);
      const email = first + "." + last + i + "@example.com";
      await ctx.db.insert("voters", {
        orgId,
        voter_id: "V" + i,
        first_name: first[0].toUpperCase() + first.slice(1),
        last_name: last[0].toUpperCase() + last.slice(1),
        email,
        phone: "555-" + String(1000000 + (h % 9000000)),
        status: STATUS[h % 4],
        party_affiliation: PARTY[(h >>> 3) % 5],
        precinct: "P-" + ((h >>> 6) % 300),
        address: (h % 9999) + " " + word((h >>> 5) % 8000) + " St, Springfield, IL 62704",
        street: (h % 9999) + " " + word((h >>> 5) % 8000) + " St",
        city: "Springfield",
        state: "IL",
        zip: "62704",
        date_of_birth: "19" + (40 + (h % 60)) + "-0" + (1 + (h % 9)) + "-1" + (h % 10),
        registration_date: "2020-01-15",
        state_voter_history: h % 5,
        from_state_database: (h & 1) === 0,
        custom_fields: { ward: "W" + (h % 20) },
        searchText: (first + " " + last + " " + email).toLowerCase(),
        emailLower: email.toLowerCase(),
        firstNameLower: first,
        lastNameLower: last,
        importId,
        updatedAt: now,
      });
    }
    return count;
  },
});
export const word_ = queryGeneric({ args: { i: v.number() }, handler: async (_ctx, { i }) => word(i) });
`,
);

const engine = createEngine({
  functionsDir: fnDir,
  dataDir: path.join(work, "data"),
  cloudUrl: "http://127.0.0.1:1",
  siteUrl: "http://127.0.0.1:2",
  scheduler: false,
  log: (l) => console.log(l),
});
await engine.start();

function median(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}
function p95(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length * 0.95)];
}

function cpuSecs() {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

let inserted = 0;
let firstRate = 0;
const t0 = performance.now();
const c0 = cpuSecs();
while (inserted < total) {
  const count = Math.min(batch, total - inserted);
  const r = await engine.runMutation({ path: "bench:insertBatch", args: { start: inserted, count }, identity: null });
  if (r.outcome.status !== "success") throw new Error(r.outcome.errorMessage);
  inserted += count;
  if (inserted === Math.min(100_000, total)) {
    firstRate = inserted / ((performance.now() - t0) / 1000);
    const cpuRate = inserted / (cpuSecs() - c0);
    console.log(
      `insert: first ${inserted} docs at ${Math.round(firstRate)} docs/s, ${Math.round(cpuRate)} docs/CPU-s (batches of ${batch}, 2 user indexes + search index)`,
    );
  }
  if (inserted % 200_000 === 0)
    console.log(`  ... ${inserted} docs, ${Math.round(inserted / ((performance.now() - t0) / 1000))} docs/s overall`);
}
const totalSecs = (performance.now() - t0) / 1000;
console.log(
  `insert: ${inserted} docs in ${totalSecs.toFixed(1)} s = ${Math.round(inserted / totalSecs)} docs/s, ${Math.round(inserted / (cpuSecs() - c0))} docs/CPU-s overall`,
);
console.log(`memory: rss ${Math.round(process.memoryUsage().rss / 1e6)} MB`);

async function time(fn: () => Promise<void>, runs: number) {
  const xs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const s = performance.now();
    await fn();
    xs.push(performance.now() - s);
  }
  return xs;
}

const rangeTimes = await time(async () => {
  const g = `g${Math.floor(Math.random() * 100)}`;
  const from = Math.floor(Math.random() * total);
  const r = await engine.runQuery({ path: "bench:range", args: { group: g, from, limit: 50 }, identity: null });
  if (r.outcome.status !== "success") throw new Error(r.outcome.errorMessage);
}, 200);
console.log(
  `indexed range query (eq + gte, take 50) over ${total} docs: median ${median(rangeTimes).toFixed(2)} ms, p95 ${p95(rangeTimes).toFixed(2)} ms`,
);

const words: string[] = [];
for (let i = 0; i < 20; i++) {
  const r = await engine.runQuery({
    path: "bench:word_",
    args: { i: Math.floor(Math.random() * 8000) },
    identity: null,
  });
  words.push((r.outcome as { value: string }).value);
}
let k = 0;
const searchTimes = await time(async () => {
  const w = words[k++ % words.length];
  const r = await engine.runQuery({ path: "bench:search", args: { text: w, limit: 20 }, identity: null });
  if (r.outcome.status !== "success") throw new Error(r.outcome.errorMessage);
}, 50);
console.log(
  `full-text search (1 term, take 20) over ${total} docs: median ${median(searchTimes).toFixed(2)} ms, p95 ${p95(searchTimes).toFixed(2)} ms`,
);
const filteredTimes = await time(async () => {
  const w = words[k++ % words.length];
  const w2 = words[(k + 7) % words.length];
  const r = await engine.runQuery({
    path: "bench:search",
    args: { text: `${w} ${w2.slice(0, 3)}`, group: `g${k % 100}`, limit: 20 },
    identity: null,
  });
  if (r.outcome.status !== "success") throw new Error(r.outcome.errorMessage);
}, 50);
console.log(
  `full-text search (2 terms with prefix, eq filter, take 20) over ${total} docs: median ${median(filteredTimes).toFixed(2)} ms, p95 ${p95(filteredTimes).toFixed(2)} ms`,
);
console.log(`memory: rss ${Math.round(process.memoryUsage().rss / 1e6)} MB`);

if (totalVoters > 0) {
  const org = await engine.runMutation({ path: "bench:createOrg", args: {}, identity: null });
  if (org.outcome.status !== "success") throw new Error(org.outcome.errorMessage);
  const orgId = org.outcome.value as string;
  const voterBatch = Math.min(batch, 4000);
  let done = 0;
  const v0 = performance.now();
  const vc0 = cpuSecs();
  while (done < totalVoters) {
    const count = Math.min(voterBatch, totalVoters - done);
    const r = await engine.runMutation({
      path: "bench:insertVoters",
      args: { orgId, start: done, count, importId: "import1" },
      identity: null,
    });
    if (r.outcome.status !== "success") throw new Error(r.outcome.errorMessage);
    done += count;
  }
  const secs = (performance.now() - v0) / 1000;
  console.log(
    `insert voters: ${done} docs in ${secs.toFixed(1)} s = ${Math.round(done / secs)} docs/s, ${Math.round(done / (cpuSecs() - vc0))} docs/CPU-s (batches of ${voterBatch}, 25 fields, 7 user indexes + search index with 3 filter fields)`,
  );
}
await engine.stop();
fs.rmSync(work, { recursive: true, force: true });
