import { Button, Callout, Flex, Text } from "@radix-ui/themes";

/**
 * A field the user changed that a teammate saved meanwhile: their value, who saved it, and the
 * user's choice (keep my value, or take theirs).
 */
export function FieldConflict(props: {
  label: string;
  theirs: string;
  by?: string;
  onKeepMine(): void;
  onTakeTheirs(): void;
}) {
  const { label, theirs, by, onKeepMine, onTakeTheirs } = props;
  return (
    <Callout.Root color="amber" size="1" mt="1" role="status" data-testid="field-conflict">
      <Callout.Text>
        {by ?? "A teammate"} changed {label} while you were editing:{" "}
        {theirs === "" ? <Text weight="bold">(cleared)</Text> : <Text weight="bold">“{theirs}”</Text>}
      </Callout.Text>
      <Flex gap="2" mt="1">
        <Button type="button" size="1" variant="soft" onClick={onKeepMine}>
          Keep mine
        </Button>
        <Button type="button" size="1" variant="soft" color="gray" onClick={onTakeTheirs}>
          Take theirs
        </Button>
      </Flex>
    </Callout.Root>
  );
}
