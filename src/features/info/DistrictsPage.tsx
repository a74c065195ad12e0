import { Badge, Box, Button, Card, Flex, Table } from "@radix-ui/themes";
import { PlusIcon } from "@radix-ui/react-icons";
import { InDevelopmentHeader } from "./components/InDevelopmentHeader";
import { ScrollTable } from "@/ui/ScrollTable";

const SAMPLE_DISTRICTS = [
  { name: "District 1 — Northside", type: "City Council", precincts: 12, voters: 18450 },
  { name: "District 2 — Riverside", type: "City Council", precincts: 9, voters: 14210 },
  { name: "District 7 — County East", type: "County Commission", precincts: 21, voters: 30980 },
  { name: "House District 45", type: "State House", precincts: 34, voters: 52300 },
];

/** /districts: non-functional coming-soon page with sample data (spec/3 §2.7). */
export function DistrictsPage() {
  return (
    <Box>
      <InDevelopmentHeader
        title="Districts"
        description="Draw and manage electoral districts and see your voters by district."
      />
      <Flex gap="3" mb="4">
        <Button disabled>
          <PlusIcon /> Create District
        </Button>
        <Button variant="soft" disabled>
          Import Boundaries
        </Button>
      </Flex>
      <Card>
        <ScrollTable label="Districts">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeaderCell>District (sample)</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Type</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Precincts</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Voters</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Actions</Table.ColumnHeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {SAMPLE_DISTRICTS.map((d) => (
              <Table.Row key={d.name}>
                <Table.Cell>{d.name}</Table.Cell>
                <Table.Cell>
                  <Badge color="gray">{d.type}</Badge>
                </Table.Cell>
                <Table.Cell>{d.precincts}</Table.Cell>
                <Table.Cell>{d.voters.toLocaleString()}</Table.Cell>
                <Table.Cell>
                  <Button size="1" variant="soft" disabled>
                    View Map
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
