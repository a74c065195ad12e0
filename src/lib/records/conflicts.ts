import { ConvexError } from "convex/values";
import type { AppErrorData, ConflictDetail } from "@convex/lib/errors";

/** The fields a save was refused for (CONFLICT), or null for any other error. */
export function conflictsOf(error: unknown): ConflictDetail[] | null {
  if (!(error instanceof ConvexError)) return null;
  const data = error.data as Partial<AppErrorData> | undefined;
  return data?.code === "CONFLICT" && Array.isArray(data.conflicts) ? data.conflicts : null;
}

/** What a save says while inline conflicts are still unsettled. */
export const UNSETTLED_CONFLICTS =
  "A teammate changed fields you edited. Choose Keep mine or Take theirs for each of them, then save.";

/** A refused save's conflicts as form values (field → their value as text), or null for any other error. */
export function conflictValues(
  error: unknown,
  toForm: (c: ConflictDetail) => [string, string] = (c) => [c.field, c.theirs === null ? "" : String(c.theirs)],
): Record<string, string> | null {
  const conflicts = conflictsOf(error);
  return conflicts ? Object.fromEntries(conflicts.map(toForm)) : null;
}
