import react from "@vitejs/plugin-react";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";
import { VitePWA } from "vite-plugin-pwa";
import {
  ASSET_CACHE,
  isBuildAsset,
  isMapTile,
  isStoredFile,
  STORAGE_CACHE,
  storageRangePlugin,
  TILE_CACHE,
} from "./src/features/canvass/utils/offlineCaches.js";

/** `@/` is src/, `@convex/` is convex/ (tsconfig.json paths; vitest.config.ts uses the same). */
export const aliases = {
  "@/": fileURLToPath(new URL("./src/", import.meta.url)),
  "@convex/": fileURLToPath(new URL("./convex/", import.meta.url)),
};

const DAY_S = 24 * 60 * 60;
/** Build files up to this size are precached. */
const PRECACHE_MAX_BYTES = 2 * 1024 * 1024;

/**
 * The canvasser's installable app (issue 38): a manifest that opens /canvass standalone, and a
 * service worker (production builds only; `npm run dev` has none) that precaches the built app so
 * the field app opens offline, and keeps at run time what a list's map reads (the streets' and
 * basemap's byte ranges, raster tiles) and the build files too large for the precache. It is
 * registered by the field app's pages (src/lib/serviceWorker.ts), not by every page.
 */
const pwa = VitePWA({
  strategies: "generateSW",
  injectRegister: false,
  registerType: "prompt",
  includeAssets: ["favicon.svg", "apple-touch-icon.png"],
  manifest: {
    id: "/canvass",
    name: "Precinct",
    short_name: "Precinct",
    description: "Canvass your walk lists door by door, with or without a connection.",
    start_url: "/canvass",
    scope: "/",
    display: "standalone",
    orientation: "portrait",
    theme_color: "#3e63dd",
    background_color: "#ffffff",
    icons: [
      { src: "/pwa-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
      { src: "/pwa-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
      { src: "/pwa-maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
    ],
  },
  workbox: {
    globPatterns: ["**/*.{js,css,html,svg,png,webmanifest}"],
    // the largest build files (the ZIP code table, the signs map's place names) are not the field
    // app's: left out of the precache on purpose (kept by the assets route once a page loads them)
    maximumFileSizeToCacheInBytes: 16 * 1024 * 1024,
    manifestTransforms: [
      async (entries) => ({ manifest: entries.filter((e) => e.size <= PRECACHE_MAX_BYTES), warnings: [] }),
    ],
    navigateFallback: "/index.html",
    navigateFallbackDenylist: [/^\/api\//],
    cleanupOutdatedCaches: true,
    // the first install takes the page that registered it (its map's reads are kept from then on);
    // a newer version waits until the app's pages are closed, so a page never mixes two builds
    clientsClaim: true,
    skipWaiting: false,
    runtimeCaching: [
      {
        urlPattern: isStoredFile,
        handler: "CacheFirst",
        options: {
          cacheName: STORAGE_CACHE,
          expiration: { maxEntries: 400, maxAgeSeconds: 60 * DAY_S },
          plugins: [storageRangePlugin],
        },
      },
      {
        urlPattern: isMapTile,
        handler: "CacheFirst",
        options: {
          cacheName: TILE_CACHE,
          expiration: { maxEntries: 1500, maxAgeSeconds: 30 * DAY_S },
          cacheableResponse: { statuses: [0, 200] },
        },
      },
      {
        urlPattern: isBuildAsset,
        handler: "CacheFirst",
        options: {
          cacheName: ASSET_CACHE,
          expiration: { maxEntries: 60, maxAgeSeconds: 60 * DAY_S },
          cacheableResponse: { statuses: [200] },
        },
      },
    ],
  },
  devOptions: { enabled: false },
});

export default defineConfig({
  plugins: [react(), pwa],
  resolve: { alias: Object.entries(aliases).map(([find, replacement]) => ({ find, replacement })) },
  server: { host: "127.0.0.1", port: 5173, strictPort: true },
  preview: { host: "127.0.0.1", port: 4173, strictPort: true },
  build: { chunkSizeWarningLimit: 1500 },
  // module workers (`new Worker(url, { type: "module" })`), bundled as ES like the app: in the default
  // iife format a CommonJS dependency's `typeof require` check (parse-address) stays unresolved
  worker: { format: "es" },
});
