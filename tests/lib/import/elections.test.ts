/** Vote history from state files: Ohio-style per-election columns and NC-style vote-history rows. */
import { describe, expect, test } from "vitest";
import { electionOfColumn, historyRecord, participation } from "@/lib/import/elections";
import {
  ELECTION_HISTORY,
  ELECTION_LABEL,
  ELECTION_NAME,
  isHistoryMapping,
  VOTED_PARTY,
  VOTING_METHOD,
} from "@/lib/import/fields";
import { autoMatch } from "@/lib/import/pairing";
import { compileMapping } from "@/lib/import/transform";
import { validateMapping } from "@/lib/import/validateMapping";

// An Ohio SOS layout (abridged): identity columns, then one column per election
const OHIO_HEADERS = [
  "SOS_VOTERID",
  "FIRST_NAME",
  "LAST_NAME",
  "DATE_OF_BIRTH",
  "VOTER_STATUS",
  "PARTY_AFFILIATION",
  "PRIMARY-03/15/2016",
  "GENERAL-11/08/2016",
  "SPECIAL-08/07/2018",
  "PRIMARY-05/03/2022",
  "GENERAL-11/08/2022",
];
const OHIO_ROWS = [
  ["OH0012345678", "ALICE", "WATTS", "1950-04-02", "ACTIVE", "D", "D", "X", "", "R", "X"],
  ["OH0012345679", "BEN", "ORTIZ", "1988-10-11", "CONFIRMATION", "", "", "", "", "", ""],
  ["OH0012345680", "CARA", "LIN", "1971-01-30", "ACTIVE", "R", "X", "X", "X", "", ""],
];

describe("election columns", () => {
  test("headers give label, date and type", () => {
    expect(electionOfColumn("GENERAL-11/08/2016")).toEqual({
      election: "GENERAL-11/08/2016",
      date: "2016-11-08",
      type: "General",
    });
    expect(electionOfColumn("PRIMARY-03/15/2016")).toEqual({
      election: "PRIMARY-03/15/2016",
      date: "2016-03-15",
      type: "Primary",
    });
    expect(electionOfColumn("SPECIAL-08/07/2018")).toMatchObject({ type: "Special", date: "2018-08-07" });
    expect(electionOfColumn("E1_2020_GENERAL")).toEqual({ election: "E1_2020_GENERAL", type: "General" });
    expect(electionOfColumn("municipal_runoff_20230606")).toMatchObject({ type: "Runoff", date: "2023-06-06" });
  });

  test("cells: blank is not voted; a primary's letter is the party ballot, X a non-partisan one; method codes", () => {
    const p = electionOfColumn("PRIMARY-05/03/2022");
    const g = electionOfColumn("GENERAL-11/08/2022");
    expect(participation(p, "")).toBeNull();
    expect(participation(p, "N")).toBeNull();
    expect(participation(p, "R")).toEqual({ ...p, party: "Republican" });
    expect(participation(p, "X")).toEqual(p);
    expect(participation(g, "X")).toEqual(g);
    expect(participation(g, "A")).toEqual({ ...g, method: "Absentee" });
    expect(participation(g, "EV")).toEqual({ ...g, method: "Early" });
  });

  test("an Ohio file: election columns map on upload, rows keep every election voted, raw codes beside the mapped ones", () => {
    const auto = autoMatch(OHIO_HEADERS, OHIO_ROWS);
    for (const h of OHIO_HEADERS.slice(6)) expect(auto[h]).toBe(ELECTION_HISTORY);
    // the special election's sample is blank for two of three voters: the header decides
    expect(auto["SPECIAL-08/07/2018"]).toBe(ELECTION_HISTORY);
    const mapping = {
      ...auto,
      SOS_VOTERID: "voter_id",
      FIRST_NAME: "first_name",
      LAST_NAME: "last_name",
      DATE_OF_BIRTH: "date_of_birth",
      VOTER_STATUS: "status",
      PARTY_AFFILIATION: "party_affiliation",
    };
    const { build, elections } = compileMapping(OHIO_HEADERS, mapping);
    expect(elections.map((e) => e.date)).toEqual([
      "2016-03-15",
      "2016-11-08",
      "2018-08-07",
      "2022-05-03",
      "2022-11-08",
    ]);
    const alice = build(OHIO_ROWS[0]);
    expect(alice).toMatchObject({
      voter_id: "OH0012345678",
      party_affiliation: "Democrat",
      party_code: "D",
      status: "Active",
      status_code: "ACTIVE",
      state_voter_history: 3,
    });
    expect(alice.vote_history).toEqual([
      { election: "PRIMARY-03/15/2016", date: "2016-03-15", type: "Primary", party: "Democrat" },
      { election: "GENERAL-11/08/2016", date: "2016-11-08", type: "General" },
      { election: "PRIMARY-05/03/2022", date: "2022-05-03", type: "Primary", party: "Republican" },
      { election: "GENERAL-11/08/2022", date: "2022-11-08", type: "General" },
    ]);
    const ben = build(OHIO_ROWS[1]);
    expect(ben.vote_history).toBeUndefined();
    expect(ben).toMatchObject({ state_voter_history: 0, status: "Inactive", status_code: "CONFIRMATION" });
  });
});

