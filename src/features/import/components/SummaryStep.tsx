import { Button, Card, Flex, Grid, Heading, Link as RLink, Table, Text } from "@radix-ui/themes";
import { useQuery } from "convex/react";
import { useState } from "react";
import { Link, useNavigate } from "react-router-dom";
import { api } from "@convex/_generated/api";
import type { ImportId } from "@/lib/import/runner";
import { ScrollTable } from "@/ui/ScrollTable";

type Kind = "total" | "imported" | "duplicate" | "error";
type SummaryStepProps = { importId: ImportId; onImportAnother(): void };

/** Step 3: the four summary cards, each opening its detail table. */
export function SummaryStep({ importId, onImportAnother }: SummaryStepProps) {
  const navigate = useNavigate();
  const doc = useQuery(api.imports.get, { importId });
  const [open, setOpen] = useState<Kind | null>(null);
  const cards: { kind: Kind; label: string; value: number | undefined; color: "gray" | "green" | "orange" | "red" }[] = [
    { kind: "total", label: "Total Contacts", value: doc?.total_records, color: "gray" },
    { kind: "imported", label: "Successfully Imported", value: doc?.imported_records, color: "green" },
    { kind: "duplicate", label: "Duplicates Skipped", value: doc?.duplicate_records, color: "orange" },
    { kind: "error", label: "Errors", value: doc?.failed_records, color: "red" },
  ];
  return (
    <Flex direction="column" gap="4" data-testid="import.summary">
      {doc && doc.status !== "completed" && (
        <Text color="orange">Import {doc.status === "deleted" ? "cancelled and its records deleted" : doc.status}: {doc.summary_stats.note as string | undefined}</Text>
      )}
      <Grid columns={{ initial: "2", md: "4" }} gap="3">
        {cards.map((c) => (
          <Card key={c.kind} asChild>
            <button type="button" aria-label={`${c.label}: ${c.value ?? 0}`} aria-pressed={open === c.kind} onClick={() => setOpen(open === c.kind ? null : c.kind)} style={{ textAlign: "left", cursor: "pointer" }}>
              <Text as="div" size="2" color="gray">{c.label}</Text>
              <Text as="div" size="7" weight="bold" color={c.color === "gray" ? undefined : c.color}>{(c.value ?? 0).toLocaleString()}</Text>
            </button>
          </Card>
        ))}
      </Grid>
      {open && open !== "total" && <OutcomeTable importId={importId} kind={open} />}
      {open === "total" && (
        <Text color="gray" size="2">
          {doc ? `${doc.processed_records.toLocaleString()} rows read: ${doc.imported_records} imported, ${doc.duplicate_records} duplicates, ${doc.failed_records} errors.` : ""}
        </Text>
      )}
      <Flex gap="3" wrap="wrap" align="center">
        <Button variant="soft" onClick={onImportAnother}>Import Another File</Button>
        <Button onClick={() => navigate("/voters")}>View Imported Contacts</Button>
        <Button variant="ghost" asChild>
          <Link to="/voters/import-history">Import History</Link>
        </Button>
      </Flex>
    </Flex>
  );
}

function OutcomeTable({ importId, kind }: { importId: ImportId; kind: "imported" | "duplicate" | "error" }) {
  const rows = useQuery(api.imports.outcomes, { importId, kind, limit: 200 });
  const title = kind === "imported" ? "Successfully Imported" : kind === "duplicate" ? "Duplicates Skipped" : "Errors";
  return (
    <Card>
      <Heading size="3" mb="2">{title}{rows && rows.length === 200 ? " (first 200)" : ""}</Heading>
      <ScrollTable label={title} size="1" data-testid={`import.outcomes.${kind}`}>
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeaderCell>Row</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>First Name</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>Last Name</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>Email</Table.ColumnHeaderCell>
            {kind === "error" && <Table.ColumnHeaderCell>Error</Table.ColumnHeaderCell>}
            {kind === "duplicate" && <Table.ColumnHeaderCell>Existing Record</Table.ColumnHeaderCell>}
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {(rows ?? []).map((r, i) => (
            <Table.Row key={`${r.row ?? i}-${i}`}>
              <Table.Cell>{r.row ?? i + 1}</Table.Cell>
              <Table.Cell>{r.first_name}</Table.Cell>
              <Table.Cell>{r.last_name}</Table.Cell>
              <Table.Cell>{r.email}</Table.Cell>
              {kind === "error" && <Table.Cell>{r.message}</Table.Cell>}
              {kind === "duplicate" && (
                <Table.Cell>
                  {r.existing ? (
                    <RLink asChild>
                      <Link to={`/voters/${r.existing.id}`}>{r.existing.name}{r.existing.email ? ` (${r.existing.email})` : ""}</Link>
                    </RLink>
                  ) : "—"}
                </Table.Cell>
              )}
            </Table.Row>
          ))}
          {rows && rows.length === 0 && (
            <Table.Row>
              <Table.Cell colSpan={6}><Text color="gray">None</Text></Table.Cell>
            </Table.Row>
          )}
        </Table.Body>
      </ScrollTable>
    </Card>
  );
}
