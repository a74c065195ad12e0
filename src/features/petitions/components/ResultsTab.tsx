import { DownloadIcon } from "@radix-ui/react-icons";
import { Badge, Button, Flex, Select, Table, Text } from "@radix-ui/themes";
import { useState } from "react";
import type { Id } from "@convex/_generated/dataModel";
import { csvName, downloadCsv, toCsv } from "@/lib/csv";
import { ScrollTable } from "@/ui/ScrollTable";
import { toast } from "@/ui/toast";
import {
  percent,
  reasonLabel,
  STATUS_COLORS,
  STATUS_LABELS,
  type LineRow,
  type LineStatus,
} from "../utils/petitionDisplay";
import { Loading } from "@/ui/Loading";
import { usePetitionResults } from "../hooks/usePetitionResults";

const PAGE = 50;
const ALL = "all";

/** Results: every line's verdict with its reason, confidence and voter; adjudicate, duplicates, export. */
export function ResultsTab({
  petitionId,
  petitionName,
  canEnter,
  onAdjudicate,
  onDuplicates,
}: {
  petitionId: Id<"petitions">;
  petitionName: string;
  canEnter: boolean;
  onAdjudicate(id: Id<"petitionLines">): void;
  onDuplicates(id: Id<"petitionLines">): void;
}) {
  const [status, setStatus] = useState<string>(ALL);
  const { results, pageStatus, loadMore, claim, allLines } = usePetitionResults(
    petitionId,
    status === ALL ? null : (status as LineStatus),
    PAGE,
  );
  const [exporting, setExporting] = useState(false);

  const adjudicate = async (l: LineRow) => {
    try {
      await claim({ id: l.id });
      onAdjudicate(l.id);
    } catch (e) {
      toast.failure("Line claimed", e);
    }
  };
  const exportCsv = async () => {
    setExporting(true);
    try {
      const rows = (await allLines()).map((l) => [
        String(l.pageNumber),
        String(l.signerNumber),
        l.name,
        l.address,
        l.signedOn ?? "",
        STATUS_LABELS[l.status],
        reasonLabel(l.reason),
        l.confidence === null ? "" : String(l.confidence),
        l.voterName ?? "",
        l.voterFileId ?? "",
        l.adjudication ? `${l.adjudication.action} (${l.adjudication.valid ? "counts" : "does not count"})` : "",
        l.adjudication?.notes ?? "",
        l.adjudication?.byName ?? "",
      ]);
      downloadCsv(
        toCsv(
          [
            "Page",
            "Line",
            "Name",
            "Address",
            "Signed",
            "Status",
            "Reason",
            "Confidence",
            "Matched voter",
            "Voter ID",
            "Adjudication",
            "Notes",
            "Adjudicated by",
          ],
          rows,
        ),
        csvName(petitionName, "petition-results"),
      );
    } catch (e) {
      toast.failure("Export failed", e);
    } finally {
      setExporting(false);
    }
  };

  return (
    <Flex direction="column" gap="3">
      <Flex gap="2" align="center" wrap="wrap" justify="between">
        <Flex gap="2" align="center">
          <Text size="2" weight="medium" id="results-status">
            Status
          </Text>
          <Select.Root value={status} onValueChange={setStatus}>
            <Select.Trigger aria-labelledby="results-status" />
            <Select.Content>
              <Select.Item value={ALL}>All lines</Select.Item>
              {(Object.keys(STATUS_LABELS) as LineStatus[]).map((s) => (
                <Select.Item key={s} value={s}>
                  {STATUS_LABELS[s]}
                </Select.Item>
              ))}
            </Select.Content>
          </Select.Root>
        </Flex>
        <Button variant="soft" onClick={() => void exportCsv()} loading={exporting}>
          <DownloadIcon /> Export CSV
        </Button>
      </Flex>
      {pageStatus === "LoadingFirstPage" ? (
        <Loading size="2" />
      ) : (
        <ScrollTable label="Verification results" variant="surface" data-testid="results.table">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeaderCell>Page / Line</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Name</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Address</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Status</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Confidence</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Voter</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Actions</Table.ColumnHeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {results.length === 0 && (
              <Table.Row>
                <Table.Cell colSpan={7}>
                  <Text color="gray">No lines{status === ALL ? " yet" : " with this status"}.</Text>
                </Table.Cell>
              </Table.Row>
            )}
            {results.map((l) => (
              <Table.Row key={l.id} data-testid="results.row">
                <Table.Cell>
                  {l.pageNumber} / {l.signerNumber}
                </Table.Cell>
                <Table.Cell>{l.name}</Table.Cell>
                <Table.Cell>{l.address}</Table.Cell>
                <Table.Cell>
                  <Badge color={STATUS_COLORS[l.status]}>{STATUS_LABELS[l.status]}</Badge>
                  {l.reason && (
                    <Text as="div" size="1" color="gray">
                      {reasonLabel(l.reason)}
                    </Text>
                  )}
                  {l.adjudication && (
                    <Text as="div" size="1" color="gray">
                      {l.adjudication.action} by {l.adjudication.byName}
                    </Text>
                  )}
                  {l.claimedBy && (
                    <Text as="div" size="1" color="amber">
                      Being reviewed by {l.claimedBy}
                    </Text>
                  )}
                </Table.Cell>
                <Table.Cell>{percent(l.confidence)}</Table.Cell>
                <Table.Cell>{l.voterName ?? "—"}</Table.Cell>
                <Table.Cell>
                  <Flex gap="1" wrap="wrap">
                    {canEnter && l.status !== "pending" && (
                      <Button
                        size="1"
                        variant="soft"
                        onClick={() => void adjudicate(l)}
                        aria-label={`Adjudicate line ${l.signerNumber} of page ${l.pageNumber}`}
                      >
                        Adjudicate
                      </Button>
                    )}
                    {l.status === "duplicate" && (
                      <Button size="1" variant="soft" color="gray" onClick={() => onDuplicates(l.id)}>
                        Duplicates
                      </Button>
                    )}
                  </Flex>
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </ScrollTable>
      )}
      {pageStatus === "CanLoadMore" && (
        <Flex justify="center">
          <Button variant="soft" onClick={() => loadMore(PAGE)}>
            Load more
          </Button>
        </Flex>
      )}
    </Flex>
  );
}
