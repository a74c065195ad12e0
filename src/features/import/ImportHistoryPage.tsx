import { ReloadIcon } from "@radix-ui/react-icons";
import { Button, Card, Flex, Text } from "@radix-ui/themes";
import { useState } from "react";
import { Link, useNavigate } from "react-router-dom";
import type { Id } from "@convex/_generated/dataModel";
import { useViewer } from "@/session/ViewerProvider";
import { PageHeader } from "@/ui/PageHeader";
import { ImportDetailsDialog } from "./components/ImportDetailsDialog";
import { ImportErrorFallback } from "./components/ImportErrorFallback";
import { ImportHistoryTable } from "./components/ImportHistoryTable";
import { ImportStatCards } from "./components/ImportStatCards";
import { useImportHistory } from "./hooks/useImportHistory";
import { useNow } from "@/lib/useNow";
import { ROUTES } from "@/lib/routes";
import { Loading } from "@/ui/Loading";
import { NoPermission } from "@/ui/NoPermission";

/** /voters/import-history: live statistics and history; details, delete, resume; Debug Tool. */
export function ImportHistoryPage() {
  const [attempt, setAttempt] = useState(0);
  return (
    <>
      <PageHeader
        title="Import History"
        breadcrumbs={[
          { label: "Dashboard", to: ROUTES.dashboard },
          { label: "Voters", to: ROUTES.voters },
          { label: "Import History" },
        ]}
      />
      <ImportErrorFallback key={attempt}>
        <ImportHistoryContent onRefresh={() => setAttempt((a) => a + 1)} />
      </ImportErrorFallback>
    </>
  );
}

function ImportHistoryContent({ onRefresh }: { onRefresh(): void }) {
  const { can } = useViewer();
  const navigate = useNavigate();
  const { imports, stats } = useImportHistory();
  const now = useNow();
  const [openId, setOpenId] = useState<Id<"importHistory"> | null>(null);
  if (!can("voters.view")) {
    return <NoPermission />;
  }
  const open = imports?.find((i) => i._id === openId) ?? null;
  // Pending Migrations is shown only when a real data migration is pending; this deployment has none.
  return (
    <>
      <Flex gap="2" justify="end" mb="3">
        <Button variant="soft" onClick={() => navigate(ROUTES.debugImport)}>
          Debug Tool
        </Button>
        <Button variant="soft" onClick={onRefresh}>
          <ReloadIcon /> Refresh
        </Button>
      </Flex>
      <ImportStatCards stats={stats} />
      {imports === undefined ? (
        <Loading />
      ) : imports.length === 0 ? (
        <Card size="3">
          <Flex direction="column" align="center" gap="2" p="4">
            <Text size="4" weight="bold">
              No imports yet
            </Text>
            <Text color="gray">Imported files and their results appear here.</Text>
            <Button asChild>
              <Link to={ROUTES.importVoters}>Import Contacts</Link>
            </Button>
          </Flex>
        </Card>
      ) : (
        <ImportHistoryTable items={imports} now={now} onView={(i) => setOpenId(i._id)} />
      )}
      {open && (
        <ImportDetailsDialog item={open} now={now} canManage={can("voters.manage")} onClose={() => setOpenId(null)} />
      )}
    </>
  );
}
