import { Button, Card, Flex, Heading, Skeleton, Text } from "@radix-ui/themes";
import { useRecentMessages } from "../hooks/useSmsActivity";
import { formatTime } from "../utils/smsDisplay";
import { SmsStatusBadge } from "./SmsStatusBadge";

/** Recent Messages: the latest three, live, with View All (Message History). Recipients show as "—" without access to voters. */
export function RecentMessages({ onViewAll }: { onViewAll(): void }) {
  const { recent } = useRecentMessages();
  return (
    <Card size="2" data-testid="sms.recent">
      <Flex justify="between" align="center" mb="3">
        <Heading size="4" as="h2">
          Recent Messages
        </Heading>
        <Button size="1" variant="soft" onClick={onViewAll}>
          View All
        </Button>
      </Flex>
      {recent === undefined ? (
        <Skeleton height="90px" />
      ) : recent.length === 0 ? (
        <Text size="2" color="gray">
          No messages sent yet.
        </Text>
      ) : (
        <Flex direction="column" gap="3">
          {recent.map((m) => (
            <Flex key={m.id} direction="column" gap="1" data-testid="sms.recentRow">
              <Flex justify="between" align="center" gap="2">
                <Text size="2" weight="medium" truncate>
                  {m.recipientName ?? "—"}{" "}
                  {m.phone !== null && (
                    <Text color="gray" weight="regular">
                      {m.phone}
                    </Text>
                  )}
                </Text>
                <SmsStatusBadge status={m.status} />
              </Flex>
              <Text size="1" color="gray" truncate>
                {m.body}
              </Text>
              <Text size="1" color="gray">
                {formatTime(m.sentAt ?? m.queuedAt)}
              </Text>
            </Flex>
          ))}
        </Flex>
      )}
    </Card>
  );
}
