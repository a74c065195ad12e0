/**
 * What the service worker caches at run time for the field app (vite.config.ts hands these to
 * Workbox's generateSW), and the key scheme the page uses to fill the same caches itself when a
 * list is opened (turfStreets.ts). Stored files (the streets layer's drawing copy, a PMTiles
 * basemap) are read by byte range and never change, so each range read is kept under its own
 * key: the file's URL with the range as a query parameter. A partial response (206) cannot be
 * put in Cache Storage: it is kept as a 200 carrying its range in a header, and handed back as
 * the 206 the reader expects.
 *
 * The plugin's functions are copied into the service worker as text (workbox-build serialises
 * them): each must stand alone, using only its arguments and the platform's globals.
 */

/** Cache Storage names (one per kind of content, each with its own limits). */
export const STORAGE_CACHE = "precinct-storage-ranges";
export const TILE_CACHE = "precinct-map-tiles";
export const ASSET_CACHE = "precinct-assets";

type KeyArgs = { request: Request };
type UpdateArgs = { response: Response };
type CachedArgs = { cachedResponse?: Response | null };

/** The Workbox plugin of the stored-files route: one cache entry per (file, byte range). */
export const storageRangePlugin = {
  cacheKeyWillBeUsed: async ({ request }: KeyArgs): Promise<string> => {
    const range = request.headers.get("range");
    if (!range) return request.url;
    const url = new URL(request.url);
    url.searchParams.set("precinct-range", range.replace(/\s+/g, ""));
    return url.href;
  },
  cacheWillUpdate: async ({ response }: UpdateArgs): Promise<Response | null> => {
    if (response.status === 200) return response;
    if (response.status !== 206) return null;
    const headers = new Headers(response.headers);
    headers.set("x-precinct-partial", response.headers.get("content-range") ?? "bytes");
    return new Response(await response.blob(), { status: 200, statusText: "OK", headers });
  },
  cachedResponseWillBeUsed: async ({ cachedResponse }: CachedArgs): Promise<Response | null> => {
    if (!cachedResponse) return null;
    const partial = cachedResponse.headers.get("x-precinct-partial");
    if (partial === null) return cachedResponse;
    const headers = new Headers(cachedResponse.headers);
    headers.delete("x-precinct-partial");
    if (partial.includes("/")) headers.set("content-range", partial);
    return new Response(await cachedResponse.blob(), { status: 206, statusText: "Partial Content", headers });
  },
};

/** Requests the stored-files route answers: GETs of a Convex storage URL (not the upload endpoint). */
export const isStoredFile = ({ url, request }: { url: URL; request: Request }): boolean =>
  request.method === "GET" &&
  url.pathname.startsWith("/api/storage/") &&
  !url.pathname.startsWith("/api/storage/upload");

/**
 * Raster map tiles of the organisation's tile source (any origin): an image whose path ends in
 * z/x/y, kept as the map shows them so the turf's view opens offline.
 */
export const isMapTile = ({ url, request }: { url: URL; request: Request }): boolean =>
  request.destination === "image" && /\/\d{1,2}\/\d+\/\d+(@2x)?(\.(png|jpe?g|webp))?$/i.test(url.pathname);

/** The app's own hashed build files the precache leaves out (too large for it): kept once loaded. */
export const isBuildAsset = ({ url, sameOrigin }: { url: URL; sameOrigin: boolean }): boolean =>
  sameOrigin && url.pathname.startsWith("/assets/");
