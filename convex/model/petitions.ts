/**
 * Petition verification on the server: counts kept in step with every line's status, candidate
 * voters found through the name-key index, the matching chain (cursor-driven mutations, each line
 * decided exactly once), duplicates across pages and petitions, reviewers' claims.
 */
import { countiesFromMap } from "./areas";
import type { Doc, Id } from "../_generated/dataModel";
import { internal } from "../_generated/api";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { appError } from "../lib/errors";
import { matchLine, similarity, type Jurisdiction, type VoterRecord } from "../lib/petitions/match";
import { householdKey, NAME_KEYS_VERSION } from "../lib/petitions/names";
import { candidateIds, HOUSEHOLD_TAKE, type NameKeySource } from "../lib/petitions/retrieve";
import { filteredVoters } from "./voterSearch";
import { sampleSize } from "../lib/petitions/projection";

/** Lines decided per mutation of the chain. */
export const MATCH_BATCH = 50;
/** How long a matching step waits for the name-key backfill before looking again. */
const KEYS_WAIT_MS = 500;
/** A claim lapses this long after the reviewer's last sign of life (they left). */
export const CLAIM_TTL_MS = 90_000;

type Counts = Doc<"petitions">["counts"];
type Line = Doc<"petitionLines">;
type Status = Line["status"];

export function emptyCounts(): Counts {
  return { verified: 0, failed: 0, duplicate: 0, review: 0, adjudicatedValid: 0, adjudicatedInvalid: 0, sampled: 0 };
}

function bucket(status: Status, valid: boolean | null): keyof Counts | null {
  if (status === "pending") return null;
  if (status === "adjudicated") return valid ? "adjudicatedValid" : "adjudicatedInvalid";
  return status;
}

/** Moves one line between the petition's verdict counters ("pending" is lines entered minus verdicts). */
export function moveCount(
  counts: Counts,
  from: { status: Status; valid?: boolean | null },
  to: { status: Status; valid?: boolean | null },
): Counts {
  const next = { ...counts };
  const a = bucket(from.status, from.valid ?? null);
  const b = bucket(to.status, to.valid ?? null);
  if (a) next[a] -= 1;
  if (b) next[b] += 1;
  return next;
}

/** Lines entered into a petition (petitionIntake). */
export async function linesEntered(db: QueryCtx["db"], petitionId: Id<"petitions">): Promise<number> {
  const row = await db
    .query("petitionIntake")
    .withIndex("by_petition", (q) => q.eq("petitionId", petitionId))
    .unique();
  return row?.lines ?? 0;
}

function toRecord(v: Doc<"voters">): VoterRecord {
  const custom = v.custom_fields;
  return {
    id: v._id,
    first_name: v.first_name,
    last_name: v.last_name,
    middle_name: v.middle_name,
    name_suffix: v.name_suffix,
    address: v.address,
    street: v.street,
    city: v.city,
    state: v.state,
    zip: v.zip,
    status: v.status,
    status_code: v.status_code,
    registration_date: v.registration_date,
    county: custom?.county ?? custom?.county_name ?? custom?.county_desc,
  };
}

/** The organisation's voterNameKeys as the retrieval plan reads them (lib/petitions/retrieve.ts). */
function keySource(db: QueryCtx["db"], orgId: Id<"organizations">): NameKeySource {
  return {
    byName: async (lastKey, first, take) =>
      await db
        .query("voterNameKeys")
        .withIndex("by_org_namekeys", (q) => {
          const r = q.eq("orgId", orgId).eq("lastNameKey", lastKey);
          if (first === null) return r;
          return "eq" in first
            ? r.eq("firstNameKey", first.eq)
            : r
                .gte("firstNameKey", first.prefix)
                .lt(
                  "firstNameKey",
                  `${first.prefix.slice(0, -1)}${String.fromCharCode(first.prefix.charCodeAt(first.prefix.length - 1) + 1)}`,
                );
        })
        .take(take),
    byLastZip: async (lastKey, zip, take) =>
      await db
        .query("voterNameKeys")
        .withIndex("by_org_lastkey_zip", (q) => q.eq("orgId", orgId).eq("lastNameKey", lastKey).eq("zip", zip))
        .take(take),
    byHousehold: async (house, street, take) =>
      await db
        .query("voterNameKeys")
        .withIndex("by_org_household", (q) => q.eq("orgId", orgId).eq("house", house).eq("street", street))
        .take(take),
  };
}

