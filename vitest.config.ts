import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { aliases } from "./vite.config";

/**
 * The embedded backend's bundles of convex/ (written under its data dir's cache/) are imported by
 * Node itself, as in production: through vitest's module runner every engine start transformed
 * them again, and a reload could outlive the test file's environment ("after the environment was
 * torn down").
 */
const nativeBundles = { deps: { external: [/\/cache\/build-\d+-\d+-\d+\//] } };

/** The app's import aliases (`@/`, `@convex/`), for every project that may load src/. */
const appAlias = Object.entries(aliases).map(([find, replacement]) => ({ find, replacement }));

// Three kinds of tests: Convex functions on convex-test (edge runtime) and on local-backend (Node),
// the embedded backend and pure libraries on Node, React components in jsdom.
export default defineConfig({
  test: {
    // every core (vitest's default leaves one free for a watching editor: on 2 cores, one file at a time)
    maxWorkers: availableParallelism(),
    projects: [
      {
        resolve: { alias: appAlias },
        test: {
          name: "convex",
          include: ["tests/convex/**/*.test.ts", "tests/security/functions/*.test.ts"],
          environment: "edge-runtime",
          server: { deps: { inline: ["convex-test"] } },
          // vitest's 5 s default sat near what a test with an env change and three actions takes
          // while the other projects load both cores (2.7 s in one CI run)
          testTimeout: 30_000,
        },
      },
      {
        // The same function tests on local-backend (DESIGN.md §2: fidelity is proven on both).
        resolve: {
          alias: [
            {
              find: /^\.\/setup$/,
              replacement: fileURLToPath(new URL("./tests/convex/setup.local.ts", import.meta.url)),
            },
            ...appAlias,
          ],
        },
        test: {
          name: "convex-local",
          include: ["tests/convex/**/*.test.ts", "tests/security/functions/*.test.ts"],
          environment: "node",
          server: nativeBundles,
          pool: "forks",
          // files share their process and its engine (tests/support/localBackendTest.ts): an
          // engine's start bundles and imports convex/, which cost 7 s per file
          isolate: false,
          setupFiles: ["tests/support/localBackendSetup.ts"],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        resolve: { alias: appAlias },
        test: {
          name: "node",
          include: [
            "tests/local-backend/**/*.test.ts",
            "tests/lib/**/*.test.ts",
            "tests/scripts/**/*.test.ts",
            "tests/security/lib/*.test.ts",
            "tests/security/backend/**/*.test.ts",
          ],
          environment: "node",
          server: nativeBundles,
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
