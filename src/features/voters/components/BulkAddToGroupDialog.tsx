import { Button, Dialog, Flex, Progress, Select, Text } from "@radix-ui/themes";
import { useState } from "react";
import type { Id } from "@convex/_generated/dataModel";
import { useAddToGroup, useGroupList } from "@/features/groups";
import { toast } from "@/ui/toast";

type BulkAddToGroupDialogProps = {
  open: boolean;
  onOpenChange(open: boolean): void;
  /** ticked voters, or every voter matching `filter` */
  target:
    | { kind: "selected"; voterIds: Id<"voters">[] }
    | { kind: "matching"; filter: { search?: string; party?: string; status?: string; statusCode?: string } };
  /** how many that is, as shown ("3", "12,345", "1,024+") */
  countText: string;
  onDone(): void;
};

/** Adds the voter list's selection to a group. The caller remounts it (a new `key`) for each opening. */
export function BulkAddToGroupDialog({ open, onOpenChange, target, countText, onDone }: BulkAddToGroupDialogProps) {
  const { groups } = useGroupList(open);
  const { addSelected, addAllMatching, progress } = useAddToGroup();
  const busy = progress !== null;
  const [groupId, setGroupId] = useState("");

  const handleAdd = async () => {
    if (!groupId) {
      toast.warning("No Group Selected");
      return;
    }
    try {
      const gid = groupId as Id<"voterGroups">;
      const r =
        target.kind === "selected"
          ? await addSelected(gid, target.voterIds)
          : await addAllMatching(gid, target.filter, null);
      if (r.failed > 0)
        toast.error("Some Errors Occurred", {
          description: `${r.failed} voters could not be added. Check console for details.`,
        });
      else
        toast.success("Voters Added Successfully", {
          description: `${r.added} voters added${r.duplicates ? `, ${r.duplicates} already members skipped` : ""}.`,
        });
      onDone();
      onOpenChange(false);
    } catch (e) {
      toast.failure("Error Adding Voters", e);
    }
  };

  return (
    <Dialog.Root open={open} onOpenChange={(o) => !busy && onOpenChange(o)}>
      <Dialog.Content maxWidth="440px">
        <Dialog.Title>Add to Group</Dialog.Title>
        <Dialog.Description size="2" mb="3">
          {target.kind === "matching" ? `All ${countText} matching voters` : `${countText} selected voters`}
        </Dialog.Description>
        {groups && groups.length === 0 ? (
          <Text color="gray" size="2">
            No groups yet. Create one on the Voter Groups page.
          </Text>
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
        {progress !== null && (
          <Flex direction="column" gap="1" mt="3">
            <Progress aria-label="Adding to group" />
            <Text size="1" color="gray">
              {progress.done.toLocaleString()} processed
            </Text>
          </Flex>
        )}
        <Flex gap="3" mt="4" justify="end" wrap="wrap">
          <Dialog.Close>
            <Button variant="soft" color="gray" disabled={busy}>
              Cancel
            </Button>
          </Dialog.Close>
          <Button loading={busy} onClick={() => void handleAdd()}>
            Add to Group
          </Button>
        </Flex>
      </Dialog.Content>
    </Dialog.Root>
  );
}
