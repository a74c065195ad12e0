import { Badge, Card, Heading, Table, Text, Link as RadixLink } from "@radix-ui/themes";
import { Link } from "react-router-dom";
import type { FunctionReturnType } from "convex/server";
import type { api } from "@convex/_generated/api";
import { displayStatus, STATUS_COLORS } from "@/lib/import/format";
import { ScrollTable } from "@/ui/ScrollTable";
import { useNow } from "@/lib/useNow";
import { ROUTES } from "@/lib/routes";

type RecentImport = NonNullable<FunctionReturnType<typeof api.dashboard.stats>["recentImports"]>[number];

/**
 * The latest contact imports, with the status Import History shows: the server marks an import
 * without a batch for two minutes "interrupted", and the same rule is applied again as time
 * passes on this page.
 */
export function RecentImportsList({ imports }: { imports: RecentImport[] }) {
  const now = useNow();
  return (
    <Card size="2">
      <Heading as="h2" size="4" mb="3">
        Recent Imports
      </Heading>
      {imports.length === 0 ? (
        <Text size="2" color="gray">
          No imports yet.{" "}
          <RadixLink asChild>
            <Link to={ROUTES.importVoters}>Import contacts</Link>
          </RadixLink>
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
            {imports.map((i) => {
              const status = i.status === "interrupted" ? i.status : displayStatus(i.status, i.updatedAt, now);
              return (
                <Table.Row key={i.id}>
                  <Table.Cell>{i.filename}</Table.Cell>
                  <Table.Cell>{`${i.importedRecords.toLocaleString()} / ${i.totalRecords.toLocaleString()}`}</Table.Cell>
                  <Table.Cell>
                    <Badge color={STATUS_COLORS[status]} data-testid="dashboard.importStatus">
                      {status}
                    </Badge>
                  </Table.Cell>
                  <Table.Cell>{new Date(i.importDate).toLocaleDateString()}</Table.Cell>
                </Table.Row>
              );
            })}
          </Table.Body>
        </ScrollTable>
      )}
    </Card>
  );
}
