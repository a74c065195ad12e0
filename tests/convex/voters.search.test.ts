/**
 * The voter search: phone (by digits, however typed), city, precinct, voter ID, names and email,
 * every term required (the search index only proposes candidates), on both backends.
 */
import { describe, expect, test } from "vitest";
import { api, internal } from "@convex/_generated/api";
import { matchesSearch, searchTerms } from "@convex/model/voterSearch";
import { voterSearchText } from "@convex/model/voters";
import { roleFixture, setupTest } from "./setup";

const page = { paginationOpts: { numItems: 50, cursor: null } };
type Row = { first_name: string; last_name: string };
const names = (rows: Row[]) => rows.map((v) => `${v.first_name} ${v.last_name}`).sort();

async function fixture() {
  const t = setupTest();
  const f = await roleFixture(t);
  await t.mutation(internal.seed.insertVoters, {
    orgId: f.orgId,
    voters: [
      {
        first_name: "Ada",
        last_name: "Lovelace",
        email: "ada@example.com",
        phone: "(919) 555-0142",
        city: "Raleigh",
        precinct: "P-017",
        voter_id: "NC000123456",
      },
      {
        first_name: "Ada",
        last_name: "Byron",
        email: "byron@example.net",
        phone: "+1 704 555 0199",
        city: "Charlotte",
        precinct: "P-018",
      },
      { first_name: "Grace", last_name: "Lovelace", email: "grace@navy.mil", city: "New Bern", status_code: "R" },
      { first_name: "Alan", last_name: "Turing", email: "alan@example.com.au", city: "Durham" },
    ],
  });
  await t.mutation(internal.seed.insertVoters, {
    orgId: f.outsider.orgId,
    voters: [{ first_name: "Ada", last_name: "Elsewhere", phone: "(919) 555-0142" }],
  });
  // the embedded backend's search index tokenises on punctuation as Convex does; convex-test splits on spaces only
  return { t, f, embedded: "setEnv" in t };
}

describe("search terms and matching (pure)", () => {
  test("a phone typed with punctuation becomes its digits; other terms are words", () => {
    expect(searchTerms("(919) 555-0142")).toEqual(["9195550142"]);
    expect(searchTerms("919.555.0142")).toEqual(["9195550142"]);
    expect(searchTerms("+1 919 555 0142")).toEqual(["9195550142"]);
    expect(searchTerms("555-0142")).toEqual(["5550142"]);
    expect(searchTerms("9195550142")).toEqual(["9195550142"]);
    // not a phone: a dashed ID keeps its dash; two short numbers stay two terms
    expect(searchTerms("12-345678")).toEqual(["12-345678"]);
    expect(searchTerms("12 34")).toEqual(["12", "34"]);
    expect(searchTerms('  Ada,  "Lovelace"  ')).toEqual(["ada", "lovelace"]);
    expect(searchTerms("   ")).toEqual([]);
  });

  test("every term must start a word of the search text; only the last may be unfinished", () => {
    const text = voterSearchText({
      first_name: "Ada",
      last_name: "Lovelace",
      email: "x@example.com",
      phone: "(919) 555-0142",
      city: "New Bern",
      precinct: "P-017",
      voter_id: "NC1",
    });
    expect(matchesSearch(text, ["ada", "love"])).toBe(true);
    expect(matchesSearch(text, ["ad", "lovelace"])).toBe(false);
    expect(matchesSearch(text, ["example.com"])).toBe(true);
    expect(matchesSearch(text, ["example.net"])).toBe(false);
    expect(matchesSearch(text, ["ample"])).toBe(false);
    expect(matchesSearch(text, ["new", "bern"])).toBe(true);
    expect(matchesSearch(text, ["p-017"])).toBe(true);
    expect(matchesSearch(text, ["9195550142"])).toBe(true);
    expect(matchesSearch(text, ["@example.com"])).toBe(true);
    expect(matchesSearch(text, [])).toBe(true);
  });
});

describe("voters.list search (voters.view)", () => {
  test("phone by digits however typed, city, precinct, voter ID, names, email", async () => {
    const { f } = await fixture();
    const find = async (search: string) =>
      names((await f.volunteer.as.query(api.voters.list, { ...page, search })).page);
    for (const typed of ["(919) 555-0142", "9195550142", "919-555-0142", "+1 (919) 555-0142", "919555"]) {
      expect(await find(typed), typed).toEqual(["Ada Lovelace"]);
    }
    expect(await find("704-555-0199")).toEqual(["Ada Byron"]);
    expect(await find("raleigh")).toEqual(["Ada Lovelace"]);
    expect(await find("new bern")).toEqual(["Grace Lovelace"]);
    expect(await find("p-018")).toEqual(["Ada Byron"]);
    expect(await find("nc000123456")).toEqual(["Ada Lovelace"]);
    expect(await find("lovelace")).toEqual(["Ada Lovelace", "Grace Lovelace"]);
    expect(await find("ada love")).toEqual(["Ada Lovelace"]);
    expect(await find("ADA")).toEqual(["Ada Byron", "Ada Lovelace"]);
    expect(await find("grace@navy.mil")).toEqual(["Grace Lovelace"]);
    expect(await find("ada durham")).toEqual([]);
    // quick search follows the same rules
    expect(names(await f.viewer.as.query(api.voters.quickSearch, { term: "(919) 555-0142" }))).toEqual([
      "Ada Lovelace",
    ]);
    expect(names(await f.viewer.as.query(api.voters.quickSearch, { term: "ada love" }))).toEqual(["Ada Lovelace"]);
  });

  test("an email domain matches that domain only", async () => {
    const { f, embedded } = await fixture();
    const find = async (search: string) => names((await f.viewer.as.query(api.voters.list, { ...page, search })).page);
    const com = await find("example.com");
    expect(com).not.toContain("Ada Byron");
    // convex-test proposes no candidate for a domain (its words are split on spaces only)
    if (embedded) expect(com).toEqual(["Ada Lovelace", "Alan Turing"]);
    const net = await find("example.net");
    expect(net).not.toContain("Ada Lovelace");
    if (embedded) expect(net).toEqual(["Ada Byron"]);
    expect(await find("example.org")).toEqual([]);
  });

  test.skipIf(
    !matchesSearch(voterSearchText({ first_name: "a", last_name: "b", phone: "(919) 555-0142" }), ["5550142"]),
  )("a 7-digit local number finds the voter (needs the local number in the stored search text)", async () => {
    const { f } = await fixture();
    expect(names((await f.viewer.as.query(api.voters.list, { ...page, search: "555-0142" })).page)).toEqual([
      "Ada Lovelace",
    ]);
  });

  test("other organisation and signed out", async () => {
    const { t, f } = await fixture();
    expect(names((await f.outsider.as.query(api.voters.list, { ...page, search: "(919) 555-0142" })).page)).toEqual([
      "Ada Elsewhere",
    ]);
    expect(names((await f.outsider.as.query(api.voters.list, { ...page, search: "raleigh" })).page)).toEqual([]);
    await expect(t.query(api.voters.list, { ...page, search: "ada" })).rejects.toThrow(/log in/);
    await expect(f.account_admin.as.query(api.voters.list, { ...page, search: "ada" })).rejects.toThrow(/permission/);
  });
});
