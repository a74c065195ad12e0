/**
 * voterNameKeys in memory, read as the server reads the table (lib/petitions/retrieve.ts
 * NameKeySource): the same rows (lib/petitions/names.ts voterKeys), in index order, each range cut
 * at its `take`. The labelled set's recall is then the server's, not an imitation's.
 */
import type { VoterRecord } from "@convex/lib/petitions/match";
import { voterKeys } from "@convex/lib/petitions/names";
import { candidateIds, type KeyRow, type NameKeySource } from "@convex/lib/petitions/retrieve";

type Row = KeyRow & { lastNameKey: string; zip?: string; house?: string; street?: string };

export function memoryKeySource(voters: VoterRecord[]): NameKeySource {
  const rows: Row[] = voters.map((v) => ({
    voterId: v.id,
    ...voterKeys({
      first_name: v.first_name,
      last_name: v.last_name,
      zip: v.zip,
      address: v.address,
      street: v.street,
    }),
  }));
  const group = (key: (r: Row) => string | undefined) => {
    const m = new Map<string, Row[]>();
    for (const r of rows) {
      const k = key(r);
      if (k === undefined) continue;
      m.set(k, [...(m.get(k) ?? []), r]);
    }
    return m;
  };
  const byLast = group((r) => r.lastNameKey);
  // index order: by first-name key within a last-name key (insertion order breaks ties, as _creationTime does)
  for (const list of byLast.values())
    list.sort((a, b) => (a.firstNameKey < b.firstNameKey ? -1 : a.firstNameKey > b.firstNameKey ? 1 : 0));
  const byHouse = group((r) => (r.house && r.street ? `${r.house}|${r.street}` : undefined));
  return {
    byName: async (lastKey, first, take) =>
      (byLast.get(lastKey) ?? [])
        .filter(
          (r) =>
            first === null || ("eq" in first ? r.firstNameKey === first.eq : r.firstNameKey.startsWith(first.prefix)),
        )
        .slice(0, take),
    byLastZip: async (lastKey, zip, take) => (byLast.get(lastKey) ?? []).filter((r) => r.zip === zip).slice(0, take),
    byHousehold: async (house, street, take) => (byHouse.get(`${house}|${street}`) ?? []).slice(0, take),
  };
}

/** The voters the server would fetch for a line. */
export async function retrieve(
  source: NameKeySource,
  byId: Map<string, VoterRecord>,
  name: string,
  address: string,
): Promise<VoterRecord[]> {
  return (await candidateIds(source, name, address)).map((id) => byId.get(id)!);
}
