/**
 * A labelled set for the petition matcher, built from a synthetic voter file (seeded, so the same
 * every run): lines written by voters the way people write on petitions (nicknames, initials,
 * missing or added suffixes, apostrophes and hyphens dropped, accents dropped, street types and
 * directions abbreviated or spelled out, ZIP+4, units, small misspellings), and lines that must not
 * be accepted (people not in the file, a relative at the same address, a Jr for a Sr, voters who
 * moved). Each line says which voter wrote it, or none.
 */
import { faker } from "@faker-js/faker";
import type { SignerLine, VoterRecord } from "../../../convex/lib/petitions/match";

const FORMAL = ["William", "Robert", "Richard", "James", "Margaret", "Elizabeth", "Katherine", "Jennifer", "Michael", "Patricia", "Thomas", "Deborah", "Christopher", "Susan", "Joseph", "Rebecca", "Anthony", "Victoria", "Daniel", "Dorothy"];
const NICK: Record<string, string> = { William: "Bill", Robert: "Bob", Richard: "Dick", James: "Jim", Margaret: "Peggy", Elizabeth: "Betty", Katherine: "Kathy", Jennifer: "Jenny", Michael: "Mike", Patricia: "Patty", Thomas: "Tom", Deborah: "Debbie", Christopher: "Chris", Susan: "Sue", Joseph: "Joe", Rebecca: "Becky", Anthony: "Tony", Victoria: "Vicky", Daniel: "Danny", Dorothy: "Dottie" };
const SPECIAL_LAST = ["O'Brien", "D'Angelo", "McDonald", "Smith-Jones", "García", "Núñez", "Van der Berg", "St. John", "Peña", "O'Neil"];
const TYPES: [string, string][] = [["Road", "Rd"], ["Street", "St"], ["Avenue", "Ave"], ["Drive", "Dr"], ["Lane", "Ln"], ["Court", "Ct"], ["Boulevard", "Blvd"], ["Place", "Pl"]];
const DIRS: [string, string][] = [["North", "N"], ["South", "S"], ["East", "E"], ["West", "W"]];

export type Labelled = { line: SignerLine; voterId: string | null; kind: string };

function typo(s: string): string {
  if (s.length < 5) return s;
  const i = 1 + Math.floor(faker.number.float() * (s.length - 2));
  return s.slice(0, i) + s[i + 1] + s[i] + s.slice(i + 2);
}

export function buildLabelledSet(seed = 7, voterCount = 3_000) {
  faker.seed(seed);
  const voters: (VoterRecord & { streetParts: { number: string; dir: string | null; name: string; type: [string, string]; unit: string | null; zip: string; city: string } })[] = [];
  for (let i = 0; i < voterCount; i++) {
    const first = i % 3 === 0 ? FORMAL[i % FORMAL.length] : faker.person.firstName();
    const last = i % 17 === 0 ? SPECIAL_LAST[i % SPECIAL_LAST.length] : faker.person.lastName();
    const number = String(faker.number.int({ min: 10, max: 9999 }));
    const dir = i % 4 === 0 ? DIRS[i % 4 === 0 ? (i / 4) % 4 : 0][0] : null;
    const name = i % 5 === 0 ? `${["First", "Second", "Third", "Fifth"][i % 4]}` : faker.location.street().split(" ")[0];
    const type = TYPES[i % TYPES.length];
    const unit = i % 9 === 0 ? String(faker.number.int({ min: 1, max: 40 })) : null;
    const zip = String(97000 + (i % 300)).padStart(5, "0");
    const city = "Portland";
    const street = `${number} ${dir ? `${dir} ` : ""}${name} ${type[0]}${unit ? ` Apt ${unit}` : ""}`;
    voters.push({
      id: `v${i}`,
      first_name: first,
      last_name: i % 41 === 0 ? `${last} Sr` : last,
      address: `${street}, ${city}, OR ${zip}`,
      state: "OR",
      zip,
      status: i % 23 === 0 ? "Inactive" : "Active",
      registration_date: i % 29 === 0 ? "2026-06-01" : "2012-03-04",
      streetParts: { number, dir, name, type, unit, zip, city },
    });
  }
  // relatives: a second person at some voters' addresses, same last name
  const relatives: typeof voters = [];
  for (let i = 0; i < voterCount; i += 13) {
    const v = voters[i];
    relatives.push({ ...v, id: `r${i}`, first_name: faker.person.firstName(), last_name: v.last_name.replace(/ Sr$/, "") });
  }
  const all = [...voters, ...relatives];

  const lines: Labelled[] = [];
  const signedOn = "2026-05-01";
  voters.forEach((v, i) => {
    if (i % 2 !== 0) return;
    const p = v.streetParts;
    const style = i % 10;
    const first = style === 1 && NICK[v.first_name] ? NICK[v.first_name] : style === 2 ? `${v.first_name[0]}.` : style === 3 ? typo(v.first_name) : v.first_name;
    let last = v.last_name.replace(/ Sr$/, i % 4 === 0 ? " Sr." : "");
    if (style === 4) last = last.replace(/'/g, "").normalize("NFD").replace(/[\u0300-\u036f]/g, "");
    if (style === 5) last = last.replace(/-/g, " ");
    const type = style % 2 === 0 ? p.type[1] : p.type[0];
    const dir = p.dir ? (style % 3 === 0 ? DIRS.find((d) => d[0] === p.dir)![1] : p.dir) : null;
    const unit = p.unit ? (style === 6 ? ` #${p.unit}` : ` Unit ${p.unit}`) : "";
    const zip = style === 7 ? `${p.zip}-1234` : p.zip;
    const name = style === 8 ? `${last.toUpperCase()}, ${first.toUpperCase()}` : `${first} ${last}`;
    const address = `${p.number} ${dir ? `${dir} ` : ""}${p.name} ${type}${unit}, ${p.city}, OR ${zip}`;
    lines.push({ line: { name, address, signedOn }, voterId: v.id, kind: `voter style ${style}` });
  });
  // must not be accepted: strangers, relatives under the voter's first name's initial, Jr for Sr, movers
  for (let i = 0; i < 600; i++) {
    lines.push({ line: { name: `${faker.person.firstName()} ${faker.person.lastName()}`, address: faker.location.streetAddress() + ", Portland, OR 97201", signedOn }, voterId: null, kind: "stranger" });
  }
  voters.forEach((v, i) => {
    if (i % 41 === 0) lines.push({ line: { name: `${v.first_name} ${v.last_name.replace(/ Sr$/, "")} Jr.`, address: v.address!, signedOn }, voterId: null, kind: "junior of a senior voter" });
    if (i % 31 === 0) lines.push({ line: { name: `${v.first_name} ${v.last_name}`, address: `${Number(v.streetParts.number) + 1000} Elsewhere Rd, Salem, OR 97301`, signedOn }, voterId: null, kind: "moved voter" });
  });
  return { voters: all, lines };
}
