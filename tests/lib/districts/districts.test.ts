/**
 * The pure rules of districts (convex/lib/districts.ts): codes from voter-file columns, keys from
 * codes and names (GEOIDs answer to their local codes), membership (code first, polygon fills,
 * disagreements kept), and tallies summed before they are written.
 */
import { describe, expect, test } from "vitest";
import {
  DistrictDeltas,
  addToLookup,
  boundaryCodes,
  boundaryKey,
  codeKey,
  codesDiffer,
  districtOfCode,
  emptyLookup,
  membership,
  mergeCells,
  mergeTurnout,
  parseDistrictFilter,
  districtFilter,
  sameMembership,
  voterCodes,
} from "@convex/lib/districts";

describe("codes", () => {
  test("NC and Ohio columns name their kinds; the voter's precinct comes first; blanks are no code", () => {
    expect(
      voterCodes({
        precinct: "01-07",
        custom_fields: {
          cong_dist_abbrv: "2",
          nc_house_abbrv: "034",
          nc_senate_abbrv: "16",
          county_desc: "WAKE",
          municipality_desc: "RALEIGH",
          ward_abbrv: " ",
          precinct_abbrv: "99",
        },
      }),
    ).toEqual({ precinct: "01-07", congress: "2", house: "034", senate: "16", county: "WAKE", city: "RALEIGH" });
    expect(
      voterCodes({
        custom_fields: {
          CONGRESSIONAL_DISTRICT: "13",
          STATE_REPRESENTATIVE_DISTRICT: "37",
          STATE_SENATE_DISTRICT: "27",
          WARD: "3",
          PRECINCT_CODE: "AAB",
        },
      }),
    ).toEqual({ precinct: "AAB", congress: "13", house: "37", senate: "27", ward: "3" });
    expect(voterCodes({})).toEqual({});
    expect(codesDiffer({ precinct: "1" }, { precinct: "1", custom_fields: { notes: "x" } })).toBe(false);
    expect(codesDiffer({ precinct: "1" }, { precinct: "1", custom_fields: { cong_dist_abbrv: "2" } })).toBe(true);
  });

  test("keys: leading zeros and case do not matter; a GEOID answers to its local code; a nameless code is its name", () => {
    expect(codeKey(" 037 ")).toBe("37");
    expect(codeKey("01-07")).toBe("01-07");
    expect(codeKey("aab  1")).toBe("AAB 1");
    expect(boundaryCodes("precinct", "17167000010")).toEqual(["17167000010", "10"]);
    expect(boundaryCodes("house", "17037")).toEqual(["17037", "37"]);
    expect(boundaryCodes("ward", "17037")).toEqual(["17037"]);
    expect(boundaryKey(null, "Ward 3")).toBe("~ward 3");
    const lookup = emptyLookup();
    addToLookup(lookup, "precinct", boundaryKey("17167000010", "Springfield 1"), "17167000010", "Springfield 1");
    addToLookup(lookup, "county", boundaryKey("17167", "Sangamon"), "17167", "Sangamon");
    expect(districtOfCode(lookup.precinct, "010")).toBe("17167000010");
    expect(districtOfCode(lookup.precinct, "SPRINGFIELD 1")).toBe("17167000010");
    expect(districtOfCode(lookup.precinct, "11")).toBe("11");
    expect(districtOfCode(lookup.county, "SANGAMON COUNTY")).toBe("17167");
  });

  test("the voter list's filter carries kind and key (a key may hold colons); others are refused", () => {
    expect(parseDistrictFilter(districtFilter("ward", "~a:b"))).toEqual({ kind: "ward", key: "~a:b" });
    expect(parseDistrictFilter("nowhere:1")).toBeNull();
    expect(parseDistrictFilter("precinct:")).toBeNull();
    expect(parseDistrictFilter(undefined)).toBeNull();
  });
});

describe("membership and tallies", () => {
  test("code first, polygon fills a kind without a code, a disagreement names the polygon's district", () => {
    const m = membership({ precinct: "1", county: "C" }, { precinct: "2", house: "H", county: "C" });
    expect(m).toEqual({
      districts: { precinct: "1", house: "H", county: "C" },
      mapped: [{ kind: "precinct", key: "2" }],
    });
    expect(membership({ precinct: "1" }, null)).toEqual({ districts: { precinct: "1" }, mapped: [] });
    expect(
      sameMembership(m, membership({ precinct: "1", county: "C" }, { precinct: "2", house: "H", county: "C" })),
    ).toBe(true);
    expect(sameMembership(m, membership({ precinct: "1", county: "C" }, { house: "H", county: "C" }))).toBe(false);
  });

  test("deltas sum voters, party × status cells, turnout once per election, and disagreements on both sides", () => {
    const d = new DistrictDeltas();
    const m = membership({ precinct: "1" }, { precinct: "2" });
    const voter = {
      party_affiliation: "Democrat",
      status: "Active",
      vote_history: [{ election: "2024 General" }, { election: "2024 General", date: "2024-11-05" }],
    };
    d.add(voter, m, 1);
    d.add({ ...voter, party_affiliation: "Republican" }, membership({ precinct: "1" }, null), 1);
    d.add(voter, membership({ precinct: "1" }, null), -1);
    const one = d.byDistrict.get("precinct\u00001")!;
    expect(one).toMatchObject({ voters: 1, mappedElsewhere: 1, codedElsewhere: 0 });
    expect(mergeCells([{ party: "Democrat", status: "Active", count: 4 }], one.cells)).toEqual([
      { party: "Democrat", status: "Active", count: 4 },
      { party: "Republican", status: "Active", count: 1 },
    ]);
    expect(mergeTurnout([{ election: "2024 General", voted: 1 }], one.turnout)).toEqual([
      { election: "2024 General", voted: 2 },
    ]);
    expect(d.byDistrict.get("precinct\u00002")).toMatchObject({ voters: 0, codedElsewhere: 1 });
    expect(mergeTurnout([{ election: "x", voted: 1 }], new Map([["x", -1]]))).toEqual([]);
  });
});
