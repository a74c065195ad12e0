import { MagnifyingGlassIcon } from "@radix-ui/react-icons";
import { Flex, Select, TextField } from "@radix-ui/themes";
import { PARTIES, VOTER_STATUSES } from "@convex/tables/voters";

type VoterFiltersProps = {
  search: string;
  party: string;
  status: string;
  onSearchChange(value: string): void;
  onPartyChange(value: string): void;
  onStatusChange(value: string): void;
  placeholder?: string;
};

const ALL = "all";

/** Search box with Party and Status filters (spec/1 §9 options). */
export function VoterFilters({ search, party, status, onSearchChange, onPartyChange, onStatusChange, placeholder }: VoterFiltersProps) {
  return (
    <Flex gap="3" wrap="wrap" align="center">
      <TextField.Root
        style={{ minWidth: 260, flex: 1 }}
        placeholder={placeholder ?? "Search by name or email..."}
        aria-label="Search voters"
        value={search}
        onChange={(e) => onSearchChange(e.target.value)}
      >
        <TextField.Slot>
          <MagnifyingGlassIcon />
        </TextField.Slot>
      </TextField.Root>
      <Select.Root value={party || ALL} onValueChange={(v) => onPartyChange(v === ALL ? "" : v)}>
        <Select.Trigger aria-label="Party filter" placeholder="Party" />
        <Select.Content>
          <Select.Item value={ALL}>All Parties</Select.Item>
          {PARTIES.map((p) => (
            <Select.Item key={p} value={p}>{p}</Select.Item>
          ))}
        </Select.Content>
      </Select.Root>
      <Select.Root value={status || ALL} onValueChange={(v) => onStatusChange(v === ALL ? "" : v)}>
        <Select.Trigger aria-label="Status filter" placeholder="Status" />
        <Select.Content>
          <Select.Item value={ALL}>All Statuses</Select.Item>
          {VOTER_STATUSES.map((s) => (
            <Select.Item key={s} value={s}>{s}</Select.Item>
          ))}
        </Select.Content>
      </Select.Root>
    </Flex>
  );
}
