import { Card, Flex, Heading, Table, Text } from "@radix-ui/themes";
import { ScrollTable } from "@/ui/ScrollTable";
import { useClientErrors } from "../hooks/useClientErrors";

/** Errors staff hit in their browsers, as reported to /api/errors (newest first). */
export function ClientErrorsSection() {
  const { reports } = useClientErrors();
  return (
    <Card size="3" data-testid="admin.clientErrors">
      <Flex direction="column" gap="3">
        <Heading size="4">Application Errors</Heading>
        <Text size="2" color="gray">
          Crashes and failed background work reported by your team's browsers, with the Error ID shown on the crash
          screen.
        </Text>
        {reports === undefined ? (
          <Text size="2" color="gray">
            Loading…
          </Text>
        ) : reports.length === 0 ? (
          <Text size="2" color="gray">
            No errors reported.
          </Text>
        ) : (
          <ScrollTable label="Application Errors" size="1">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeaderCell>Reported</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>Error ID</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>Message</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>Page</Table.ColumnHeaderCell>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {reports.map((r) => (
                <Table.Row key={r.id}>
                  <Table.Cell>{new Date(r.reportedAt).toLocaleString()}</Table.Cell>
                  <Table.Cell>{r.errorId ?? "—"}</Table.Cell>
                  <Table.Cell>{r.message}</Table.Cell>
                  <Table.Cell>{r.url ? new URL(r.url, window.location.origin).pathname : "—"}</Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </ScrollTable>
        )}
      </Flex>
    </Card>
  );
}
