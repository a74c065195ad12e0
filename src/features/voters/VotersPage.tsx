import { PlusIcon, UploadIcon } from "@radix-ui/react-icons";
import { Box, Button, Card, Flex, Spinner, Text } from "@radix-ui/themes";
import { useMutation } from "convex/react";
import { useState } from "react";
import { useNavigate, useSearchParams } from "react-router-dom";
import { api } from "@convex/_generated/api";
import type { Doc } from "@convex/_generated/dataModel";
import { MODE_LABELS, useViewer } from "@/session/ViewerProvider";
import { ConfirmDialog } from "@/ui/ConfirmDialog";
import { PageHeader } from "@/ui/PageHeader";
import { toast } from "@/ui/toast";
import { VoterExportMenu } from "./components/VoterExportMenu";
import { VoterFilters } from "./components/VoterFilters";
import { VoterTable } from "./components/VoterTable";
import { useDebounced } from "@/lib/useDebounced";
import { useVoterList } from "./hooks/useVoterList";

/** /voters: the live, server-paged and server-searched voter list. */
export function VotersPage() {
  const { mode, can } = useViewer();
  const labels = MODE_LABELS[mode];
  const navigate = useNavigate();
  // The filter lives in the URL: shareable, and kept across reloads and back navigation.
  const [params, setParams] = useSearchParams();
  const search = params.get("q") ?? "";
  const party = params.get("party") ?? "";
  const status = params.get("status") ?? "";
  const setParam = (key: string) => (value: string) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (value) next.set(key, value);
        else next.delete(key);
        return next;
      },
      { replace: true },
    );
  const debouncedSearch = useDebounced(search, 300);
  const filter = { search: debouncedSearch, party, status };
  const list = useVoterList(filter);
  const removeVoter = useMutation(api.voters.remove);
  const [toDelete, setToDelete] = useState<Doc<"voters"> | null>(null);
  const canManage = can("voters.manage");
  const canEdit = canManage || can("voters.update");

  const handleDelete = async () => {
    if (!toDelete) return;
    try {
      await removeVoter({ id: toDelete._id });
      toast.success("Voter deleted");
    } catch (e) {
      toast.failure("Error deleting voter", e);
    } finally {
      setToDelete(null);
    }
  };

  return (
    <Box>
      <PageHeader
        title={labels.voters}
        breadcrumbs={[{ label: "Dashboard", to: "/dashboard" }, { label: labels.voters }]}
        actions={
          <>
            {can("voters.export") && <VoterExportMenu filter={filter} />}
            {canManage && (
              <Button variant="soft" onClick={() => navigate("/voters/import")}>
                <UploadIcon /> Import
              </Button>
            )}
            {canManage && (
              <Button onClick={() => navigate("/voters/new")}>
                <PlusIcon /> Add {labels.voter}
              </Button>
            )}
          </>
        }
      />
      <Card mb="4">
        <VoterFilters
          search={search}
          party={party}
          status={status}
          onSearchChange={setParam("q")}
          onPartyChange={setParam("party")}
          onStatusChange={setParam("status")}
        />
      </Card>
      {list.isLoading && list.voters.length === 0 ? (
        <Flex justify="center" p="6"><Spinner size="3" /></Flex>
      ) : list.voters.length === 0 ? (
        <Card><Text color="gray">No {labels.voters.toLowerCase()} found.</Text></Card>
      ) : (
        <VoterTable label={labels.voters} voters={list.voters} petitionMode={mode === "petition"} canEdit={canEdit} canDelete={canManage} onDelete={setToDelete} />
      )}
      {(list.canLoadMore || list.isLoadingMore) && (
        <Flex justify="center" mt="4">
          <Button variant="soft" onClick={list.loadMore} loading={list.isLoadingMore}>Load more</Button>
        </Flex>
      )}
      <ConfirmDialog
        open={toDelete !== null}
        onOpenChange={(o) => !o && setToDelete(null)}
        title={`Delete ${labels.voter}`}
        description="Are you sure you want to delete this voter?"
        onConfirm={() => void handleDelete()}
      />
    </Box>
  );
}
