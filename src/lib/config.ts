/** Build-time configuration of the web app (Vite env). */
export const CONVEX_URL: string = import.meta.env.VITE_CONVEX_URL ?? "http://127.0.0.1:3210";
/** The site URL of the backend (http actions: /api/errors). Convex cloud: *.convex.site. */
export const CONVEX_SITE_URL: string =
  import.meta.env.VITE_CONVEX_SITE_URL ??
  CONVEX_URL.replace(/\.convex\.cloud$/, ".convex.site").replace(/:(\d+)$/, (_, p: string) => `:${Number(p) + 1}`);
export const CLERK_PUBLISHABLE_KEY: string | undefined = import.meta.env.VITE_CLERK_PUBLISHABLE_KEY || undefined;
