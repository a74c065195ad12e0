import { Badge, Card, Flex, Heading, Table, Text } from "@radix-ui/themes";
import { ScrollTable } from "@/ui/ScrollTable";

type SmsCampaignRow = { id: string; name: string; description: string | null; status: string; createdAt: number };

const STATUS_COLORS: Record<string, "gray" | "blue" | "green" | "red" | "yellow"> = {
  draft: "gray",
  scheduled: "blue",
  sending: "yellow",
  sent: "green",
  completed: "green",
  failed: "red",
};

/** Campaign History of the Text Blast tab (spec/2 §2.1). */
export function SmsCampaignHistory({ campaigns }: { campaigns: SmsCampaignRow[] | undefined }) {
  return (
    <Card size="3">
      <Heading size="4" mb="3">Campaign History</Heading>
      <ScrollTable label="Campaign History" data-testid="sms.history">
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeaderCell>Campaign</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>Status</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>Date</Table.ColumnHeaderCell>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {campaigns && campaigns.length === 0 && (
            <Table.Row>
              <Table.Cell colSpan={3}>
                <Text color="gray" size="2">No SMS campaigns created yet. Click "New SMS Campaign" to get started.</Text>
              </Table.Cell>
            </Table.Row>
          )}
          {campaigns?.map((c) => (
            <Table.Row key={c.id}>
              <Table.Cell>
                <Flex direction="column">
                  <Text weight="medium">{c.name}</Text>
                  {c.description && <Text size="1" color="gray">{c.description}</Text>}
                </Flex>
              </Table.Cell>
              <Table.Cell>
                <Badge color={STATUS_COLORS[c.status] ?? "gray"}>{c.status}</Badge>
              </Table.Cell>
              <Table.Cell>{new Date(c.createdAt).toLocaleDateString()}</Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </ScrollTable>
    </Card>
  );
}
