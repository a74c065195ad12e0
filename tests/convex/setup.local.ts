/**
 * Function-test setup on local-backend (vitest project `convex-local`, which maps the tests'
 * `./setup` import here): the same exports as setup.ts, with `setupTest()` returning a
 * local-backend instance (tests/support/localBackendTest.ts) instead of a convex-test one.
 */
import type { DataModel } from "@convex/_generated/dataModel";
import { localBackendTest } from "../support/localBackendTest";

import type { FixtureMember } from "./fixtures";

export { createMember, roleFixture } from "./fixtures";

export const modules = import.meta.glob("../../convex/**/*.*s");

export function setupTest() {
  return localBackendTest<DataModel>();
}

export type TestConvex = ReturnType<typeof setupTest>;
export type Member = FixtureMember<TestConvex>;
