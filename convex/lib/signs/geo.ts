/**
 * Map geometry shared by the server (sign storage and the map's viewport query) and the browser:
 * Web Mercator tiles and quadkeys (a tile's quadkey is the prefix of every quadkey inside it, so
 * "the signs in this tile" is one index range), the aggregation levels, and the map constants of
 * spec/3 §9.4.
 */

/** spec/3 §2.6, §9.4 */
export const MAP_CENTER = { lat: 45.5051, lng: -122.675 } as const;
export const MAP_ZOOM = 12;

/** Quadkey depth stored on each sign (≈ 150 m tiles at the equator; exact filtering uses lat/lng). */
export const SIGN_QUAD_LEVEL = 18;
/** Signs are counted per tile at every level 0..MAX_CELL_LEVEL (level 0 is the organisation's totals). */
export const MAX_CELL_LEVEL = 16;
/** A viewport with at most this many signs loads them one by one; above it, per-tile counts. */
export const POINTS_LIMIT = 1_500;
/** At most this many tiles cover one viewport query (a coarser level is used beyond it). */
export const MAX_COVER_TILES = 48;
/** Cells shown instead of points are this many levels finer than the viewport's zoom (≈ 32 px). */
export const CELL_DETAIL = 3;

const MAX_LAT = 85.05112878;

export type Bounds = { south: number; west: number; north: number; east: number };
export type Tile = { x: number; y: number; z: number };

const clampLat = (lat: number) => Math.max(-MAX_LAT, Math.min(MAX_LAT, lat));

/** The tile holding a point at level z. */
export function tileOf(lat: number, lng: number, z: number): Tile {
  const n = 2 ** z;
  const rad = (clampLat(lat) * Math.PI) / 180;
  const x = Math.floor(((lng + 180) / 360) * n);
  const y = Math.floor(((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * n);
  return { x: Math.min(n - 1, Math.max(0, x)), y: Math.min(n - 1, Math.max(0, y)), z };
}

/** The quadkey of a tile ("" at level 0; one digit 0–3 per level). */
export function tileKey({ x, y, z }: Tile): string {
  let key = "";
  for (let i = z; i > 0; i--) {
    const mask = 1 << (i - 1);
    key += String((x & mask ? 1 : 0) + (y & mask ? 2 : 0));
  }
  return key;
}

export function quadkey(lat: number, lng: number, z: number = SIGN_QUAD_LEVEL): string {
  return tileKey(tileOf(lat, lng, z));
}

/** The tile a quadkey names. */
export function keyTile(key: string): Tile {
  let x = 0;
  let y = 0;
  for (const ch of key) {
    const d = Number(ch);
    x = x * 2 + (d & 1);
    y = y * 2 + (d >> 1);
  }
  return { x, y, z: key.length };
}

/** The geographic bounds of a tile. */
export function tileBounds({ x, y, z }: Tile): Bounds {
  const n = 2 ** z;
  const lat = (row: number) => (Math.atan(Math.sinh(Math.PI * (1 - (2 * row) / n))) * 180) / Math.PI;
  return { west: (x / n) * 360 - 180, east: ((x + 1) / n) * 360 - 180, north: lat(y), south: lat(y + 1) };
}

/** The upper end (exclusive) of the quadkey range of everything inside `prefix`. */
export function keyRangeEnd(prefix: string): string {
  return `${prefix}4`;
}

/**
 * The tiles covering `bounds`, at the finest level ≤ `z` where at most MAX_COVER_TILES do
 * (longitudes are clamped to one world: the map does not wrap).
 */
export function coveringTiles(bounds: Bounds, z: number): Tile[] {
  const west = Math.max(-180, Math.min(180, bounds.west));
  const east = Math.max(-180, Math.min(180, bounds.east));
  for (let level = Math.max(0, Math.min(MAX_CELL_LEVEL, Math.floor(z))); level >= 0; level--) {
    const nw = tileOf(bounds.north, west, level);
    const se = tileOf(bounds.south, east, level);
    const count = (se.x - nw.x + 1) * (se.y - nw.y + 1);
    if (count > MAX_COVER_TILES && level > 0) continue;
    const tiles: Tile[] = [];
    for (let x = nw.x; x <= se.x; x++) for (let y = nw.y; y <= se.y; y++) tiles.push({ x, y, z: level });
    return tiles;
  }
  return [{ x: 0, y: 0, z: 0 }];
}

export function inBounds(b: Bounds, lat: number, lng: number): boolean {
  return lat >= b.south && lat <= b.north && lng >= b.west && lng <= b.east;
}

export function validBounds(b: Bounds): boolean {
  const finite = [b.south, b.west, b.north, b.east].every(Number.isFinite);
  return finite && b.south <= b.north && b.west <= b.east && b.south >= -90 && b.north <= 90;
}

/** Latitude and longitude a sign may hold. */
export function validPoint(lat: number, lng: number): boolean {
  return Number.isFinite(lat) && Number.isFinite(lng) && lat >= -90 && lat <= 90 && lng >= -180 && lng <= 180;
}

/** The five-digit ZIP code at the end of an address ("… OR 97205" or "97205-1234"), if any. */
export function zipOf(address: string): string | null {
  const m = /\b(\d{5})(?:-\d{4})?\s*(?:,?\s*(?:USA|US|United States))?\s*$/i.exec(address.trim());
  return m ? m[1] : null;
}
