import { useMutation, useQuery } from "convex/react";
import { api } from "@convex/_generated/api";
import type { ImportId } from "@/lib/import/runner";

/** One import's document (counters, status, summary), live; skipped while `importId` is null. */
export function useImportDoc(importId: string | null) {
  const doc = useQuery(api.imports.get, importId ? { importId } : "skip");
  return { doc };
}

/** The organisation's custom voter fields a mapping can target (empty while loading; skipped unless `enabled`). */
export function useImportCustomFields(enabled: boolean) {
  const customFields = useQuery(api.imports.customFields, enabled ? {} : "skip") ?? [];
  return { customFields };
}

/** The state the voter-file attestation starts from: the organisation's (USPS code), null when unknown or loading. */
export function useImportDefaultState(enabled: boolean): string | null {
  return useQuery(api.imports.defaultState, enabled ? {} : "skip") ?? null;
}

/** An import's field mapping with each field's counts and validation errors, live. */
export function useImportFieldDetails(importId: ImportId) {
  const details = useQuery(api.imports.fieldDetails, { importId });
  return { details };
}

/** The rows of one outcome of an import (imported, updated, duplicate, error), the first `limit`, live. */
export function useImportOutcomes(
  importId: ImportId,
  kind: "imported" | "updated" | "duplicate" | "error",
  limit: number,
) {
  const rows = useQuery(api.imports.outcomes, { importId, kind, limit });
  return { rows };
}

/** Deleting an import and what it created (`force`: also records changed since). */
export function useRemoveImport() {
  const remove = useMutation(api.imports.remove);
  return { remove };
}
