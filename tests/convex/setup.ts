/** Function-test setup on the official convex-test package (vitest project `convex`). */
import { convexTest } from "convex-test";
import schema from "@convex/schema";

import type { FixtureMember } from "./fixtures";

export { createMember, roleFixture } from "./fixtures";

export const modules = import.meta.glob("../../convex/**/*.*s");

export function setupTest() {
  return convexTest(schema, modules);
}

export type TestConvex = ReturnType<typeof setupTest>;
export type Member = FixtureMember<TestConvex>;
