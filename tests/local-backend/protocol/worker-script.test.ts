/**
 * The worker scripts (action pool, Node executor) are bundled once per process into a file named by
 * its content's hash: every start of the same code reuses one file instead of leaving a new one in
 * the temp folder (2,500 of them had piled up on a developer's machine).
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { bundleWorkerScript } from "../../../local-backend/src/node-executor";

describe("worker scripts", () => {
  it("are written once under a name given by their content", { timeout: 60_000 }, async () => {
    for (const entry of ["action-worker.ts", "node-executor-worker.ts"]) {
      const file = await bundleWorkerScript(entry);
      const name = path.basename(file);
      const [, hash] = /^local-backend-[a-z-]+-([0-9a-f]{16})\.mjs$/.exec(name) ?? [];
      expect(hash).toBeDefined();
      expect(createHash("sha256").update(readFileSync(file)).digest("hex").slice(0, 16)).toBe(hash);
      // asked again in this process: the same file
      expect(await bundleWorkerScript(entry)).toBe(file);
    }
  });
});
