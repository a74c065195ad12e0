/**
 * Matching an import to the voters already held, re-imports that update them, and vote history
 * (per-election columns on voter rows, and a separate vote-history file keyed by voter ID).
 */
import { describe, expect, test } from "vitest";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { compareUtf8, votersByVoterId } from "@convex/model/importMatch";
import type { QueryCtx } from "@convex/_generated/server";
import { createMember, setupTest, type Member, type TestConvex } from "./setup";

/** `db` with a count of the voters its index reads (`take`, `first`) returned. */
function countingDb(db: QueryCtx["db"]) {
  const counter = { read: 0 };
  type Range = { take(n: number): Promise<unknown[]>; first(): Promise<unknown> };
  const wrapped = {
    query: (table: "voters") => ({
      withIndex: (name: "by_org_voterid", range: never) => {
        const r = db.query(table).withIndex(name, range) as unknown as Range;
        return {
          take: async (n: number) => {
            const docs = await r.take(n);
            counter.read += docs.length;
            return docs;
          },
          first: async () => {
            const doc = await r.first();
            if (doc) counter.read++;
            return doc;
          },
        };
      },
    }),
  };
  return { db: wrapped as unknown as QueryCtx["db"], counter };
}

type Fields = Record<string, unknown> & { first_name: string; last_name: string };
type Opts = {
  matchRule?: "standard" | "name";
  updateExisting?: boolean;
  kind?: "voters" | "history";
  columns?: string[];
  elections?: { election: string; date?: string; type?: string }[];
};

async function runImport(m: Member, rows: Fields[], o: Opts = {}) {
  const columns = o.columns ?? [
    "first_name",
    "last_name",
    "voter_id",
    "email",
    "date_of_birth",
    "address",
    "zip",
    "status",
    "party_affiliation",
  ];
  const importId = await m.as.mutation(api.imports.start, {
    filename: "state.csv",
    totalRecords: rows.length,
    bytesTotal: 1000,
    fieldMapping: columns.map((c) => ({ column: c, target: c })),
    newFields: [],
    fieldDetails: [],
    errorMode: "ignore",
    matchRule: o.matchRule,
    updateExisting: o.updateExisting,
    kind: o.kind,
    elections: o.elections,
    attestation: { state: "NC", use: "campaign", useOther: null, attested: true },
  });
  let result;
  for (let start = 0; start < rows.length; start += 1000) {
    const batch = rows
      .slice(start, start + 1000)
      .map((fields, i) => ({ row: start + i + 1, line: start + i + 2, fields: fields as never }));
    result = await m.as.mutation(api.imports.appendBatch, { importId, startRow: start + 1, rows: batch });
  }
  await m.as.mutation(api.imports.finish, { importId, totalRecords: rows.length, columnStats: [] });
  return { importId, result: result, doc: (await m.as.query(api.imports.get, { importId }))! };
}

async function voters(t: TestConvex, orgId: Id<"organizations">) {
  return await t.run(async (ctx) =>
    ctx.db
      .query("voters")
      .withIndex("by_org", (q) => q.eq("orgId", orgId))
      .collect(),
  );
}
async function tally(t: TestConvex, orgId: Id<"organizations">) {
  const rows = await t.run(async (ctx) =>
    ctx.db
      .query("voterTally")
      .withIndex("by_org_party_status", (q) => q.eq("orgId", orgId))
      .collect(),
  );
  return Object.fromEntries(rows.filter((r) => r.count > 0).map((r) => [`${r.party}/${r.status}`, r.count]));
}

/** A state file of n voters: common names repeat (every 10th voter is a John Smith), each with its own ID. */
function stateFile(n: number): Fields[] {
  return Array.from({ length: n }, (_, i) => ({
    voter_id: `CA${String(100000 + i)}`,
    first_name: i % 10 === 0 ? "John" : `First${i}`,
    last_name: i % 10 === 0 ? "Smith" : `Last${i}`,
    date_of_birth: `19${50 + (i % 40)}-0${1 + (i % 9)}-1${i % 10}`,
    address: `${100 + i} Main St`,
    zip: `9${String(1000 + (i % 50)).padStart(4, "0")}`,
    status: "Active",
    party_affiliation: i % 2 ? "Democrat" : "Republican",
  }));
}

