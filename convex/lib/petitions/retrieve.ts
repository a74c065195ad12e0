/**
 * Which voters a signer line can be: the plan of index ranges the server reads for it
 * (model/petitions.ts over voterNameKeys; the tests over an in-memory copy of the same index), so
 * the matcher's recall is measured on exactly what the server fetches. Every range is capped: a
 * line reads a bounded number of voters however large the file.
 */
import { parseSignerName, parseStreetAddress } from "./match";
import { householdKey, lineKeys } from "./names";
import { formalNames } from "./nicknames";

/** Voters read per range: an exact name-key pair, an initial's or a first letter's range, the last-name key alone, a household. */
export const EXACT_TAKE = 100;
export const INITIAL_TAKE = 300;
export const MISSPELT_TAKE = 60;
export const LAST_TAKE = 40;
export const HOUSEHOLD_TAKE = 50;

export type KeyRow = { voterId: string; firstNameKey: string };

/** The index ranges of voterNameKeys, in index order, each cut at `take` rows. */
export interface NameKeySource {
  /** by_org_namekeys: a last-name key, with a first-name key (`eq`), a first-name key prefix, or any */
  byName(lastKey: string, first: { eq: string } | { prefix: string } | null, take: number): Promise<KeyRow[]>;
  /** by_org_lastkey_zip */
  byLastZip(lastKey: string, zip: string, take: number): Promise<KeyRow[]>;
  /** by_org_household: the voters registered at a house number on a street (its first word) */
  byHousehold(house: string, street: string, take: number): Promise<KeyRow[]>;
}

/**
 * The voter ids a line can be, in the order found:
 * 1. the exact (last-name key, first-name key) pairs of the name and its formal forms;
 * 2. for an initial with a ZIP, the last name in that ZIP (a few households, not the state);
 * 3. when nothing fits yet, the last name's voters whose first name starts the same (an initial,
 *    a misspelt first name); then the last name alone;
 * 4. always, the household at the signer's address: a one-letter slip in the last name ("Huhes")
 *    changes its phonetic key, never the house the signer lives in.
 */
export async function candidateIds(src: NameKeySource, name: string, address: string): Promise<string[]> {
  const parsed = parseSignerName(name);
  const keys = lineKeys(parsed.first, parsed.last, formalNames, parsed.middle);
  const found = new Set<string>();
  const add = (rows: KeyRow[]) => {
    for (const r of rows) found.add(r.voterId);
  };
  for (const lastKey of keys.lastKeys) {
    for (const firstKey of keys.firstKeys) add(await src.byName(lastKey, { eq: firstKey }, EXACT_TAKE));
  }
  const zip = keys.initial !== null ? (parseStreetAddress(address)?.zip ?? "") : "";
  if (zip) {
    for (const lastKey of keys.lastKeys)
      add((await src.byLastZip(lastKey, zip, EXACT_TAKE)).filter((r) => r.firstNameKey.startsWith(`${keys.initial}:`)));
  }
  const letter = found.size > 0 ? "" : (keys.initial ?? parsed.first.slice(0, 1));
  if (letter) {
    for (const lastKey of keys.lastKeys)
      add(await src.byName(lastKey, { prefix: `${letter}:` }, keys.initial !== null ? INITIAL_TAKE : MISSPELT_TAKE));
  }
  if (found.size === 0) {
    for (const lastKey of keys.lastKeys) add(await src.byName(lastKey, null, LAST_TAKE));
  }
  const household = householdKey(address);
  if (household) add(await src.byHousehold(household.house, household.street, HOUSEHOLD_TAKE));
  return [...found];
}
