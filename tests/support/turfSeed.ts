/**
 * Doors for turf tests and benchmarks: voters at the synthetic county's houses, placed where the
 * houses are (as the geocoder would), their doors kept by model/doors.ts.
 */
import type { GenericMutationCtx } from "convex/server";
import type { DataModel, Id } from "@convex/_generated/dataModel";
import { syncVoterDoor } from "@convex/model/doors";
import type { SyntheticHouse } from "./syntheticCounty";

export type SeedVoter = {
  house: Pick<SyntheticHouse, "number" | "fullName" | "zip" | "lat" | "lng">;
  unit?: string;
  first?: string;
  party?: string;
  status?: string;
  phone?: string;
  votedIn?: string[];
  /** the voter file's precinct code (a district by code) */
  precinct?: string;
};

export function houseAddress(h: SeedVoter["house"], unit?: string): string {
  return `${h.number} ${h.fullName}${unit ? ` Apt ${unit}` : ""}, Springfield, IL ${h.zip}`;
}

/**
 * Writes voters and their places in one transaction; `doors`: also put each on their door (else a
 * door build gathers them later).
 */
export async function seedVoters(
  ctx: GenericMutationCtx<DataModel>,
  orgId: Id<"organizations">,
  voters: SeedVoter[],
  { doors = true }: { doors?: boolean } = {},
): Promise<Id<"voters">[]> {
  const ids: Id<"voters">[] = [];
  for (const [i, s] of voters.entries()) {
    const first = s.first ?? `Voter${i}`;
    const address = houseAddress(s.house, s.unit);
    const voterId = await ctx.db.insert("voters", {
      orgId,
      first_name: first,
      last_name: "Walker",
      address,
      city: "Springfield",
      state: "IL",
      zip: s.house.zip,
      party_affiliation: s.party,
      precinct: s.precinct,
      status: s.status,
      phone: s.phone,
      phoneKey: s.phone,
      vote_history: s.votedIn?.map((election) => ({ election })),
      searchText: `${first.toLowerCase()} walker`,
      firstNameLower: first.toLowerCase(),
      lastNameLower: "walker",
      updatedAt: Date.now(),
    });
    const voter = (await ctx.db.get(voterId))!;
    const place = { address, quality: "exact range" as const, lat: s.house.lat, lng: s.house.lng };
    await ctx.db.insert("voterPlaces", {
      orgId,
      voterId,
      layerId: null,
      at: Date.now(),
      voterAt: voter._creationTime,
      ...place,
    });
    if (doors) await syncVoterDoor(ctx, orgId, voterId, null, place);
    ids.push(voterId);
  }
  return ids;
}