describe("matching existing records", () => {
  test("common names with different voter IDs are different voters; the literal name rule would merge them", async () => {
    const t = setupTest();
    const m = await createMember(t, ["campaign_manager"]);
    const file = stateFile(300);
    const { doc } = await runImport(m, file, { matchRule: "standard" });
    expect(doc).toMatchObject({ imported_records: 300, duplicate_records: 0, match_rule: "standard" });
    expect((await voters(t, m.orgId)).filter((v) => v.last_name === "Smith")).toHaveLength(30);

    const other = await createMember(t, ["campaign_manager"]);
    const literal = await runImport(other, file, { matchRule: "name" });
    // the spec's literal rule (no emails: same first + last name) keeps one John Smith of 30
    expect(literal.doc).toMatchObject({ imported_records: 271, duplicate_records: 29, match_rule: "name" });
  });

  test("the same file again matches every voter by ID: all duplicates, nothing changed", async () => {
    const t = setupTest();
    const m = await createMember(t, ["campaign_manager"]);
    await runImport(m, stateFile(120), { matchRule: "standard" });
    const again = await runImport(m, stateFile(120), { matchRule: "standard", updateExisting: true });
    expect(again.doc).toMatchObject({ imported_records: 0, updated_records: 0, duplicate_records: 120 });
    const dups = await m.as.query(api.imports.outcomes, { importId: again.importId, kind: "duplicate", limit: 5 });
    expect(dups[0]).toMatchObject({ row: 2, message: "duplicate found (nothing changed)" });
    expect(dups[0].existing?.name).toBe("John Smith");
  });

  test("without voter IDs: email, else name with date of birth, else name with ZIP or address", async () => {
    const t = setupTest();
    const m = await createMember(t, ["campaign_manager"]);
    await runImport(m, [
      { first_name: "Ann", last_name: "Lee", email: "ann@x.org" },
      { first_name: "Bo", last_name: "Diaz", date_of_birth: "1970-01-02" },
      { first_name: "Cy", last_name: "Park", zip: "27601", address: "1 Oak St" },
      { first_name: "Di", last_name: "Ng", address: "9 Elm Ave" },
    ]);
    const second = await runImport(
      m,
      [
        { first_name: "Annie", last_name: "Lee", email: "ANN@x.org" }, // same email: duplicate
        { first_name: "Bo", last_name: "Diaz", date_of_birth: "1970-01-02" }, // same name + DOB: duplicate
        { first_name: "Bo", last_name: "Diaz", date_of_birth: "1991-05-05" }, // same name, other DOB: new voter
        { first_name: "Cy", last_name: "Park", zip: "27601-1234" }, // same name + ZIP: duplicate
        { first_name: "Cy", last_name: "Park", zip: "28202" }, // same name, other ZIP: new voter
        { first_name: "Di", last_name: "Ng", address: " 9 ELM AVE" }, // same name + address: duplicate
        { first_name: "Ed", last_name: "Stone" }, // a bare name cannot be matched by this rule: new
        { first_name: "Ed", last_name: "Stone" }, // ...and nor can its twin in the same file
      ],
      { matchRule: "standard" },
    );
    expect(second.doc).toMatchObject({ imported_records: 4, duplicate_records: 4 });
  });

  test("duplicates within one file follow the rule too (same ID twice)", async () => {
    const t = setupTest();
    const m = await createMember(t, ["campaign_manager"]);
    const { doc } = await runImport(
      m,
      [
        { voter_id: "X1", first_name: "A", last_name: "One" },
        { voter_id: "X1", first_name: "A", last_name: "One (again)" },
        { voter_id: "X2", first_name: "A", last_name: "One" },
      ],
      { matchRule: "standard" },
    );
    expect(doc).toMatchObject({ imported_records: 2, duplicate_records: 1 });
  });
});

