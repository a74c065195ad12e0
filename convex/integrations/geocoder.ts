/**
 * The optional address geocoder (GEOCODER_URL, a Nominatim-style search that answers
 * `[{ lat, lon }]`): the one provider call of the signs map. Without one the browser places a sign
 * by its ZIP code. Called by `signs.geocode`.
 */
import { appError } from "../lib/errors";

/** The first place the geocoder finds for `address`; null when it finds nothing. */
export async function geocodeAddress(address: string): Promise<{ lat: number; lng: number } | null> {
  const base = process.env.GEOCODER_URL;
  if (!base) throw appError("VALIDATION_ERROR", "No geocoder is configured.", "Geocoder unavailable");
  const q = address.trim();
  if (q === "" || q.length > 300) throw appError("VALIDATION_ERROR", "Please enter an address.");
  const url = new URL(base);
  url.searchParams.set("q", q);
  url.searchParams.set("format", "json");
  url.searchParams.set("limit", "1");
  const res = await fetch(url, { headers: { accept: "application/json" }, signal: AbortSignal.timeout(8_000) });
  if (!res.ok) throw appError("SERVER_ERROR", `The geocoder answered ${res.status}.`, "Address lookup failed");
  const body = (await res.json()) as unknown;
  const first = Array.isArray(body) ? (body[0] as { lat?: unknown; lon?: unknown } | undefined) : undefined;
  const lat = Number(first?.lat);
  const lng = Number(first?.lon);
  return first && Number.isFinite(lat) && Number.isFinite(lng) && Math.abs(lat) <= 90 && Math.abs(lng) <= 180
    ? { lat, lng }
    : null;
}
