import { MagnifyingGlassIcon } from "@radix-ui/react-icons";
import { Box, Button, Dialog, Flex, ScrollArea, Select, Text, TextField, VisuallyHidden } from "@radix-ui/themes";
import { useState } from "react";
import type { EmailCampaignRow } from "../hooks/useEmailCampaigns";
import { CampaignStatus } from "./CampaignStatus";

const FILTERS = [
  { value: "all", label: "All" },
  { value: "sent", label: "Sent" },
  { value: "scheduled", label: "Scheduled" },
  { value: "draft", label: "Drafts" },
] as const;

/** The campaign list panel (350 px): search and a status filter; choosing a campaign opens it. */
export function CampaignListPanel({
  open,
  onOpenChange,
  campaigns,
  currentId,
  onOpen,
}: {
  open: boolean;
  onOpenChange: (o: boolean) => void;
  campaigns: EmailCampaignRow[] | undefined;
  currentId: string | null;
  onOpen: (id: string) => void;
}) {
  const [search, setSearch] = useState("");
  const [filter, setFilter] = useState<(typeof FILTERS)[number]["value"]>("all");
  const term = search.trim().toLowerCase();
  const rows = (campaigns ?? []).filter(
    (c) =>
      (filter === "all" || c.status === filter) &&
      (!term || c.name.toLowerCase().includes(term) || c.subject.toLowerCase().includes(term)),
  );
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Content
        style={{
          position: "fixed",
          top: 0,
          right: 0,
          bottom: 0,
          width: "min(350px, 100vw)",
          maxWidth: 350,
          maxHeight: "100vh",
          borderRadius: 0,
          margin: 0,
        }}
        data-testid="email.campaignList"
        aria-describedby={undefined}
      >
        <Dialog.Title>Campaigns</Dialog.Title>
        <VisuallyHidden>
          <Dialog.Description>Search and open an email campaign.</Dialog.Description>
        </VisuallyHidden>
        <Flex direction="column" gap="3">
          <TextField.Root
            placeholder="Search campaigns"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            aria-label="Search campaigns"
            data-testid="email.campaignList.search"
          >
            <TextField.Slot>
              <MagnifyingGlassIcon />
            </TextField.Slot>
          </TextField.Root>
          <Flex direction="column" gap="1">
            <Text size="1" id="email-status-filter">
              Status
            </Text>
            <Select.Root value={filter} onValueChange={(v) => setFilter(v as typeof filter)}>
              <Select.Trigger aria-labelledby="email-status-filter" data-testid="email.campaignList.status" />
              <Select.Content>
                {FILTERS.map((f) => (
                  <Select.Item key={f.value} value={f.value}>
                    {f.label}
                  </Select.Item>
                ))}
              </Select.Content>
            </Select.Root>
          </Flex>
          <ScrollArea type="auto" scrollbars="vertical" style={{ maxHeight: "calc(100vh - 240px)" }}>
            <Flex direction="column" gap="1" pr="2">
              {campaigns === undefined ? (
                <Text size="2" color="gray">
                  Loading…
                </Text>
              ) : rows.length === 0 ? (
                <Text size="2" color="gray">
                  {campaigns.length === 0 ? "No campaigns yet. Create one with New Campaign." : "No campaigns match."}
                </Text>
              ) : (
                rows.map((c) => (
                  <Button
                    key={c.id}
                    variant="soft"
                    color={c.id === currentId ? "blue" : "gray"}
                    highContrast
                    aria-current={c.id === currentId || undefined}
                    style={{ height: "auto", padding: 8, justifyContent: "flex-start", width: "100%", minWidth: 0 }}
                    onClick={() => onOpen(c.id)}
                    data-testid="email.campaignList.item"
                  >
                    <Box style={{ textAlign: "left", minWidth: 0, flex: 1 }}>
                      <Flex justify="between" gap="2">
                        <Text weight="medium" truncate>
                          {c.name}
                        </Text>
                        <CampaignStatus status={c.status} />
                      </Flex>
                      <Text as="div" size="1" color="gray" truncate>
                        {c.subject || "No subject"} · {new Date(c.updatedAt).toLocaleString()} by {c.updatedByName}
                      </Text>
                    </Box>
                  </Button>
                ))
              )}
            </Flex>
          </ScrollArea>
        </Flex>
      </Dialog.Content>
    </Dialog.Root>
  );
}
