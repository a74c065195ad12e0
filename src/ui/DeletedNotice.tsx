import { Cross2Icon, InfoCircledIcon } from "@radix-ui/react-icons";
import { Button, Callout, Flex, IconButton } from "@radix-ui/themes";

/**
 * Tells someone editing a co-edited design that a teammate deleted what they were editing, with
 * Undo (which restores it as it is now, their own typing included). Announced politely; focus
 * stays where it is, so a keystroke in flight never presses Undo.
 */
export function DeletedNotice({
  by,
  what,
  onUndo,
  onDismiss,
  testId,
}: {
  by: string;
  what: string;
  onUndo: () => void;
  onDismiss: () => void;
  testId: string;
}) {
  return (
    <Callout.Root color="orange" size="1" role="status" data-testid={testId}>
      <Callout.Icon>
        <InfoCircledIcon />
      </Callout.Icon>
      <Flex direction="column" gap="2">
        <Callout.Text>
          {by || "A teammate"} deleted the {what} you were editing.
        </Callout.Text>
        <Flex gap="2">
          <Button size="1" variant="soft" color="orange" onClick={onUndo} data-testid={`${testId}.undo`}>
            Undo
          </Button>
          <IconButton size="1" variant="ghost" color="gray" aria-label="Dismiss" onClick={onDismiss}>
            <Cross2Icon />
          </IconButton>
        </Flex>
      </Flex>
    </Callout.Root>
  );
}
