import { Table } from "@radix-ui/themes";
import { ScrollTable } from "@/ui/ScrollTable";
import type { AuditEntry } from "../utils/auditDisplay";
import { AuditEntryRow } from "./AuditEntryRow";

/** The log's entries, newest first; on a phone the table scrolls sideways in its own box. */
export function AuditLogTable({ entries }: { entries: AuditEntry[] }) {
  return (
    <ScrollTable label="Audit log entries" data-testid="audit.table">
      <Table.Header>
        <Table.Row>
          <Table.ColumnHeaderCell>
            <span className="rt-sr-only">Details</span>
          </Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Time</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Actor</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Action</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Target</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Summary</Table.ColumnHeaderCell>
        </Table.Row>
      </Table.Header>
      <Table.Body>
        {entries.map((e) => (
          <AuditEntryRow key={e._id} entry={e} />
        ))}
      </Table.Body>
    </ScrollTable>
  );
}
