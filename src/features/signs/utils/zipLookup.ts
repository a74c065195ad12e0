/**
 * ZIP code → rough coordinates, offline (`zipcodes`, loaded on first use: its table is large).
 * Places a sign near its address when nobody clicked the map.
 */
import { zipOf } from "@convex/lib/signs/geo";

export async function zipCoordinates(address: string): Promise<{ zip: string; lat: number; lng: number } | null> {
  const zip = zipOf(address);
  if (!zip) return null;
  const { lookup } = await import("zipcodes");
  const hit = lookup(zip);
  return hit && Number.isFinite(hit.latitude) && Number.isFinite(hit.longitude)
    ? { zip, lat: hit.latitude, lng: hit.longitude }
    : null;
}
