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

/**
 * The voter `.first()` on by_org_voterid would find for each of `ids` (absent: none), in as few
 * index reads as the file's order allows. The IDs are visited in index order; each read takes the
 * next `run` entries from the smallest unresolved ID on, which settles every ID up to the last
 * entry read: a batch of new voters is one read, a sorted file re-imported one read per `run`
 * voters. A read that settles fewer IDs than it read entries halves `run` (down to 1, which is
 * never more than a lookup per ID), one that settles at least as many doubles it.
 */
export async function votersByVoterId(
  db: QueryCtx["db"],
  orgId: Id<"organizations">,
  ids: Iterable<string>,
): Promise<Map<string, Doc<"voters">>> {
  const sorted = [...new Set(ids)].sort(compareUtf8);
  const found = new Map<string, Doc<"voters">>();
  let i = 0;
  let run = 1;
  while (i < sorted.length) {
    const docs = await db
      .query("voters")
      .withIndex("by_org_voterid", (q) => q.eq("orgId", orgId).gte("voter_id", sorted[i]))
      .take(run);
    for (const d of docs) if (d.voter_id !== undefined && !found.has(d.voter_id)) found.set(d.voter_id, d);
    // fewer than asked: the index holds nothing past them, so every later ID is settled
    if (docs.length < run) break;
    const lastRead = docs[docs.length - 1].voter_id!;
    const from = i;
    while (i < sorted.length && compareUtf8(sorted[i], lastRead) <= 0) i++;
    run = i - from >= run ? Math.min(run * 2, MAX_RUN) : Math.max(1, run >> 1);
  }
  return found;
}

/**
 * The existing voter a key names, if any. `byVoterId`: the batch's voter IDs, looked up at once
 * (votersByVoterId); a voter ID outside it is looked up here.
 */
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
      const id = f.voter_id!.trim();
      if (byVoterId?.ids.has(id)) return byVoterId.found.get(id) ?? null;
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
