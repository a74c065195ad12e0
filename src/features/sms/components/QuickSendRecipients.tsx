import { Badge, Button, Checkbox, Flex, Skeleton, Table, Text } from "@radix-ui/themes";
import { useMemo } from "react";
import type { Id } from "@convex/_generated/dataModel";
import { normalizePhone } from "@convex/lib/sms/rules";
import { ScrollTable } from "@/ui/ScrollTable";
import { useQuickSendRecipients } from "../hooks/useAudience";

const PAGE = 100;

type QuickSendRecipientsProps = {
  /** "" for all voters */
  status: string;
  selected: ReadonlySet<Id<"voters">>;
  onToggle(ids: Id<"voters">[], on: boolean): void;
};

/** The Select Recipients table: checkbox, Name, Phone, Status. Voters without a usable phone, or whose number opted out, cannot be ticked. */
export function QuickSendRecipients({ status, selected, onToggle }: QuickSendRecipientsProps) {
  const { list, optedOutIds } = useQuickSendRecipients(status, PAGE);
  const voters = list.results;
  // numbers that opted out are never texted: marked, and they cannot be ticked
  const optedOut = useMemo(() => new Set<string>(optedOutIds ?? []), [optedOutIds]);
  const tickable = voters.filter((v) => v.phone && normalizePhone(v.phone) && !optedOut.has(v._id)).map((v) => v._id);
  const allOn = tickable.length > 0 && tickable.every((id) => selected.has(id));
  const someOn = tickable.some((id) => selected.has(id));

  if (list.isLoading && voters.length === 0) return <Skeleton height="160px" />;
  return (
    <>
      <Text as="p" size="2" color="gray" mb="2" data-testid="sms.selectedCount">
        {selected.size} of {voters.length} voters selected
      </Text>
      <ScrollTable label="Select Recipients" size="1" data-testid="sms.recipients">
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeaderCell width="32px">
              <Checkbox
                aria-label="Select all voters with a phone"
                checked={allOn ? true : someOn ? "indeterminate" : false}
                disabled={tickable.length === 0}
                onCheckedChange={(c) => onToggle(tickable, c === true)}
              />
            </Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>Name</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>Phone</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>Status</Table.ColumnHeaderCell>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {voters.length === 0 && (
            <Table.Row>
              <Table.Cell colSpan={4}>
                <Text size="2" color="gray">
                  No voters found.
                </Text>
              </Table.Cell>
            </Table.Row>
          )}
          {voters.map((v) => {
            const name = `${v.first_name} ${v.last_name}`;
            const phone = v.phone ? normalizePhone(v.phone) : null;
            const out = optedOut.has(v._id);
            return (
              <Table.Row key={v._id} data-testid="sms.recipient">
                <Table.Cell>
                  <Checkbox
                    aria-label={`Select ${name}`}
                    checked={selected.has(v._id) && !out}
                    disabled={!phone || out}
                    onCheckedChange={(c) => onToggle([v._id], c === true)}
                  />
                </Table.Cell>
                <Table.RowHeaderCell>{name}</Table.RowHeaderCell>
                <Table.Cell style={{ whiteSpace: "nowrap" }}>
                  {v.phone ? v.phone : <Text color="gray">No phone</Text>}
                  {v.phone && !phone && (
                    <Text as="div" size="1" color="red">
                      Invalid number
                    </Text>
                  )}
                  {out && (
                    <Badge color="red" ml="1" data-testid="sms.recipient.optedOut">
                      Opted out
                    </Badge>
                  )}
                </Table.Cell>
                <Table.Cell>{v.status ?? "—"}</Table.Cell>
              </Table.Row>
            );
          })}
        </Table.Body>
      </ScrollTable>
      {list.status === "CanLoadMore" && (
        <Flex justify="center" mt="2">
          <Button size="1" variant="soft" onClick={() => list.loadMore(PAGE)}>
            Load more voters
          </Button>
        </Flex>
      )}
    </>
  );
}
