import { ChevronDownIcon, ChevronRightIcon } from "@radix-ui/react-icons";
import { IconButton, Table, Text } from "@radix-ui/themes";
import { useState } from "react";
import { actorText, auditActionLabel, auditTime, type AuditEntry } from "../utils/auditDisplay";
import { AuditEntryDetails } from "./AuditEntryDetails";
import { AuditTargetLabel } from "./AuditTargetLabel";

/** Columns of the log's table (the details row spans them all). */
const AUDIT_COLUMNS = 6;

/** One entry: when, who (and as which role), what, to what, summary; the toggle opens its details below it. */
export function AuditEntryRow({ entry }: { entry: AuditEntry }) {
  const [open, setOpen] = useState(false);
  const detailsId = `audit-details-${entry._id}`;
  return (
    <>
      <Table.Row data-testid="audit.row" data-seq={entry.seq}>
        <Table.Cell>
          <IconButton
            size="1"
            variant="ghost"
            aria-expanded={open}
            aria-controls={open ? detailsId : undefined}
            aria-label={`${open ? "Hide" : "Show"} details of entry #${entry.seq}`}
            onClick={() => setOpen((o) => !o)}
          >
            {open ? <ChevronDownIcon /> : <ChevronRightIcon />}
          </IconButton>
        </Table.Cell>
        <Table.Cell style={{ whiteSpace: "nowrap" }} data-testid="audit.time">
          {auditTime(entry.at)}
        </Table.Cell>
        <Table.Cell data-testid="audit.actor">{actorText(entry)}</Table.Cell>
        <Table.Cell data-testid="audit.action">{auditActionLabel(entry.action)}</Table.Cell>
        <Table.Cell data-testid="audit.target">
          <AuditTargetLabel target={entry.target} />
        </Table.Cell>
        <Table.Cell style={{ minWidth: 220 }}>
          <Text size="2" style={{ overflowWrap: "anywhere" }} data-testid="audit.summary">
            {entry.summary}
          </Text>
        </Table.Cell>
      </Table.Row>
      {open && (
        <Table.Row id={detailsId}>
          <Table.Cell colSpan={AUDIT_COLUMNS}>
            <AuditEntryDetails entry={entry} />
          </Table.Cell>
        </Table.Row>
      )}
    </>
  );
}
