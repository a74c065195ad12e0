import { Button, Flex, Table, Text } from "@radix-ui/themes";
import { ScrollTable } from "@/ui/ScrollTable";
import { useSignTable } from "../hooks/useSignTable";
import type { StatusFilter } from "../utils/signDisplay";
import { formatDay, formatDayTime } from "../utils/signDisplay";
import { SignActionsMenu, type SignActionHandlers } from "./SignActions";
import { SignStatusBadge } from "./SignStatusBadge";
import { Loading } from "@/ui/Loading";

const PAGE = 50;

/** Table View (spec/3 §2.6): Status, Campaign, Address, Date Placed, Responsible/Assigned By, Actions. */
export function SignTable({
  status,
  canManage,
  actions,
}: {
  status: StatusFilter;
  canManage: boolean;
  actions: SignActionHandlers;
}) {
  const { results, pageStatus, loadMore } = useSignTable(status, PAGE);
  if (pageStatus === "LoadingFirstPage") return <Loading inline size="2" />;
  return (
    <>
      <ScrollTable label="Signs" variant="surface" data-testid="signs.table">
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeaderCell>Status</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>Campaign</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>Address</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>Date Placed</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>Responsible/Assigned By</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>Actions</Table.ColumnHeaderCell>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {results.length === 0 && (
            <Table.Row>
              <Table.Cell colSpan={6}>
                <Text color="gray">No signs{status === "All" ? " yet" : ` with status ${status}`}.</Text>
              </Table.Cell>
            </Table.Row>
          )}
          {results.map((s) => (
            <Table.Row key={s.id} data-testid="signs.row">
              <Table.Cell>
                <SignStatusBadge status={s.status} pickupDue={s.pickupDue} />
              </Table.Cell>
              <Table.Cell>{s.campaignName}</Table.Cell>
              <Table.Cell>{s.address}</Table.Cell>
              <Table.Cell>{s.scheduledTime ? formatDayTime(s.datePlaced) : formatDay(s.datePlaced)}</Table.Cell>
              <Table.Cell>
                {s.responsibleName ?? "—"}
                {s.assignedByName ? ` / ${s.assignedByName}` : ""}
              </Table.Cell>
              <Table.Cell>
                <SignActionsMenu
                  sign={{
                    id: s.id,
                    address: s.address,
                    status: s.status,
                    latitude: s.latitude,
                    longitude: s.longitude,
                  }}
                  canManage={canManage}
                  actions={actions}
                />
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </ScrollTable>
      {pageStatus === "CanLoadMore" && (
        <Flex justify="center" mt="3">
          <Button variant="soft" onClick={() => loadMore(PAGE)}>
            Load more
          </Button>
        </Flex>
      )}
    </>
  );
}
