import { Button, Callout, Card, Flex, Grid, Heading, Link as RLink, Table, Text } from "@radix-ui/themes";
import { useState } from "react";
import { Link, useNavigate } from "react-router-dom";
import { MATCH_RULE_LABELS } from "@convex/lib/import/rows";
import type { ImportId } from "@/lib/import/runner";
import { fieldTypeOf, invalidValuesNote } from "@/lib/import/transform";
import { ScrollTable } from "@/ui/ScrollTable";
import { ROUTES, voterPath } from "@/lib/routes";
import { useImportDoc, useImportFieldDetails, useImportOutcomes } from "../hooks/useImport";

type Kind = "total" | "imported" | "updated" | "duplicate" | "error";
type SummaryStepProps = { importId: ImportId; onImportAnother(): void };

/** Step 3: the four summary cards, each opening its detail table. */
export function SummaryStep({ importId, onImportAnother }: SummaryStepProps) {
  const navigate = useNavigate();
  const { doc } = useImportDoc(importId);
  const { details } = useImportFieldDetails(importId);
  const invalid = (details ?? []).filter((d) => d.validation_errors > 0 && d.field_type !== "ignored");
  const [open, setOpen] = useState<Kind | null>(null);
  const history = doc?.kind === "history";
  const cards: {
    kind: Kind;
    label: string;
    value: number | undefined;
    color: "gray" | "green" | "blue" | "orange" | "red";
  }[] = [
    { kind: "total", label: history ? "Total Rows" : "Total Contacts", value: doc?.total_records, color: "gray" },
    {
      kind: "imported",
      label: history ? "Elections Attached" : "Successfully Imported",
      value: doc?.imported_records,
      color: "green",
    },
    ...(doc?.update_existing
      ? [
          {
            kind: "updated" as const,
            label: history ? "Voters Updated" : "Updated",
            value: doc?.updated_records,
            color: "blue" as const,
          },
        ]
      : []),
    {
      kind: "duplicate",
      label: history ? "Already Recorded" : "Duplicates Skipped",
      value: doc?.duplicate_records,
      color: "orange",
    },
    { kind: "error", label: "Errors", value: doc?.failed_records, color: "red" },
  ];
  return (
    <Flex direction="column" gap="4" data-testid="import.summary">
      {doc && doc.status !== "completed" && (
        <Text color="orange">
          Import {doc.status === "deleted" ? "cancelled and its records deleted" : doc.status}:{" "}
          {doc.summary_stats.note as string | undefined}
        </Text>
      )}
      {doc && !history && (
        <Text size="2" color="gray" data-testid="import.matchRule">
          Matched existing records by: {MATCH_RULE_LABELS[doc.match_rule]}
          {doc.update_existing
            ? " · existing records updated with changed fields"
            : " · existing records left unchanged"}
        </Text>
      )}
      {doc && history && (
        <Text size="2" color="gray">
          Vote history attached to voters by voter ID.
        </Text>
      )}
      <Grid columns={{ initial: "2", md: String(cards.length) as "4" | "5" }} gap="3">
        {cards.map((c) => (
          <Card key={c.kind} asChild>
            <button
              type="button"
              aria-label={`${c.label}: ${c.value ?? 0}`}
              aria-pressed={open === c.kind}
              onClick={() => setOpen(open === c.kind ? null : c.kind)}
              style={{ textAlign: "left", cursor: "pointer" }}
            >
              <Text as="div" size="2" color="gray">
                {c.label}
              </Text>
              <Text as="div" size="7" weight="bold" color={c.color === "gray" ? undefined : c.color}>
                {(c.value ?? 0).toLocaleString()}
              </Text>
            </button>
          </Card>
        ))}
      </Grid>
      {doc?.status === "completed" && invalid.length > 0 && (
        <Callout.Root color="orange" data-testid="import.invalidValues">
          <Callout.Text>
            <Text weight="bold">Some values did not fit their field</Text>
          </Callout.Text>
          {invalid.map((d) => (
            <Callout.Text key={d._id}>
              • {invalidValuesNote(d.csv_field_name, fieldTypeOf(d.mapped_to_field), d.validation_errors)}
            </Callout.Text>
          ))}
        </Callout.Root>
      )}
      {open && open !== "total" && <OutcomeTable importId={importId} kind={open} />}
      {open === "total" && (
        <Text color="gray" size="2">
          {doc
            ? `${doc.processed_records.toLocaleString()} rows read: ${doc.imported_records} imported, ${doc.update_existing ? `${doc.updated_records} updated, ` : ""}${doc.duplicate_records} duplicates, ${doc.failed_records} errors.`
            : ""}
        </Text>
      )}
      <Flex gap="3" wrap="wrap" align="center">
        <Button variant="soft" onClick={onImportAnother}>
          Import Another File
        </Button>
        <Button onClick={() => navigate(ROUTES.voters)}>View Imported Contacts</Button>
        <Button variant="ghost" asChild>
          <Link to={ROUTES.importHistory}>Import History</Link>
        </Button>
      </Flex>
    </Flex>
  );
}

function OutcomeTable({
  importId,
  kind,
}: {
  importId: ImportId;
  kind: "imported" | "updated" | "duplicate" | "error";
}) {
  const { rows } = useImportOutcomes(importId, kind, 200);
  const title =
    kind === "imported"
      ? "Successfully Imported"
      : kind === "updated"
        ? "Updated"
        : kind === "duplicate"
          ? "Duplicates Skipped"
          : "Errors";
  return (
    <Card>
      <Heading size="3" mb="2">
        {title}
        {rows && rows.length === 200 ? " (first 200)" : ""}
      </Heading>
      <ScrollTable label={title} size="1" data-testid={`import.outcomes.${kind}`}>
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeaderCell>Row</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>First Name</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>Last Name</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>Email</Table.ColumnHeaderCell>
            {kind === "error" && <Table.ColumnHeaderCell>Error</Table.ColumnHeaderCell>}
            {kind === "updated" && <Table.ColumnHeaderCell>Changes</Table.ColumnHeaderCell>}
            {(kind === "duplicate" || kind === "updated") && (
              <Table.ColumnHeaderCell>Existing Record</Table.ColumnHeaderCell>
            )}
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {(rows ?? []).map((r, i) => (
            <Table.Row key={`${r.row ?? i}-${i}`}>
              <Table.Cell>{r.row ?? i + 1}</Table.Cell>
              <Table.Cell>{r.first_name}</Table.Cell>
              <Table.Cell>{r.last_name}</Table.Cell>
              <Table.Cell>{r.email}</Table.Cell>
              {(kind === "error" || kind === "updated") && <Table.Cell>{r.message}</Table.Cell>}
              {(kind === "duplicate" || kind === "updated") && (
                <Table.Cell>
                  {r.existing ? (
                    <RLink asChild>
                      <Link to={voterPath(r.existing.id)}>
                        {r.existing.name}
                        {r.existing.email ? ` (${r.existing.email})` : ""}
                      </Link>
                    </RLink>
                  ) : (
                    "—"
                  )}
                </Table.Cell>
              )}
            </Table.Row>
          ))}
          {rows && rows.length === 0 && (
            <Table.Row>
              <Table.Cell colSpan={6}>
                <Text color="gray">None</Text>
              </Table.Cell>
            </Table.Row>
          )}
        </Table.Body>
      </ScrollTable>
    </Card>
  );
}
