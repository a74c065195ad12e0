import { EyeOpenIcon, Pencil1Icon, TrashIcon } from "@radix-ui/react-icons";
import { Checkbox, Flex, IconButton, Table, Text } from "@radix-ui/themes";
import { useNavigate } from "react-router-dom";
import type { Doc, Id } from "@convex/_generated/dataModel";
import { FrequencyBadge } from "./FrequencyBadge";
import { PartyBadge } from "./PartyBadge";
import { StatusBadge } from "./StatusBadge";
import { ScrollTable } from "@/ui/ScrollTable";
import { voterEditPath, voterPath } from "@/lib/routes";

/** The list's bulk selection, when the viewer may act on several voters at once. */
type VoterListSelection = {
  selected: ReadonlySet<Id<"voters">>;
  allMatching: boolean;
  onToggle(id: Id<"voters">): void;
  onTogglePage(ids: Id<"voters">[]): void;
};

/** What the voter list's table (desktop) and cards (phone) show and offer. */
export type VoterListViewProps = {
  /** What the list is called in the current mode ("Voters", "Contacts"). */
  label: string;
  voters: Doc<"voters">[];
  petitionMode: boolean;
  canEdit: boolean;
  canDelete: boolean;
  onDelete(voter: Doc<"voters">): void;
  selection: VoterListSelection | null;
};

export function VoterTable({
  label,
  voters,
  petitionMode,
  canEdit,
  canDelete,
  onDelete,
  selection,
}: VoterListViewProps) {
  const navigate = useNavigate();
  const ids = voters.map((v) => v._id);
  const pageSelected =
    selection !== null && (selection.allMatching || (ids.length > 0 && ids.every((id) => selection.selected.has(id))));
  return (
    <ScrollTable label={label} variant="surface" data-testid="voters.table">
      <Table.Header>
        <Table.Row>
          {selection && (
            <Table.ColumnHeaderCell width="36px">
              <Checkbox
                checked={pageSelected}
                disabled={selection.allMatching}
                onCheckedChange={() => selection.onTogglePage(ids)}
                aria-label="Select all listed voters"
              />
            </Table.ColumnHeaderCell>
          )}
          <Table.ColumnHeaderCell>Name</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Email</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Phone</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Party</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Status</Table.ColumnHeaderCell>
          {petitionMode && <Table.ColumnHeaderCell>Voting Frequency</Table.ColumnHeaderCell>}
          <Table.ColumnHeaderCell>Precinct</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell align="right">Actions</Table.ColumnHeaderCell>
        </Table.Row>
      </Table.Header>
      <Table.Body>
        {voters.map((v) => {
          const name = `${v.first_name} ${v.last_name}`;
          return (
            <Table.Row key={v._id} data-testid="voters.row">
              {selection && (
                <Table.Cell>
                  <Checkbox
                    checked={selection.allMatching || selection.selected.has(v._id)}
                    disabled={selection.allMatching}
                    onCheckedChange={() => selection.onToggle(v._id)}
                    aria-label={`Select ${name}`}
                  />
                </Table.Cell>
              )}
              <Table.RowHeaderCell>
                <Text weight="medium">{name}</Text>
              </Table.RowHeaderCell>
              <Table.Cell>{v.email ?? ""}</Table.Cell>
              <Table.Cell>{v.phone ?? ""}</Table.Cell>
              <Table.Cell>
                <PartyBadge party={v.party_affiliation} />
              </Table.Cell>
              <Table.Cell>
                <StatusBadge status={v.status} />
              </Table.Cell>
              {petitionMode && (
                <Table.Cell>
                  <FrequencyBadge history={v.state_voter_history} />
                </Table.Cell>
              )}
              <Table.Cell>{v.precinct ?? ""}</Table.Cell>
              <Table.Cell align="right">
                <Flex gap="2" justify="end">
                  <IconButton
                    size="1"
                    variant="ghost"
                    aria-label={`View ${name}`}
                    onClick={() => navigate(voterPath(v._id))}
                  >
                    <EyeOpenIcon />
                  </IconButton>
                  {canEdit && (
                    <IconButton
                      size="1"
                      variant="ghost"
                      aria-label={`Edit ${name}`}
                      onClick={() => navigate(voterEditPath(v._id))}
                    >
                      <Pencil1Icon />
                    </IconButton>
                  )}
                  {canDelete && (
                    <IconButton
                      size="1"
                      variant="ghost"
                      color="red"
                      aria-label={`Delete ${name}`}
                      onClick={() => onDelete(v)}
                    >
                      <TrashIcon />
                    </IconButton>
                  )}
                </Flex>
              </Table.Cell>
            </Table.Row>
          );
        })}
      </Table.Body>
    </ScrollTable>
  );
}
