/** Runs an import from the wizard: streaming reader → batches → live counts; cancel and row-error decisions. */
import { useConvex } from "convex/react";
import { useCallback, useRef, useState } from "react";
import { api } from "@convex/_generated/api";
import type { ColumnMapping, NewFieldDef } from "@/lib/import/fields";
import type { MatchRule } from "@convex/lib/import/rows";
import type { ImportAttestation } from "@convex/tables/imports";
import { openImportFile } from "@/lib/import/openFile";
import {
  ImportControl,
  runImport,
  type ErrorDecision,
  type ImportId,
  type RowError,
  type RunImportResult,
} from "@/lib/import/runner";
import { convexImportTransport } from "@/lib/import/convexTransport";

export type RunState =
  | { phase: "idle" }
  | { phase: "running"; importId: ImportId | null }
  | { phase: "stopped"; result: RunImportResult }
  | { phase: "done"; result: RunImportResult };

export type PendingRowError = { error: RowError; decide(d: ErrorDecision): void };

export function useImportRunner() {
  const convex = useConvex();
  const [state, setState] = useState<RunState>({ phase: "idle" });
  const [pendingError, setPendingError] = useState<PendingRowError | null>(null);
  const control = useRef<ImportControl | null>(null);
  const importIdRef = useRef<ImportId | null>(null);

  const start = useCallback(
    async (o: {
      file: File;
      mapping: ColumnMapping;
      newFields: NewFieldDef[];
      sampleRows: string[][];
      errorMode: "ask" | "ignore";
      matchRule: MatchRule;
      updateExisting: boolean;
      attestation: ImportAttestation;
      resume?: { importId: ImportId; nextRow: number };
    }) => {
      const ctl = new ImportControl();
      control.current = ctl;
      importIdRef.current = o.resume?.importId ?? null;
      setState({ phase: "running", importId: importIdRef.current });
      const source = await openImportFile(o.file);
      const result = await runImport({
        source,
        transport: convexImportTransport(convex),
        filename: o.file.name,
        mapping: o.mapping,
        newFields: o.newFields,
        sampleRows: o.sampleRows,
        errorMode: o.errorMode,
        matchRule: o.matchRule,
        updateExisting: o.updateExisting,
        attestation: o.attestation,
        resume: o.resume,
        control: ctl,
        onStarted: (id) => {
          importIdRef.current = id;
          setState({ phase: "running", importId: id });
        },
        onRowError: (error) =>
          new Promise<ErrorDecision>((resolve) =>
            setPendingError({
              error,
              decide: (d) => {
                setPendingError(null);
                resolve(d);
              },
            }),
          ),
      });
      // "Stop Import": the rows before the failing one are stored; the keep / delete choice follows
      setState(result.status === "stopped" ? { phase: "stopped", result } : { phase: "done", result });
      return result;
    },
    [convex],
  );

  /** Cancel Import?: pause between batches while the dialog is open. */
  const pause = useCallback(() => control.current?.pause(), []);
  const resume = useCallback(() => control.current?.resume(), []);
  const cancel = useCallback(
    async (deleteImported: boolean) => {
      control.current?.cancel();
      const id = importIdRef.current;
      if (id) await convex.mutation(api.imports.cancel, { importId: id, deleteImported });
      setState((s) => (s.phase === "stopped" ? { phase: "done", result: s.result } : s));
    },
    [convex],
  );
  const reset = useCallback(() => {
    control.current = null;
    importIdRef.current = null;
    setState({ phase: "idle" });
  }, []);

  return { state, start, pause, resume, cancel, reset, pendingError };
}
