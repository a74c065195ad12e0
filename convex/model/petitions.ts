/**
 * Petition verification on the server: counts kept in step with every line's status, candidate
 * voters found through the name-key index, the matching chain (cursor-driven mutations, each line
 * decided exactly once), duplicates across pages and petitions, reviewers' claims.
 */
import type { Doc, Id } from "../_generated/dataModel";
import { internal } from "../_generated/api";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { appError } from "../lib/errors";
import { matchLine, parseSignerName, parseStreetAddress, type Jurisdiction, type VoterRecord } from "../lib/petitions/match";
import { lineKeys } from "../lib/petitions/names";
import { formalNames } from "../lib/petitions/nicknames";
import { sampleSize } from "../lib/petitions/projection";

/** Lines decided per mutation of the chain. */
export const MATCH_BATCH = 50;
/** Voters read per key range (an exact name-key pair / a last-name key alone). */
const EXACT_TAKE = 100;
const INITIAL_TAKE = 300;
const MISSPELT_TAKE = 60;
const LAST_TAKE = 40;
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
export function moveCount(counts: Counts, from: { status: Status; valid?: boolean | null }, to: { status: Status; valid?: boolean | null }): Counts {
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
  return {
    id: v._id,
    first_name: v.first_name,
    last_name: v.last_name,
    address: v.address,
    street: v.street,
    city: v.city,
    state: v.state,
    zip: v.zip,
    status: v.status,
    registration_date: v.registration_date,
    county: v.custom_fields?.county,
  };
}

/**
 * The voters a line can be: exact name-key pairs; for an initial, or when no pair fits, the keys
 * beginning with the first name's letter; the last-name key alone as a last resort. Each range is
 * capped, so a line reads a bounded number of voters however large the file.
 */
export async function candidateVoters(db: QueryCtx["db"], orgId: Id<"organizations">, name: string, address = ""): Promise<VoterRecord[]> {
  const parsed = parseSignerName(name);
  const keys = lineKeys(parsed.first, parsed.last, formalNames, parsed.middle);
  const found = new Map<string, VoterRecord>();
  // the key rows name their voters; each voter is read once however many ranges name it
  const add = async (rows: Doc<"voterNameKeys">[]) => {
    const fresh = rows.filter((r) => !found.has(r.voterId));
    const voters = await Promise.all(fresh.map((r) => db.get(r.voterId)));
    for (const voter of voters) if (voter) found.set(voter._id, toRecord(voter));
  };
  for (const lastKey of keys.lastKeys) {
    for (const firstKey of keys.firstKeys) {
      const rows = await db
        .query("voterNameKeys")
        .withIndex("by_org_namekeys", (q) => q.eq("orgId", orgId).eq("lastNameKey", lastKey).eq("firstNameKey", firstKey))
        .take(EXACT_TAKE);
      await add(rows);
    }
  }
  // an initial with a ZIP: the same last name in that ZIP (a few households), not the whole state's
  const zip = keys.initial !== null ? (parseStreetAddress(address)?.zip ?? "") : "";
  if (zip) {
    for (const lastKey of keys.lastKeys) {
      const rows = await db
        .query("voterNameKeys")
        .withIndex("by_org_lastkey_zip", (q) => q.eq("orgId", orgId).eq("lastNameKey", lastKey).eq("zip", zip))
        .take(EXACT_TAKE);
      await add(rows.filter((r) => r.firstNameKey.startsWith(`${keys.initial}:`)));
    }
  }
  // an initial (without ZIP, or no voter there), or a first name no key fits (misspelt): the voters whose first name starts the same
  const letter = found.size > 0 ? "" : (keys.initial ?? parsed.first.slice(0, 1));
  if (letter) {
    for (const lastKey of keys.lastKeys) {
      const rows = await db
        .query("voterNameKeys")
        .withIndex("by_org_namekeys", (q) => q.eq("orgId", orgId).eq("lastNameKey", lastKey).gte("firstNameKey", `${letter}:`).lt("firstNameKey", `${letter};`))
        .take(keys.initial !== null ? INITIAL_TAKE : MISSPELT_TAKE);
      await add(rows);
    }
  }
  // last resort: the last name alone (a first name written quite differently)
  if (found.size === 0) {
    for (const lastKey of keys.lastKeys) {
      const rows = await db
        .query("voterNameKeys")
        .withIndex("by_org_namekeys", (q) => q.eq("orgId", orgId).eq("lastNameKey", lastKey))
        .take(LAST_TAKE);
      await add(rows);
    }
  }
  return [...found.values()];
}

