import { AlertDialog, Button, Flex } from "@radix-ui/themes";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { usePagedCount } from "../hooks/usePagedCount";

type DeleteFieldDialogProps = {
  field: { _id: Id<"customFieldDefs">; label: string } | null;
  onOpenChange(open: boolean): void;
  onConfirm(): void;
};

/** "412 voters have a value for this field. Delete it?" — counted exactly (in pages) before it may be confirmed. */
export function DeleteFieldDialog({ field, onOpenChange, onConfirm }: DeleteFieldDialogProps) {
  const count = usePagedCount(api.customFields.countValues, field ? { id: field._id } : "skip");
  const question = !count.done
    ? `Counting the voters with a value for this field…${count.started ? ` ${count.total.toLocaleString()}+` : ""}`
    : count.total === 0
      ? "No voters have a value for this field. Delete it?"
      : count.total === 1
        ? "1 voter has a value for this field. Delete it?"
        : `${count.total.toLocaleString()} voters have a value for this field. Delete it?`;
  return (
    <AlertDialog.Root open={field !== null} onOpenChange={onOpenChange}>
      <AlertDialog.Content maxWidth="480px">
        <AlertDialog.Title>Delete field {field?.label ?? ""}</AlertDialog.Title>
        <AlertDialog.Description size="2" aria-live="polite" data-testid="voters.deleteFieldQuestion">
          {question}
        </AlertDialog.Description>
        <Flex gap="3" mt="4" justify="end">
          <AlertDialog.Cancel>
            <Button variant="soft" color="gray">
              Cancel
            </Button>
          </AlertDialog.Cancel>
          <AlertDialog.Action>
            <Button color="red" disabled={!count.done} onClick={onConfirm}>
              Delete
            </Button>
          </AlertDialog.Action>
        </Flex>
      </AlertDialog.Content>
    </AlertDialog.Root>
  );
}
