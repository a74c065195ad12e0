/**
 * Towns and cities for the offline basemap's labels: the centre of each place's ZIP codes
 * (`zipcodes`), weighted by how many it has, biggest first. Computed off the main thread: the
 * ZIP table is large and parsing it would hold up the map.
 */
import { codes } from "zipcodes";

export type Place = { name: string; lat: number; lng: number; weight: number };

/** Unique ZIP codes of businesses and agencies ("Consumers Nat Bank") are not places. */
const NOT_A_PLACE =
  /\b(bank of|nat bank|natl|national bank|corp|co|inc|insurance|ins co|brm|irs|usps|dept|department|services?|svc|company|mail|postal|bureau)$|\b(bank|inc|corp|co) /i;

const byPlace = new Map<string, { lat: number; lng: number; n: number }>();
for (const z of Object.values(codes)) {
  if (z.country !== "US" || !Number.isFinite(z.latitude) || NOT_A_PLACE.test(z.city)) continue;
  const key = `${z.city}|${z.state}`;
  const p = byPlace.get(key) ?? { lat: 0, lng: 0, n: 0 };
  p.lat += z.latitude;
  p.lng += z.longitude;
  p.n += 1;
  byPlace.set(key, p);
}
const places: Place[] = [...byPlace]
  .map(([key, p]) => ({ name: key.split("|")[0], lat: p.lat / p.n, lng: p.lng / p.n, weight: p.n }))
  .sort((a, b) => b.weight - a.weight);
postMessage(places);
