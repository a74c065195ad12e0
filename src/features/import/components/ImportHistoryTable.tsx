import { Button, Table, Text } from "@radix-ui/themes";
import type { FunctionReturnType } from "convex/server";
import type { api } from "@convex/_generated/api";
import { displayStatus, formatDuration, successRate, successRateColor } from "@/lib/import/format";
import { ImportStatusBadge } from "./ImportStatusBadge";
import { ScrollTable } from "@/ui/ScrollTable";

type ImportView = FunctionReturnType<typeof api.imports.list>[number];
type ImportHistoryTableProps = { items: ImportView[]; now: number; onView(item: ImportView): void };

/** ID, filename, date, imported/total with failed count, success rate, duration, status, View Details. */
export function ImportHistoryTable({ items, now, onView }: ImportHistoryTableProps) {
  return (
    <ScrollTable label="Import History" variant="surface" data-testid="importHistory.table">
      <Table.Header>
        <Table.Row>
          <Table.ColumnHeaderCell>ID</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Filename</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Date</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Records</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Success Rate</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Duration</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Status</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell />
        </Table.Row>
      </Table.Header>
      <Table.Body>
        {items.map((i) => {
          const total = i.total_records || i.processed_records;
          const rate = successRate(i.imported_records, total);
          const status = displayStatus(i.status, i.updatedAt, now);
          return (
            <Table.Row key={i._id}>
              <Table.Cell>
                <Text size="1" color="gray" title={i._id}>
                  {i._id.slice(-8)}
                </Text>
              </Table.Cell>
              <Table.RowHeaderCell>{i.filename}</Table.RowHeaderCell>
              <Table.Cell>{new Date(i.import_date).toLocaleString()}</Table.Cell>
              <Table.Cell>
                {i.imported_records.toLocaleString()}/{total.toLocaleString()}
                {i.failed_records > 0 && (
                  <Text color="red" size="1">
                    {" "}
                    ({i.failed_records.toLocaleString()} failed)
                  </Text>
                )}
                {i.status === "in_progress" && status === "in_progress" && (
                  <Text color="gray" size="1">
                    {" "}
                    · {i.processed_records.toLocaleString()} read
                  </Text>
                )}
              </Table.Cell>
              <Table.Cell>
                <Text color={successRateColor(rate)} weight="medium">
                  {rate.toFixed(1)}%
                </Text>
              </Table.Cell>
              <Table.Cell>{formatDuration(i.import_duration_ms)}</Table.Cell>
              <Table.Cell>
                <ImportStatusBadge status={status} deleting={i.deleting} />
              </Table.Cell>
              <Table.Cell>
                <Button size="1" variant="soft" onClick={() => onView(i)} aria-label={`View Details of ${i.filename}`}>
                  View Details
                </Button>
              </Table.Cell>
            </Table.Row>
          );
        })}
      </Table.Body>
    </ScrollTable>
  );
}
