import { Badge, Box, Button, Card, Flex, Table } from "@radix-ui/themes";
import { PlusIcon } from "@radix-ui/react-icons";
import { InDevelopmentHeader } from "./components/InDevelopmentHeader";
import { ScrollTable } from "@/ui/ScrollTable";

type WalkStatus = "Active" | "Completed" | "Scheduled" | "Paused";
const STATUS_COLORS: Record<WalkStatus, "green" | "blue" | "yellow" | "gray"> = {
  Active: "green",
  Completed: "blue",
  Scheduled: "yellow",
  Paused: "gray",
};

const SAMPLE_WALK_LISTS: { name: string; volunteer: string; doors: number; knocked: number; status: WalkStatus }[] = [
  { name: "Precinct 12 — Oak Street loop", volunteer: "Maria G.", doors: 120, knocked: 64, status: "Active" },
  { name: "Precinct 4 — Riverside", volunteer: "James T.", doors: 95, knocked: 95, status: "Completed" },
  { name: "Precinct 9 — Hillcrest", volunteer: "Priya S.", doors: 140, knocked: 0, status: "Scheduled" },
  { name: "Precinct 2 — Downtown lofts", volunteer: "Alex K.", doors: 80, knocked: 31, status: "Paused" },
];

/** /walk-lists: non-functional coming-soon page with sample data (spec/3 §2.7). */
export function WalkListsPage() {
  return (
    <Box>
      <InDevelopmentHeader
        title="Walk Lists"
        description="Plan canvassing routes, assign volunteers and track doors knocked."
      />
      <Flex gap="3" mb="4">
        <Button disabled>
          <PlusIcon /> Create Walk List
        </Button>
        <Button variant="soft" disabled>
          Assign Volunteers
        </Button>
      </Flex>
      <Card>
        <ScrollTable label="Walk Lists">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeaderCell>Walk list (sample)</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Volunteer</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Doors</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Status</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Actions</Table.ColumnHeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {SAMPLE_WALK_LISTS.map((w) => (
              <Table.Row key={w.name}>
                <Table.Cell>{w.name}</Table.Cell>
                <Table.Cell>{w.volunteer}</Table.Cell>
                <Table.Cell>{`${w.knocked} / ${w.doors}`}</Table.Cell>
                <Table.Cell>
                  <Badge color={STATUS_COLORS[w.status]}>{w.status}</Badge>
                </Table.Cell>
                <Table.Cell>
                  <Button size="1" variant="soft" disabled>
                    Open
                  </Button>
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </ScrollTable>
      </Card>
    </Box>
  );
}