/** The earliest line that already counts for this voter (another page or petition), if any. */
async function countingLine(db: QueryCtx["db"], orgId: Id<"organizations">, voterId: Id<"voters">, except: Id<"petitionLines">) {
  const rows = await db
    .query("petitionLines")
    .withIndex("by_org_counts_for", (q) => q.eq("orgId", orgId).eq("countsFor", voterId))
    .take(5);
  return rows.find((r) => r._id !== except) ?? null;
}

/** Decides one pending line and writes its verdict (the caller moves the counters). */
async function decide(ctx: Pick<MutationCtx, "db">, petition: Doc<"petitions">, line: Line): Promise<Partial<Line> & { status: Status }> {
  const voters = await candidateVoters(ctx.db, petition.orgId, line.name, line.address);
  const j: Jurisdiction = petition.jurisdiction;
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
  return patch;
}

/**
 * One link of the matching chain: decides up to MATCH_BATCH lines (pending ones; in sampling mode
 * the next lines of the random sample) and schedules the next link while work remains. A line
 * leaves "pending" in the transaction that decides it, so a retried or doubled link never decides
 * it twice.
 */
export async function matchStep(ctx: Pick<MutationCtx, "db" | "scheduler">, petitionId: Id<"petitions">) {
  const petition = await ctx.db.get(petitionId);
  if (!petition) return;
  // the organisation's voters are still being given their name keys: decide nothing until then
  const keyState = await ctx.db.query("voterNameKeyState").withIndex("by_org", (q) => q.eq("orgId", petition.orgId)).first();
  if (keyState && !keyState.backfilled) {
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
  const pages = new Map<Id<"petitionPages">, number>();
  for (const line of lines) {
    if (line.status !== "pending") {
      // sampled after being adjudicated by hand: it joins the sample as it is
      await ctx.db.patch(line._id, { inSample: true });
      counts = { ...counts, sampled: counts.sampled + 1 };
      continue;
    }
    const patch = await decide(ctx, petition, line);
    await ctx.db.patch(line._id, { ...patch, inSample: petition.mode === "sample" ? true : line.inSample });
    counts = moveCount(counts, { status: "pending" }, { status: patch.status });
    if (petition.mode === "sample") counts = { ...counts, sampled: counts.sampled + 1 };
    pages.set(line.pageId, (pages.get(line.pageId) ?? 0) + 1);
  }
  for (const [pageId, done] of pages) {
    const page = await ctx.db.get(pageId);
    if (page) await ctx.db.patch(pageId, { pendingCount: Math.max(0, page.pendingCount - done) });
  }
  const more = lines.length === MATCH_BATCH;
  await ctx.db.patch(petitionId, { counts, updatedAt: Date.now(), matching: more });
  if (more) {
    await ctx.scheduler.runAfter(0, internal.petitions.match, { petitionId });
    return;
  }
  // the chain is done for now: every page processing so far is completed
  const open = await ctx.db
    .query("petitionPages")
    .withIndex("by_petition_number", (q) => q.eq("petitionId", petitionId))
    .take(2_000);
  for (const p of open) if (p.status === "processing") await ctx.db.patch(p._id, { status: "completed" });
}

/** Starts the petition's matching chain unless one is running (it will reach the new lines). */
export async function startMatching(ctx: Pick<MutationCtx, "db" | "scheduler">, petition: Doc<"petitions">) {
  if (petition.matching) return;
  await ctx.db.patch(petition._id, { matching: true });
  await ctx.scheduler.runAfter(0, internal.petitions.match, { petitionId: petition._id });
}

/** Whether `line`'s claim is held by someone else right now. */
export function heldByOther(line: Line, userId: Id<"users">, now: number): boolean {
  return line.claim !== null && line.claim.userId !== userId && now - line.claim.at < CLAIM_TTL_MS;
}

export function requireClaim(line: Line, userId: Id<"users">, now: number) {
  if (heldByOther(line, userId, now)) throw appError("CONFLICT", `${line.claim!.name} is reviewing this line.`, "Line claimed");
}

/** The adjudication's effect: whether the line counts, and for which voter. */
export function adjudicationValidity(action: "accept" | "cure" | "overrule" | "reject", autoStatus: Status | null): boolean {
  if (action === "reject") return false;
  if (action === "overrule") return autoStatus !== "verified";
  return true;
}

export { countingLine };
