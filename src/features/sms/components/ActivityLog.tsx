import { Badge, Box, Button, Card, Flex, Heading, Text } from "@radix-ui/themes";
import { useState } from "react";
import { useActivityLog } from "../hooks/useSmsActivity";

const TYPE_COLORS = { info: "blue", success: "green", warning: "orange", error: "red" } as const;

/**
 * The real-time activity log (latest 100 entries). Clear Log hides what is shown now; the stored
 * log stays. It moves `since` to the newest shown entry (the server's clock, so no skew hides a
 * later entry).
 */
export function ActivityLog() {
  const [since, setSince] = useState(0);
  const { entries } = useActivityLog(since);
  const handleClear = () => {
    if (entries && entries.length > 0) setSince(Math.max(...entries.map((e) => e.at)));
  };
  return (
    <Card size="2">
      <Flex justify="between" align="center" mb="3">
        <Heading size="4" as="h2">
          Activity Log
        </Heading>
        <Button size="1" variant="soft" color="gray" onClick={handleClear} disabled={!entries || entries.length === 0}>
          Clear Log
        </Button>
      </Flex>
      <Box
        role="log"
        aria-label="Activity log"
        tabIndex={0}
        data-testid="sms.log"
        style={{ maxHeight: 300, overflowY: "auto" }}
      >
        {entries === undefined ? null : entries.length === 0 ? (
          <Text size="2" color="gray">
            No activity yet.
          </Text>
        ) : (
          <Flex direction="column" gap="2">
            {entries.map((e) => (
              <Flex key={e.id} gap="2" align="start">
                <Badge color={TYPE_COLORS[e.type]} variant="soft" style={{ minWidth: 58, justifyContent: "center" }}>
                  {e.type}
                </Badge>
                <Flex direction="column" style={{ minWidth: 0 }}>
                  <Text size="2" style={{ wordBreak: "break-word" }}>
                    {e.message}
                  </Text>
                  <Text size="1" color="gray">
                    {new Date(e.at).toLocaleTimeString()}
                  </Text>
                </Flex>
              </Flex>
            ))}
          </Flex>
        )}
      </Box>
    </Card>
  );
}
