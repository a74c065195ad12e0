/**
 * Saving a form over a shared record (lib/records/useMergedForm): the one way every such form
 * saves. Refused while a teammate's conflicting change is unsettled on the form; `busy` while the
 * save runs; when the server refuses fields a teammate changed meanwhile, their values come back
 * as conflicts on the form ("Edit conflict"); any other failure is shown under the caller's title
 * (or handled by the caller).
 */
import { useCallback, useState } from "react";
import type { ConflictDetail } from "@convex/lib/errors";
import { conflictValues, UNSETTLED_CONFLICTS } from "@/lib/records/conflicts";
import type { MergeState } from "@/lib/records/mergeForm";
import { toast } from "@/ui/toast";

type MergedForm = { form: MergeState | null; addConflicts(theirs: Record<string, string>): void };

/** What a failed save shows: a title (with the error's message), or the caller's own handling. */
export type SaveFailure = string | ((error: unknown) => void);

export function useMergedSave(merged: MergedForm, toForm?: (c: ConflictDetail) => [string, string]) {
  const [busy, setBusy] = useState(false);
  const { form, addConflicts } = merged;
  const save = useCallback(
    async (run: () => Promise<void>, failure: SaveFailure): Promise<boolean> => {
      if (!form) return false;
      if (Object.keys(form.conflicts).length > 0) {
        toast.error("Edit conflict", { description: UNSETTLED_CONFLICTS });
        return false;
      }
      setBusy(true);
      try {
        await run();
        return true;
      } catch (e) {
        const conflicts = conflictValues(e, toForm);
        if (conflicts) {
          addConflicts(conflicts);
          toast.failure("Edit conflict", e);
        } else if (typeof failure === "string") toast.failure(failure, e);
        else failure(e);
        return false;
      } finally {
        setBusy(false);
      }
    },
    [form, addConflicts, toForm],
  );
  return { busy, save };
}
