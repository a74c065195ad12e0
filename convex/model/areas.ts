/**
 * Which area a placed voter is in, from the organisation's boundary layers (Map data): a
 * petition's county check uses the COUNTY layer when the voter file has no county column. A voter
 * placed no better than its ZIP's centre is not judged by the map.
 */
import type { Id } from "../_generated/dataModel";
import type { QueryCtx } from "../_generated/server";
import { areaKey, inArea } from "../lib/geo/areas";
import type { BoundaryGeometry } from "../lib/geo/tiger";

type Db = QueryCtx["db"];

/** What a voter outside the named county is said to be registered in. */
export const ANOTHER_COUNTY = "another county (by the map)";

/**
 * For each voter placed on the streets: the county's name when the voter lies in `county`'s
 * polygon, ANOTHER_COUNTY when not. Voters not placed (or the county not on the map) are left out.
 */
export async function countiesFromMap(
  db: Db,
  orgId: Id<"organizations">,
  county: string,
  voterIds: Id<"voters">[],
): Promise<Map<Id<"voters">, string>> {
  const out = new Map<Id<"voters">, string>();
  if (voterIds.length === 0) return out;
  const area = await db
    .query("boundaries")
    .withIndex("by_org_layer_key", (q) => q.eq("orgId", orgId).eq("layer", "COUNTY").eq("key", areaKey(county)))
    .first();
  if (!area) return out;
  const geometry = JSON.parse(area.geometry) as BoundaryGeometry;
  const [w, s, e, n] = area.bbox;
  for (const voterId of voterIds) {
    const place = await db
      .query("voterPlaces")
      .withIndex("by_voter", (q) => q.eq("voterId", voterId))
      .unique();
    if (!place || place.lat === null || place.lng === null) continue;
    if (place.quality === "zip centroid" || place.quality === "failed") continue;
    const inside =
      place.lng >= w && place.lng <= e && place.lat >= s && place.lat <= n && inArea([place.lng, place.lat], geometry);
    out.set(voterId, inside ? area.name : ANOTHER_COUNTY);
  }
  return out;
}
