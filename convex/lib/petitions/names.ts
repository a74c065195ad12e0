/**
 * Names as a petition matcher compares them: accents, apostrophes, hyphens, spacing and suffixes
 * set aside ("O'Brien" = "OBrien" = "O Brien"; "José" = "Jose"), and the keys a voter is indexed
 * by: the Double Metaphone code of the last name, and of the formal form of the first name
 * (Bill → William), so spelling and nickname variants meet in one index range.
 */
import { doubleMetaphone } from "double-metaphone";
import { formalName } from "./nicknames";

export const SUFFIXES = new Set(["jr", "sr", "ii", "iii", "iv", "v", "2nd", "3rd", "4th"]);

/** Lower case, accents removed, anything but letters, digits and spaces dropped (hyphens → space). */
export function plain(s: string): string {
  return s
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/['’`.]/g, "")
    .replace(/[-_/,]/g, " ")
    .replace(/[^a-z0-9 ]/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

/** A name part without spaces ("van der berg" → "vanderberg"). */
export function compact(s: string): string {
  return plain(s).replace(/ /g, "");
}

/** A suffix as compared: "Jr." = "JR" = "jr", "2nd" = "II" (null: none). */
export function suffixKey(s: string | null | undefined): string | null {
  const k = compact(s ?? "");
  if (!k) return null;
  return ({ "2nd": "ii", "3rd": "iii", "4th": "iv", junior: "jr", senior: "sr" } as Record<string, string>)[k] ?? k;
}

/** The last name's key, and the suffix it carried ("Smith Jr" → "smith", "jr"). */
export function splitSuffix(last: string): { last: string; suffix: string | null } {
  const parts = plain(last).split(" ").filter(Boolean);
  if (parts.length > 1 && SUFFIXES.has(parts[parts.length - 1]))
    return { last: parts.slice(0, -1).join(" "), suffix: parts[parts.length - 1] };
  return { last: parts.join(" "), suffix: null };
}

export function phonetic(s: string): string {
  const c = compact(s);
  return c === "" ? "" : doubleMetaphone(c)[0];
}

/** The first given name only ("Mary Ann" → "mary"), plain. */
export function firstGiven(first: string): string {
  return plain(first).split(" ")[0] ?? "";
}

/** A first name's key: its initial and the code of its formal form ("w:ALM"), so an initial is a prefix range. */
export function firstNameKeyOf(formal: string): string {
  return formal ? `${formal[0]}:${phonetic(formal)}` : "";
}

/** Index keys of a voter's name (voters.by_org_namekeys). */
export function voterNameKeys(first: string, last: string): { lastNameKey: string; firstNameKey: string } {
  return { lastNameKey: phonetic(splitSuffix(last).last), firstNameKey: firstNameKeyOf(formalName(firstGiven(first))) };
}

/** Bumped when the keys a voter is stored under change: older rows are rewritten (model/petitions.ts). */
export const NAME_KEYS_VERSION = 2;

const DIRECTION_WORDS = new Set([
  "n",
  "s",
  "e",
  "w",
  "ne",
  "nw",
  "se",
  "sw",
  "north",
  "south",
  "east",
  "west",
  "northeast",
  "northwest",
  "southeast",
  "southwest",
]);
const STREET_TYPES = new Set([
  "st",
  "street",
  "rd",
  "road",
  "ave",
  "av",
  "avenue",
  "dr",
  "drive",
  "ln",
  "lane",
  "ct",
  "court",
  "blvd",
  "boulevard",
  "pl",
  "place",
  "way",
  "ter",
  "terrace",
  "cir",
  "circle",
  "pkwy",
  "parkway",
  "hwy",
  "highway",
  "loop",
  "trl",
  "trail",
  "sq",
  "square",
]);
const ORDINAL_WORDS: Record<string, string> = {
  first: "1",
  second: "2",
  third: "3",
  fourth: "4",
  fifth: "5",
  sixth: "6",
  seventh: "7",
  eighth: "8",
  ninth: "9",
  tenth: "10",
  eleventh: "11",
  twelfth: "12",
  thirteenth: "13",
  fourteenth: "14",
  fifteenth: "15",
  sixteenth: "16",
  seventeenth: "17",
  eighteenth: "18",
  nineteenth: "19",
  twentieth: "20",
};

/**
 * A household's key from an address as written: its house number and the first word of its street,
 * directions skipped, numbered streets as digits ("42 N. Fifth Ave Apt 3, Portland" → 42 / 5). Cheap
 * (no address parser): every voter write of an organisation that verifies petitions computes it.
 */
export function householdKey(address: string | undefined): { house: string; street: string } | null {
  const first = (address ?? "").split(",")[0];
  const words = plain(first).split(" ").filter(Boolean);
  if (words.length < 2 || !/^\d+[a-z]?$/.test(words[0])) return null;
  let i = 1;
  // a direction before the street's name ("N Oak"), not a street named for one ("North St")
  if (DIRECTION_WORDS.has(words[i]) && words.length > i + 1 && !STREET_TYPES.has(words[i + 1])) i++;
  let street = words[i];
  street = ORDINAL_WORDS[street] ?? street.replace(/^(\d+)(st|nd|rd|th)$/, "$1");
  return { house: words[0], street };
}

/** The five digits of a ZIP (a ZIP+4 or a ZIP at the end of an address). */
export function zip5(zip: string | undefined, address?: string): string | undefined {
  const direct = (zip ?? "").trim().match(/^(\d{5})/);
  if (direct) return direct[1];
  const inAddress = (address ?? "").match(/\b(\d{5})(?:-\d{4})?\s*$/);
  return inAddress ? inAddress[1] : undefined;
}

/** Everything a voter is indexed by for petitions (a voterNameKeys row without its ids). */
export function voterKeys(f: {
  first_name: string;
  last_name: string;
  zip?: string;
  address?: string;
  street?: string;
}): {
  lastNameKey: string;
  firstNameKey: string;
  zip?: string;
  house?: string;
  street?: string;
} {
  const out: { lastNameKey: string; firstNameKey: string; zip?: string; house?: string; street?: string } =
    voterNameKeys(f.first_name, f.last_name);
  const zip = zip5(f.zip, f.address);
  if (zip !== undefined) out.zip = zip;
  // a street column without the house number (some files keep it apart): the full address then
  const household = householdKey(f.street) ?? householdKey(f.address);
  if (household) Object.assign(out, household);
  return out;
}

/** Whether two strings are at most one edit apart (a letter changed, added, dropped, or two swapped). */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  const la = a.length;
  const lb = b.length;
  if (Math.abs(la - lb) > 1) return false;
  let i = 0;
  while (i < la && i < lb && a[i] === b[i]) i++;
  if (la === lb) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  return la > lb ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

/**
 * The index keys a signer line can meet its voter under: the last name's code (and each part of a
 * double name's, and of the middle word joined to it), with the keys of every formal name the first name may stand for; an initial
 * is a prefix of those keys.
 */
export function lineKeys(
  first: string,
  last: string,
  formal: (name: string) => string[],
  middle = "",
): { lastKeys: string[]; firstKeys: string[]; initial: string | null } {
  const parts = plain(last)
    .split(" ")
    .filter((p) => p.length > 1);
  // "Jose Nunez Garcia" may be José Núñez-García: the middle word can be the first half of the last name
  const joined = plain(middle).length > 1 ? [phonetic(`${middle} ${last}`)] : [];
  const lastKeys = [
    ...new Set([phonetic(last), ...(parts.length > 1 ? parts.map(phonetic) : []), ...joined].filter(Boolean)),
  ];
  const given = firstGiven(first);
  const firstKeys = given.length > 1 ? [...new Set(formal(given).map(firstNameKeyOf).filter(Boolean))] : [];
  return { lastKeys, firstKeys, initial: given.length === 1 ? given : null };
}
