import { Badge, Card, Flex, Heading, Link as RadixLink, Table, Text } from "@radix-ui/themes";
import { Link } from "react-router-dom";
import type { FunctionReturnType } from "convex/server";
import type { api } from "@convex/_generated/api";
import { ScrollTable } from "@/ui/ScrollTable";
import { voterPath } from "@/lib/routes";

type RecentVoter = NonNullable<FunctionReturnType<typeof api.dashboard.stats>["recentVoters"]>[number];

type RecentVotersListProps = { title: string; voters: RecentVoter[]; emptyText: string };

/** The newest voters of the organisation. */
export function RecentVotersList({ title, voters, emptyText }: RecentVotersListProps) {
  return (
    <Card size="2">
      <Heading as="h2" size="4" mb="3">
        {title}
      </Heading>
      {voters.length === 0 ? (
        <Text size="2" color="gray">
          {emptyText}
        </Text>
      ) : (
        <ScrollTable label={title} size="1">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeaderCell>Name</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Email</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Status</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Added</Table.ColumnHeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {voters.map((v) => (
              <Table.Row key={v.id}>
                <Table.Cell>
                  <RadixLink asChild>
                    <Link to={voterPath(v.id)}>{`${v.firstName} ${v.lastName}`}</Link>
                  </RadixLink>
                </Table.Cell>
                <Table.Cell>{v.email ?? "—"}</Table.Cell>
                <Table.Cell>
                  <Flex>{v.status ? <Badge color="gray">{v.status}</Badge> : <Text color="gray">Unknown</Text>}</Flex>
                </Table.Cell>
                <Table.Cell>{new Date(v.createdAt).toLocaleDateString()}</Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </ScrollTable>
      )}
    </Card>
  );
}