test("middle names and suffixes are kept; a son (Jr) at his father's address is his own voter, in the file and against the voters held (issue 33)", async () => {
  const t = setupTest();
  const m = await createMember(t, ["campaign_manager"]);
  const columns = ["first_name", "middle_name", "last_name", "name_suffix", "address", "zip", "status", "status_code"];
  const father = {
    first_name: "Robert",
    middle_name: "Allen",
    last_name: "Lee",
    address: "15 Elm Ct, Columbus, OH 43215",
    zip: "43215",
    status: "Active",
  };
  const rows = [
    father,
    { ...father, middle_name: "Brian", name_suffix: "JR" },
    {
      first_name: "Carla",
      last_name: "Benson",
      name_suffix: "III",
      address: "61 Maple Ave, Columbus, OH 43215",
      zip: "43215",
      status: "Inactive",
      status_code: "CONFIRMATION",
    },
  ];
  const first = await runImport(m, rows, { columns });
  expect(first.doc).toMatchObject({ imported_records: 3, duplicate_records: 0 });
  const held = await voters(t, m.orgId);
  expect(held.map((v) => [v.first_name, v.middle_name, v.last_name, v.name_suffix]).sort()).toEqual([
    ["Carla", undefined, "Benson", "III"],
    ["Robert", "Allen", "Lee", undefined],
    ["Robert", "Brian", "Lee", "JR"],
  ]);
  // the same file again: each row is its own voter again (duplicates), the son not merged into his father
  const again = await runImport(m, rows, { columns });
  expect(again.doc).toMatchObject({ imported_records: 0, duplicate_records: 3 });
  const dups = await m.as.query(api.imports.outcomes, { importId: again.importId, kind: "duplicate" });
  expect(new Set(dups.map((d) => d.existing?.id)).size).toBe(3);
});

