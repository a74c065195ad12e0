/**
 * Finding the voters an imported row already names ("Match existing records by", lib/import/rows.ts):
 * looked up before any write of the batch. Voter IDs, the standard rule's key, are looked up for
 * the whole batch at once (votersByVoterId); every other key is one bounded index range per row.
 */
import type { Doc, Id } from "../_generated/dataModel";
import type { QueryCtx } from "../_generated/server";
import type { MatchRule } from "../lib/import/rows";
import { suffixKey } from "../lib/petitions/names";
import type { VoterFields } from "../tables/voters";

/** Same-name voters compared on ZIP / address when a row has no date of birth. */
const NAME_CANDIDATES = 8;

const lower = (s: string | undefined) => (s ?? "").trim().toLowerCase();
/** A father and his son share a name and an address: the suffix (Jr, Sr, III) tells them apart. */
const sameSuffix = (r: Pick<VoterFields, "name_suffix">, f: Pick<VoterFields, "name_suffix">) =>
  suffixKey(r.name_suffix) === suffixKey(f.name_suffix);

/**
 * The keys that identify this row under the rule, strongest first: the first is what it is
 * looked up by; all of them mark it as seen, so a later row of the file naming it by any one is a
 * duplicate of it. Null: the row cannot be matched (the standard rule with a bare name).
 */
export function rowKeys(f: VoterFields, rule: MatchRule): string[] | null {
  const suffix = suffixKey(f.name_suffix);
  const name = `${lower(f.last_name)}\u0000${lower(f.first_name)}${suffix ? `\u0000${suffix}` : ""}`;
  const id = f.voter_id?.trim();
  const email = lower(f.email);
  if (rule === "name") return [...(email ? [`e:${email}`] : []), `n:${name}`];
  const keys: string[] = [];
  if (id) keys.push(`i:${id}`);
  if (email) keys.push(`e:${email}`);
  if (f.date_of_birth) keys.push(`nd:${name}\u0000${f.date_of_birth}`);
  if (f.zip) keys.push(`nz:${name}\u0000${f.zip.slice(0, 5)}`);
  if (f.address) keys.push(`na:${name}\u0000${lower(f.address)}`);
  return keys.length > 0 ? keys : null;
}

/** The keys a row is looked up by: its voter ID alone, its email alone, or its name keys in turn. */
export function lookupKeys(keys: string[]): string[] {
  return keys[0].startsWith("i:") || keys[0].startsWith("e:") ? [keys[0]] : keys;
}

const isSurrogate = (c: number) => c >= 0xd800 && c <= 0xdfff;

/**
 * Convex orders strings by their UTF-8 bytes, which is code point order. JavaScript's < compares
 * UTF-16 units, which puts code points above U+FFFF (surrogate pairs) before U+E000–U+FFFF.
 */
export function compareUtf8(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if (isSurrogate(x) !== isSurrogate(y)) return isSurrogate(x) ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}

/** Index reads the batch lookup grows to when a voter file's IDs run in the index's order. */
const MAX_RUN = 1_024;
/** Lookups with the same outcome in a row after which one-by-one lookups try a range again, at most (doubles per failed try). */
const MAX_PROBE_AFTER = 64;

/**
 * The voter `.first()` on by_org_voterid would find for each of `ids` (absent: none), in as few
 * voters read as the file's order allows. The IDs are visited in index order, in two modes:
 *
 * - A range read takes the next `run` entries from the smallest unresolved ID on, which settles
 *   every ID up to the last entry read: a batch of new voters past every held one is one read, a
 *   sorted file re-imported one read per `run` voters. Reading a voter the batch did not ask for
 *   costs about what looking one ID up costs, so a read pays only while it settles more than twice
 *   as many IDs as it read such voters (a batch's new IDs sparse among few held voters): then a
 *   read that settles as many IDs as it read doubles `run`, one that settles fewer halves it.
 * - Otherwise (a statewide file's new IDs fall between held ones as often as not) each ID is
 *   looked up alone, an equality range that reads no voter for an absent ID. After `probeAfter`
 *   lookups in a row that all found or all missed, a range is tried again (a sorted re-import, or
 *   new IDs past the held ones); a try that does not pay doubles `probeAfter`.
 */
