import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { aliases } from "./vite.config";

/** The app's import aliases (`@/`, `@convex/`), for every project that may load src/. */
const appAlias = Object.entries(aliases).map(([find, replacement]) => ({ find, replacement }));

// Three kinds of tests: Convex functions on convex-test (edge runtime) and on local-backend (Node),
// the embedded backend and pure libraries on Node, React components in jsdom.
export default defineConfig({
  test: {
    projects: [
      {
        resolve: { alias: appAlias },
        test: {
          name: "convex",
          include: ["tests/convex/**/*.test.ts", "tests/security/functions/*.test.ts"],
          environment: "edge-runtime",
          server: { deps: { inline: ["convex-test"] } },
        },
      },
      {
        // The same function tests on local-backend (DESIGN.md §2: fidelity is proven on both).
        resolve: {
          alias: [{ find: /^\.\/setup$/, replacement: fileURLToPath(new URL("./tests/convex/setup.local.ts", import.meta.url)) }, ...appAlias],
        },
        test: {
          name: "convex-local",
          include: ["tests/convex/**/*.test.ts", "tests/security/functions/*.test.ts"],
          environment: "node",
          pool: "forks",
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        resolve: { alias: appAlias },
        test: {
          name: "node",
          include: ["tests/local-backend/**/*.test.ts", "tests/lib/**/*.test.ts", "tests/security/lib/*.test.ts", "tests/security/backend/**/*.test.ts"],
          environment: "node",
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: "forks",
        },
      },
      {
        resolve: { alias: appAlias },
        test: {
          name: "web",
          include: ["tests/src/**/*.test.{ts,tsx}"],
          environment: "jsdom",
        },
      },
    ],
  },
});
