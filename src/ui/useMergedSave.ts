/**
 * Saving a form over a shared record (lib/records/useMergedForm): the one way every such form
 * saves. Refused while a teammate's conflicting change is unsettled on the form; `busy` while the
 * save runs; when the server refuses fields a teammate changed meanwhile, their values come back
 * as conflicts on the form ("Edit conflict", naming the fields by the form's labels); any other failure is shown under the caller's title
 * (or handled by the caller).
 */
import { useCallback, useState } from "react";
import type { ConflictDetail } from "@convex/lib/errors";
import { conflictsOf, conflictValues, UNSETTLED_CONFLICTS } from "@/lib/records/conflicts";
import type { MergeState } from "@/lib/records/mergeForm";
import { toast } from "@/ui/toast";

type MergedForm = { form: MergeState | null; addConflicts(theirs: Record<string, string>): void };

/** What a failed save shows: a title (with the error's message), or the caller's own handling. */
export type SaveFailure = string | ((error: unknown) => void);

/** "Grace", "Grace and Ada", "A teammate": who changed the conflicting fields. */
function whoChanged(conflicts: ConflictDetail[]): string {
  const names = [...new Set(conflicts.map((c) => c.by ?? "a teammate"))];
  const joined =
    names.length <= 1 ? (names[0] ?? "a teammate") : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
  return joined.charAt(0).toUpperCase() + joined.slice(1);
}

/**
 * The conflict toast's words: who changed which fields, named by the form's own labels (never
 * a stored key such as "precinct" or "custom_fields.k1"); without labels, "fields you were editing".
 */
function conflictDescription(
  conflicts: ConflictDetail[],
  formKeys: string[],
  labelOf?: (formKey: string) => string | undefined,
): string {
  const labels = labelOf ? [...new Set(formKeys.map((k) => labelOf(k)).filter((l): l is string => !!l))] : [];
  const named = labels.length > 0 && labels.length === new Set(formKeys).size;
  const what = named ? `${labels.join(", ")} while you were editing` : "fields you were editing";
  return `${whoChanged(conflicts)} changed ${what}. Keep yours or take theirs under each field, then save.`;
}

/**
 * `toForm` maps a refused field to the form's key and value; `labelOf` names a form key as the
 * form labels it, for the toast.
 */
export function useMergedSave(
  merged: MergedForm,
  toForm?: (c: ConflictDetail) => [string, string],
  labelOf?: (formKey: string) => string | undefined,
) {
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
          toast.failure("Edit conflict", e, {
            description: conflictDescription(conflictsOf(e) ?? [], Object.keys(conflicts), labelOf),
          });
        } else if (typeof failure === "string") toast.failure(failure, e);
        else failure(e);
        return false;
      } finally {
        setBusy(false);
      }
    },
    [form, addConflicts, toForm, labelOf],
  );
  return { busy, save };
}
