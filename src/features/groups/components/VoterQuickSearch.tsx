import { MagnifyingGlassIcon } from "@radix-ui/react-icons";
import { Box, Card, Flex, Text, TextField } from "@radix-ui/themes";
import { useQuery } from "convex/react";
import { useRef, useState } from "react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { useDebounced } from "@/lib/useDebounced";

/** Quick search constants (spec/1 §9). */
export const QUICK_SEARCH = { debounceMs: 300, minChars: 2, closeAfterBlurMs: 200 } as const;

type VoterQuickSearchProps = { onPick(voterId: Id<"voters">, name: string): void };

export function VoterQuickSearch({ onPick }: VoterQuickSearchProps) {
  const [term, setTerm] = useState("");
  const [open, setOpen] = useState(false);
  const closeTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const debounced = useDebounced(term.trim(), QUICK_SEARCH.debounceMs);
  const active = debounced.length >= QUICK_SEARCH.minChars;
  const results = useQuery(api.voters.quickSearch, active ? { term: debounced } : "skip");

  return (
    <Box position="relative">
      <TextField.Root
        placeholder="Quick search voters..."
        aria-label="Quick search voters"
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
          closeTimer.current = setTimeout(() => setOpen(false), QUICK_SEARCH.closeAfterBlurMs);
        }}
      >
        <TextField.Slot><MagnifyingGlassIcon /></TextField.Slot>
      </TextField.Root>
      {open && active && results && (
        <Card style={{ position: "absolute", zIndex: 10, left: 0, right: 0, top: "100%", marginTop: 4 }} role="listbox" aria-label="Quick search results">
          {results.length === 0 ? (
            <Text size="2" color="gray">No voters found</Text>
          ) : (
            <Flex direction="column" gap="1">
              {results.map((r) => {
                const name = `${r.first_name} ${r.last_name}`;
                return (
                  <Box
                    key={r._id}
                    role="option"
                    aria-selected={false}
                    tabIndex={0}
                    style={{ cursor: "pointer", padding: "4px 6px", borderRadius: 4 }}
                    onMouseDown={(e) => e.preventDefault()}
                    onClick={() => {
                      onPick(r._id, name);
                      setOpen(false);
                    }}
                    onKeyDown={(e) => {
                      if (e.key === "Enter") {
                        onPick(r._id, name);
                        setOpen(false);
                      }
                    }}
                  >
                    <Text size="2" weight="medium">{name}</Text> <Text size="1" color="gray">{r.email ?? ""}</Text>
                  </Box>
                );
              })}
            </Flex>
          )}
        </Card>
      )}
    </Box>
  );
}
