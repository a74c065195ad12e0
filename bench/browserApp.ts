/**
 * The app's production build in Chromium, signed in, for benchmarks that time what a person sees
 * (bench:signs, bench:geo): builds with the backend's URLs, serves the build, and opens a context
 * whose storage already holds the session's tokens (Convex Auth's keys).
 */
import path from "node:path";
import { chromium, type Browser, type BrowserContext } from "@playwright/test";
import { build, preview } from "vite";

export type BrowserApp = { origin: string; browser: Browser; context: BrowserContext; close(): Promise<void> };

export async function openBrowserApp(opts: {
  root: string;
  outDir: string;
  port: number;
  backend: { cloudUrl: string; siteUrl: string };
  tokens: { token: string; refreshToken: string };
}): Promise<BrowserApp> {
  process.env.VITE_CONVEX_URL = opts.backend.cloudUrl;
  process.env.VITE_CONVEX_SITE_URL = opts.backend.siteUrl;
  await build({ root: opts.root, logLevel: "warn", mode: "production", build: { outDir: opts.outDir } });
  const web = await preview({
    root: opts.root,
    build: { outDir: opts.outDir },
    preview: { port: opts.port, host: "127.0.0.1", strictPort: true },
    logLevel: "warn",
  });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const namespace = opts.backend.cloudUrl.replace(/[^a-zA-Z0-9]/g, "");
  await context.addInitScript(
    ([ns, jwt, refresh]) => {
      localStorage.setItem(`__convexAuthJWT_${ns}`, jwt);
      localStorage.setItem(`__convexAuthRefreshToken_${ns}`, refresh);
    },
    [namespace, opts.tokens.token, opts.tokens.refreshToken],
  );
  return {
    origin: `http://127.0.0.1:${opts.port}`,
    browser,
    context,
    close: async () => {
      await browser.close();
      await new Promise<void>((r) => web.httpServer.close(() => r()));
    },
  };
}

export const outDirIn = (dir: string) => path.join(dir, "web");
