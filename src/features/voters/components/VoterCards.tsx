import { Pencil1Icon, TrashIcon } from "@radix-ui/react-icons";
import { Box, Card, Checkbox, Flex, IconButton, Link as RadixLink, Text } from "@radix-ui/themes";
import { Link, useNavigate } from "react-router-dom";
import { FrequencyBadge } from "./FrequencyBadge";
import { PartyBadge } from "./PartyBadge";
import { StatusBadge } from "./StatusBadge";
import type { VoterListViewProps } from "./VoterTable";
import { voterEditPath, voterPath } from "@/lib/routes";

/** The voter list on a phone: one card per voter (name, contact, badges, actions) instead of a wide table. */
export function VoterCards({
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
    <Box asChild>
      <section aria-label={label} data-testid="voters.cards">
        {selection && (
          <Text as="label" size="2" mb="2" style={{ display: "block" }}>
            <Flex gap="2" align="center">
              <Checkbox
                checked={pageSelected}
                disabled={selection.allMatching}
                onCheckedChange={() => selection.onTogglePage(ids)}
              />{" "}
              Select all listed
            </Flex>
          </Text>
        )}
        <Flex direction="column" gap="2" asChild>
          <ul style={{ listStyle: "none", margin: 0, padding: 0 }}>
            {voters.map((v) => {
              const name = `${v.first_name} ${v.last_name}`;
              const contact = [v.phone, v.email].filter(Boolean);
              return (
                <li key={v._id}>
                  <Card data-testid="voters.card">
                    <Flex gap="3" align="start">
                      {selection && (
                        <Checkbox
                          mt="1"
                          checked={selection.allMatching || selection.selected.has(v._id)}
                          disabled={selection.allMatching}
                          onCheckedChange={() => selection.onToggle(v._id)}
                          aria-label={`Select ${name}`}
                        />
                      )}
                      <Flex direction="column" gap="1" flexGrow="1" minWidth="0">
                        <RadixLink asChild weight="medium" size="3">
                          <Link to={voterPath(v._id)}>{name}</Link>
                        </RadixLink>
                        {contact.map((c) => (
                          <Text key={c} size="2" color="gray" style={{ overflowWrap: "anywhere" }}>
                            {c}
                          </Text>
                        ))}
                        <Flex gap="2" wrap="wrap" align="center">
                          <PartyBadge party={v.party_affiliation} />
                          <StatusBadge status={v.status} />
                          {petitionMode && <FrequencyBadge history={v.state_voter_history} />}
                          {v.precinct && (
                            <Text size="1" color="gray">
                              Precinct {v.precinct}
                            </Text>
                          )}
                        </Flex>
                      </Flex>
                      {(canEdit || canDelete) && (
                        <Flex gap="3" align="center">
                          {canEdit && (
                            <IconButton
                              size="2"
                              variant="ghost"
                              aria-label={`Edit ${name}`}
                              onClick={() => navigate(voterEditPath(v._id))}
                            >
                              <Pencil1Icon />
                            </IconButton>
                          )}
                          {canDelete && (
                            <IconButton
                              size="2"
                              variant="ghost"
                              color="red"
                              aria-label={`Delete ${name}`}
                              onClick={() => onDelete(v)}
                            >
                              <TrashIcon />
                            </IconButton>
                          )}
                        </Flex>
                      )}
                    </Flex>
                  </Card>
                </li>
              );
            })}
          </ul>
        </Flex>
      </section>
    </Box>
  );
}
