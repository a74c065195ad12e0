import { CheckCircledIcon, DownloadIcon } from "@radix-ui/react-icons";
import { Button, Card, Flex, Text } from "@radix-ui/themes";
import { useSearchParams } from "react-router-dom";
import { useViewer } from "@/session/ViewerProvider";
import { Loading } from "@/ui/Loading";
import { PageHeader } from "@/ui/PageHeader";
import { AccessRestricted } from "./components/AccessRestricted";
import { AuditFilters } from "./components/AuditFilters";
import { AuditLogTable } from "./components/AuditLogTable";
import { AuditRetentionSection } from "./components/AuditRetentionSection";
import { AuditVerifyResult } from "./components/AuditVerifyResult";
import { useAuditActors, useAuditExport, useAuditLog, useVerifyChain } from "./hooks/useAuditLog";
import { FILTER_KEYS, filtersFromParams, queryFilters, type AuditFilterValues } from "./utils/auditDisplay";
import { ROUTES } from "@/lib/routes";

/**
 * /audit-log (issue 39): the organisation's audit log for holders of audit.view (Account and Super
 * Administrators), live and newest first, filtered by actor, action, target and dates (kept in the
 * URL); each entry opens to its changes and hashes. Verify chain, Export CSV (itself audited) and
 * the retention setting. Every read and write is enforced server-side too.
 */
export function AuditLogPage() {
  const { can } = useViewer();
  const allowed = can("audit.view");
  const [params, setParams] = useSearchParams();
  const values = filtersFromParams(params);
  const { actors } = useAuditActors(allowed);
  const filters = allowed ? queryFilters(values, actors) : null;
  const { entries, canLoadMore, loadingMore, loadMore } = useAuditLog(filters);
  const verify = useVerifyChain();
  const exporter = useAuditExport();

  if (!allowed) return <AccessRestricted message="You need Account Administrator privileges to view the audit log." />;

  const handleFilters = (patch: Partial<AuditFilterValues>) => {
    const next = new URLSearchParams(params);
    const merged = { ...values, ...patch };
    for (const k of FILTER_KEYS) {
      if (merged[k] === "") next.delete(k);
      else next.set(k, merged[k]);
    }
    setParams(next, { replace: true });
  };

  return (
    <>
      <PageHeader
        title="Audit Log"
        description="Who did what in this organisation, as it happens. Each entry is chained to the one before it, so a changed or deleted entry shows when the chain is verified."
        breadcrumbs={[{ label: "Dashboard", to: ROUTES.dashboard }, { label: "Audit Log" }]}
        actions={
          <Flex gap="2" wrap="wrap">
            <Button variant="soft" onClick={() => void verify.run()} loading={verify.running}>
              <CheckCircledIcon /> Verify chain
            </Button>
            <Button
              onClick={() => filters && void exporter.run(filters)}
              loading={exporter.exporting}
              disabled={!filters}
              data-testid="audit.export"
            >
              <DownloadIcon /> Export CSV
            </Button>
          </Flex>
        }
      />
      <Flex direction="column" gap="4">
        {verify.result && <AuditVerifyResult result={verify.result} />}
        <AuditFilters values={values} actors={actors} canPickVoter={can("voters.view")} onChange={handleFilters} />
        {entries === undefined ? (
          <Loading label="Loading the audit log" />
        ) : entries.length === 0 ? (
          <Card>
            <Text color="gray" data-testid="audit.empty">
              No entries match these filters.
            </Text>
          </Card>
        ) : (
          <AuditLogTable entries={entries} />
        )}
        {canLoadMore || loadingMore ? (
          <Flex justify="center">
            <Button variant="soft" onClick={loadMore} loading={loadingMore}>
              Load more
            </Button>
          </Flex>
        ) : null}
        <AuditRetentionSection canChange={can("organization.manage")} />
      </Flex>
    </>
  );
}
