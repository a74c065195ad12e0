/**
 * A transcription CSV's rows → signer lines (petitions.importLines): which column is the name (or
 * first + last), address, city, state, ZIP, date, page and line; city, state and ZIP appended to
 * the address; dates to yyyy-mm-dd; and the columns it does not use, which the import names.
 */
import { normalizeDate } from "@/lib/import/normalize";

export type CsvLine = {
  name: string;
  address: string;
  signedOn: string | null;
  page: number | null;
  line: number | null;
};

type Role =
  | "name"
  | "first"
  | "middle"
  | "last"
  | "suffix"
  | "address"
  | "address2"
  | "city"
  | "state"
  | "zip"
  | "date"
  | "page"
  | "line";

const HEADERS: Record<Role, string[]> = {
  name: [
    "name",
    "signer name",
    "signer",
    "full name",
    "signer's name",
    "signers name",
    "printed name",
    "signer full name",
  ],
  first: ["first name", "first", "firstname", "given name"],
  middle: ["middle name", "middle", "middle initial", "mi"],
  last: ["last name", "last", "lastname", "surname", "family name"],
  suffix: ["suffix", "name suffix"],
  address: [
    "address",
    "street",
    "street address",
    "residence address",
    "residential address",
    "address line 1",
    "address 1",
    "address1",
    "residence",
  ],
  address2: ["address line 2", "address 2", "address2", "unit", "apt", "apartment"],
  city: ["city", "town", "city or town", "municipality"],
  state: ["state", "st"],
  zip: ["zip", "zip code", "zipcode", "postal code", "postcode", "zip5", "zip+4"],
  date: ["date", "signed on", "date signed", "signed", "signature date", "date of signing"],
  page: ["page", "page number", "page no", "page #", "sheet", "sheet number", "petition page"],
  line: ["line", "line number", "line no", "line #", "signer number", "signature number", "row", "#", "no"],
};

const norm = (h: string) => h.trim().toLowerCase().replace(/[_.]+/g, " ").replace(/\s+/g, " ");

/** The role each header plays (the first header of a role wins), and the headers that play none. */
export function csvColumns(headers: string[]): { roles: Partial<Record<Role, string>>; unused: string[] } {
  const roles: Partial<Record<Role, string>> = {};
  const unused: string[] = [];
  for (const h of headers) {
    const n = norm(h);
    const role = (Object.keys(HEADERS) as Role[]).find((r) => HEADERS[r].includes(n) && roles[r] === undefined);
    if (role) roles[role] = h;
    else if (n !== "") unused.push(h);
  }
  // a full-name column wins over name parts, which are then not used
  if (roles.name) {
    for (const part of ["first", "middle", "last", "suffix"] as const) {
      if (roles[part]) unused.push(roles[part]);
      delete roles[part];
    }
  }
  return { roles, unused };
}

function number(value: string | undefined): number | null {
  const m = (value ?? "").match(/\d+/);
  return m ? Number(m[0]) : null;
}

/** The address with the city, state and ZIP it lacks ("12 Oak St" + Portland, OR, 97205 → "12 Oak St, Portland, OR 97205"). */
export function fullAddress(address: string, unit: string, city: string, state: string, zip: string): string {
  const street = [address.trim(), unit.trim()].filter(Boolean).join(" ");
  const lower = street.toLowerCase();
  const has = (part: string) =>
    part !== "" &&
    new RegExp(`(^|[\\s,])${part.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}($|[\\s,])`).test(lower);
  const place = has(city.trim()) ? "" : city.trim();
  const tail = [has(state.trim()) ? "" : state.trim(), has(zip.trim()) ? "" : zip.trim()].filter(Boolean).join(" ");
  return [street, place, tail].filter(Boolean).join(", ");
}

/**
 * The rows' signer lines. `columns` from csvColumns; rows keyed by header. Rows with neither name
 * nor address are skipped. `error`: the file has no name column (nor first and last).
 */
export function csvLines(
  headers: string[],
  rows: Record<string, string>[],
): { lines: CsvLine[]; unused: string[]; error: string | null } {
  const { roles, unused } = csvColumns(headers);
  if (!roles.name && !(roles.first && roles.last)) {
    return {
      lines: [],
      unused,
      error:
        "The CSV needs a header row with a name column (or first and last name) and address, city, ZIP, date, page and line columns as it has them.",
    };
  }
  const get = (row: Record<string, string>, role: Role) => (roles[role] ? String(row[roles[role]] ?? "").trim() : "");
  const lines: CsvLine[] = [];
  for (const row of rows) {
    const name = roles.name
      ? get(row, "name")
      : [get(row, "first"), get(row, "middle"), get(row, "last"), get(row, "suffix")].filter(Boolean).join(" ");
    const address = fullAddress(
      get(row, "address"),
      get(row, "address2"),
      get(row, "city"),
      get(row, "state"),
      get(row, "zip"),
    );
    if (!name && !address) continue;
    const date = get(row, "date");
    lines.push({
      name,
      address,
      signedOn: date ? (normalizeDate(date) ?? date) : null,
      page: number(get(row, "page")),
      line: number(get(row, "line")),
    });
  }
  return { lines, unused, error: null };
}
