/**
 * Five synthetic boundary layers over one county's box (issue 37's tests and bench): precincts
 * (VTD, a grid), state house (SLDL), state senate (SLDU), congressional (CD) and the county
 * (COUNTY), each district a rectangle with a TIGER/Line-style GEOID and name, and points drawn
 * inside a district (never on an edge) for voters placed on the map.
 */
import type { BoundaryRow } from "@convex/lib/geo/rows";

export type BBox = [number, number, number, number];
export type TigerBoundaryLayer = "VTD" | "SLDL" | "SLDU" | "CD" | "COUNTY";

export type GridLayer = {
  tigerLayer: TigerBoundaryLayer;
  name: string;
  columns: number;
  rows: number;
  boundaries: BoundaryRow[];
};

/** Near Springfield, IL (the synthetic county's corner, tests/support/syntheticCounty.ts). */
export const COUNTY_BOX: BBox = [-89.7, 39.7, -89.5, 39.85];

const GRID: Record<TigerBoundaryLayer, [number, number]> = {
  VTD: [6, 5],
  SLDL: [3, 2],
  SLDU: [2, 1],
  CD: [1, 2],
  COUNTY: [1, 1],
};

function geoid(layer: TigerBoundaryLayer, n: number): string {
  switch (layer) {
    case "VTD":
      return `17167${String(n * 10).padStart(6, "0")}`;
    case "SLDL":
      return `17${String(90 + n).padStart(3, "0")}`;
    case "SLDU":
      return `17${String(40 + n).padStart(3, "0")}`;
    case "CD":
      return `17${String(12 + n).padStart(2, "0")}`;
    case "COUNTY":
      return "17167";
  }
}

function nameOf(layer: TigerBoundaryLayer, n: number): string {
  switch (layer) {
    case "VTD":
      return `Springfield ${n}`;
    case "SLDL":
      return `State House District ${90 + n}`;
    case "SLDU":
      return `State Senate District ${40 + n}`;
    case "CD":
      return `Congressional District ${12 + n}`;
    case "COUNTY":
      return "Sangamon";
  }
}

/** One layer: a grid of rectangles over the box, numbered row by row from the south-west. */
export function gridLayer(layer: TigerBoundaryLayer, box: BBox = COUNTY_BOX): GridLayer {
  const [columns, rows] = GRID[layer];
  const [w, s, e, n] = box;
  const dx = (e - w) / columns;
  const dy = (n - s) / rows;
  const boundaries: BoundaryRow[] = [];
  let k = 0;
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < columns; c++) {
      k++;
      const [x0, y0, x1, y1] = [w + c * dx, s + r * dy, w + (c + 1) * dx, s + (r + 1) * dy];
      const ring = [
        [x0, y0],
        [x0, y1],
        [x1, y1],
        [x1, y0],
        [x0, y0],
      ];
      boundaries.push({
        name: nameOf(layer, k),
        code: geoid(layer, k),
        bbox: [x0, y0, x1, y1],
        geometry: JSON.stringify({ type: "Polygon", coordinates: [ring] }),
      });
    }
  return { tigerLayer: layer, name: `Synthetic ${layer}`, columns, rows, boundaries };
}

export const FIVE_LAYERS: TigerBoundaryLayer[] = ["VTD", "SLDL", "SLDU", "CD", "COUNTY"];

/** A point well inside one boundary of a layer (a fraction of the way across it, 0.1–0.9). */
export function pointIn(b: BoundaryRow, fx = 0.5, fy = 0.5): { lng: number; lat: number } {
  const [x0, y0, x1, y1] = b.bbox;
  const t = (f: number) => 0.1 + 0.8 * Math.min(1, Math.max(0, f));
  return { lng: x0 + (x1 - x0) * t(fx), lat: y0 + (y1 - y0) * t(fy) };
}

/** A GeoJSON FeatureCollection of a layer (what a file upload brings; e2e and bench). */
export function layerGeoJson(layer: GridLayer): string {
  return JSON.stringify({
    type: "FeatureCollection",
    features: layer.boundaries.map((b) => ({
      type: "Feature",
      geometry: JSON.parse(b.geometry),
      properties: { NAME: b.name, GEOID: b.code },
    })),
  });
}
