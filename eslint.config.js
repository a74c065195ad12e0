import convexPlugin from "@convex-dev/eslint-plugin";
import layering from "./eslint-rules/layering.js";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

const builderImportRule = {
  "no-restricted-imports": [
    "error",
    {
      patterns: [
        {
          group: ["**/_generated/server", "**/_generated/server.js"],
          importNames: [
            "query",
            "mutation",
            "action",
            "internalQuery",
            "internalMutation",
            "internalAction",
            "httpAction",
          ],
          message:
            "Build functions with the wrappers in convex/functions.ts: they resolve the organisation and role and check a permission before the first read.",
        },
      ],
    },
  ],
};

export default tseslint.config(
  {
    ignores: [
      "dist/**",
      "node_modules/**",
      "convex/_generated/**",
      ".precinct-data/**",
      "test-results/**",
      "playwright-report/**",
      "tests/local-backend/fixture/**",
      "**/*.js",
      "**/*.mjs",
    ],
  },
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      // Convex values and JSON from the wire are typed at the edges with validators/zod.
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-return": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/require-await": "off",
      // Props and context types declare callbacks in method syntax; React never rebinds them.
      "@typescript-eslint/unbound-method": "off",
      "@typescript-eslint/only-throw-error": "off",
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { attributes: false } }],
    },
  },
  ...convexPlugin.configs.recommended,
  {
    files: ["convex/**/*.ts"],
    rules: {
      ...builderImportRule,
      // Deployment configuration (provider keys, SITE_URL) is read from the Convex environment.
      "@convex-dev/no-process-env": "off",
      // db.get/patch/replace/delete name their table: the tenant wrapper (convex-helpers rowLevelSecurity)
      // otherwise finds an id's table by trying normalizeId on every table of the schema, per call
      "@convex-dev/explicit-table-ids": "error",
    },
  },
  {
    files: ["convex/functions.ts"],
    rules: { "no-restricted-imports": "off" },
  },
  {
    // One area, one layout (ARCHITECTURE.md): every Convex call of an area lives in its hooks/.
    files: ["src/features/**/*.{ts,tsx}"],
    ignores: ["src/features/**/hooks/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            {
              name: "convex/react",
              message:
                "Components and pages never call Convex themselves: put the call in a data hook in this area's hooks/ folder (one per use case, returning a named object; ARCHITECTURE.md \"One area, one layout\"), so an area's queries and mutations stay in one place and tests can mock them. Only the shared plumbing outside features/ (app/ providers and shell, session/, lib/ collaboration and presence, ui/ shared pickers and uploads) imports convex/react directly.",
            },
          ],
        },
      ],
    },
  },
  {
    // Which part of the tree may import which (eslint-rules/layering.js, ARCHITECTURE.md).
    files: ["src/**/*.{ts,tsx}", "convex/**/*.ts", "local-backend/**/*.ts"],
    plugins: { precinct: layering },
    rules: { "precinct/layering": "error" },
  },
  {
    files: ["src/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "warn",
    },
  },
);
