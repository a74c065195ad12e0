import { Button, Dialog, Flex, Text, TextArea, TextField } from "@radix-ui/themes";
import { useMutation } from "convex/react";
import { useState } from "react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { toast } from "@/ui/toast";

type GroupFormDialogProps = {
  open: boolean;
  onOpenChange(open: boolean): void;
  group: { _id: Id<"voterGroups">; name: string; description: string | null } | null;
  onSaved?(id: Id<"voterGroups">): void;
};

/** Create New Group / Edit Group. The caller remounts it (a new `key`) for each opening. */
export function GroupFormDialog({ open, onOpenChange, group, onSaved }: GroupFormDialogProps) {
  const create = useMutation(api.groups.create);
  const update = useMutation(api.groups.update);
  const [name, setName] = useState(group?.name ?? "");
  const [description, setDescription] = useState(group?.description ?? "");
  const [busy, setBusy] = useState(false);

  const handleSave = async () => {
    if (!name.trim()) {
      toast.error("Name Required", { description: "Please enter a group name." });
      return;
    }
    setBusy(true);
    try {
      if (group) {
        await update({ id: group._id, name, description });
        toast.success("Group Updated");
        onSaved?.(group._id);
      } else {
        const id = await create({ name, description });
        toast.success("Group Created");
        onSaved?.(id);
      }
      onOpenChange(false);
    } catch (e) {
      toast.failure(group ? "Error Updating Group" : "Error Creating Group", e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Content maxWidth="460px">
        <Dialog.Title>{group ? "Edit Group" : "Create New Group"}</Dialog.Title>
        <Flex direction="column" gap="3">
          <label>
            <Text size="2" weight="medium">Group Name</Text>
            <TextField.Root value={name} onChange={(e) => setName(e.target.value)} aria-label="Group name" />
          </label>
          <label>
            <Text size="2" weight="medium">Description</Text>
            <TextArea value={description} onChange={(e) => setDescription(e.target.value)} aria-label="Description" />
          </label>
        </Flex>
        <Flex gap="3" mt="4" justify="end">
          <Dialog.Close><Button variant="soft" color="gray">Cancel</Button></Dialog.Close>
          <Button loading={busy} onClick={() => void handleSave()}>{group ? "Update Group" : "Create Group"}</Button>
        </Flex>
      </Dialog.Content>
    </Dialog.Root>
  );
}
