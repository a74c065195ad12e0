import { Box, Button, Dialog, Flex, Skeleton, Table, Text } from "@radix-ui/themes";
import type { Id } from "@convex/_generated/dataModel";
import { useMessageHistory } from "../hooks/useSmsActivity";
import { formatTime } from "../utils/smsDisplay";
import { SmsStatusBadge } from "./SmsStatusBadge";
import { ScrollTable } from "@/ui/ScrollTable";

const PAGE = 25;

type MessageHistoryDialogProps = {
  onOpenChange(open: boolean): void;
  /** one send's messages (a campaign's last send), or every message */
  sendId?: Id<"smsSends">;
  title?: string;
};

/** Message History (spec/2 §2.1): Recipient ("—" without access to voters), Message, Status, Sent At; newest first, paged. */
export function MessageHistoryDialog({ onOpenChange, sendId, title = "Message History" }: MessageHistoryDialogProps) {
  const { results, status, loadMore, isLoading } = useMessageHistory(sendId, PAGE);
  return (
    <Dialog.Root open onOpenChange={onOpenChange}>
      <Dialog.Content maxWidth="900px" aria-describedby={undefined}>
        <Dialog.Title>{title}</Dialog.Title>
        {isLoading && results.length === 0 ? (
          <Skeleton height="160px" />
        ) : results.length === 0 ? (
          <Text color="gray" size="2">
            No messages sent yet.
          </Text>
        ) : (
          <Box style={{ overflowX: "auto", minWidth: 0 }}>
            <ScrollTable label="Message History" size="1" data-testid="sms.messageHistory">
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeaderCell>Recipient</Table.ColumnHeaderCell>
                  <Table.ColumnHeaderCell>Message</Table.ColumnHeaderCell>
                  <Table.ColumnHeaderCell>Status</Table.ColumnHeaderCell>
                  <Table.ColumnHeaderCell>Sent At</Table.ColumnHeaderCell>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {results.map((m) => (
                  <Table.Row key={m.id} data-testid="sms.messageRow">
                    <Table.RowHeaderCell>
                      <Flex direction="column" style={{ minWidth: 120 }}>
                        <Text size="2" weight="medium">
                          {m.recipientName ?? "—"}
                        </Text>
                        {m.phone !== null && (
                          <Text size="1" color="gray">
                            {m.phone}
                          </Text>
                        )}
                      </Flex>
                    </Table.RowHeaderCell>
                    <Table.Cell style={{ minWidth: 160, maxWidth: 360 }}>
                      <Text size="2" style={{ whiteSpace: "pre-wrap", wordBreak: "break-word" }}>
                        {m.body}
                      </Text>
                      {m.error && (
                        <Text as="div" size="1" color="red">
                          {m.error}
                        </Text>
                      )}
                      {m.heldUntil && (
                        <Text as="div" size="1" color="gray">
                          Held for quiet hours until {formatTime(m.heldUntil)}
                        </Text>
                      )}
                    </Table.Cell>
                    <Table.Cell>
                      <SmsStatusBadge status={m.status} />
                    </Table.Cell>
                    <Table.Cell style={{ whiteSpace: "nowrap" }}>{formatTime(m.sentAt)}</Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </ScrollTable>
          </Box>
        )}
        <Flex gap="3" mt="4" justify="end">
          {status === "CanLoadMore" && (
            <Button variant="soft" onClick={() => loadMore(PAGE)}>
              Load more
            </Button>
          )}
          {status === "LoadingMore" && (
            <Button variant="soft" loading>
              Load more
            </Button>
          )}
          <Dialog.Close>
            <Button variant="soft" color="gray">
              Close
            </Button>
          </Dialog.Close>
        </Flex>
      </Dialog.Content>
    </Dialog.Root>
  );
}
