/**
 * Finding the voters an imported row already names ("Match existing records by", lib/importRows.ts):
 * one bounded index range per row, looked up before any write of the batch.
 */
import type { Doc, Id } from "../_generated/dataModel";
import type { QueryCtx } from "../_generated/server";
import type { MatchRule } from "../lib/importRows";
import { suffixKey } from "../lib/petitions/names";
import type { VoterFields } from "../tables/voters";

/** Same-name voters compared on ZIP / address when a row has no date of birth. */
const NAME_CANDIDATES = 8;

const lower = (s: string | undefined) => (s ?? "").trim().toLowerCase();
/** A father and his son share a name and an address: the suffix (Jr, Sr, III) tells them apart. */
const sameSuffix = (r: Pick<VoterFields, "name_suffix">, f: Pick<VoterFields, "name_suffix">) => suffixKey(r.name_suffix) === suffixKey(f.name_suffix);

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

/** The existing voter a key names, if any. */
export async function findExisting(db: QueryCtx["db"], orgId: Id<"organizations">, f: VoterFields, key: string): Promise<Doc<"voters"> | null> {
  const kind = key.slice(0, key.indexOf(":"));
  const last = lower(f.last_name);
  const first = lower(f.first_name);
  switch (kind) {
    case "i":
      return await db.query("voters").withIndex("by_org_voterid", (q) => q.eq("orgId", orgId).eq("voter_id", f.voter_id!.trim())).first();
    case "e":
      return await db.query("voters").withIndex("by_org_email", (q) => q.eq("orgId", orgId).eq("emailLower", lower(f.email))).first();
    case "n": {
      const rows = await db.query("voters").withIndex("by_org_name", (q) => q.eq("orgId", orgId).eq("lastNameLower", last).eq("firstNameLower", first)).take(NAME_CANDIDATES);
      return rows.find((r) => sameSuffix(r, f)) ?? null;
    }
    case "nd": {
      const rows = await db
        .query("voters")
        .withIndex("by_org_name", (q) => q.eq("orgId", orgId).eq("lastNameLower", last).eq("firstNameLower", first).eq("date_of_birth", f.date_of_birth))
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
            (kind === "nz" ? !!r.zip && r.zip.slice(0, 5) === f.zip!.slice(0, 5) && (!f.date_of_birth || !r.date_of_birth || r.date_of_birth === f.date_of_birth) : lower(r.address) === lower(f.address)),
        ) ?? null
      );
    }
  }
}