export async function votersByVoterId(
  db: QueryCtx["db"],
  orgId: Id<"organizations">,
  ids: Iterable<string>,
): Promise<Map<string, Doc<"voters">>> {
  const asked = new Set(ids);
  const sorted = [...asked].sort(compareUtf8);
  const found = new Map<string, Doc<"voters">>();
  let i = 0;
  let run = 1;
  let single = false;
  let probeAfter = 2;
  let streak = 0;
  let lastHit = false;
  let tryingRange = false;
  while (i < sorted.length) {
    if (single) {
      const id = sorted[i++];
      const doc = await db
        .query("voters")
        .withIndex("by_org_voterid", (q) => q.eq("orgId", orgId).eq("voter_id", id))
        .first();
      if (doc) found.set(id, doc);
      streak = !!doc === lastHit ? streak + 1 : 1;
      lastHit = !!doc;
      if (streak >= probeAfter) {
        single = false;
        tryingRange = true;
        run = lastHit ? 2 : 1;
      }
      continue;
    }
    // never more entries than IDs left: a long run near the batch's end would read voters past it
    const want = Math.min(run, sorted.length - i);
    const docs = await db
      .query("voters")
      .withIndex("by_org_voterid", (q) => q.eq("orgId", orgId).gte("voter_id", sorted[i]))
      .take(want);
    let unasked = 0;
    for (const d of docs) {
      if (d.voter_id !== undefined && asked.has(d.voter_id)) {
        if (!found.has(d.voter_id)) found.set(d.voter_id, d);
      } else unasked++;
    }
    // fewer than asked: the index holds nothing past them, so every later ID is settled
    if (docs.length < want) break;
    const lastRead = docs[docs.length - 1].voter_id!;
    const from = i;
    while (i < sorted.length && compareUtf8(sorted[i], lastRead) <= 0) i++;
    const settled = i - from;
    if (settled <= 2 * unasked) {
      // reading voters to learn that IDs are absent: one by one from here
      if (tryingRange) probeAfter = Math.min(probeAfter * 2, MAX_PROBE_AFTER);
      single = true;
      streak = 0;
    } else if (settled >= want) run = Math.min(run * 2, MAX_RUN);
    else run = Math.max(1, run >> 1);
    tryingRange = false;
  }
  return found;
}

/**
 * The existing voter a key names, if any. `byVoterId`: the batch's voter IDs, looked up at once
 * (votersByVoterId); a voter ID outside it is looked up here.
 */
/**
 * What `findExisting` finds for a voter-ID key among the batch's looked-up IDs, without a call
 * (undefined: not one of them, a lookup is needed). A statewide file's every row has one.
 */
export function knownByVoterId(
  f: VoterFields,
  key: string,
  byVoterId?: { ids: ReadonlySet<string>; found: ReadonlyMap<string, Doc<"voters">> },
): Doc<"voters"> | null | undefined {
  if (!byVoterId || !key.startsWith("i:")) return undefined;
  const id = f.voter_id!.trim();
  return byVoterId.ids.has(id) ? (byVoterId.found.get(id) ?? null) : undefined;
}

export async function findExisting(
  db: QueryCtx["db"],
  orgId: Id<"organizations">,
  f: VoterFields,
  key: string,
  byVoterId?: { ids: ReadonlySet<string>; found: ReadonlyMap<string, Doc<"voters">> },
): Promise<Doc<"voters"> | null> {
  const kind = key.slice(0, key.indexOf(":"));
  const last = lower(f.last_name);
  const first = lower(f.first_name);
  switch (kind) {
    case "i": {
      const known = knownByVoterId(f, key, byVoterId);
      if (known !== undefined) return known;
      const id = f.voter_id!.trim();
      return await db
        .query("voters")
        .withIndex("by_org_voterid", (q) => q.eq("orgId", orgId).eq("voter_id", id))
        .first();
    }
    case "e":
      return await db
        .query("voters")
        .withIndex("by_org_email", (q) => q.eq("orgId", orgId).eq("emailLower", lower(f.email)))
        .first();
    case "n": {
      const rows = await db
        .query("voters")
        .withIndex("by_org_name", (q) => q.eq("orgId", orgId).eq("lastNameLower", last).eq("firstNameLower", first))
        .take(NAME_CANDIDATES);
      return rows.find((r) => sameSuffix(r, f)) ?? null;
    }
    case "nd": {
      const rows = await db
        .query("voters")
        .withIndex("by_org_name", (q) =>
          q
            .eq("orgId", orgId)
            .eq("lastNameLower", last)
            .eq("firstNameLower", first)
            .eq("date_of_birth", f.date_of_birth),
        )
        .take(NAME_CANDIDATES);
      return rows.find((r) => sameSuffix(r, f)) ?? null;
    }
    default: {
      // name with ZIP or address: the few voters of that name, compared (a statewide name may have many)
      const rows = await db
        .query("voters")
        .withIndex("by_org_name", (q) => q.eq("orgId", orgId).eq("lastNameLower", last).eq("firstNameLower", first))
        .take(NAME_CANDIDATES);
      return (
        rows.find(
          (r) =>
            sameSuffix(r, f) &&
            (kind === "nz"
              ? !!r.zip &&
                r.zip.slice(0, 5) === f.zip!.slice(0, 5) &&
                (!f.date_of_birth || !r.date_of_birth || r.date_of_birth === f.date_of_birth)
              : lower(r.address) === lower(f.address)),
        ) ?? null
      );
    }
  }
}
