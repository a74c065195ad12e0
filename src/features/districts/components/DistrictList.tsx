import { Button, Table, Text } from "@radix-ui/themes";
import type { Id } from "@convex/_generated/dataModel";
import type { DistrictMeasure } from "@convex/lib/districts";
import { ScrollTable } from "@/ui/ScrollTable";
import type { DistrictRow } from "../hooks/useDistricts";
import { districtTitle } from "../utils/display";
import { formatMeasure } from "../utils/measure";

const MEASURE_HEADER: Record<DistrictMeasure, string | null> = {
  voters: null,
  party: "Party share",
  turnout: "Turnout",
};

/** The districts of a kind: name (opens the district), voters, the chosen measure, code/map disagreements. */
export function DistrictList({
  districts,
  measure,
  valueOf,
  onOpen,
}: {
  districts: DistrictRow[];
  measure: DistrictMeasure;
  valueOf(d: DistrictRow): number | null;
  onOpen(id: Id<"districts">): void;
}) {
  const header = MEASURE_HEADER[measure];
  return (
    <ScrollTable label="Districts">
      <Table.Header>
        <Table.Row>
          <Table.ColumnHeaderCell>District</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell justify="end">Voters</Table.ColumnHeaderCell>
          {header && <Table.ColumnHeaderCell justify="end">{header}</Table.ColumnHeaderCell>}
          <Table.ColumnHeaderCell justify="end">Code ≠ map</Table.ColumnHeaderCell>
        </Table.Row>
      </Table.Header>
      <Table.Body>
        {districts.map((d) => {
          const title = districtTitle(d.kind, d.name);
          return (
            <Table.Row key={d.id} data-testid="districts.row">
              <Table.RowHeaderCell>
                <Button variant="ghost" onClick={() => onOpen(d.id)} style={{ textAlign: "left" }}>
                  {title}
                </Button>
              </Table.RowHeaderCell>
              <Table.Cell justify="end">{d.voters.toLocaleString("en-US")}</Table.Cell>
              {header && <Table.Cell justify="end">{formatMeasure(valueOf(d), measure)}</Table.Cell>}
              <Table.Cell justify="end">
                {d.mappedElsewhere + d.codedElsewhere > 0 ? (
                  <Text color="amber" weight="medium">
                    {(d.mappedElsewhere + d.codedElsewhere).toLocaleString("en-US")}
                  </Text>
                ) : (
                  <Text color="gray">0</Text>
                )}
              </Table.Cell>
            </Table.Row>
          );
        })}
      </Table.Body>
    </ScrollTable>
  );
}
