import { Cross2Icon } from "@radix-ui/react-icons";
import { Button, Dialog, Flex, IconButton, ScrollArea, Select, Separator, Text } from "@radix-ui/themes";
import { useState } from "react";
import type { Id } from "@convex/_generated/dataModel";
import { useViewer } from "@/session/ViewerProvider";
import { ConfirmDialog } from "@/ui/ConfirmDialog";
import { toast } from "@/ui/toast";
import { VoterSearchField } from "@/ui/VoterSearchField";
import { useManageList } from "../hooks/useEmailLists";

/** Voter quick search in recipient pickers (spec/2 §9). */
const QUICK_SEARCH = { debounceMs: 300, minChars: 2, closeAfterBlurMs: 200, maxResults: 10 } as const;
const PAGE = 25;

type ManageListDialogProps = {
  open: boolean;
  onOpenChange(open: boolean): void;
  listId: Id<"emailLists">;
  name: string;
};

/**
 * A manual list's contacts: add voters by search or a whole group, remove a contact, delete the
 * list. Who is on it (names, emails) is shown only with access to voters, as the server sends it.
 */
export function ManageListDialog({ open, onOpenChange, listId, name }: ManageListDialogProps) {
  const { can } = useViewer();
  const seeVoters = can("voters.view");
  const { contacts, groups, addVoters, addGroup, removeContact, removeList } = useManageList(listId, seeVoters, PAGE);
  const [groupId, setGroupId] = useState("");
  const [confirmDelete, setConfirmDelete] = useState(false);

  const handleAddVoter = async (voterId: Id<"voters">, voterName: string) => {
    try {
      const { added } = await addVoters({ listId, voterIds: [voterId] });
      if (added > 0) toast.success("Contact added", { description: `${voterName} was added to ${name}.` });
      else toast.info("Not added", { description: `${voterName} has no email address or is already on the list.` });
    } catch (e) {
      toast.failure("Error updating list", e);
    }
  };
  const handleAddGroup = async () => {
    const group = groups?.find((g) => g._id === groupId);
    if (!group) return;
    try {
      await addGroup({ listId, groupId: group._id });
      toast.success("Adding group", {
        description: `Members of ${group.name} with an email are being added to ${name}.`,
      });
      setGroupId("");
    } catch (e) {
      toast.failure("Error updating list", e);
    }
  };
  const handleRemove = async (voterId: Id<"voters">) => {
    try {
      await removeContact({ listId, voterId });
    } catch (e) {
      toast.failure("Error updating list", e);
    }
  };
  const handleDelete = async () => {
    setConfirmDelete(false);
    try {
      await removeList({ id: listId });
      toast.success("List deleted", { description: name });
      onOpenChange(false);
    } catch (e) {
      toast.failure("Error deleting list", e);
    }
  };

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Content maxWidth="560px" aria-describedby={undefined} data-testid="email.lists.manage">
        <Dialog.Title>Manage {name}</Dialog.Title>
        <Flex direction="column" gap="3">
          {seeVoters ? (
            <>
              <VoterSearchField
                label="Add voters to the list"
                resultsLabel="Voters found"
                placeholder="Search voters to add..."
                {...QUICK_SEARCH}
                hint
                clearOnPick
                detail={(r) => r.email ?? "no email"}
                onPick={(r, voterName) => void handleAddVoter(r._id, voterName)}
              />
              <Flex gap="2" align="center" wrap="wrap">
                <Select.Root value={groupId} onValueChange={setGroupId}>
                  <Select.Trigger
                    aria-label="Group to add"
                    placeholder={groups?.length === 0 ? "No groups available" : "Add a whole group"}
                    style={{ flex: "1 1 200px" }}
                  />
                  <Select.Content>
                    {(groups ?? []).map((g) => (
                      <Select.Item key={g._id} value={g._id}>
                        {g.name} ({g.memberCount.toLocaleString()})
                      </Select.Item>
                    ))}
                  </Select.Content>
                </Select.Root>
                <Button variant="soft" disabled={!groupId} onClick={() => void handleAddGroup()}>
                  Add group
                </Button>
              </Flex>
            </>
          ) : (
            <Text size="2" color="gray">
              Adding contacts needs access to voters.
            </Text>
          )}
          <Separator size="4" />
          <Text size="2" weight="medium">
            Contacts
          </Text>
          {!seeVoters ? (
            <Text size="2" color="gray">
              Seeing who is on the list needs access to voters.
            </Text>
          ) : (
            <ScrollArea type="auto" scrollbars="vertical" style={{ maxHeight: 320 }}>
              <Flex direction="column" gap="1" pr="3" role="list" aria-label={`Contacts of ${name}`}>
                {contacts.status === "LoadingFirstPage" ? (
                  <Text size="2" color="gray">
                    Loading…
                  </Text>
                ) : contacts.results.length === 0 ? (
                  <Text size="2" color="gray">
                    No contacts yet.
                  </Text>
                ) : (
                  contacts.results.map((c) => (
                    <Flex key={c.voterId} role="listitem" justify="between" align="center" gap="2">
                      <Text size="2" truncate>
                        {c.name} <Text color="gray">{c.email}</Text>
                      </Text>
                      <IconButton
                        size="1"
                        variant="ghost"
                        color="red"
                        aria-label={`Remove ${c.name}`}
                        onClick={() => void handleRemove(c.voterId)}
                      >
                        <Cross2Icon />
                      </IconButton>
                    </Flex>
                  ))
                )}
              </Flex>
            </ScrollArea>
          )}
          {seeVoters && contacts.status === "CanLoadMore" && (
            <Button variant="ghost" size="1" style={{ alignSelf: "center" }} onClick={() => contacts.loadMore(PAGE)}>
              Load more
            </Button>
          )}
        </Flex>
        <Flex gap="3" mt="4" justify="between" wrap="wrap">
          <Button variant="soft" color="red" onClick={() => setConfirmDelete(true)}>
            Delete list
          </Button>
          <Dialog.Close>
            <Button variant="soft" color="gray">
              Close
            </Button>
          </Dialog.Close>
        </Flex>
        <ConfirmDialog
          open={confirmDelete}
          onOpenChange={setConfirmDelete}
          title="Delete list"
          description={`Are you sure you want to delete the list "${name}"? This action cannot be undone.`}
          onConfirm={() => void handleDelete()}
        />
      </Dialog.Content>
    </Dialog.Root>
  );
}
