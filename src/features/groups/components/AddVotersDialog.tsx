import { MagnifyingGlassIcon } from "@radix-ui/react-icons";
import {
  Badge,
  Box,
  Button,
  Checkbox,
  Dialog,
  Flex,
  Progress,
  ScrollArea,
  Select,
  Table,
  Text,
  TextField,
} from "@radix-ui/themes";
import { useState } from "react";
import { useVoterCount } from "@/features/voters";
import type { Id } from "@convex/_generated/dataModel";
import { PARTIES, VOTER_STATUSES } from "@convex/tables/voters";
import { toast } from "@/ui/toast";
import { useAddToGroup, type AddResult } from "../hooks/useAddToGroup";
import { useDebounced } from "@/lib/useDebounced";
import { ScrollTable } from "@/ui/ScrollTable";
import { TEXTS } from "@convex/lib/texts";
import { useVotersToAdd } from "../hooks/useVotersToAdd";

type AddVotersDialogProps = {
  open: boolean;
  onOpenChange(open: boolean): void;
  groups: { _id: Id<"voterGroups">; name: string }[];
  initialGroupId: Id<"voterGroups"> | null;
};

const ALL = "all";

/**
 * Add Voters to Group: search, party/status filters, checkbox table, select all (page or every
 * match). The caller remounts it (a new `key`) for each opening, so it starts afresh.
 */
