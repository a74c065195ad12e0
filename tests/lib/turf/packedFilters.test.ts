/** The turf filters over packed doors (convex/lib/turf/packedFilters.ts) agree with the filters on voters. */
import { describe, expect, test } from "vitest";
import { packedMatcher, packVoters, TagDictionary, type FilterVoter } from "@convex/lib/turf/packedFilters";
import type { TurfFilters } from "@convex/tables/walkLists";

const PARTIES = ["Democrat", "Republican", "", "Green Party"];
const STATUSES = ["Active", "Inactive", ""];
const ELECTIONS = ["2024 General", "2022 Primary", "Municipal, 2023", "a.b c"];

function voterOf(k: number): FilterVoter {
  return {
    party: PARTIES[k % PARTIES.length],
    status: STATUSES[(k >> 2) % STATUSES.length],
    optedOut: k % 7 === 0,
    votes: ELECTIONS.filter((_, e) => (k >> e) % 3 === 0),
  };
}

/** The filters applied to the voters themselves (as model/turf.ts applyFilters does). */
function direct(voters: FilterVoter[], f: TurfFilters): number {
  return voters.filter(
    (v) =>
      (!f.parties?.length || f.parties.includes(v.party)) &&
      (!f.statuses?.length || f.statuses.includes(v.status)) &&
      (!f.excludeOptedOut || !v.optedOut) &&
      (f.votedIn === undefined || v.votes.includes(f.votedIn)),
  ).length;
}

describe("packed turf filters", () => {
  test("every combination of filters counts a door's matching voters as the voters themselves do", () => {
    const dict = new TagDictionary();
    const doors = Array.from({ length: 60 }, (_, d) =>
      Array.from({ length: (d % 4) + 1 }, (_, j) => voterOf(d * 5 + j)),
    );
    const tags = doors.map((voters) => packVoters(voters, dict));
    const cases: TurfFilters[] = [
      {},
      { parties: ["Democrat"] },
      { parties: ["", "Green Party"] },
      { statuses: ["Inactive"] },
      { excludeOptedOut: true },
      { votedIn: "Municipal, 2023" },
      { votedIn: "a.b c", parties: ["Republican"], statuses: ["Active"], excludeOptedOut: true },
      { votedIn: "Never held" },
      { parties: ["Libertarian"] },
    ];
    let nonZero = 0;
    for (const f of cases) {
      const match = packedMatcher(f, dict.words);
      doors.forEach((voters, i) => {
        const n = match(tags[i], 0);
        expect(n).toBe(direct(voters, f));
        if (n > 0) nonZero++;
      });
    }
    expect(nonZero).toBeGreaterThan(100);
  });

  test("not contacted since leaves out doors talked to from that time; a door without voters never matches", () => {
    const dict = new TagDictionary();
    const tag = packVoters([voterOf(1), voterOf(2)], dict);
    const match = packedMatcher({ notContactedSince: 1_000 }, dict.words);
    expect(match(tag, 0)).toBe(2);
    expect(match(tag, 999)).toBe(2);
    expect(match(tag, 1_000)).toBe(0);
    expect(match("", 0)).toBe(0);
  });
});
