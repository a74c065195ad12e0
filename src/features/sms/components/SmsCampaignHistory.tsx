import { ListBulletIcon, PaperPlaneIcon, Pencil1Icon, TrashIcon } from "@radix-ui/react-icons";
import { Card, Flex, Heading, IconButton, Skeleton, Table, Text, Tooltip } from "@radix-ui/themes";
import type { SmsCampaign } from "../hooks/useSmsCampaigns";
import { sendTotals } from "../utils/smsDisplay";
import { CampaignStatusBadge } from "./CampaignStatusBadge";
import { ScrollTable } from "@/ui/ScrollTable";

type SmsCampaignHistoryProps = {
  campaigns: SmsCampaign[] | undefined;
  canManage: boolean;
  canSend: boolean;
  onSend(c: SmsCampaign): void;
  onEdit(c: SmsCampaign): void;
  onDelete(c: SmsCampaign): void;
  onMessages(c: SmsCampaign): void;
};

/** Campaign History of the Text Blast tab (spec/2 §2.1): campaign, status, date, actions. */
export function SmsCampaignHistory({
  campaigns,
  canManage,
  canSend,
  onSend,
  onEdit,
  onDelete,
  onMessages,
}: SmsCampaignHistoryProps) {
  return (
    <Card size="3">
      <Heading size="4" as="h2" mb="3">
        Campaign History
      </Heading>
      {campaigns === undefined ? (
        <Skeleton height="120px" />
      ) : (
        <ScrollTable label="Campaign History" data-testid="sms.history">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeaderCell>Campaign</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Status</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Date</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell align="right">Actions</Table.ColumnHeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {campaigns.length === 0 && (
              <Table.Row>
                <Table.Cell colSpan={4}>
                  <Text color="gray" size="2">
                    No SMS campaigns created yet. Click "New SMS Campaign" to get started.
                  </Text>
                </Table.Cell>
              </Table.Row>
            )}
            {campaigns.map((c) => {
              const last = c.lastSend ? sendTotals(c.lastSend) : null;
              return (
                <Table.Row key={c.id} data-testid="sms.campaign">
                  <Table.RowHeaderCell>
                    <Flex direction="column" style={{ minWidth: 140 }}>
                      <Text weight="medium">{c.name}</Text>
                      {c.description && (
                        <Text size="1" color="gray">
                          {c.description}
                        </Text>
                      )}
                      {last && c.lastSend && (
                        <Text size="1" color="gray">
                          {c.lastSend.demo ? "Demo: " : ""}
                          {last.ok} sent · {last.failed} failed
                          {c.lastSend.counts.queued > 0 ? ` · ${c.lastSend.counts.queued} queued` : ""}
                        </Text>
                      )}
                    </Flex>
                  </Table.RowHeaderCell>
                  <Table.Cell>
                    <CampaignStatusBadge status={c.status} />
                  </Table.Cell>
                  <Table.Cell style={{ whiteSpace: "nowrap" }}>{new Date(c.createdAt).toLocaleDateString()}</Table.Cell>
                  <Table.Cell align="right">
                    <Flex gap="2" justify="end">
                      {canSend && (
                        <Tooltip content="Send">
                          <IconButton variant="soft" aria-label={`Send campaign ${c.name}`} onClick={() => onSend(c)}>
                            <PaperPlaneIcon />
                          </IconButton>
                        </Tooltip>
                      )}
                      {c.lastSend && (
                        <Tooltip content="Messages">
                          <IconButton
                            variant="soft"
                            color="gray"
                            aria-label={`Messages of campaign ${c.name}`}
                            onClick={() => onMessages(c)}
                          >
                            <ListBulletIcon />
                          </IconButton>
                        </Tooltip>
                      )}
                      {canManage && (
                        <Tooltip content="Edit">
                          <IconButton
                            variant="soft"
                            color="gray"
                            aria-label={`Edit campaign ${c.name}`}
                            onClick={() => onEdit(c)}
                          >
                            <Pencil1Icon />
                          </IconButton>
                        </Tooltip>
                      )}
                      {canManage && (
                        <Tooltip content="Delete">
                          <IconButton
                            variant="soft"
                            color="red"
                            aria-label={`Delete campaign ${c.name}`}
                            onClick={() => onDelete(c)}
                          >
                            <TrashIcon />
                          </IconButton>
                        </Tooltip>
                      )}
                    </Flex>
                  </Table.Cell>
                </Table.Row>
              );
            })}
          </Table.Body>
        </ScrollTable>
      )}
    </Card>
  );
}
