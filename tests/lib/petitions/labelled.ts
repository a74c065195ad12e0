/**
 * A labelled set for the petition matcher, built from a synthetic voter file (seeded, so the same
 * every run): lines written by voters the way people write on petitions (nicknames, initials,
 * missing or added suffixes, apostrophes and hyphens dropped, accents dropped, street types and
 * directions abbreviated or spelled out, ZIP+4, units, small misspellings), and lines that must not
 * be accepted (people not in the file, a relative at the same address, a Jr for a Sr, voters who
 * moved). Issue 33 added: one-letter slips in last names ("Huhes" for Hughes: a letter changed,
 * added, dropped or two swapped), fathers and sons told apart by the file's suffix field, middle
 * names, state status codes (Ohio CONFIRMATION voters may sign, removed ones may not), voters who
 * moved with namesakes elsewhere in the file, and signers who wrote another last name (married)
 * at their registered address: no candidate, rescued by a reviewer's search. Each line says which
 * voter wrote it, or none; a mover's line names its own registration apart (`own`).
 */
import { faker } from "@faker-js/faker";
import type { SignerLine, VoterRecord } from "@convex/lib/petitions/match";

const FORMAL = [
  "William",
  "Robert",
  "Richard",
  "James",
  "Margaret",
  "Elizabeth",
  "Katherine",
  "Jennifer",
  "Michael",
  "Patricia",
  "Thomas",
  "Deborah",
  "Christopher",
  "Susan",
  "Joseph",
  "Rebecca",
  "Anthony",
  "Victoria",
  "Daniel",
  "Dorothy",
];
const NICK: Record<string, string> = {
  William: "Bill",
  Robert: "Bob",
  Richard: "Dick",
  James: "Jim",
  Margaret: "Peggy",
  Elizabeth: "Betty",
  Katherine: "Kathy",
  Jennifer: "Jenny",
  Michael: "Mike",
  Patricia: "Patty",
  Thomas: "Tom",
  Deborah: "Debbie",
  Christopher: "Chris",
  Susan: "Sue",
  Joseph: "Joe",
  Rebecca: "Becky",
  Anthony: "Tony",
  Victoria: "Vicky",
  Daniel: "Danny",
  Dorothy: "Dottie",
};
const SPECIAL_LAST = [
  "O'Brien",
  "D'Angelo",
  "McDonald",
  "Smith-Jones",
  "García",
  "Núñez",
  "Van der Berg",
  "St. John",
  "Peña",
  "O'Neil",
];
const TYPES: [string, string][] = [
  ["Road", "Rd"],
  ["Street", "St"],
  ["Avenue", "Ave"],
  ["Drive", "Dr"],
  ["Lane", "Ln"],
  ["Court", "Ct"],
  ["Boulevard", "Blvd"],
  ["Place", "Pl"],
];
const DIRS: [string, string][] = [
  ["North", "N"],
  ["South", "S"],
  ["East", "E"],
  ["West", "W"],
];

export type Labelled = { line: SignerLine; voterId: string | null; kind: string; own?: string };

/** One slip of the pen in a name of five letters or more: a letter changed, added, dropped, or two swapped. */
export function lastNameTypo(s: string, r: number, pos: number): string {
  const letters = "abcdefghijklmnopqrstuvwxyz";
  const i = 1 + (pos % Math.max(1, s.length - 2));
  const other = letters[(letters.indexOf(s[i].toLowerCase()) + 7) % 26] ?? "e";
  switch (r % 4) {
    case 0:
      return s.slice(0, i) + other + s.slice(i + 1);
    case 1:
      return s.slice(0, i) + other + s.slice(i);
    case 2:
      return s.slice(0, i) + s.slice(i + 1);
    default:
      return s[i] === s[i + 1]
        ? s.slice(0, i) + other + s.slice(i + 1)
        : s.slice(0, i) + s[i + 1] + s[i] + s.slice(i + 2);
  }
}