export function AddVotersDialog({ open, onOpenChange, groups, initialGroupId }: AddVotersDialogProps) {
  const [groupId, setGroupId] = useState<string>(initialGroupId ?? "");
  const [search, setSearch] = useState("");
  const [party, setParty] = useState("");
  const [status, setStatus] = useState("");
  const [selected, setSelected] = useState<Set<Id<"voters">>>(new Set());
  const debounced = useDebounced(search.trim(), 300);
  const filter = { search: debounced || undefined, party: party || undefined, status: status || undefined };
  // "All matching" holds for the filter it was chosen under; changing the filter drops it.
  const filterKey = JSON.stringify(filter);
  const [allMatchingFor, setAllMatchingFor] = useState<string | null>(null);
  const allMatching = allMatchingFor === filterKey;
  const setAllMatching = (on: boolean) => setAllMatchingFor(on ? filterKey : null);
  const { list } = useVotersToAdd(filter, open);
  const matching = useVoterCount(open ? { search: debounced, party, status, statusCode: "" } : "skip");
  // the exact total once counted (a search's count stops at Convex's 1,024 results: then unknown)
  const total = matching.done && !matching.capped ? matching.total : null;
  const adder = useAddToGroup();

  const visible = list.results;
  const pageAllSelected = visible.length > 0 && visible.every((v) => selected.has(v._id));
  const toggle = (id: Id<"voters">) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const toggleAll = () => {
    setAllMatching(false);
    setSelected((prev) => {
      const next = new Set(prev);
      for (const v of visible) {
        if (pageAllSelected) next.delete(v._id);
        else next.add(v._id);
      }
      return next;
    });
  };

  const report = (r: AddResult) => {
    if (r.failed > 0)
      toast.error("Some Errors Occurred", {
        description: `${r.failed} voters could not be added. Check console for details.`,
      });
    else
      toast.success("Voters Added Successfully", {
        description: `${r.added} voters added${r.duplicates ? `, ${r.duplicates} already members skipped` : ""}.`,
      });
  };

  const handleAdd = async () => {
    if (!groupId) {
      toast.warning("No Group Selected");
      return;
    }
    if (!allMatching && selected.size === 0) {
      toast.warning("No Voters Selected", { description: TEXTS.groups.selectVoters });
      return;
    }
    try {
      const gid = groupId as Id<"voterGroups">;
      const r = allMatching
        ? await adder.addAllMatching(gid, filter, total ?? null)
        : await adder.addSelected(gid, [...selected]);
      report(r);
      onOpenChange(false);
    } catch (e) {
      toast.failure("Error Adding Voters", e);
    }
  };

  const busy = adder.progress !== null;
  const count = allMatching ? (total ?? "all matching") : selected.size;

  return (
    <Dialog.Root open={open} onOpenChange={(o) => !busy && onOpenChange(o)}>
      <Dialog.Content maxWidth="960px">
        <Dialog.Title>Add Voters to Group</Dialog.Title>
        <Flex direction="column" gap="3">
          <Select.Root value={groupId} onValueChange={setGroupId}>
            <Select.Trigger aria-label="Target group" placeholder="Select a group" />
            <Select.Content>
              {groups.map((g) => (
                <Select.Item key={g._id} value={g._id}>
                  {g.name}
                </Select.Item>
              ))}
            </Select.Content>
          </Select.Root>
          <Flex gap="2" wrap="wrap">
            <TextField.Root
              style={{ flex: 1, minWidth: 220 }}
              placeholder="Search voters..."
              aria-label="Search voters to add"
              value={search}
              onChange={(e) => setSearch(e.target.value)}
            >
              <TextField.Slot>
                <MagnifyingGlassIcon />
              </TextField.Slot>
            </TextField.Root>
            <Select.Root value={party || ALL} onValueChange={(v) => setParty(v === ALL ? "" : v)}>
              <Select.Trigger aria-label="Party filter" />
              <Select.Content>
                <Select.Item value={ALL}>All Parties</Select.Item>
                {PARTIES.map((p) => (
                  <Select.Item key={p} value={p}>
                    {p}
                  </Select.Item>
                ))}
              </Select.Content>
            </Select.Root>
            <Select.Root value={status || ALL} onValueChange={(v) => setStatus(v === ALL ? "" : v)}>
              <Select.Trigger aria-label="Status filter" />
              <Select.Content>
                <Select.Item value={ALL}>All Statuses</Select.Item>
                {VOTER_STATUSES.map((s) => (
                  <Select.Item key={s} value={s}>
                    {s}
                  </Select.Item>
                ))}
              </Select.Content>
            </Select.Root>
          </Flex>
          <Flex justify="between" align="center" wrap="wrap" gap="2">
            <Text as="label" size="2">
              <Flex gap="2" align="center">
                <Checkbox checked={pageAllSelected} onCheckedChange={toggleAll} aria-label="Select all" /> Select all
              </Flex>
            </Text>
            {pageAllSelected && list.status !== "Exhausted" && !allMatching && (
              <Button size="1" variant="ghost" onClick={() => setAllMatching(true)}>
                Select all {total ?? ""} matching voters
              </Button>
            )}
            {allMatching && <Badge color="indigo">All {total ?? ""} matching voters selected</Badge>}
            <Text size="2" color="gray">
              {count} selected
            </Text>
          </Flex>
          <ScrollArea scrollbars="vertical" style={{ maxHeight: 360 }}>
            <ScrollTable label="Voters" size="1">
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeaderCell />
                  <Table.ColumnHeaderCell>Name</Table.ColumnHeaderCell>
                  <Table.ColumnHeaderCell>Email</Table.ColumnHeaderCell>
                  <Table.ColumnHeaderCell>Phone</Table.ColumnHeaderCell>
                  <Table.ColumnHeaderCell>Party</Table.ColumnHeaderCell>
                  <Table.ColumnHeaderCell>Status</Table.ColumnHeaderCell>
                  <Table.ColumnHeaderCell>Precinct</Table.ColumnHeaderCell>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {visible.map((v) => {
                  const name = `${v.first_name} ${v.last_name}`;
                  return (
                    <Table.Row key={v._id}>
                      <Table.Cell>
                        <Checkbox
                          checked={allMatching || selected.has(v._id)}
                          disabled={allMatching}
                          onCheckedChange={() => toggle(v._id)}
                          aria-label={`Select ${name}`}
                        />
                      </Table.Cell>
                      <Table.Cell>{name}</Table.Cell>
                      <Table.Cell>{v.email ?? ""}</Table.Cell>
                      <Table.Cell>{v.phone ?? ""}</Table.Cell>
                      <Table.Cell>{v.party_affiliation ?? ""}</Table.Cell>
                      <Table.Cell>{v.status ?? ""}</Table.Cell>
                      <Table.Cell>{v.precinct ?? ""}</Table.Cell>
                    </Table.Row>
                  );
                })}
              </Table.Body>
            </ScrollTable>
            {list.status === "CanLoadMore" && (
              <Flex justify="center" my="2">
                <Button size="1" variant="soft" onClick={() => list.loadMore(50)}>
                  Load more
                </Button>
              </Flex>
            )}
          </ScrollArea>
          {adder.progress && (
            <Box>
              <Progress aria-label="Add Voters to Group" value={adder.percent ?? undefined} />
              <Text size="1" color="gray">
                {adder.percent !== null ? `${adder.percent}% — ` : ""}
                {adder.progress.done} processed
              </Text>
            </Box>
          )}
        </Flex>
        <Flex gap="3" mt="4" justify="end">
          <Dialog.Close>
            <Button variant="soft" color="gray" disabled={busy}>
              Cancel
            </Button>
          </Dialog.Close>
          <Button loading={busy} onClick={() => void handleAdd()}>
            Add to Group
          </Button>
        </Flex>
      </Dialog.Content>
    </Dialog.Root>
  );
}