/**
 * The voters a line can be (lib/petitions/retrieve.ts: name keys, then the household at the
 * signer's address), each read once. Every range is capped, so a line reads a bounded number of
 * voters however large the file.
 */
export async function candidateVoters(
  db: QueryCtx["db"],
  orgId: Id<"organizations">,
  name: string,
  address = "",
): Promise<VoterRecord[]> {
  const ids = await candidateIds(keySource(db, orgId), name, address);
  const voters = await Promise.all(ids.map((id) => db.get("voters", id as Id<"voters">)));
  return voters.filter((v): v is Doc<"voters"> => v !== null).map(toRecord);
}

/** Voters the reviewer's search answers at most. */
export const SEARCH_LIMIT = 20;

/** "Mary Hughes 12 Oak St" / "Hughes, Mary, 12 Oak St" → the name before the house number, the address from it. */
export function splitNameAddress(query: string): { name: string; address: string } {
  const m = query.match(/^(.*?)(?:^|[\s,]+)(\d+[a-z]?\s+[a-z].*)$/i);
  if (!m) return { name: query.replace(/,\s*$/, "").trim(), address: "" };
  return { name: m[1].replace(/[\s,]+$/, "").trim(), address: m[2].trim() };
}

/**
 * The adjudicate dialog's voter search: the state voter ID exactly; the household at an address
 * (house number and street); a name by the search index (every word) and by its name keys (a
 * misspelling, a nickname). Ranked by how well each voter fits what was typed. Bounded reads: a
 * few capped index ranges and at most 1,024 search results.
 */
export async function searchVotersFor(
  db: QueryCtx["db"],
  orgId: Id<"organizations">,
  query: string,
): Promise<Doc<"voters">[]> {
  const q = query.trim().replace(/\s+/g, " ");
  if (q.length < 2 || q.length > 200) return [];
  const found = new Map<Id<"voters">, Doc<"voters">>();
  const add = (v: Doc<"voters"> | null) => {
    if (v && v.orgId === orgId) found.set(v._id, v);
  };
  // a voter ID: one token with a digit (OH0012345679, 000123456, AB-1234)
  if (/^[a-z0-9-]+$/i.test(q) && /\d/.test(q)) {
    for (const id of new Set([q, q.toUpperCase()])) {
      for (const v of await db
        .query("voters")
        .withIndex("by_org_voterid", (x) => x.eq("orgId", orgId).eq("voter_id", id))
        .take(5))
        add(v);
    }
  }
  const { name, address } = splitNameAddress(q);
  const household = householdKey(address);
  if (household) {
    const rows = await db
      .query("voterNameKeys")
      .withIndex("by_org_household", (x) =>
        x.eq("orgId", orgId).eq("house", household.house).eq("street", household.street),
      )
      .take(HOUSEHOLD_TAKE);
    for (const v of await Promise.all(rows.map((r) => db.get("voters", r.voterId)))) add(v);
  }
  if (/[a-z]{2}/i.test(name)) {
    for (const v of await filteredVoters(db, orgId, { search: name }).take(SEARCH_LIMIT)) add(v);
    const ids = (await candidateIds(keySource(db, orgId), name, address)).slice(0, 3 * SEARCH_LIMIT);
    for (const v of await Promise.all(ids.map((id) => db.get("voters", id as Id<"voters">)))) add(v);
  }
  const ranked = [...found.values()].map((v) => {
    const s = similarity(name, address, toRecord(v));
    return {
      v,
      rank:
        (name ? s.nameScore : 0) +
        (address ? s.addressScore : 0) +
        (v.voter_id && v.voter_id.toUpperCase() === q.toUpperCase() ? 2 : 0),
    };
  });
  ranked.sort((a, b) => b.rank - a.rank);
  return ranked.slice(0, SEARCH_LIMIT).map((r) => r.v);
}

