import { DownloadIcon } from "@radix-ui/react-icons";
import { Button, DropdownMenu } from "@radix-ui/themes";
import { toast } from "@/ui/toast";
import type { VoterListFilter } from "../hooks/useVoterList";
import { useVoterExport } from "../hooks/useVoterExport";
import { ExportLimitError } from "../utils/exportWriter";

export function VoterExportMenu({ filter }: { filter: VoterListFilter }) {
  const { run, exporting, exported } = useVoterExport(filter);
  const handleExport = async (format: "csv" | "xlsx") => {
    try {
      const n = await run(format);
      toast.success("Export complete", { description: `${n} records exported.` });
    } catch (e) {
      // the XLSX row/size limit is the export's own known error (its text is ours); anything else
      // is presented by the catalogue
      toast.failure("Export failed", e, e instanceof ExportLimitError ? { description: e.text } : {});
    }
  };
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger disabled={exporting}>
        <Button variant="soft" data-testid="voters.export">
          <DownloadIcon /> {exporting ? `Exporting… ${exported}` : "Export"}
        </Button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Content>
        <DropdownMenu.Item onSelect={() => void handleExport("csv")}>Export CSV</DropdownMenu.Item>
        <DropdownMenu.Item onSelect={() => void handleExport("xlsx")}>Export Excel (.xlsx)</DropdownMenu.Item>
      </DropdownMenu.Content>
    </DropdownMenu.Root>
  );
}
