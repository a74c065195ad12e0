import { MATCH_RULE_LABELS } from "@convex/lib/import/rows";
import { Badge, Button, Checkbox, Dialog, Flex, Grid, Table, Text } from "@radix-ui/themes";
import type { FunctionReturnType } from "convex/server";
import { useState } from "react";
import { Link } from "react-router-dom";
import { api } from "@convex/_generated/api";
import { ConfirmDialog } from "@/ui/ConfirmDialog";
import { toast } from "@/ui/toast";
import { displayStatus, formatDuration } from "@/lib/import/format";
import { IGNORE, targetLabel } from "@/lib/import/fields";
import { useImportFieldDetails, useRemoveImport } from "../hooks/useImport";
import { ImportStatusBadge } from "./ImportStatusBadge";
import { usePresence } from "@/lib/presence/usePresence";
import { PresenceAvatars } from "@/ui/PresenceAvatars";
import { ScrollTable } from "@/ui/ScrollTable";
import { ROUTES } from "@/lib/routes";

type ImportView = FunctionReturnType<typeof api.imports.list>[number];
type ImportDetailsDialogProps = { item: ImportView; canManage: boolean; now: number; onClose(): void };

/** Counts, field mapping table (import_field_details), new fields, delete (with confirmation and force). */
export function ImportDetailsDialog({ item, canManage, now, onClose }: ImportDetailsDialogProps) {
  const { details } = useImportFieldDetails(item._id);
  const presence = usePresence(`import:${item._id}`);
  const { remove } = useRemoveImport();
  const [confirm, setConfirm] = useState(false);
  const [force, setForce] = useState(false);
  const status = displayStatus(item.status, item.updatedAt, now);
  const handleDelete = async () => {
    try {
      const r = await remove({ importId: item._id, force });
      toast.success(r.status === "deleted" ? "Import deleted" : "Deleting imported records…");
      onClose();
    } catch (e) {
      toast.failure("Error deleting import", e);
    }
  };
  const onlyMarked = item.imported_records === 0 && item.duplicate_records > 0;
  return (
    <Dialog.Root open onOpenChange={(o) => !o && onClose()}>
      <Dialog.Content maxWidth="760px">
        <Dialog.Title>Import Details</Dialog.Title>
        <PresenceAvatars people={presence.others} label="viewing" />
        <Dialog.Description size="2" mb="3">
          {item.filename} · {new Date(item.import_date).toLocaleString()} ·{" "}
          <ImportStatusBadge status={status} deleting={item.deleting} />
        </Dialog.Description>
        <Grid columns={{ initial: "2", sm: item.update_existing ? "5" : "4" }} gap="3" mb="3">
          <Count label="Total" value={item.total_records || item.processed_records} />
          <Count label={item.kind === "history" ? "Elections attached" : "Imported"} value={item.imported_records} />
          {item.update_existing && (
            <Count label={item.kind === "history" ? "Voters updated" : "Updated"} value={item.updated_records} />
          )}
          <Count label="Duplicates" value={item.duplicate_records} />
          <Count label="Failed" value={item.failed_records} />
        </Grid>
        <Text as="p" size="2" color="gray" mb="2">
          {item.kind === "history"
            ? "Vote-history file (by voter ID)"
            : `Matched by: ${MATCH_RULE_LABELS[item.match_rule]}${item.update_existing ? ", existing records updated" : ""}`}
          {" · "}Duration {formatDuration(item.import_duration_ms)}
          {typeof item.summary_stats.deleted_count === "number"
            ? ` · ${item.summary_stats.deleted_count} records deleted`
            : ""}
          {typeof item.summary_stats.note === "string" ? ` · ${item.summary_stats.note}` : ""}
          {item.error_details ? ` · Error: ${item.error_details}` : ""}
        </Text>
        <Text weight="bold" size="2">
          Field mapping
        </Text>
        <ScrollTable label="Field mapping" size="1" mb="3">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeaderCell>CSV Field</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Mapped To</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Type</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Records</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Validation Errors</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Sample</Table.ColumnHeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {(details ?? []).map((d) => (
              <Table.Row key={d._id}>
                <Table.Cell>{d.csv_field_name}</Table.Cell>
                <Table.Cell>{d.mapped_to_field === IGNORE ? "—" : targetLabel(d.mapped_to_field)}</Table.Cell>
                <Table.Cell>
                  <Badge color={d.field_type === "new" ? "purple" : d.field_type === "ignored" ? "gray" : "blue"}>
                    {d.field_type}
                  </Badge>
                </Table.Cell>
                <Table.Cell>{d.records_processed.toLocaleString()}</Table.Cell>
                <Table.Cell>{d.validation_errors.toLocaleString()}</Table.Cell>
                <Table.Cell>
                  <Text size="1" color="gray">
                    {d.sample_data.join(" · ")}
                  </Text>
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </ScrollTable>
        <Text as="p" size="2" mb="3">
          New fields created: {item.new_fields_created.length > 0 ? item.new_fields_created.join(", ") : "none"}
        </Text>
        <Flex justify="between" align="center" gap="3" wrap="wrap">
          <Flex gap="2">
            {(status === "interrupted" || status === "in_progress") && canManage && (
              <Button variant="soft" asChild>
                <Link to={`${ROUTES.importVoters}?resume=${item._id}`}>Resume Import</Link>
              </Button>
            )}
          </Flex>
          <Flex gap="3" align="center" justify="end" wrap="wrap">
            {canManage && item.status !== "deleted" && (
              <>
                <Text as="label" size="2">
                  <Flex gap="1" align="center">
                    <Checkbox checked={force} onCheckedChange={(c) => setForce(c === true)} /> Force delete
                  </Flex>
                </Text>
                <Button color="red" onClick={() => setConfirm(true)} disabled={item.deleting}>
                  Delete Import
                </Button>
              </>
            )}
            <Dialog.Close>
              <Button variant="soft" color="gray">
                Close
              </Button>
            </Dialog.Close>
          </Flex>
        </Flex>
        <ConfirmDialog
          open={confirm}
          onOpenChange={setConfirm}
          title="Delete Import?"
          description={
            onlyMarked && !force
              ? "This import created no records (only duplicates were found). It will be marked deleted; existing records are not touched."
              : `This deletes the ${item.imported_records.toLocaleString()} records this import created, exactly those and no others. This action cannot be undone.`
          }
          onConfirm={() => void handleDelete()}
        />
      </Dialog.Content>
    </Dialog.Root>
  );
}

function Count({ label, value }: { label: string; value: number }) {
  return (
    <Flex direction="column">
      <Text size="1" color="gray">
        {label}
      </Text>
      <Text size="4" weight="bold">
        {value.toLocaleString()}
      </Text>
    </Flex>
  );
}
