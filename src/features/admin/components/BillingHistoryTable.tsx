import { Badge, Card, Heading, Table, Text } from "@radix-ui/themes";
import { ScrollTable } from "@/ui/ScrollTable";
import { useBillingHistory } from "../hooks/useSubscription";

/** Billing History: the recorded plan changes (status paid green, anything else red). */
export function BillingHistoryTable() {
  const { history } = useBillingHistory();
  return (
    <Card size="3">
      <Heading size="4" mb="3">
        Billing History
      </Heading>
      {history === undefined ? (
        <Text color="gray">Loading...</Text>
      ) : history.length === 0 ? (
        <Text color="gray">No billing history yet.</Text>
      ) : (
        <ScrollTable label="Billing History" data-testid="subscription.history">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeaderCell>Date</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Description</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Amount</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Status</Table.ColumnHeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {history.map((h) => (
              <Table.Row key={h.id}>
                <Table.Cell>{new Date(h.date).toLocaleDateString()}</Table.Cell>
                <Table.Cell>{h.description}</Table.Cell>
                <Table.Cell>${h.amount.toFixed(2)}</Table.Cell>
                <Table.Cell>
                  <Badge color={h.status === "paid" ? "green" : "red"}>{h.status}</Badge>
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </ScrollTable>
      )}
    </Card>
  );
}
