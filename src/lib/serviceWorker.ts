/**
 * The service worker of the canvasser's installable app (vite.config.ts: precache of the built app,
 * runtime caches of a list's map). Registered by the field app's pages, and kept up to date on any
 * page it already controls; production builds only (`npm run dev` has none). A newer version
 * installs in the background and takes over once the app's pages are closed.
 */
import { Workbox } from "workbox-window";

let registering: Promise<ServiceWorkerRegistration | undefined> | null = null;

/** Registers /sw.js once per page load; resolves with the registration (undefined where there is none). */
export function registerServiceWorker(): Promise<ServiceWorkerRegistration | undefined> {
  if (registering) return registering;
  if (!import.meta.env.PROD || typeof navigator === "undefined" || !("serviceWorker" in navigator))
    return (registering = Promise.resolve(undefined));
  registering = new Workbox("/sw.js", { scope: "/" }).register().catch(() => undefined);
  return registering;
}

/** Whether this page is already served by the service worker (an earlier visit to the field app installed it). */
export function hasServiceWorker(): boolean {
  return typeof navigator !== "undefined" && !!navigator.serviceWorker?.controller;
}
