import { Cross2Icon } from "@radix-ui/react-icons";
import { Badge, Box, Flex, IconButton, Text } from "@radix-ui/themes";
import type { Id } from "@convex/_generated/dataModel";
import { VoterSearchField } from "@/ui/VoterSearchField";
import { usePickedVoter } from "../hooks/useAudience";

/** Campaign voter search (spec/2 §9): starts when the term is longer than 2 characters, 10 results. */
const VOTER_SEARCH = { minChars: 3, results: 10, debounceMs: 300, closeAfterBlurMs: 200 } as const;

type VoterPickerProps = { value: Id<"voters">[]; onChange(value: Id<"voters">[]): void };

/** Individual voters a campaign targets: search and pick, picked ones as removable chips. */
export function VoterPicker({ value, onChange }: VoterPickerProps) {
  const picked = new Set(value);
  return (
    <Box>
      <Text as="div" size="2" weight="medium" mb="1">
        Individual Voters
      </Text>
      <VoterSearchField
        label="Search individual voters"
        resultsLabel="Voter search results"
        placeholder="Search voters by name or email..."
        minChars={VOTER_SEARCH.minChars}
        debounceMs={VOTER_SEARCH.debounceMs}
        closeAfterBlurMs={VOTER_SEARCH.closeAfterBlurMs}
        maxResults={VOTER_SEARCH.results}
        hint
        clearOnPick
        isSelected={(id) => picked.has(id)}
        detail={(r) => r.phone ?? "no phone"}
        onPick={(r) => {
          if (!picked.has(r._id)) onChange([...value, r._id]);
        }}
      />
      {value.length > 0 && (
        <Flex gap="1" wrap="wrap" mt="2" aria-label="Selected voters">
          {value.slice(0, 30).map((id) => (
            <VoterChip key={id} id={id} onRemove={() => onChange(value.filter((v) => v !== id))} />
          ))}
          {value.length > 30 && (
            <Text size="1" color="gray">
              and {value.length - 30} more
            </Text>
          )}
        </Flex>
      )}
    </Box>
  );
}

function VoterChip({ id, onRemove }: { id: Id<"voters">; onRemove(): void }) {
  const { voter } = usePickedVoter(id);
  const name = voter ? `${voter.first_name} ${voter.last_name}` : voter === null ? "Deleted voter" : "…";
  return (
    <Badge size="2" variant="soft" color="gray">
      {name}
      <IconButton type="button" size="1" variant="ghost" color="gray" aria-label={`Remove ${name}`} onClick={onRemove}>
        <Cross2Icon />
      </IconButton>
    </Badge>
  );
}
