/**
 * Function log lines as Convex prints them. Convex's runtime (queries, mutations, actions):
 * each argument inspected (strings quoted), no "%s" substitution, console.time / timeLog /
 * timeEnd as plain text (`[INFO] t: 3ms`, `[WARN] Timer 'missing' does not exist`), and no
 * console.count. Convex's node executor ("use node"): the same messages through util.inspect,
 * timer lines inspected too (`[INFO] 't: 3ms'`), other console methods discarded.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RawSyncClient, startFixture } from "./helpers";

let backend: Awaited<ReturnType<typeof startFixture>>;
let raw: RawSyncClient;

beforeAll(async () => {
  backend = await startFixture();
  raw = new RawSyncClient(backend.cloudUrl);
  await raw.opened;
  raw.connect();
});

afterAll(async () => {
  raw?.close();
  await backend?.stop();
});

async function logLines(
  type: "Mutation" | "Action",
  udfPath: string,
  requestId: number,
): Promise<{ lines: string[]; result: unknown }> {
  raw.send({ type, requestId, udfPath, args: [{}] });
  const r = await raw.next((m) => m.type === `${type}Response` && m.requestId === requestId);
  expect(r.success).toBe(true);
  return { lines: r.logLines as string[], result: r.result };
}

describe("function logs", () => {
  it("in Convex's runtime (a mutation)", async () => {
    const { lines, result } = await logLines("Mutation", "fidelityA:consoleFamily", 1);
    expect(result).toBe("undefined"); // no console.count in Convex's runtime
    expect(lines[0]).toBe("[LOG] '%s is %d' 'x' 1");
    expect(lines[1]).toMatch(/^\[INFO\] t: \d+ms 'extra'$/);
    expect(lines[2]).toMatch(/^\[INFO\] t: \d+ms$/);
    expect(lines[3]).toBe("[WARN] Timer 'missing' does not exist");
    expect(lines[4]).toBe("[WARN] Timer 'default' already exists");
    expect(lines[5]).toBe("[INFO] 'done'");
    expect(lines).toHaveLength(6);
  });

  it("in an action of Convex's runtime", async () => {
    const { lines } = await logLines("Action", "fidelityA:consoleFamilyAction", 2);
    expect(lines[0]).toBe("[LOG] '%s is %d' 'x' 1");
    expect(lines[1]).toMatch(/^\[INFO\] t: \d+ms$/);
    expect(lines[2]).toBe("[WARN] Timer 'missing' does not exist");
    expect(lines).toHaveLength(3);
  });

  it("in a use-node action (Convex's node executor)", async () => {
    const { lines } = await logLines("Action", "fidelityNode:logs", 3);
    expect(lines[0]).toBe("[LOG] 'hello' { a: 1 }");
    expect(lines[1]).toBe("[LOG] '%s is %d' 'x' 1");
    expect(lines[2]).toMatch(/^\[INFO\] 't: \d+ms'$/);
    expect(lines[3]).toBe(`[WARN] "Timer 'missing' does not exist"`);
    expect(lines).toHaveLength(4); // console.count goes nowhere
  });
});
