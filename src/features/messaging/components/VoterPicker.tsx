import { Cross2Icon, MagnifyingGlassIcon } from "@radix-ui/react-icons";
import { Badge, Box, Card, Flex, IconButton, Text, TextField } from "@radix-ui/themes";
import { useQuery } from "convex/react";
import { useRef, useState } from "react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { useDebounced } from "@/lib/useDebounced";

/** Campaign voter search (spec/2 §9): starts when the term is longer than 2 characters, 10 results. */
export const VOTER_SEARCH = { minChars: 3, results: 10, debounceMs: 300, closeAfterBlurMs: 200 } as const;

type VoterPickerProps = { value: Id<"voters">[]; onChange(value: Id<"voters">[]): void };

/** Individual voters a campaign targets: search and pick, picked ones as removable chips. */
export function VoterPicker({ value, onChange }: VoterPickerProps) {
  const [term, setTerm] = useState("");
  const [open, setOpen] = useState(false);
  const closeTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const debounced = useDebounced(term.trim(), VOTER_SEARCH.debounceMs);
  const active = debounced.length >= VOTER_SEARCH.minChars;
  const results = useQuery(api.voters.quickSearch, active ? { term: debounced } : "skip");
  const picked = new Set(value);

  const pick = (id: Id<"voters">) => {
    if (!picked.has(id)) onChange([...value, id]);
    setTerm("");
    setOpen(false);
  };

  return (
    <Box>
      <Text as="div" size="2" weight="medium" mb="1">Individual Voters</Text>
      <Box position="relative">
        <TextField.Root
          placeholder="Search voters by name or email..."
          aria-label="Search individual voters"
          value={term}
          onChange={(e) => {
            setTerm(e.target.value);
            setOpen(true);
          }}
          onFocus={() => {
            if (closeTimer.current) clearTimeout(closeTimer.current);
            setOpen(true);
          }}
          onBlur={() => {
            closeTimer.current = setTimeout(() => setOpen(false), VOTER_SEARCH.closeAfterBlurMs);
          }}
        >
          <TextField.Slot><MagnifyingGlassIcon /></TextField.Slot>
        </TextField.Root>
        {term.trim().length > 0 && term.trim().length < VOTER_SEARCH.minChars && (
          <Text size="1" color="gray">Type at least {VOTER_SEARCH.minChars} characters to search.</Text>
        )}
        {open && active && results && (
          <Card style={{ position: "absolute", zIndex: 10, left: 0, right: 0, top: "100%", marginTop: 4 }} role="listbox" aria-label="Voter search results">
            {results.length === 0 ? (
              <Text size="2" color="gray">No voters found</Text>
            ) : (
              <Flex direction="column" gap="1">
                {results.slice(0, VOTER_SEARCH.results).map((r) => (
                  <Box
                    key={r._id}
                    role="option"
                    aria-selected={picked.has(r._id)}
                    tabIndex={0}
                    style={{ cursor: "pointer", padding: "4px 6px", borderRadius: 4 }}
                    onMouseDown={(e) => e.preventDefault()}
                    onClick={() => pick(r._id)}
                    onKeyDown={(e) => {
                      if (e.key === "Enter") pick(r._id);
                    }}
                  >
                    <Text size="2" weight="medium">{r.first_name} {r.last_name}</Text>{" "}
                    <Text size="1" color="gray">{r.phone ?? "no phone"}</Text>
                  </Box>
                ))}
              </Flex>
            )}
          </Card>
        )}
      </Box>
      {value.length > 0 && (
        <Flex gap="1" wrap="wrap" mt="2" aria-label="Selected voters">
          {value.slice(0, 30).map((id) => (
            <VoterChip key={id} id={id} onRemove={() => onChange(value.filter((v) => v !== id))} />
          ))}
          {value.length > 30 && <Text size="1" color="gray">and {value.length - 30} more</Text>}
        </Flex>
      )}
    </Box>
  );
}

function VoterChip({ id, onRemove }: { id: Id<"voters">; onRemove(): void }) {
  const voter = useQuery(api.voters.get, { id });
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
