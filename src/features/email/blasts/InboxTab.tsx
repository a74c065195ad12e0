import { MagnifyingGlassIcon } from "@radix-ui/react-icons";
import { Box, Button, Card, Flex, Text, TextField } from "@radix-ui/themes";
import { useState } from "react";
import { CampaignStatus } from "../components/CampaignStatus";
import type { EmailCampaignRow } from "../hooks/useEmailCampaigns";

type InboxTabProps = { campaigns: EmailCampaignRow[] | undefined; currentId: string | null; onOpen(id: string): void };

/** Inbox: the organisation's campaigns, most recently updated first; opening one shows Create & Edit. */
export function InboxTab({ campaigns, currentId, onOpen }: InboxTabProps) {
  const [search, setSearch] = useState("");
  const term = search.trim().toLowerCase();
  const rows = (campaigns ?? []).filter(
    (c) => !term || c.name.toLowerCase().includes(term) || c.subject.toLowerCase().includes(term),
  );
  return (
    <Card data-testid="email.inbox">
      <Flex direction="column" gap="3">
        <TextField.Root
          placeholder="Search messages"
          aria-label="Search messages"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        >
          <TextField.Slot>
            <MagnifyingGlassIcon />
          </TextField.Slot>
        </TextField.Root>
        {campaigns === undefined ? (
          <Text size="2" color="gray">
            Loading…
          </Text>
        ) : rows.length === 0 ? (
          <Text size="2" color="gray">
            {campaigns.length === 0 ? "No campaigns available" : "No messages match."}
          </Text>
        ) : (
          <Flex direction="column" gap="2" role="list" aria-label="Email campaigns">
            {rows.map((c) => (
              <Box key={c.id} role="listitem">
                <Button
                  variant="soft"
                  color={c.id === currentId ? "blue" : "gray"}
                  highContrast
                  aria-current={c.id === currentId || undefined}
                  style={{ height: "auto", padding: 10, justifyContent: "flex-start", width: "100%", minWidth: 0 }}
                  onClick={() => onOpen(c.id)}
                  data-testid="email.inbox.item"
                >
                  <Box style={{ textAlign: "left", minWidth: 0, flex: 1 }}>
                    <Flex justify="between" gap="2" align="center">
                      <Text weight="bold" truncate>
                        {c.subject || "No subject"}
                      </Text>
                      <CampaignStatus status={c.status} />
                    </Flex>
                    <Flex justify="between" gap="2" wrap="wrap">
                      <Text size="1" truncate>
                        {c.name}
                      </Text>
                      <Text size="1" color="gray">
                        Updated {new Date(c.updatedAt).toLocaleString()}
                      </Text>
                    </Flex>
                  </Box>
                </Button>
              </Box>
            ))}
          </Flex>
        )}
      </Flex>
    </Card>
  );
}
