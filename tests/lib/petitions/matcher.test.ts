import { describe, expect, test } from "vitest";
import { matchLine, parseSignerName, parseStreetAddress, type VoterRecord } from "../../../convex/lib/petitions/match";
import { lineKeys, voterNameKeys } from "../../../convex/lib/petitions/names";
import { formalNames } from "../../../convex/lib/petitions/nicknames";
import { buildLabelledSet } from "./labelled";

const J = { state: "OR", county: null };
const SIGNED = "2026-05-01";
const voter = (id: string, first: string, last: string, address: string, extra: Partial<VoterRecord> = {}): VoterRecord => ({ id, first_name: first, last_name: last, address, state: "OR", status: "Active", registration_date: "2010-01-01", ...extra });
const line = (name: string, address: string, signedOn: string | null = SIGNED) => ({ name, address, signedOn });

/**
 * The voters a line's keys reach, as the server's candidate query (model/petitions.ts
 * candidateVoters): exact (last, first) key pairs; for an initial the same last name in the line's
 * ZIP; the first letter's keys for an initial found nowhere else or when no pair fits; else the
 * last-name key alone.
 */
const indexes = new WeakMap<VoterRecord[], Map<string, VoterRecord[]>>();
function retrieve(voters: VoterRecord[], name: string, address = "") {
  let byKey = indexes.get(voters);
  if (!byKey) {
    byKey = new Map();
    for (const v of voters) {
      const k = voterNameKeys(v.first_name, v.last_name).lastNameKey;
      byKey.set(k, [...(byKey.get(k) ?? []), v]);
    }
    indexes.set(voters, byKey);
  }
  const parsed = parseSignerName(name);
  const keys = lineKeys(parsed.first, parsed.last, formalNames, parsed.middle);
  const byLast = [...new Set(keys.lastKeys.flatMap((k) => byKey.get(k) ?? []))];
  const keyOf = (v: VoterRecord) => voterNameKeys(v.first_name, v.last_name).firstNameKey;
  let found = byLast.filter((v) => keys.firstKeys.includes(keyOf(v)));
  const zip = keys.initial !== null ? (parseStreetAddress(address)?.zip ?? "") : "";
  if (zip) found = byLast.filter((v) => v.zip === zip && keyOf(v).startsWith(`${keys.initial}:`));
  const letter = found.length > 0 ? "" : (keys.initial ?? parsed.first.slice(0, 1));
  if (letter) found = byLast.filter((v) => keyOf(v).startsWith(`${letter}:`));
  return found.length > 0 ? found : byLast;
}

describe("names and addresses", () => {
  test("signer names in the forms people write them", () => {
    expect(parseSignerName("Smith, William J. Jr.")).toEqual({ first: "william", middle: "j", last: "smith", suffix: "jr" });
    expect(parseSignerName("MARY-KATE O'BRIEN")).toMatchObject({ first: "mary", last: "obrien" });
    expect(parseSignerName("José Núñez")).toMatchObject({ first: "jose", last: "nunez" });
  });
  test("addresses: spelled-out and abbreviated types and directions, units, ZIP+4", () => {
    const a = parseStreetAddress("1120 Southwest Fifth Avenue Apt 4B, Portland, OR 97204-1234");
    const b = parseStreetAddress("1120 SW 5th Ave #4B Portland OR 97204");
    expect(a).toEqual(b);
    expect(parseStreetAddress("12 Old Mill Road, Salem, OR 97301")).toMatchObject({ number: "12", street: "old mill", type: "rd", zip: "97301" });
    expect(parseStreetAddress("somewhere")).toBeNull();
  });
  test("index keys meet across nicknames, spelling and apostrophes", () => {
    const v = voterNameKeys("William", "O'Brien");
    for (const [first, last] of [["Bill", "OBrien"], ["Billy", "O Brien"], ["Will", "O'Brian"]]) {
      const k = lineKeys(first, last, formalNames);
      expect(k.lastKeys).toContain(v.lastNameKey);
      expect(k.firstKeys).toContain(v.firstNameKey);
    }
    expect(voterNameKeys("Margaret", "Smith").firstNameKey).toBe(voterNameKeys("Peggy", "Smith").firstNameKey);
  });
});

