import { DownloadIcon } from "@radix-ui/react-icons";
import { AlertDialog, Button, Callout, DropdownMenu, Flex } from "@radix-ui/themes";
import { useState } from "react";
import { exportNotice, stateFileUse } from "@convex/lib/voters/fileUse";
import { toast } from "@/ui/toast";
import type { VoterListFilter } from "../hooks/useVoterList";
import { useVoterExport, useVoterExportStates } from "../hooks/useVoterExport";
import { ExportLimitError } from "../utils/exportWriter";

type Format = "csv" | "xlsx";

export function VoterExportMenu({ filter }: { filter: VoterListFilter }) {
  const { run, exporting, exported } = useVoterExport(filter);
  // the export writes every voter-file field: the states the organisation's imports were attested for restrict it
  const states = useVoterExportStates()
    .map((code) => stateFileUse(code))
    .filter((s) => s !== null);
  const [confirming, setConfirming] = useState<Format | null>(null);
  const handleExport = async (format: Format) => {
    try {
      const n = await run(format);
      toast.success("Export complete", { description: `${n} records exported.` });
    } catch (e) {
      // the XLSX row/size limit is the export's own known error (its text is ours); anything else
      // is presented by the catalogue
      toast.failure("Export failed", e, e instanceof ExportLimitError ? { description: e.text } : {});
    }
  };
  const choose = (format: Format) => {
    if (states.length > 0) setConfirming(format);
    else void handleExport(format);
  };
  return (
    <>
      <DropdownMenu.Root>
        <DropdownMenu.Trigger disabled={exporting}>
          <Button variant="soft" data-testid="voters.export">
            <DownloadIcon /> {exporting ? `Exporting… ${exported}` : "Export"}
          </Button>
        </DropdownMenu.Trigger>
        <DropdownMenu.Content>
          <DropdownMenu.Item onSelect={() => choose("csv")}>Export CSV</DropdownMenu.Item>
          <DropdownMenu.Item onSelect={() => choose("xlsx")}>Export Excel (.xlsx)</DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Root>
      <AlertDialog.Root open={confirming !== null} onOpenChange={(o) => !o && setConfirming(null)}>
        <AlertDialog.Content maxWidth="560px" data-testid="voters.exportNotice">
          <AlertDialog.Title>Voter file use restrictions</AlertDialog.Title>
          <AlertDialog.Description size="2">
            This export contains voter-file data. Its use is restricted by the state it came from, and the export is
            recorded in the audit log.
          </AlertDialog.Description>
          <Flex direction="column" gap="2" mt="3">
            {states.map((s) => (
              <Callout.Root key={s.code} color={s.crime ? "red" : "orange"} size="1">
                <Callout.Text>{exportNotice(s)}</Callout.Text>
              </Callout.Root>
            ))}
          </Flex>
          <Flex gap="3" mt="4" justify="end" wrap="wrap">
            <AlertDialog.Cancel>
              <Button variant="soft" color="gray">
                Cancel
              </Button>
            </AlertDialog.Cancel>
            <AlertDialog.Action>
              <Button
                onClick={() => {
                  const format = confirming;
                  setConfirming(null);
                  if (format) void handleExport(format);
                }}
              >
                {confirming === "xlsx" ? "Export Excel (.xlsx)" : "Export CSV"}
              </Button>
            </AlertDialog.Action>
          </Flex>
        </AlertDialog.Content>
      </AlertDialog.Root>
    </>
  );
}