describe("voter IDs looked up for the whole batch at once", () => {
  test("finds what a lookup per ID finds: first of a repeated ID, absent ones, unsorted and non-ASCII IDs, another organisation's voters", async () => {
    const t = setupTest();
    const m = await createMember(t, ["campaign_manager"]);
    const other = await createMember(t, ["campaign_manager"]);
    const held = ["A0001", "A0002", "A0005", "A0100", "Z9", "é1", "😀2", "\uFFFD3"];
    await runImport(
      m,
      held.map((voter_id, i) => ({ first_name: `F${i}`, last_name: `L${i}`, voter_id })),
    );
    await runImport(other, [{ first_name: "O", last_name: "Ther", voter_id: "A0003" }]);
    // a second voter holding A0002 (added by hand): the first one is the match, as .first() finds
    await m.as.mutation(api.voters.create, {
      fields: { first_name: "Second", last_name: "Holder", voter_id: "A0002" },
    });
    const ids = ["A0100", "A0003", "A0002", "zz", "😀2", "A0001", "\uFFFD3", "0", "é1", "A0004", "A0001", "Z9"];
    const perId = await t.run(async (ctx) => {
      const out: (string | null)[] = [];
      for (const id of ids) {
        const d = await ctx.db
          .query("voters")
          .withIndex("by_org_voterid", (q) => q.eq("orgId", m.orgId).eq("voter_id", id))
          .first();
        out.push(d ? d.first_name : null);
      }
      return out;
    });
    const batch = await t.run(async (ctx) => {
      const found = await votersByVoterId(ctx.db, m.orgId, ids);
      return ids.map((id) => found.get(id)?.first_name ?? null);
    });
    expect(batch).toEqual(perId);
    expect(batch).toEqual(["F3", null, "F1", null, "F6", "F0", "F7", null, "F5", null, "F0", "F4"]);
  });

  test("a long sorted run of held and new IDs", async () => {
    const t = setupTest();
    const m = await createMember(t, ["campaign_manager"]);
    const id = (n: number) => `V${String(n).padStart(6, "0")}`;
    await runImport(
      m,
      Array.from({ length: 600 }, (_, i) => ({ first_name: `F${i}`, last_name: `L${i}`, voter_id: id(i * 2) })),
    );
    const ids = Array.from({ length: 900 }, (_, i) => id(i));
    const found = await t.run(async (ctx) => {
      const f = await votersByVoterId(ctx.db, m.orgId, ids);
      return ids.filter((x) => f.has(x));
    });
    expect(found).toEqual(ids.filter((_, i) => i % 2 === 0));
  });

  test("voters read: new IDs between held ones read almost none, past them none; a sorted or a sparse re-import about one per ID", async () => {
    const t = setupTest();
    const m = await createMember(t, ["campaign_manager"]);
    const id = (n: number) => `V${String(n).padStart(6, "0")}`;
    await runImport(
      m,
      Array.from({ length: 900 }, (_, i) => ({ first_name: `F${i}`, last_name: `L${i}`, voter_id: id(i * 3) })),
    );
    const lookUp = (ids: string[]) =>
      t.run(async (ctx) => {
        const { db, counter } = countingDb(ctx.db);
        const found = await votersByVoterId(db, m.orgId, ids);
        return { found: ids.filter((x) => found.has(x)).length, read: counter.read };
      });
    // a statewide file's new voters: their IDs fall between held ones (shuffled, as a file has them)
    const fresh = Array.from({ length: 600 }, (_, i) => id(i * 3 + 1 + (i % 2))).reverse();
    const freshRead = await lookUp(fresh);
    expect(freshRead.found).toBe(0);
    expect(freshRead.read).toBeLessThanOrEqual(20); // a range is tried now and then (one read each); was 899
    // new voters about as many as the held ones around them (each held voter read would settle
    // one or two new IDs): looked up one by one too, not by reading the held voters between them
    const interleaved = Array.from({ length: 450 }, (_, g) =>
      g % 2 ? [id(g * 3 + 1), id(g * 3 + 2)] : [id(g * 3 + 1)],
    );
    const interleavedRead = await lookUp(interleaved.flat().reverse());
    expect(interleavedRead.found).toBe(0);
    expect(interleavedRead.read).toBeLessThanOrEqual(30);
    // new voters past every held one (a file numbered on from the last): one read
    expect(await lookUp(Array.from({ length: 600 }, (_, i) => id(3000 + i)))).toEqual({ found: 0, read: 0 });
    // the same file again, in the index's order: every ID found, about one voter read each
    const all = Array.from({ length: 900 }, (_, i) => id(i * 3));
    const sortedAgain = await lookUp(all);
    expect(sortedAgain.found).toBe(900);
    expect(sortedAgain.read).toBeLessThanOrEqual(905);
    // every fifth held voter, and new ones between: found ones cost about one read each
    const sparse = all.filter((_, i) => i % 5 === 0).flatMap((x, i) => [x, id(i * 15 + 2)]);
    const sparseAgain = await lookUp(sparse);
    expect(sparseAgain.found).toBe(180);
    expect(sparseAgain.read).toBeLessThanOrEqual(Math.ceil(180 * 1.1));
  });

  test("compareUtf8 orders as Convex does (UTF-8 bytes)", () => {
    const words = ["b", "a", "\uFFFD", "😀", "é", "", "ab"];
    const bytes = (s: string) => [...new TextEncoder().encode(s)];
    const byBytes = [...words].sort((x, y) => {
      const a = bytes(x),
        b = bytes(y);
      for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i];
      return a.length - b.length;
    });
    expect([...words].sort(compareUtf8)).toEqual(byBytes);
  });
});

