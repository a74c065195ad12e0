import { Button, Card, Flex, Grid, Progress, Text } from "@radix-ui/themes";
import { progressFigures } from "@/lib/import/format";
import type { ImportId } from "@/lib/import/runner";
import { usePresence } from "@/lib/presence/usePresence";
import { PresenceAvatars } from "@/ui/PresenceAvatars";
import { useImportDoc } from "../hooks/useImport";

type ProgressPanelProps = { importId: ImportId | null; onCancel(): void };

/** Live progress of a running import, read from the import document (teammates see the same figures). */
export function ProgressPanel({ importId, onCancel }: ProgressPanelProps) {
  const { doc } = useImportDoc(importId);
  const presence = usePresence(importId ? `import:${importId}` : null);
  const fig = doc
    ? progressFigures({
        processed: doc.processed_records,
        startedAt: doc.import_date,
        updatedAt: doc.updatedAt,
        total: doc.summary_stats.total_known ? doc.total_records : null,
        bytesDone: doc.bytes_done ?? undefined,
        bytesTotal: doc.bytes_total ?? undefined,
      })
    : null;
  return (
    <Card size="3" data-testid="import.progress">
      <Flex direction="column" gap="3">
        <Flex justify="between" align="center" wrap="wrap" gap="3">
          <Flex direction="column" gap="1">
            <Text size="4" weight="bold" id="import-progress-title">
              Importing{doc ? ` ${doc.filename}` : "…"}
            </Text>
            <PresenceAvatars people={presence.others} label="watching" />
          </Flex>
          <Button color="red" variant="soft" onClick={onCancel}>
            Cancel Import
          </Button>
        </Flex>
        <Progress
          aria-labelledby="import-progress-title"
          value={fig?.fraction !== null && fig?.fraction !== undefined ? fig.fraction * 100 : undefined}
          size="3"
        />
        <Grid columns={{ initial: "2", sm: "5" }} gap="3">
          <Figure label="Rows processed" value={doc ? doc.processed_records.toLocaleString() : "0"} />
          <Figure label="Imported" value={doc ? doc.imported_records.toLocaleString() : "0"} />
          <Figure label="Duplicates" value={doc ? doc.duplicate_records.toLocaleString() : "0"} />
          <Figure label="Errors" value={doc ? doc.failed_records.toLocaleString() : "0"} />
          <Figure
            label="Rate · ETA"
            value={
              fig
                ? `${Math.round(fig.rate).toLocaleString()} rows/s · ${fig.etaSeconds !== null ? `${Math.ceil(fig.etaSeconds)}s left` : "…"}`
                : "…"
            }
          />
        </Grid>
      </Flex>
    </Card>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <Flex direction="column">
      <Text size="1" color="gray">
        {label}
      </Text>
      <Text size="3" weight="bold">
        {value}
      </Text>
    </Flex>
  );
}
