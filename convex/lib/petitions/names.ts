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

/** The last name's key, and the suffix it carried ("Smith Jr" → "smith", "jr"). */
export function splitSuffix(last: string): { last: string; suffix: string | null } {
  const parts = plain(last).split(" ").filter(Boolean);
  if (parts.length > 1 && SUFFIXES.has(parts[parts.length - 1])) return { last: parts.slice(0, -1).join(" "), suffix: parts[parts.length - 1] };
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

/**
 * The index keys a signer line can meet its voter under: the last name's code (and each part of a
 * double name's, and of the middle word joined to it), with the keys of every formal name the first name may stand for; an initial
 * is a prefix of those keys.
 */
export function lineKeys(first: string, last: string, formal: (name: string) => string[], middle = ""): { lastKeys: string[]; firstKeys: string[]; initial: string | null } {
  const parts = plain(last).split(" ").filter((p) => p.length > 1);
  // "Jose Nunez Garcia" may be José Núñez-García: the middle word can be the first half of the last name
  const joined = plain(middle).length > 1 ? [phonetic(`${middle} ${last}`)] : [];
  const lastKeys = [...new Set([phonetic(last), ...(parts.length > 1 ? parts.map(phonetic) : []), ...joined].filter(Boolean))];
  const given = firstGiven(first);
  const firstKeys = given.length > 1 ? [...new Set(formal(given).map(firstNameKeyOf).filter(Boolean))] : [];
  return { lastKeys, firstKeys, initial: given.length === 1 ? given : null };
}
