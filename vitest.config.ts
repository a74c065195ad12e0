import { defineConfig } from "vitest/config";

// Three kinds of tests: Convex functions on convex-test (edge runtime), the embedded backend and
// pure libraries on Node, React components in jsdom.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "convex",
          include: ["tests/convex/**/*.test.ts"],
          environment: "edge-runtime",
          server: { deps: { inline: ["convex-test"] } },
        },
      },
      {
        test: {
          name: "node",
          include: ["tests/local-backend/**/*.test.ts", "tests/lib/**/*.test.ts"],
          environment: "node",
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: "forks",
        },
      },
      {
        test: {
          name: "web",
          include: ["tests/src/**/*.test.{ts,tsx}"],
          environment: "jsdom",
        },
      },
    ],
  },
});