/** The earliest line that already counts for this voter (another page or petition), if any. */
async function countingLine(
  db: QueryCtx["db"],
  orgId: Id<"organizations">,
  voterId: Id<"voters">,
  except: Id<"petitionLines">,
) {
  const rows = await db
    .query("petitionLines")
    .withIndex("by_org_counts_for", (q) => q.eq("orgId", orgId).eq("countsFor", voterId))
    .take(5);
  return rows.find((r) => r._id !== except) ?? null;
}

/** Decides one pending line and writes its verdict (the caller moves the counters). */
async function decide(
  ctx: Pick<MutationCtx, "db">,
  petition: Doc<"petitions">,
  line: Line,
): Promise<{ patch: Partial<Line> & { status: Status }; countyUnknown: boolean }> {
  const voters = await candidateVoters(ctx.db, petition.orgId, line.name, line.address);
  const j: Jurisdiction = petition.jurisdiction;
  if (j.county) {
    // a voter file without counties: the map's county polygon says, for voters placed on the streets
    const unknown = voters.filter((v) => !v.county).map((v) => v.id as Id<"voters">);
    const fromMap = await countiesFromMap(ctx.db, petition.orgId, j.county, unknown);
    for (const v of voters)
      if (!v.county && fromMap.has(v.id as Id<"voters">)) v.county = fromMap.get(v.id as Id<"voters">);
  }
  const r = matchLine({ name: line.name, address: line.address, signedOn: line.signedOn }, voters, j);
  const patch = {
    status: r.status as Status,
    reason: r.reason,
    confidence: r.confidence,
    evidence: r.evidence,
    voterId: (r.voterId as Id<"voters"> | null) ?? null,
    candidates: r.candidates.map((c) => ({ ...c, voterId: c.voterId as Id<"voters"> })),
    duplicateOf: null as Id<"petitionLines"> | null,
    countsFor: null as Id<"voters"> | null,
    autoStatus: r.status as Status,
  };
  if (r.status === "verified" && patch.voterId) {
    const earlier = await countingLine(ctx.db, petition.orgId, patch.voterId, line._id);
    if (earlier) Object.assign(patch, { status: "duplicate", autoStatus: "duplicate", duplicateOf: earlier._id });
    else patch.countsFor = patch.voterId;
  }
  return { patch, countyUnknown: r.countyUnknown };
}

/**
 * One link of the matching chain: decides up to MATCH_BATCH lines (pending ones; in sampling mode
 * the next lines of the random sample) and schedules the next link while work remains. A line
 * leaves "pending" in the transaction that decides it, so a retried or doubled link never decides
 * it twice.
 */
