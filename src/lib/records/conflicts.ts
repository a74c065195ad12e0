import { ConvexError } from "convex/values";
import type { AppErrorData, ConflictDetail } from "@convex/lib/errors";

/** The fields a save was refused for (CONFLICT), or null for any other error. */
export function conflictsOf(error: unknown): ConflictDetail[] | null {
  if (!(error instanceof ConvexError)) return null;
  const data = error.data as Partial<AppErrorData> | undefined;
  return data?.code === "CONFLICT" && Array.isArray(data.conflicts) ? data.conflicts : null;
}
