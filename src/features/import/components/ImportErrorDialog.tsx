import { AlertDialog, Button, Code, Flex, Text } from "@radix-ui/themes";
import type { PendingRowError } from "../hooks/useImportRunner";

type ImportErrorDialogProps = { pending: PendingRowError | null };

/** Import Error (ask mode): skip and continue, ignore similar for the rest, or stop the import. */
export function ImportErrorDialog({ pending }: ImportErrorDialogProps) {
  const e = pending?.error;
  return (
    <AlertDialog.Root open={!!pending}>
      <AlertDialog.Content maxWidth="520px">
        <AlertDialog.Title>Import Error</AlertDialog.Title>
        {e && (
          <Flex direction="column" gap="2">
            <Text>
              <Text weight="bold">{`${e.first_name} ${e.last_name}`.trim() || "(no name)"}</Text>
              {e.email ? ` · ${e.email}` : ""}
            </Text>
            <AlertDialog.Description size="2">{e.message}</AlertDialog.Description>
            <Text size="1" color="gray">
              Details: line <Code>{e.row}</Code> of the file. Rows with this error are not imported.
            </Text>
          </Flex>
        )}
        <Flex gap="3" mt="4" justify="end" wrap="wrap">
          <Button variant="soft" onClick={() => pending?.decide("skip")}>
            Skip and Continue
          </Button>
          <Button variant="soft" color="orange" onClick={() => pending?.decide("ignore_similar")}>
            Ignore Similar Errors
          </Button>
          <Button color="red" onClick={() => pending?.decide("stop")}>
            Stop Import
          </Button>
        </Flex>
      </AlertDialog.Content>
    </AlertDialog.Root>
  );
}
