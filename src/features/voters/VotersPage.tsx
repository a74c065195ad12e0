import { Cross2Icon, PlusIcon, UploadIcon } from "@radix-ui/react-icons";
import { Badge, Box, Button, Card, Flex, IconButton, Text } from "@radix-ui/themes";
import { useState } from "react";
import { useNavigate, useSearchParams } from "react-router-dom";
import type { Doc } from "@convex/_generated/dataModel";
import { MODE_LABELS, useViewer } from "@/session/ViewerProvider";
import { ConfirmDialog } from "@/ui/ConfirmDialog";
import { PageHeader } from "@/ui/PageHeader";
import { toast } from "@/ui/toast";
import { BulkAddToGroupDialog } from "./components/BulkAddToGroupDialog";
import { VoterCards } from "./components/VoterCards";
import { VoterExportMenu } from "./components/VoterExportMenu";
import { VoterFilters } from "./components/VoterFilters";
import { VoterSelectionBar } from "./components/VoterSelectionBar";
import { VoterTable, type VoterListViewProps } from "./components/VoterTable";
import { VoterTotal } from "./components/VoterTotal";
import { useDebounced } from "@/lib/useDebounced";
import { PHONE_QUERY, useMediaQuery } from "./hooks/useMediaQuery";
import { useVoterCount } from "./hooks/useVoterCount";
import { voterFilterArgs, useVoterList } from "./hooks/useVoterList";
import { useVoterListActions } from "./hooks/useVoterRecord";
import { useVoterSelection } from "./hooks/useVoterSelection";
import { ROUTES } from "@/lib/routes";
import { Loading } from "@/ui/Loading";

/**
 * /voters: the live, server-paged and server-searched voter list with the total matching it, bulk
 * selection (add to a group) for those who may update voters, a table on a desktop and cards on a
 * phone. Actions a role cannot perform are not offered (the server refuses them anyway).
 */
export function VotersPage() {
  const { mode, can } = useViewer();
  const labels = MODE_LABELS[mode];
  const noun = labels.voter.toLowerCase();
  const navigate = useNavigate();
  const phone = useMediaQuery(PHONE_QUERY);
  // The filter lives in the URL: shareable, and kept across reloads and back navigation.
  const [params, setParams] = useSearchParams();
  const search = params.get("q") ?? "";
  const party = params.get("party") ?? "";
  const status = params.get("status") ?? "";
  const statusCode = params.get("code") ?? "";
  // a district's voters (Districts → "View its voters"), named as that page names it
  const district = params.get("district") ?? "";
  const districtName = params.get("districtName") ?? district;
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
  const filter = { search: debouncedSearch, party, status, statusCode, district };
  const list = useVoterList(filter);
  const total = useVoterCount(filter);
  const { statusCodes, removeVoter } = useVoterListActions();
  const [toDelete, setToDelete] = useState<Doc<"voters"> | null>(null);
  const canManage = can("voters.manage");
  const canEdit = canManage || can("voters.update");
  // adding to a group takes voters.update (groups.addMembers / addMatching)
  const canSelect = canEdit;
  const selection = useVoterSelection(JSON.stringify(voterFilterArgs(filter)));
  const [groupDialog, setGroupDialog] = useState(0);
  const totalText = total.done ? `${total.total.toLocaleString()}${total.capped ? "+" : ""}` : null;

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

  const view: VoterListViewProps = {
    label: labels.voters,
    voters: list.voters,
    petitionMode: mode === "petition",
    canEdit,
    canDelete: canManage,
    onDelete: setToDelete,
    selection: canSelect
      ? {
          selected: selection.selected,
          allMatching: selection.allMatching,
          onToggle: selection.toggle,
          onTogglePage: selection.togglePage,
        }
      : null,
  };

  return (
    <Box>
      <PageHeader
        title={labels.voters}
        breadcrumbs={[{ label: "Dashboard", to: ROUTES.dashboard }, { label: labels.voters }]}
        actions={
          <>
            {can("voters.export") && <VoterExportMenu filter={filter} />}
            {canManage && (
              <Button variant="soft" onClick={() => navigate(ROUTES.importVoters)}>
                <UploadIcon /> Import
              </Button>
            )}
            {canManage && (
              <Button onClick={() => navigate(ROUTES.newVoter)}>
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
          statusCode={statusCode}
          statusCodes={statusCodes ?? []}
          onSearchChange={setParam("q")}
          onPartyChange={setParam("party")}
          onStatusChange={setParam("status")}
          onStatusCodeChange={setParam("code")}
        />
        {district && (
          <Flex mt="3" align="center" gap="2" data-testid="voters.districtFilter">
            <Badge size="2" color="indigo">
              District: {districtName}
            </Badge>
            <IconButton
              size="1"
              variant="ghost"
              aria-label="Show voters of every district"
              onClick={() =>
                setParams(
                  (prev) => {
                    const next = new URLSearchParams(prev);
                    next.delete("district");
                    next.delete("districtName");
                    return next;
                  },
                  { replace: true },
                )
              }
            >
              <Cross2Icon />
            </IconButton>
          </Flex>
        )}
      </Card>
      <Flex justify="between" align="center" gap="3" wrap="wrap" mb="3">
        <VoterTotal total={total.total} started={total.started} done={total.done} capped={total.capped} noun={noun} />
        {canSelect && list.voters.length > 0 && (
          <VoterSelectionBar
            selectedCount={selection.selected.size}
            allMatching={selection.allMatching}
            totalText={totalText}
            onSelectAllMatching={selection.selectAllMatching}
            onClear={selection.clear}
            onAddToGroup={() => setGroupDialog((n) => n + 1)}
          />
        )}
      </Flex>
      {list.isLoading && list.voters.length === 0 ? (
        <Loading />
      ) : list.voters.length === 0 ? (
        <Card>
          <Text color="gray">No {labels.voters.toLowerCase()} found.</Text>
        </Card>
      ) : phone ? (
        <VoterCards {...view} />
      ) : (
        <VoterTable {...view} />
      )}
      {(list.canLoadMore || list.isLoadingMore) && (
        <Flex justify="center" mt="4">
          <Button variant="soft" onClick={list.loadMore} loading={list.isLoadingMore}>
            Load more
          </Button>
        </Flex>
      )}
      <ConfirmDialog
        open={toDelete !== null}
        onOpenChange={(o) => !o && setToDelete(null)}
        title={`Delete ${labels.voter}`}
        description="Are you sure you want to delete this voter?"
        onConfirm={() => void handleDelete()}
      />
      {groupDialog > 0 && (
        <BulkAddToGroupDialog
          key={groupDialog}
          open
          onOpenChange={(o) => !o && setGroupDialog(0)}
          target={
            selection.allMatching
              ? { kind: "matching", filter: voterFilterArgs(filter) }
              : { kind: "selected", voterIds: [...selection.selected] }
          }
          countText={selection.allMatching ? (totalText ?? "") : selection.selected.size.toLocaleString()}
          onDone={selection.clear}
        />
      )}
    </Box>
  );
}
