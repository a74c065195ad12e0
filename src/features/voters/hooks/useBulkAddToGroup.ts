import { useMutation, useQuery } from "convex/react";
import { useState } from "react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";

/** Explicit selections go in batches of 10 (spec/1 §9); "all matching" in server pages of 500. */
const SELECTION_BATCH = 10;
const MATCHING_PAGE = 500;

export type BulkAddResult = { added: number; duplicates: number; failed: number };
type Filter = { search?: string; party?: string; status?: string; statusCode?: string };

/**
 * Adds the list's selection to a group: ticked voters in batches, or every voter matching the
 * filter one server page per call (the browser never holds them), with progress.
 */
export function useBulkAddToGroup(open: boolean) {
  const groups = useQuery(api.groups.list, open ? {} : "skip");
  const addMembers = useMutation(api.groups.addMembers);
  const addMatching = useMutation(api.groups.addMatching);
  const [done, setDone] = useState<number | null>(null);

  const addSelected = async (groupId: Id<"voterGroups">, voterIds: Id<"voters">[]): Promise<BulkAddResult> => {
    const result: BulkAddResult = { added: 0, duplicates: 0, failed: 0 };
    setDone(0);
    try {
      for (let i = 0; i < voterIds.length; i += SELECTION_BATCH) {
        const batch = voterIds.slice(i, i + SELECTION_BATCH);
        const r = await addMembers({ groupId, voterIds: batch });
        result.added += r.added;
        result.duplicates += r.duplicates;
        result.failed += r.failed;
        setDone(Math.min(voterIds.length, i + SELECTION_BATCH));
      }
      return result;
    } finally {
      setDone(null);
    }
  };

  const addAllMatching = async (groupId: Id<"voterGroups">, filter: Filter): Promise<BulkAddResult> => {
    const result: BulkAddResult = { added: 0, duplicates: 0, failed: 0 };
    let cursor: string | null = null;
    let processed = 0;
    setDone(0);
    try {
      for (;;) {
        const r: { added: number; duplicates: number; processed: number; isDone: boolean; continueCursor: string } = await addMatching({
          groupId,
          ...filter,
          cursor,
          numItems: MATCHING_PAGE,
        });
        result.added += r.added;
        result.duplicates += r.duplicates;
        processed += r.processed;
        setDone(processed);
        if (r.isDone) return result;
        cursor = r.continueCursor;
      }
    } finally {
      setDone(null);
    }
  };

  return { groups, addSelected, addAllMatching, done, busy: done !== null };
}
