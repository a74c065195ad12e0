import { useMutation, useQuery } from "convex/react";
import type { FunctionReturnType } from "convex/server";
import { useCallback, useState } from "react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { classifyError } from "@convex/lib/errors";
import { conflictsOf } from "@/lib/records/conflicts";
import { toast } from "@/ui/toast";

export type BlastSetup = NonNullable<FunctionReturnType<typeof api.emailBlasts.setup>>;
/** Send To's fields, saved one change at a time. */
export type AudienceField = "listIds" | "groupIds" | "segmentIds" | "manual" | "excludeBounced" | "excludeComplained";
type AudienceValue = string[] | boolean;

/** Shows a refused save: a teammate's conflicting change by name, or the server's message. */
export function showSaveFailure(e: unknown) {
  toast.failure(conflictsOf(e) ? "Edit conflict" : (classifyError(e).title ?? "Error saving campaign"), e);
}

/**
 * A campaign's shared send setup (api.emailBlasts.setup), live. Each Send To change is saved at
 * once with the value it started from (the record rules: a teammate's change to the same field
 * is refused and named, never overwritten). While a save is in flight the screen shows it, and
 * the next change starts from it (this browser's saves apply in order).
 */
export function useBlastSetup(id: Id<"emailCampaigns">) {
  const setup = useQuery(api.emailBlasts.setup, { id });
  const update = useMutation(api.emailBlasts.updateSetup);
  const [pending, setPending] = useState<Partial<Record<AudienceField, AudienceValue>>>({});

  const value = useCallback(
    <F extends AudienceField>(field: F): BlastSetup[F] | undefined =>
      field in pending ? (pending[field] as BlastSetup[F]) : setup?.[field],
    [pending, setup],
  );

  const change = useCallback(
    async <F extends AudienceField>(field: F, next: BlastSetup[F]): Promise<boolean> => {
      const base = field in pending ? pending[field] : setup?.[field];
      if (base === undefined) return false;
      setPending((p) => ({ ...p, [field]: next }));
      try {
        await update({ id, edits: [{ field, base, value: next }] });
        return true;
      } catch (e) {
        showSaveFailure(e);
        return false;
      } finally {
        setPending((p) => {
          if (p[field] !== next) return p;
          const rest = { ...p };
          delete rest[field];
          return rest;
        });
      }
    },
    [id, pending, setup, update],
  );

  return { setup, value, change };
}

/** The live recipient estimate of a setup (before duplicates and exclusions are removed). */
export function useRecipientEstimate(
  sources: Pick<BlastSetup, "listIds" | "groupIds" | "segmentIds" | "manual"> | null | undefined,
) {
  return useQuery(
    api.emailBlasts.estimate,
    sources
      ? { listIds: sources.listIds, groupIds: sources.groupIds, segmentIds: sources.segmentIds, manual: sources.manual }
      : "skip",
  );
}

/** Automated: the campaign's shared setup and who is editing which field (both live), and saving changed fields. */
export function useAutomationSetup(id: Id<"emailCampaigns">) {
  const setup = useQuery(api.emailBlasts.setup, { id });
  const editState = useQuery(api.emailBlasts.setupEditState, { id });
  const update = useMutation(api.emailBlasts.updateSetup);
  return { setup, editState, update };
}
