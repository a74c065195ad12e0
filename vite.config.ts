import react from "@vitejs/plugin-react";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

/** `@/` is src/, `@convex/` is convex/ (tsconfig.json paths; vitest.config.ts uses the same). */
export const aliases = {
  "@/": fileURLToPath(new URL("./src/", import.meta.url)),
  "@convex/": fileURLToPath(new URL("./convex/", import.meta.url)),
};

export default defineConfig({
  plugins: [react()],
  resolve: { alias: Object.entries(aliases).map(([find, replacement]) => ({ find, replacement })) },
  server: { host: "127.0.0.1", port: 5173, strictPort: true },
  preview: { host: "127.0.0.1", port: 4173, strictPort: true },
  build: { chunkSizeWarningLimit: 1500 },
  // module workers (`new Worker(url, { type: "module" })`), bundled as ES like the app: in the default
  // iife format a CommonJS dependency's `typeof require` check (parse-address) stays unresolved
  worker: { format: "es" },
});