describe("realistic petition lines", () => {
  const file = [
    voter("william", "William", "Smith", "42 Oak Road, Portland, OR 97205"),
    voter("peggy", "Margaret", "O'Connor", "7 N Main St Apt 3, Portland, OR 97209"),
    voter("senior", "Robert", "Lee Sr", "15 Elm Court, Portland, OR 97211"),
    voter("junior", "Robert", "Lee Jr", "15 Elm Court, Portland, OR 97211"),
    voter("accent", "José", "Núñez-García", "880 Fifth Avenue, Portland, OR 97204"),
    voter("inactive", "Dana", "Whitfield", "3 Pine Lane, Portland, OR 97212", { status: "Inactive" }),
    voter("late", "Priya", "Raman", "19 Birch Drive, Portland, OR 97214", { registration_date: "2026-06-15" }),
    voter("moved", "Harold", "Quimby", "500 River Road, Portland, OR 97219"),
    voter("wa", "Tessa", "Lund", "12 Bay St, Vancouver, WA 98660", { state: "WA" }),
    voter("twin1", "Alex", "Brown", "10 Cedar St, Portland, OR 97203"),
    voter("twin2", "Alexandra", "Brown", "10 Cedar St, Portland, OR 97203"),
  ];
  const check = (name: string, address: string, signedOn: string | null = SIGNED) => matchLine(line(name, address, signedOn), retrieve(file, name, address), J);

  test("nicknames, abbreviations and case", () => {
    expect(check("Bill Smith", "42 Oak Rd Portland OR 97205")).toMatchObject({ status: "verified", voterId: "william" });
    expect(check("PEGGY OCONNOR", "7 North Main Street #3, Portland, OR 97209-4411")).toMatchObject({ status: "verified", voterId: "peggy" });
  });
  test("accents, hyphens and spacing", () => {
    expect(check("Jose Nunez Garcia", "880 5th Ave, Portland, OR 97204")).toMatchObject({ status: "verified", voterId: "accent" });
  });
  test("suffixes tell father from son at the same address", () => {
    expect(check("Robert Lee Jr.", "15 Elm Ct, Portland, OR 97211")).toMatchObject({ status: "verified", voterId: "junior" });
    expect(check("Robert Lee Sr", "15 Elm Ct, Portland, OR 97211")).toMatchObject({ status: "verified", voterId: "senior" });
    // no suffix: two voters fit; a person decides
    expect(check("Robert Lee", "15 Elm Ct, Portland, OR 97211").status).toBe("review");
  });
  test("ineligible voters fail with their reason and the voter found", () => {
    expect(check("Dana Whitfield", "3 Pine Ln, Portland, OR 97212")).toMatchObject({ status: "failed", reason: "inactive", voterId: "inactive" });
    expect(check("Priya Raman", "19 Birch Dr, Portland, OR 97214")).toMatchObject({ status: "failed", reason: "registered_after_signing" });
    expect(check("Tessa Lund", "12 Bay Street, Vancouver, WA 98660")).toMatchObject({ status: "failed", reason: "outside_jurisdiction" });
    expect(check("Harold Quimby", "77 Hill Ave, Gresham, OR 97030")).toMatchObject({ status: "failed", reason: "address_mismatch", voterId: "moved" });
    expect(check("Zed Nobody", "1 Nowhere Rd, Portland, OR 97201")).toMatchObject({ status: "failed", reason: "not_found", candidates: [] });
  });
  test("an initial or an ambiguous name goes to a reviewer with the candidates", () => {
    const r = check("A. Brown", "10 Cedar St, Portland, OR 97203");
    expect(r.status).toBe("review");
    expect(r.candidates.map((c) => c.voterId).sort()).toEqual(["twin1", "twin2"]);
    expect(r.candidates[0].evidence.name).toMatch(/initial/);
  });
  test("evidence says which fields matched how", () => {
    const r = check("Bill Smith", "42 Oak Rd Portland OR 97205");
    expect(r.evidence).toEqual({ name: "last name exact, nickname (bill / william)", address: "street matches, ZIP matches", registration: "Active, registered 2010-01-01" });
  });
});

describe("the labelled set (precision of automatic accepts ≥ 0.99, recall ≥ 0.95)", () => {
  test("measured", () => {
    const { voters, lines } = buildLabelledSet();
    const eligible = new Map(voters.map((v) => [v.id, (v.status ?? "Active") === "Active" && (v.registration_date ?? "") <= "2026-05-01"]));
    let accepted = 0;
    let correct = 0;
    let positives = 0;
    const wrong: string[] = [];
    for (const l of lines) {
      const r = matchLine(l.line, retrieve(voters, l.line.name, l.line.address), J);
      const positive = l.voterId !== null && eligible.get(l.voterId) === true;
      if (positive) positives++;
      if (r.status === "verified") {
        accepted++;
        if (positive && r.voterId === l.voterId) correct++;
        else wrong.push(`${l.kind}: ${l.line.name} / ${l.line.address} → ${r.voterId}`);
      }
    }
    const precision = correct / accepted;
    const recall = correct / positives;
    console.log(`petition matcher: ${lines.length} lines, ${positives} eligible signers; automatic accepts ${accepted}; precision ${precision.toFixed(4)}, recall ${recall.toFixed(4)}`);
    expect(wrong.slice(0, 5)).toEqual([]);
    expect(precision).toBeGreaterThanOrEqual(0.99);
    expect(recall).toBeGreaterThanOrEqual(0.95);
  });
});
