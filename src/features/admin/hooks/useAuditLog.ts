import { useAction, useMutation, usePaginatedQuery, useQuery } from "convex/react";
import { useState } from "react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { downloadCsv, toCsv } from "@/lib/csv";
import { toast } from "@/ui/toast";
import { entriesText, type AuditQueryFilters, type VerifyResult } from "../utils/auditDisplay";

/** Entries per page of the screen (and per "Load more"). */
const AUDIT_PAGE = 50;

/** The log, newest first, live: a new entry shows as soon as the sealer chains it. null filters: not yet (skipped). */
export function useAuditLog(filters: AuditQueryFilters | null) {
  const { results, status, loadMore } = usePaginatedQuery(api.audit.list, filters ?? "skip", {
    initialNumItems: AUDIT_PAGE,
  });
  return {
    entries: status === "LoadingFirstPage" ? undefined : results,
    canLoadMore: status === "CanLoadMore",
    loadingMore: status === "LoadingMore",
    loadMore: () => loadMore(AUDIT_PAGE),
  };
}

/** Everyone with an entry (the actor filter's choices), live. */
export function useAuditActors(enabled: boolean) {
  return { actors: useQuery(api.audit.actors, enabled ? {} : "skip") };
}

/** Verify chain: runs audit.verify and keeps its outcome (or the failure to run it) for the screen. */
export function useVerifyChain() {
  const verify = useAction(api.audit.verify);
  const [running, setRunning] = useState(false);
  const [result, setResult] = useState<VerifyResult | null>(null);
  const run = async () => {
    setRunning(true);
    setResult(null);
    try {
      setResult(await verify({}));
    } catch (e) {
      toast.failure("Error verifying the chain", e);
    } finally {
      setRunning(false);
    }
  };
  return { run, running, result };
}

/** Export CSV: every entry matching the filters, a page per call (the first call records the export), one file. */
export function useAuditExport() {
  const exportPage = useMutation(api.audit.exportCsv);
  const [exporting, setExporting] = useState(false);
  const run = async (filters: AuditQueryFilters) => {
    setExporting(true);
    try {
      let cursor: string | null = null;
      let header: string[] = [];
      const rows: string[][] = [];
      for (;;) {
        const page: Awaited<ReturnType<typeof exportPage>> = await exportPage({ ...filters, cursor });
        header = page.header;
        rows.push(...page.rows);
        if (page.isDone) break;
        cursor = page.continueCursor;
      }
      downloadCsv(toCsv(header, rows), `audit-log-${new Date().toISOString().slice(0, 10)}.csv`);
      toast.success("Export complete", { description: `${entriesText(rows.length)} exported.` });
    } catch (e) {
      toast.failure("Export failed", e);
    } finally {
      setExporting(false);
    }
  };
  return { run, exporting };
}

/** The organisation's retention (audit.view reads it; organization.manage sets it). */
export function useAuditRetention(enabled: boolean) {
  const settings = useQuery(api.audit.settings, enabled ? {} : "skip");
  const setRetention = useMutation(api.audit.setRetention);
  return { settings, setRetention };
}

/** One voter's entries, newest first, live (skipped while not `enabled`). */
export function useVoterAuditHistory(voterId: Id<"voters">, enabled: boolean) {
  const { results, status, loadMore } = usePaginatedQuery(api.audit.forVoter, enabled ? { voterId } : "skip", {
    initialNumItems: 10,
  });
  return {
    entries: status === "LoadingFirstPage" ? undefined : results,
    canLoadMore: status === "CanLoadMore",
    loadMore: () => loadMore(20),
  };
}
