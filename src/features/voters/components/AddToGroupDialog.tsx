import { Button, Dialog, Flex, Select, Text } from "@radix-ui/themes";
import { useState } from "react";
import type { Id } from "@convex/_generated/dataModel";
import { toast } from "@/ui/toast";
import { useAddVoterToGroup } from "../hooks/useVoterContact";

type AddToGroupDialogProps = {
  voterId: Id<"voters">;
  voterName: string;
  open: boolean;
  onOpenChange(open: boolean): void;
};

/** Adds one voter to a group (groups ordered by name); "Already a member" when it is one. */
export function AddToGroupDialog({ voterId, voterName, open, onOpenChange }: AddToGroupDialogProps) {
  const { groups, addMember } = useAddVoterToGroup(open);
  const [groupId, setGroupId] = useState<string>("");
  const [busy, setBusy] = useState(false);

  const handleAdd = async () => {
    if (!groupId) {
      toast.warning("No Group Selected");
      return;
    }
    setBusy(true);
    try {
      const r = await addMember({ groupId: groupId as Id<"voterGroups">, voterId });
      if (r.status === "duplicate") toast.warning("Already a member");
      else {
        toast.success("Voter Added");
        onOpenChange(false);
        setGroupId("");
      }
    } catch (e) {
      toast.failure("Error adding to group", e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Content maxWidth="420px">
        <Dialog.Title>Add to Group</Dialog.Title>
        <Dialog.Description size="2" mb="3">
          Add {voterName} to a group.
        </Dialog.Description>
        {groups && groups.length === 0 ? (
          <Text color="gray">No groups yet. Create one on the Voter Groups page.</Text>
        ) : (
          <Select.Root value={groupId} onValueChange={setGroupId}>
            <Select.Trigger aria-label="Group" placeholder="Select a group" style={{ width: "100%" }} />
            <Select.Content>
              {(groups ?? []).map((g) => (
                <Select.Item key={g._id} value={g._id}>
                  {g.name}
                </Select.Item>
              ))}
            </Select.Content>
          </Select.Root>
        )}
        <Flex gap="3" mt="4" justify="end" wrap="wrap">
          <Dialog.Close>
            <Button variant="soft" color="gray">
              Cancel
            </Button>
          </Dialog.Close>
          <Button onClick={() => void handleAdd()} loading={busy}>
            Add to Group
          </Button>
        </Flex>
      </Dialog.Content>
    </Dialog.Root>
  );
}
