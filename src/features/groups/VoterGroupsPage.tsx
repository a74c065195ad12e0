import { PlusIcon } from "@radix-ui/react-icons";
import { Box, Button, Grid } from "@radix-ui/themes";
import type { FunctionReturnType } from "convex/server";
import type { api } from "@convex/_generated/api";
import { useState } from "react";
import type { Id } from "@convex/_generated/dataModel";
import { useViewer } from "@/session/ViewerProvider";
import { ConfirmDialog } from "@/ui/ConfirmDialog";
import { PageHeader } from "@/ui/PageHeader";
import { toast } from "@/ui/toast";
import { AddVotersDialog } from "./components/AddVotersDialog";
import { GroupFormDialog } from "./components/GroupFormDialog";
import { GroupList } from "./components/GroupList";
import { GroupMembersPanel } from "./components/GroupMembersPanel";
import { VoterQuickSearch } from "./components/VoterQuickSearch";
import { ROUTES } from "@/lib/routes";
import { Loading } from "@/ui/Loading";
import { useVoterGroups } from "./hooks/useVoterGroups";

type Group = FunctionReturnType<typeof api.groups.list>[number];

/** /voter-groups: groups on the left, the selected group's members on the right. */
export function VoterGroupsPage() {
  const { can } = useViewer();
  const { groups, removeGroup, addMember } = useVoterGroups();
  const [selectedId, setSelectedId] = useState<Id<"voterGroups"> | null>(null);
  const [formOpen, setFormOpen] = useState(false);
  const [editing, setEditing] = useState<Group | null>(null);
  const [deleting, setDeleting] = useState<Group | null>(null);
  const [addOpen, setAddOpen] = useState(false);
  // Each opening mounts the dialog afresh (its state starts from its props, no reset effect).
  const [opening, setOpening] = useState(0);
  const openForm = (group: Group | null) => {
    setEditing(group);
    setOpening((n) => n + 1);
    setFormOpen(true);
  };
  const openAdd = () => {
    setOpening((n) => n + 1);
    setAddOpen(true);
  };
  const canManage = can("voters.manage");
  const canChange = can("voters.update");
  const selected = groups?.find((g) => g._id === selectedId) ?? null;

  const handleDelete = async () => {
    if (!deleting) return;
    try {
      await removeGroup({ id: deleting._id });
      toast.success("Group Deleted");
      if (selectedId === deleting._id) setSelectedId(null);
    } catch (e) {
      toast.failure("Error Deleting Group", e);
    } finally {
      setDeleting(null);
    }
  };

  const handlePick = async (voterId: Id<"voters">, name: string) => {
    if (!selected) {
      toast.warning("No Group Selected");
      return;
    }
    try {
      const r = await addMember({ groupId: selected._id, voterId });
      if (r.status === "duplicate")
        toast.warning("Already a Member", { description: `${name} is already in ${selected.name}.` });
      else toast.success("Voter Added", { description: `${name} added to ${selected.name}.` });
    } catch (e) {
      toast.failure("Error Adding Voter", e, { duration: 5000 });
    }
  };

  return (
    <Box>
      <PageHeader
        title="Voter Groups"
        breadcrumbs={[
          { label: "Dashboard", to: ROUTES.dashboard },
          { label: "Campaigns", to: ROUTES.campaigns },
          { label: "Voter Groups" },
        ]}
        actions={
          <>
            {canChange && (
              <Button variant="soft" onClick={openAdd}>
                Add Voters to Group
              </Button>
            )}
            {canManage && (
              <Button onClick={() => openForm(null)}>
                <PlusIcon /> Create Group
              </Button>
            )}
          </>
        }
      />
      {canChange && (
        <Box mb="4" maxWidth="480px">
          <VoterQuickSearch onPick={(id, name) => void handlePick(id, name)} />
        </Box>
      )}
      {groups === undefined ? (
        <Loading />
      ) : (
        <Grid columns={{ initial: "1", md: "1fr 2fr" }} gap="4">
          <GroupList
            groups={groups}
            selectedId={selectedId}
            canManage={canManage}
            onSelect={setSelectedId}
            onEdit={openForm}
            onDelete={setDeleting}
          />
          <GroupMembersPanel group={selected} canChange={canChange} onAddMembers={openAdd} />
        </Grid>
      )}
      <GroupFormDialog
        key={`form-${opening}`}
        open={formOpen}
        onOpenChange={setFormOpen}
        editId={editing?._id ?? null}
        group={editing ? groups?.find((g) => g._id === editing._id) : undefined}
        onSaved={(id) => setSelectedId(id)}
      />
      <AddVotersDialog
        key={`add-${opening}`}
        open={addOpen}
        onOpenChange={setAddOpen}
        groups={groups ?? []}
        initialGroupId={selectedId}
      />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => !o && setDeleting(null)}
        title="Delete Group"
        description={
          deleting
            ? `Are you sure you want to delete the group "${deleting.name}"? This will also remove all members from the group. This action cannot be undone.`
            : ""
        }
        onConfirm={() => void handleDelete()}
      />
    </Box>
  );
}