describe("re-import with update existing records", () => {
  test("10 % of voters moved or changed status: exactly those are updated, with their history and the tallies", async () => {
    const t = setupTest();
    const m = await createMember(t, ["campaign_manager"]);
    const file = stateFile(200);
    await runImport(m, file, { matchRule: "standard" });
    expect(await tally(t, m.orgId)).toEqual({ "Democrat/Active": 100, "Republican/Active": 100 });

    const changed = file.map((v, i) => {
      if (i % 10 === 3) return { ...v, address: `${i} New Rd`, zip: "27701" }; // moved
      if (i % 10 === 7) return { ...v, status: "Inactive", status_code: "R" }; // removed from the rolls
      return v;
    });
    const re = await runImport(m, changed, { matchRule: "standard", updateExisting: true });
    expect(re.doc).toMatchObject({
      imported_records: 0,
      updated_records: 40,
      duplicate_records: 160,
      failed_records: 0,
    });
    const all = await voters(t, m.orgId);
    expect(all).toHaveLength(200);
    const moved = all.find((v) => v.voter_id === "CA100003")!;
    expect(moved).toMatchObject({ address: "3 New Rd", zip: "27701", status: "Active" });
    const inactive = all.find((v) => v.voter_id === "CA100007")!;
    expect(inactive).toMatchObject({ status: "Inactive", status_code: "R", address: "107 Main St" });
    expect(await tally(t, m.orgId)).toEqual({
      "Democrat/Active": 80,
      "Republican/Active": 100,
      "Democrat/Inactive": 20,
    });

    const updated = await m.as.query(api.imports.outcomes, { importId: re.importId, kind: "updated", limit: 100 });
    expect(updated).toHaveLength(40);
    expect(updated.find((u) => u.existing?.id === moved._id)?.message).toBe("Address, ZIP Code changed");
    const history = await t.run(async (ctx) =>
      ctx.db
        .query("voterChanges")
        .withIndex("by_voter", (q) => q.eq("voterId", moved._id))
        .collect(),
    );
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ importId: re.importId });
    expect(history[0].changes).toEqual([
      { field: "address", from: "103 Main St", to: "3 New Rd" },
      { field: "zip", from: "91003", to: "27701" },
    ]);
  });

  test("without the option a matched voter is left as it is", async () => {
    const t = setupTest();
    const m = await createMember(t, ["campaign_manager"]);
    await runImport(m, [{ voter_id: "N1", first_name: "Al", last_name: "Vo", status: "Active" }]);
    const re = await runImport(m, [{ voter_id: "N1", first_name: "Al", last_name: "Vo", status: "Inactive" }], {
      matchRule: "standard",
    });
    expect(re.doc).toMatchObject({ updated_records: 0, duplicate_records: 1, update_existing: false });
    expect((await voters(t, m.orgId))[0].status).toBe("Active");
  });
});