function typo(s: string): string {
  if (s.length < 5) return s;
  const i = 1 + Math.floor(faker.number.float() * (s.length - 2));
  return s.slice(0, i) + s[i + 1] + s[i] + s.slice(i + 2);
}

export function buildLabelledSet(seed = 7, voterCount = 3_000) {
  faker.seed(seed);
  const voters: (VoterRecord & {
    streetParts: {
      number: string;
      dir: string | null;
      name: string;
      type: [string, string];
      unit: string | null;
      zip: string;
      city: string;
    };
  })[] = [];
  for (let i = 0; i < voterCount; i++) {
    const first = i % 3 === 0 ? FORMAL[i % FORMAL.length] : faker.person.firstName();
    const last = i % 17 === 0 ? SPECIAL_LAST[i % SPECIAL_LAST.length] : faker.person.lastName();
    const number = String(faker.number.int({ min: 10, max: 9999 }));
    const dir = i % 4 === 0 ? DIRS[i % 4 === 0 ? (i / 4) % 4 : 0][0] : null;
    const name =
      i % 5 === 0 ? `${["First", "Second", "Third", "Fifth"][i % 4]}` : faker.location.street().split(" ")[0];
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
      // the state's own codes: Ohio CONFIRMATION (still registered), NC R (removed)
      ...(i % 23 === 0 ? { status_code: ["CONFIRMATION", "R", "I"][(i / 23) % 3] } : {}),
      ...(i % 7 === 0 ? { middle_name: faker.person.middleName() } : {}),
      registration_date: i % 29 === 0 ? "2026-06-01" : "2012-03-04",
      streetParts: { number, dir, name, type, unit, zip, city },
    });
  }
  // relatives: a second person at some voters' addresses, same last name
  const relatives: typeof voters = [];
  for (let i = 0; i < voterCount; i += 13) {
    const v = voters[i];
    relatives.push({
      ...v,
      id: `r${i}`,
      first_name: faker.person.firstName(),
      last_name: v.last_name.replace(/ Sr$/, ""),
    });
  }
  // sons at their fathers' addresses, the suffix in the file's own field (a state file keeps it apart)
  const sons: typeof voters = [];
  for (let i = 5; i < voterCount; i += 47) {
    const v = voters[i];
    voters[i] = { ...v, name_suffix: "Sr" };
    sons.push({ ...v, id: `jr${i}`, name_suffix: "Jr", registration_date: "2019-07-01" });
  }
  // namesakes: voters of the same name elsewhere in the state (another ZIP)
  const namesakes: typeof voters = [];
  for (let i = 3; i < voterCount; i += 37) {
    const v = voters[i];
    for (let k = 0; k < 1 + (i % 3); k++) {
      const number = String(100 + ((i * 13 + k * 101) % 9000));
      const zip = String(97400 + ((i + k) % 90));
      namesakes.push({
        ...v,
        id: `ns${i}_${k}`,
        middle_name: undefined,
        name_suffix: undefined,
        address: `${number} Namesake Ave, Eugene, OR ${zip}`,
        zip,
        status: "Active",
        status_code: undefined,
        registration_date: "2015-02-02",
        streetParts: { ...v.streetParts, number, name: "Namesake", zip, city: "Eugene" },
      });
    }
  }
  const all = [...voters, ...relatives, ...sons, ...namesakes];

  const lines: Labelled[] = [];
  const signedOn = "2026-05-01";
  voters.forEach((v, i) => {
    // (a father whose son lives with him writes his suffix: his lines are below)
    if (i % 2 !== 0 || v.name_suffix) return;
    const p = v.streetParts;
    const style = i % 10;
    const first =
      style === 1 && NICK[v.first_name]
        ? NICK[v.first_name]
        : style === 2
          ? `${v.first_name[0]}.`
          : style === 3
            ? typo(v.first_name)
            : v.first_name;
    let last = v.last_name.replace(/ Sr$/, i % 4 === 0 ? " Sr." : "");
    if (style === 4)
      last = last
        .replace(/'/g, "")
        .normalize("NFD")
        .replace(/[\u0300-\u036f]/g, "");
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
    lines.push({
      line: {
        name: `${faker.person.firstName()} ${faker.person.lastName()}`,
        address: faker.location.streetAddress() + ", Portland, OR 97201",
        signedOn,
      },
      voterId: null,
      kind: "stranger",
    });
  }
  // one-letter slips in the last name, at the right address
  voters.forEach((v, i) => {
    if (i % 2 === 0 || i % 7 !== 1 || v.name_suffix) return;
    const last = v.last_name.replace(/ Sr$/, "");
    if (last.replace(/[^a-z]/gi, "").length < 5 || /[^a-z]/i.test(last)) return;
    const p = v.streetParts;
    const name = `${v.first_name} ${lastNameTypo(last, i, i >> 3)}`;
    lines.push({
      line: {
        name,
        address: `${p.number} ${p.dir ? `${p.dir} ` : ""}${p.name} ${p.type[1]}${p.unit ? ` Apt ${p.unit}` : ""}, ${p.city}, OR ${p.zip}`,
        signedOn,
      },
      voterId: v.id,
      kind: "last-name typo",
    });
  });
  // fathers and sons, each writing his suffix; a middle initial where the file keeps a middle name
  sons.forEach((son) => {
    const father = voters.find((v) => v.id === `v${son.id.slice(2)}`)!;
    const base = father.last_name.replace(/ Sr$/, "");
    lines.push({
      line: { name: `${son.first_name} ${base} Jr`, address: son.address!, signedOn },
      voterId: son.id,
      kind: "son (Jr in the suffix field)",
    });
    lines.push({
      line: { name: `${father.first_name} ${base} Sr.`, address: father.address!, signedOn },
      voterId: father.id,
      kind: "father (Sr in the suffix field)",
    });
  });
  voters.forEach((v, i) => {
    if (!v.middle_name || i % 2 === 0 || i % 3 !== 0 || v.name_suffix) return;
    lines.push({
      line: {
        name: `${v.first_name} ${v.middle_name[0]}. ${v.last_name.replace(/ Sr$/, "")}`,
        address: v.address!,
        signedOn,
      },
      voterId: v.id,
      kind: "middle initial",
    });
  });
  // movers with namesakes elsewhere: to review, their own registration among the candidates, nobody pre-selected
  voters.forEach((v, i) => {
    if (i % 37 !== 3) return;
    lines.push({
      line: {
        name: `${v.first_name} ${v.last_name.replace(/ Sr$/, "")}`,
        address: `${Number(v.streetParts.number) + 3} Newhome Ct, Bend, OR 97701`,
        signedOn,
      },
      voterId: null,
      own: v.id,
      kind: "moved voter with namesakes",
    });
  });
  // another last name written (married since registering), at the registered address: rescued by search
  voters.forEach((v, i) => {
    if (i % 53 !== 11) return;
    lines.push({
      line: { name: `${v.first_name} Zyxwell`, address: v.address!, signedOn },
      voterId: null,
      own: v.id,
      kind: "married name",
    });
  });
  voters.forEach((v, i) => {
    if (i % 41 === 0 && i % 47 !== 5)
      lines.push({
        line: { name: `${v.first_name} ${v.last_name.replace(/ Sr$/, "")} Jr.`, address: v.address!, signedOn },
        voterId: null,
        kind: "junior of a senior voter",
      });
    if (i % 31 === 0)
      lines.push({
        line: {
          name: `${v.first_name} ${v.last_name}`,
          address: `${Number(v.streetParts.number) + 1000} Elsewhere Rd, Salem, OR 97301`,
          signedOn,
        },
        voterId: null,
        kind: "moved voter",
      });
  });
  return { voters: all, lines };
}