export async function matchStep(ctx: Pick<MutationCtx, "db" | "scheduler">, petitionId: Id<"petitions">) {
  const petition = await ctx.db.get("petitions", petitionId);
  if (!petition) return;
  // the organisation's voters are still being given their name keys: decide nothing until then
  const keyState = await ctx.db
    .query("voterNameKeyState")
    .withIndex("by_org", (q) => q.eq("orgId", petition.orgId))
    .first();
  if (keyState && (keyState.version ?? 1) < NAME_KEYS_VERSION) {
    // keys of an older kind (before households): rewrite them all, then match
    await ctx.db.patch("voterNameKeyState", keyState._id, {
      backfilled: false,
      cursor: null,
      version: NAME_KEYS_VERSION,
    });
    await ctx.scheduler.runAfter(0, internal.petitions.backfillNameKeys, { orgId: petition.orgId });
  }
  if (keyState && (!keyState.backfilled || (keyState.version ?? 1) < NAME_KEYS_VERSION)) {
    await ctx.scheduler.runAfter(KEYS_WAIT_MS, internal.petitions.match, { petitionId });
    return;
  }
  let lines: Line[];
  if (petition.mode === "sample") {
    const need = sampleSize(await linesEntered(ctx.db, petitionId)) - petition.counts.sampled;
    lines =
      need <= 0
        ? []
        : await ctx.db
            .query("petitionLines")
            .withIndex("by_petition_sample_key", (q) => q.eq("petitionId", petitionId).eq("inSample", false))
            .take(Math.min(need, MATCH_BATCH));
  } else {
    lines = await ctx.db
      .query("petitionLines")
      .withIndex("by_petition_status", (q) => q.eq("petitionId", petitionId).eq("status", "pending"))
      .take(MATCH_BATCH);
  }
  let counts = petition.counts;
  let countyUnknown = 0;
  const pages = new Map<Id<"petitionPages">, number>();
  for (const line of lines) {
    if (line.status !== "pending") {
      // sampled after being adjudicated by hand: it joins the sample as it is
      await ctx.db.patch("petitionLines", line._id, { inSample: true });
      counts = { ...counts, sampled: counts.sampled + 1 };
      continue;
    }
    const { patch, countyUnknown: noCounty } = await decide(ctx, petition, line);
    if (noCounty) countyUnknown++;
    await ctx.db.patch("petitionLines", line._id, {
      ...patch,
      inSample: petition.mode === "sample" ? true : line.inSample,
    });
    counts = moveCount(counts, { status: "pending" }, { status: patch.status });
    if (petition.mode === "sample") counts = { ...counts, sampled: counts.sampled + 1 };
    pages.set(line.pageId, (pages.get(line.pageId) ?? 0) + 1);
  }
  for (const [pageId, done] of pages) {
    const page = await ctx.db.get("petitionPages", pageId);
    if (page) await ctx.db.patch("petitionPages", pageId, { pendingCount: Math.max(0, page.pendingCount - done) });
  }
  const more = lines.length === MATCH_BATCH;
  await ctx.db.patch("petitions", petitionId, {
    counts,
    updatedAt: Date.now(),
    ...(countyUnknown > 0 ? { countyUnknown: (petition.countyUnknown ?? 0) + countyUnknown } : {}),
  });
  if (more) {
    await ctx.scheduler.runAfter(0, internal.petitions.match, { petitionId });
    return;
  }
  // the chain ends: lines entered from now on start the next one
  const intake = await ctx.db
    .query("petitionIntake")
    .withIndex("by_petition", (q) => q.eq("petitionId", petitionId))
    .unique();
  if (intake?.matching) await ctx.db.patch("petitionIntake", intake._id, { matching: false });
  // the chain is done for now: every page processing so far is completed
  const open = await ctx.db
    .query("petitionPages")
    .withIndex("by_petition_number", (q) => q.eq("petitionId", petitionId))
    .take(2_000);
  for (const p of open)
    if (p.status === "processing") await ctx.db.patch("petitionPages", p._id, { status: "completed" });
}

/**
 * Counts `added` lines entered and starts the petition's matching chain unless one is running (it
 * will reach the new lines). Both live on the intake row, never on the petition the chain writes.
 */
export async function startMatching(
  ctx: Pick<MutationCtx, "db" | "scheduler">,
  intake: Doc<"petitionIntake">,
  added: number,
) {
  await ctx.db.patch("petitionIntake", intake._id, {
    lines: intake.lines + added,
    ...(intake.matching ? {} : { matching: true }),
  });
  if (!intake.matching) await ctx.scheduler.runAfter(0, internal.petitions.match, { petitionId: intake.petitionId });
}

/** Whether `line`'s claim is held by someone else right now. */
export function heldByOther(line: Line, userId: Id<"users">, now: number): boolean {
  return line.claim !== null && line.claim.userId !== userId && now - line.claim.at < CLAIM_TTL_MS;
}

export function requireClaim(line: Line, userId: Id<"users">, now: number) {
  if (heldByOther(line, userId, now))
    throw appError("CONFLICT", `${line.claim!.name} is reviewing this line.`, "Line claimed");
}

/** The adjudication's effect: whether the line counts, and for which voter. */
export function adjudicationValidity(
  action: "accept" | "cure" | "overrule" | "reject",
  autoStatus: Status | null,
): boolean {
  if (action === "reject") return false;
  if (action === "overrule") return autoStatus !== "verified";
  return true;
}

export { countingLine };
