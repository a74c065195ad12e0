import { Badge, Card, Heading, Table, Text, Link as RadixLink } from "@radix-ui/themes";
import { Link } from "react-router-dom";
import { ScrollTable } from "@/ui/ScrollTable";

type RecentImport = { id: string; filename: string; status: string; importedRecords: number; totalRecords: number; importDate: number };

const STATUS_COLORS: Record<string, "green" | "red" | "yellow" | "gray"> = { completed: "green", failed: "red", in_progress: "yellow", deleted: "gray" };

/** The latest contact imports. */
export function RecentImportsList({ imports }: { imports: RecentImport[] }) {
  return (
    <Card size="2">
      <Heading size="4" mb="3">Recent Imports</Heading>
      {imports.length === 0 ? (
        <Text size="2" color="gray">
          No imports yet. <RadixLink asChild><Link to="/voters/import">Import contacts</Link></RadixLink>
        </Text>
      ) : (
        <ScrollTable label="Recent Imports" size="1">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeaderCell>File</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Records</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Status</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Date</Table.ColumnHeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {imports.map((i) => (
              <Table.Row key={i.id}>
                <Table.Cell>{i.filename}</Table.Cell>
                <Table.Cell>{`${i.importedRecords.toLocaleString()} / ${i.totalRecords.toLocaleString()}`}</Table.Cell>
                <Table.Cell>
                  <Badge color={STATUS_COLORS[i.status] ?? "gray"}>{i.status}</Badge>
                </Table.Cell>
                <Table.Cell>{new Date(i.importDate).toLocaleDateString()}</Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </ScrollTable>
      )}
    </Card>
  );
}
