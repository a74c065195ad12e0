import { MagnifyingGlassIcon } from "@radix-ui/react-icons";
import { Flex, Select, TextField } from "@radix-ui/themes";
import { PARTIES, VOTER_STATUSES } from "@convex/tables/voters";

type VoterFiltersProps = {
  search: string;
  party: string;
  status: string;
  /** the state file's status code filter ("" = any) */
  statusCode: string;
  /** the status codes present in the organisation's voters (the filter is hidden without any) */
  statusCodes: string[];
  onSearchChange(value: string): void;
  onPartyChange(value: string): void;
  onStatusChange(value: string): void;
  onStatusCodeChange(value: string): void;
  placeholder?: string;
};

const ALL = "all";

/** Search box with Party and Status filters (spec/1 §9 options) and the state file's status codes. */
export function VoterFilters(props: VoterFiltersProps) {
  const {
    search,
    party,
    status,
    statusCode,
    statusCodes,
    onSearchChange,
    onPartyChange,
    onStatusChange,
    onStatusCodeChange,
    placeholder,
  } = props;
  const codes = statusCode && !statusCodes.includes(statusCode) ? [...statusCodes, statusCode] : statusCodes;
  return (
    <Flex gap="3" wrap="wrap" align="center">
      <TextField.Root
        style={{ minWidth: "min(260px, 100%)", flex: 1 }}
        placeholder={placeholder ?? "Search name, phone, email, city, precinct, ID…"}
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
            <Select.Item key={p} value={p}>
              {p}
            </Select.Item>
          ))}
        </Select.Content>
      </Select.Root>
      <Select.Root value={status || ALL} onValueChange={(v) => onStatusChange(v === ALL ? "" : v)}>
        <Select.Trigger aria-label="Status filter" placeholder="Status" />
        <Select.Content>
          <Select.Item value={ALL}>All Statuses</Select.Item>
          {VOTER_STATUSES.map((s) => (
            <Select.Item key={s} value={s}>
              {s}
            </Select.Item>
          ))}
        </Select.Content>
      </Select.Root>
      {codes.length > 0 && (
        <Select.Root value={statusCode || ALL} onValueChange={(v) => onStatusCodeChange(v === ALL ? "" : v)}>
          <Select.Trigger aria-label="Status code filter" placeholder="Status code" />
          <Select.Content>
            <Select.Item value={ALL}>All Status Codes</Select.Item>
            {codes.map((c) => (
              <Select.Item key={c} value={c}>
                {c}
              </Select.Item>
            ))}
          </Select.Content>
        </Select.Root>
      )}
    </Flex>
  );
}
