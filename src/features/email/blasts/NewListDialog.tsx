import { Button, Dialog, Flex, Text, TextArea, TextField } from "@radix-ui/themes";
import { useState } from "react";
import { toast } from "@/ui/toast";
import { useNewList } from "../hooks/useEmailLists";

/** New list: a manual list of contacts, named and optionally described. */
export function NewListDialog({ open, onOpenChange }: { open: boolean; onOpenChange(open: boolean): void }) {
  const { create } = useNewList();
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [busy, setBusy] = useState(false);

  const handleCreate = async () => {
    if (!name.trim()) {
      toast.error("Name required", { description: "Please enter a list name." });
      return;
    }
    setBusy(true);
    try {
      await create({ name: name.trim(), description: description.trim() });
      toast.success("List created", { description: name.trim() });
      onOpenChange(false);
    } catch (e) {
      toast.failure("Error creating list", e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Content maxWidth="440px" aria-describedby={undefined}>
        <Dialog.Title>New list</Dialog.Title>
        <Flex direction="column" gap="3">
          <label>
            <Text size="2" weight="medium">
              Name{" "}
              <Text color="red" aria-hidden>
                *
              </Text>
            </Text>
            <TextField.Root
              value={name}
              maxLength={200}
              required
              onChange={(e) => setName(e.target.value)}
              placeholder="e.g. Phone bank volunteers"
            />
          </label>
          <label>
            <Text size="2" weight="medium">
              Description
            </Text>
            <TextArea value={description} maxLength={1000} onChange={(e) => setDescription(e.target.value)} />
          </label>
        </Flex>
        <Flex gap="3" mt="4" justify="end" wrap="wrap">
          <Dialog.Close>
            <Button variant="soft" color="gray">
              Cancel
            </Button>
          </Dialog.Close>
          <Button loading={busy} onClick={() => void handleCreate()}>
            Create list
          </Button>
        </Flex>
      </Dialog.Content>
    </Dialog.Root>
  );
}
