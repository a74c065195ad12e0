/**
 * The turf filters over packed doors (issue 37): what the filters ask of a door's voters (party,
 * status, opted out, elections voted in) kept per grid-cell document as short strings of indices
 * into the document's dictionary, so a live count or an auto-cut applies the filters to tens of
 * thousands of doors without reading a voter. A door's tag lists its voters separated by spaces,
 * each as "party.status.optedOut.votes" (votes: indices joined by commas, possibly none).
 */
import type { TurfFilters } from "../../tables/walkLists";

/** A voter as the filters see them. */
export type FilterVoter = { party: string; status: string; optedOut: boolean; votes: string[] };

/** The strings a document's tags point into, each once. */
export class TagDictionary {
  readonly words: string[] = [];
  private readonly at = new Map<string, number>();

  index(word: string): number {
    let i = this.at.get(word);
    if (i === undefined) {
      i = this.words.length;
      this.words.push(word);
      this.at.set(word, i);
    }
    return i;
  }
}

/** A door's voters, packed. */
export function packVoters(voters: FilterVoter[], dict: TagDictionary): string {
  return voters
    .map((v) => {
      const votes = [...new Set(v.votes)].map((e) => dict.index(e)).join(",");
      return `${dict.index(v.party)}.${dict.index(v.status)}.${v.optedOut ? 1 : 0}.${votes}`;
    })
    .join(" ");
}

/** Whether any filter asks about the voters themselves (not only the door's last contact). */
export function hasVoterFilters(f: TurfFilters): boolean {
  return !!(f.parties?.length || f.statuses?.length || f.votedIn || f.excludeOptedOut);
}

/**
 * How many of a door's voters the filters keep, from its tag and last contact (0: the door is
 * left out), for one document's dictionary.
 */
export function packedMatcher(filters: TurfFilters, dict: string[]): (tag: string, contacted: number) => number {
  const indicesOf = (words: string[] | undefined) => {
    if (!words?.length) return null;
    const wanted = new Set(words);
    const out = new Set<string>();
    dict.forEach((w, i) => {
      if (wanted.has(w)) out.add(String(i));
    });
    return out;
  };
  const parties = indicesOf(filters.parties);
  const statuses = indicesOf(filters.statuses);
  const votedIn = filters.votedIn === undefined ? null : String(dict.indexOf(filters.votedIn));
  const since = filters.notContactedSince;
  return (tag, contacted) => {
    if (since && contacted > 0 && contacted >= since) return 0;
    if (!tag) return 0;
    let n = 0;
    for (const voter of tag.split(" ")) {
      const [p, s, o, votes] = voter.split(".");
      if (parties && !parties.has(p)) continue;
      if (statuses && !statuses.has(s)) continue;
      if (filters.excludeOptedOut && o === "1") continue;
      if (votedIn !== null && (votedIn === "-1" || !votes.split(",").includes(votedIn))) continue;
      n++;
    }
    return n;
  };
}
