import { AlertDialog, Button, Flex } from "@radix-ui/themes";

type CancelImportDialogProps = {
  open: boolean;
  /** "Stop Import" from the error dialog: the import has ended, so there is nothing to continue */
  stopped?: boolean;
  onContinue(): void;
  onKeep(): void;
  onDelete(): void;
};

/** "Cancel Import?" (and after Stop Import): keep what was imported so far, or delete it all. */
export function CancelImportDialog({ open, stopped = false, onContinue, onKeep, onDelete }: CancelImportDialogProps) {
  return (
    <AlertDialog.Root open={open} onOpenChange={(o) => !o && !stopped && onContinue()}>
      <AlertDialog.Content maxWidth="520px">
        <AlertDialog.Title>{stopped ? "Import Stopped" : "Cancel Import?"}</AlertDialog.Title>
        <AlertDialog.Description size="2">
          {stopped
            ? "The import stopped before the row with the error. Keep the contacts imported before it, or delete all records imported by this file."
            : "The import is paused. Keep the contacts imported so far, or delete all records imported by this file so far."}
        </AlertDialog.Description>
        <Flex gap="3" mt="4" justify="end" wrap="wrap">
          {!stopped && (
            <Button variant="soft" color="gray" onClick={onContinue}>
              Continue Importing
            </Button>
          )}
          <Button variant="soft" onClick={onKeep}>
            Keep Imported Records
          </Button>
          <Button color="red" onClick={onDelete}>
            Delete Imported Records
          </Button>
        </Flex>
      </AlertDialog.Content>
    </AlertDialog.Root>
  );
}
