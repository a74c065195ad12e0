import { useMutation } from "convex/react";
import type { FunctionReturnType } from "convex/server";
import { useState } from "react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { isAppError } from "@/ui/toast";

/** Explicit selections go in batches of 10 (spec/1 §9); "all matching" in server pages of 500. */
const SELECTION_BATCH = 10;
const MATCHING_PAGE = 500;

export type AddResult = FunctionReturnType<typeof api.groups.addMembers>;
type Filter = { search?: string; party?: string; status?: string; statusCode?: string };

export function useAddToGroup() {
  const addMembers = useMutation(api.groups.addMembers);
  const addMatching = useMutation(api.groups.addMatching);
  const [progress, setProgress] = useState<{ done: number; total: number | null } | null>(null);

  const addSelected = async (groupId: Id<"voterGroups">, voterIds: Id<"voters">[]): Promise<AddResult> => {
    const result: AddResult = { added: 0, duplicates: 0, failed: 0 };
    setProgress({ done: 0, total: voterIds.length });
    try {
      for (let i = 0; i < voterIds.length; i += SELECTION_BATCH) {
        const batch = voterIds.slice(i, i + SELECTION_BATCH);
        try {
          const r = await addMembers({ groupId, voterIds: batch });
          result.added += r.added;
          result.duplicates += r.duplicates;
          result.failed += r.failed;
        } catch (e) {
          // the app's own refusals are counted, not logged; anything else is logged for the developer
          if (!isAppError(e)) console.error("Adding a batch to the group failed", e);
          result.failed += batch.length;
        }
        setProgress({ done: Math.min(voterIds.length, i + SELECTION_BATCH), total: voterIds.length });
      }
      return result;
    } finally {
      setProgress(null);
    }
  };

  /** Adds every voter matching the filter, one server page per call; the browser holds none. */
  const addAllMatching = async (
    groupId: Id<"voterGroups">,
    filter: Filter,
    total: number | null,
  ): Promise<AddResult> => {
    const result: AddResult = { added: 0, duplicates: 0, failed: 0 };
    let cursor: string | null = null;
    let done = 0;
    setProgress({ done: 0, total });
    try {
      for (;;) {
        const r: FunctionReturnType<typeof api.groups.addMatching> = await addMatching({
          groupId,
          ...filter,
          cursor,
          numItems: MATCHING_PAGE,
        });
        result.added += r.added;
        result.duplicates += r.duplicates;
        done += r.processed;
        setProgress({ done, total });
        if (r.isDone) break;
        cursor = r.continueCursor;
      }
      return result;
    } finally {
      setProgress(null);
    }
  };

  const percent = progress && progress.total ? Math.round((progress.done / progress.total) * 100) : null;
  return { addSelected, addAllMatching, progress, percent };
}
