import { Flex, Select, Text } from "@radix-ui/themes";
import { CampaignStatus } from "../components/CampaignStatus";
import type { EmailCampaignRow } from "../hooks/useEmailCampaigns";

type CampaignPickerProps = {
  campaigns: EmailCampaignRow[] | undefined;
  currentId: string | null;
  onOpen(id: string): void;
};

/** The dashboard's campaign picker: subject (or name) and status of each; picking one opens Create & Edit. */
export function CampaignPicker({ campaigns, currentId, onOpen }: CampaignPickerProps) {
  const none = campaigns !== undefined && campaigns.length === 0;
  return (
    <Flex direction="column" gap="1" style={{ flex: "1 1 260px", maxWidth: 480, minWidth: 0 }}>
      <Text size="2" weight="medium" id="email-dashboard-picker">
        Selected campaign
      </Text>
      <Select.Root value={currentId ?? ""} onValueChange={onOpen} disabled={!campaigns?.length}>
        <Select.Trigger
          aria-labelledby="email-dashboard-picker"
          placeholder={campaigns === undefined ? "Loading…" : none ? "No campaigns available" : "Select a campaign"}
          data-testid="email.dashboard.picker"
        />
        <Select.Content position="popper">
          {(campaigns ?? []).map((c) => (
            <Select.Item key={c.id} value={c.id}>
              <Flex as="span" gap="2" align="center">
                <span>{c.subject || c.name}</span>
                <CampaignStatus status={c.status} />
              </Flex>
            </Select.Item>
          ))}
        </Select.Content>
      </Select.Root>
    </Flex>
  );
}
