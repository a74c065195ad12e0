/** How the Districts page names districts and links to their voters (pure). */
import { DISTRICT_KIND_SINGULAR, type DistrictKind } from "@convex/lib/districts";
import { ROUTES } from "@/lib/routes";

/** "Springfield 1" stays; a bare code gets its kind ("State House 34"). */
export function districtTitle(kind: DistrictKind, name: string): string {
  return /^[\d\s.-]+$/.test(name) || name.length <= 3 ? `${DISTRICT_KIND_SINGULAR[kind]} ${name}` : name;
}

/** The voter list filtered by a district, carrying the name it shows. */
export function districtVotersPath(filter: string, name: string): string {
  const q = new URLSearchParams({ district: filter, districtName: name });
  return `${ROUTES.voters}?${q.toString()}`;
}

export function percent(part: number, whole: number): string {
  return whole > 0 ? `${((part / whole) * 100).toFixed(1)}%` : "—";
}
