import { Button, Flex, Progress, Table, Text } from "@radix-ui/themes";
import { Link } from "react-router-dom";
import type { Id } from "@convex/_generated/dataModel";
import { canvassDashboardPath } from "@/lib/routes";
import { ScrollTable } from "@/ui/ScrollTable";
import type { WalkListRow } from "../hooks/useWalkLists";
import { StatusBadge } from "./StatusBadge";

function day(ms: number) {
  return new Date(ms).toLocaleDateString("en-US", { month: "short", day: "numeric", year: "numeric" });
}

/** The walk lists with status, progress (doors knocked / total, contacts) and who is out on each; organisers open a list's live dashboard. */
export function WalkListTable({
  lists,
  onOpen,
  canManage = false,
}: {
  lists: WalkListRow[];
  onOpen(id: Id<"walkLists">): void;
  canManage?: boolean;
}) {
  return (
    <ScrollTable label="Walk Lists">
      <Table.Header>
        <Table.Row>
          <Table.ColumnHeaderCell>Walk list</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Canvassers</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Doors</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Status</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Actions</Table.ColumnHeaderCell>
        </Table.Row>
      </Table.Header>
      <Table.Body>
        {lists.map((l) => (
          <Table.Row key={l.id} data-testid="walkList.row">
            <Table.Cell>
              <Text weight="medium" as="div">
                {l.name}
              </Text>
              <Text size="1" color="gray" as="div">
                {`${l.turfName}${l.surveyName ? ` · ${l.surveyName}` : ""} · expires ${day(l.expiresAt)}`}
              </Text>
            </Table.Cell>
            <Table.Cell data-testid="walkList.assignees">
              {l.assignees.length ? l.assignees.map((a) => a.name).join(", ") : <Text color="gray">Not assigned</Text>}
            </Table.Cell>
            <Table.Cell data-testid="walkList.progress">
              <Flex direction="column" gap="1" style={{ minWidth: 110 }}>
                <Text size="2">{`${l.knocked.toLocaleString("en-US")} / ${l.doors.toLocaleString("en-US")}`}</Text>
                <Progress
                  value={l.doors ? (100 * l.knocked) / l.doors : 0}
                  aria-label={`${l.name}: doors knocked`}
                  size="1"
                />
                <Text size="1" color="gray">{`${l.contacts.toLocaleString("en-US")} contacts`}</Text>
              </Flex>
            </Table.Cell>
            <Table.Cell>
              <StatusBadge status={l.status} expired={l.expired} />
            </Table.Cell>
            <Table.Cell>
              <Flex gap="2" wrap="wrap">
                <Button size="1" variant="soft" onClick={() => onOpen(l.id)} aria-label={`Open ${l.name}`}>
                  Open
                </Button>
                {canManage && (
                  <Button size="1" variant="soft" asChild>
                    <Link to={canvassDashboardPath(l.id)} aria-label={`Live dashboard: ${l.name}`}>
                      Live
                    </Link>
                  </Button>
                )}
              </Flex>
            </Table.Cell>
          </Table.Row>
        ))}
      </Table.Body>
    </ScrollTable>
  );
}