describe("vote-history files", () => {
  // NC SBOE ncvhis layout (abridged)
  const HEADERS = ["county_id", "ncid", "election_lbl", "election_desc", "voting_method", "voted_party_cd"];
  const ROWS = [
    ["92", "AA123456", "11/08/2022", "11/08/2022 GENERAL", "ABSENTEE ONESTOP", "DEM"],
    ["92", "AA123456", "05/17/2022", "05/17/2022 PRIMARY", "IN-PERSON", "REP"],
  ];
  const mapping = {
    county_id: "__ignore__",
    ncid: "voter_id",
    election_lbl: ELECTION_LABEL,
    election_desc: ELECTION_NAME,
    voting_method: VOTING_METHOD,
    voted_party_cd: VOTED_PARTY,
  };

  test("rows become one election each, keyed by the voter ID; the mapping needs the ID, not names", () => {
    expect(isHistoryMapping(mapping)).toBe(true);
    const { build } = compileMapping(HEADERS, mapping);
    expect(build(ROWS[0])).toEqual({
      first_name: "",
      last_name: "",
      voter_id: "AA123456",
      vote_history: [
        {
          election: "11/08/2022 GENERAL",
          date: "2022-11-08",
          type: "General",
          method: "Absentee Onestop",
          party: "Democrat",
        },
      ],
    });
    expect(build(ROWS[1]).vote_history).toEqual([
      { election: "05/17/2022 PRIMARY", date: "2022-05-17", type: "Primary", method: "In person", party: "Republican" },
    ]);
    expect(validateMapping(HEADERS, ROWS, mapping).isValid).toBe(true);
    expect(validateMapping(HEADERS, ROWS, { ...mapping, ncid: "__ignore__" }).issues).toContain(
      "Required field 'Voter ID' is not mapped",
    );
  });

  test("a row without an election is no record", () => {
    expect(historyRecord({ label: " ", name: "" })).toBeNull();
  });
});

test("an ncvhis file maps itself on upload: the voter ID and the four election columns", () => {
  const headers = [
    "county_id",
    "county_desc",
    "voter_reg_num",
    "election_lbl",
    "election_desc",
    "voting_method",
    "voted_party_cd",
    "voted_party_desc",
    "pct_label",
    "ncid",
  ];
  const rows = [
    [
      "92",
      "WAKE",
      "000012345",
      "11/08/2022",
      "11/08/2022 GENERAL",
      "ABSENTEE ONESTOP",
      "DEM",
      "DEMOCRATIC",
      "01-07",
      "AA123456",
    ],
  ];
  const m = autoMatch(headers, rows);
  expect(m).toMatchObject({
    ncid: "voter_id",
    election_lbl: ELECTION_LABEL,
    election_desc: ELECTION_NAME,
    voting_method: VOTING_METHOD,
    voted_party_cd: VOTED_PARTY,
  });
  expect(isHistoryMapping(m)).toBe(true);
});
