import { MagnifyingGlassIcon } from "@radix-ui/react-icons";
import { Box, Card, Flex, Text, TextField } from "@radix-ui/themes";
import { useQuery } from "convex/react";
import { useRef, useState } from "react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { useDebounced } from "@/lib/useDebounced";

export type VoterSearchResult = (typeof api.voters.quickSearch)["_returnType"][number];

type VoterSearchFieldProps = {
  /** the field's accessible name, and the results list's */
  label: string;
  resultsLabel: string;
  placeholder: string;
  /** the search starts at this many characters (a hint shows below it when `hint` is set) */
  minChars: number;
  debounceMs: number;
  closeAfterBlurMs: number;
  maxResults?: number;
  hint?: boolean;
  /** clear the term after a pick */
  clearOnPick?: boolean;
  isSelected?(id: Id<"voters">): boolean;
  /** the grey text after a result's name */
  detail(r: VoterSearchResult): string;
  onPick(r: VoterSearchResult, name: string): void;
};

/**
 * A voter search box with its result list (api.voters.quickSearch): debounced, starting at a
 * minimum length, closing shortly after blur, picked with a click or Enter. Used by the groups
 * page's quick search and the SMS campaign's voter picker.
 */
export function VoterSearchField(props: VoterSearchFieldProps) {
  const {
    label,
    resultsLabel,
    placeholder,
    minChars,
    debounceMs,
    closeAfterBlurMs,
    maxResults,
    hint,
    clearOnPick,
    isSelected,
    detail,
    onPick,
  } = props;
  const [term, setTerm] = useState("");
  const [open, setOpen] = useState(false);
  const closeTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const debounced = useDebounced(term.trim(), debounceMs);
  const active = debounced.length >= minChars;
  const results = useQuery(api.voters.quickSearch, active ? { term: debounced } : "skip");

  const pick = (r: VoterSearchResult) => {
    onPick(r, `${r.first_name} ${r.last_name}`);
    if (clearOnPick) setTerm("");
    setOpen(false);
  };

  return (
    <Box position="relative">
      <TextField.Root
        placeholder={placeholder}
        aria-label={label}
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
          closeTimer.current = setTimeout(() => setOpen(false), closeAfterBlurMs);
        }}
      >
        <TextField.Slot>
          <MagnifyingGlassIcon />
        </TextField.Slot>
      </TextField.Root>
      {hint && term.trim().length > 0 && term.trim().length < minChars && (
        <Text size="1" color="gray">
          Type at least {minChars} characters to search.
        </Text>
      )}
      {open && active && results && (
        <Card
          style={{ position: "absolute", zIndex: 10, left: 0, right: 0, top: "100%", marginTop: 4 }}
          role="listbox"
          aria-label={resultsLabel}
        >
          {results.length === 0 ? (
            <Text size="2" color="gray">
              No voters found
            </Text>
          ) : (
            <Flex direction="column" gap="1">
              {results.slice(0, maxResults ?? results.length).map((r) => (
                <Box
                  key={r._id}
                  role="option"
                  aria-selected={isSelected?.(r._id) ?? false}
                  tabIndex={0}
                  style={{ cursor: "pointer", padding: "4px 6px", borderRadius: 4 }}
                  onMouseDown={(e) => e.preventDefault()}
                  onClick={() => pick(r)}
                  onKeyDown={(e) => {
                    if (e.key === "Enter") pick(r);
                  }}
                >
                  <Text size="2" weight="medium">
                    {r.first_name} {r.last_name}
                  </Text>{" "}
                  <Text size="1" color="gray">
                    {detail(r)}
                  </Text>
                </Box>
              ))}
            </Flex>
          )}
        </Card>
      )}
    </Box>
  );
}
