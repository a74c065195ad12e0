/**
 * Areas of boundary layers (counties, precincts, districts) found by name and by point. The name
 * key lets a petition's "Multnomah County" find the COUNTY polygon named "Multnomah"; the point
 * test is turf's (rings and holes, MultiPolygons).
 */
import { booleanPointInPolygon } from "@turf/boolean-point-in-polygon";
import type { BoundaryGeometry, Position } from "./tiger";

/** "Multnomah County" = "multnomah" = "MULTNOMAH CO." = "St. Louis city" keeps "city". */
export function areaKey(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9 ]+/g, " ")
    .replace(/\b(county|co|parish|borough)\b/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** Whether a [lng, lat] point lies in an area's outline (on its edge counts as in). */
export function inArea(point: Position, geometry: BoundaryGeometry): boolean {
  return booleanPointInPolygon(point, geometry);
}