describe("vote history", () => {
  const G2020 = { election: "GENERAL-11/03/2020", date: "2020-11-03", type: "General" };
  const P2022 = { election: "PRIMARY-05/03/2022", date: "2022-05-03", type: "Primary" };
  const G2022 = { election: "GENERAL-11/08/2022", date: "2022-11-08", type: "General" };
  const G2024 = { election: "GENERAL-11/05/2024", date: "2024-11-05", type: "General" };
  const P2024 = { election: "PRIMARY-03/05/2024", date: "2024-03-05", type: "Primary" };

  test("per-election records on voter rows are kept, and a re-import adds the new elections", async () => {
    const t = setupTest();
    const m = await createMember(t, ["campaign_manager"]);
    await runImport(
      m,
      [
        {
          voter_id: "OH1",
          first_name: "Pat",
          last_name: "Kim",
          state_voter_history: 2,
          vote_history: [G2020, { ...P2022, party: "Democrat" }],
        },
        { voter_id: "OH2", first_name: "Lou", last_name: "Ray", state_voter_history: 0 },
      ],
      { matchRule: "standard", elections: [G2020, P2022] },
    );
    const [pat, lou] = (await voters(t, m.orgId)).sort((a, b) => a.voter_id!.localeCompare(b.voter_id!));
    expect(pat.vote_history).toEqual([{ ...P2022, party: "Democrat" }, G2020]);
    expect(lou.vote_history).toBeUndefined();
    expect(lou.state_voter_history).toBe(0);
    await runImport(
      m,
      [
        {
          voter_id: "OH1",
          first_name: "Pat",
          last_name: "Kim",
          state_voter_history: 3,
          vote_history: [G2020, { ...P2022, party: "Democrat" }, G2022],
        },
      ],
      { matchRule: "standard", updateExisting: true },
    );
    const after = (await voters(t, m.orgId)).find((v) => v.voter_id === "OH1")!;
    expect(after.vote_history?.map((r) => r.election)).toEqual([G2022.election, P2022.election, G2020.election]);
    expect(after.state_voter_history).toBe(3);
  });

  test("a vote-history file attaches elections by voter ID; unknown IDs are errors, known records duplicates", async () => {
    const t = setupTest();
    const m = await createMember(t, ["campaign_manager"]);
    await runImport(
      m,
      [
        { voter_id: "AA1", first_name: "Kay", last_name: "One" },
        { voter_id: "AA2", first_name: "Lee", last_name: "Two" },
      ],
      { matchRule: "standard" },
    );
    const cols = ["voter_id", "__election_label__", "__election_name__"];
    const hist = (id: string, e: typeof G2020, method?: string) => ({
      first_name: "",
      last_name: "",
      voter_id: id,
      vote_history: [{ ...e, ...(method ? { method } : {}) }],
    });
    const first = await runImport(
      m,
      [
        hist("AA1", G2020, "Absentee"),
        hist("AA1", G2022),
        hist("AA1", P2024),
        hist("AA2", G2024, "Early"),
        hist("ZZ9", G2024),
      ],
      {
        kind: "history",
        columns: cols,
        updateExisting: true,
      },
    );
    expect(first.doc).toMatchObject({
      kind: "history",
      imported_records: 4,
      updated_records: 2,
      failed_records: 1,
      duplicate_records: 0,
    });
    const errors = await m.as.query(api.imports.outcomes, { importId: first.importId, kind: "error" });
    expect(errors).toEqual([expect.objectContaining({ row: 6, message: "No voter with voter ID ZZ9" })]);
    const kay = (await voters(t, m.orgId)).find((v) => v.voter_id === "AA1")!;
    expect(kay.vote_history).toEqual([P2024, G2022, { ...G2020, method: "Absentee" }]);
    // the organisation's four most recent elections: G2024, P2024, G2022, G2020 → Kay voted in 3
    expect(kay.state_voter_history).toBe(3);
    const again = await runImport(m, [hist("AA1", G2022), hist("AA2", G2024)], {
      kind: "history",
      columns: cols,
      updateExisting: true,
    });
    expect(again.doc).toMatchObject({ imported_records: 0, duplicate_records: 2, updated_records: 0 });
    const changes = await t.run(async (ctx) =>
      ctx.db
        .query("voterChanges")
        .withIndex("by_voter", (q) => q.eq("voterId", kay._id))
        .collect(),
    );
    expect(changes.map((c) => c.changes[0])).toEqual([
      { field: "vote_history", from: "0 elections", to: "3 elections" },
    ]);
  });

  test("a vote-history import needs the voter ID column; a voter import needs the names", async () => {
    const t = setupTest();
    const m = await createMember(t, ["campaign_manager"]);
    await expect(runImport(m, [], { kind: "history", columns: ["__election_label__"] })).rejects.toThrow(
      /map the voter ID column/,
    );
    await expect(runImport(m, [], { columns: ["voter_id"] })).rejects.toThrow(/First Name, Last Name/);
  });
});

test("an election list with an overlong name is refused before anything is stored", async () => {
  const t = setupTest();
  const m = await createMember(t, ["campaign_manager"]);
  await expect(runImport(m, [], { elections: [{ election: "G".repeat(201) }] })).rejects.toThrow(/too long/);
  expect(await t.run(async (ctx) => ctx.db.query("electionCatalog").collect())).toEqual([]);
});
