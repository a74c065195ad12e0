import { MagnifyingGlassIcon } from "@radix-ui/react-icons";
import { Box, Checkbox, Flex, ScrollArea, Text, TextField } from "@radix-ui/themes";
import { useState, type ReactNode } from "react";

export type CheckItem = { id: string; name: string; detail: ReactNode; actions?: ReactNode };

type CheckListProps = {
  /** what is listed ("lists", "groups", "segments"): names the search box and the list */
  noun: string;
  items: CheckItem[] | undefined;
  selected: readonly string[];
  onToggle(id: string, checked: boolean): void;
  disabled?: boolean;
  empty: string;
  testId: string;
};

/** A searchable checkbox list scrolling at 400 px (spec/2 §2.2 Send To), each row with its count. */
export function CheckList({ noun, items, selected, onToggle, disabled = false, empty, testId }: CheckListProps) {
  const [search, setSearch] = useState("");
  const term = search.trim().toLowerCase();
  const rows = (items ?? []).filter((i) => !term || i.name.toLowerCase().includes(term));
  const picked = new Set(selected);
  return (
    <Flex direction="column" gap="2" data-testid={testId}>
      <TextField.Root
        placeholder={`Search ${noun}`}
        aria-label={`Search ${noun}`}
        value={search}
        onChange={(e) => setSearch(e.target.value)}
      >
        <TextField.Slot>
          <MagnifyingGlassIcon />
        </TextField.Slot>
      </TextField.Root>
      <ScrollArea type="auto" scrollbars="vertical" style={{ maxHeight: 400 }}>
        <Flex direction="column" gap="1" pr="3" role="group" aria-label={`Select ${noun}`}>
          {items === undefined ? (
            <Text size="2" color="gray">
              Loading…
            </Text>
          ) : rows.length === 0 ? (
            <Text size="2" color="gray">
              {items.length === 0 ? empty : `No ${noun} match.`}
            </Text>
          ) : (
            rows.map((item) => (
              <Flex
                key={item.id}
                align="center"
                justify="between"
                gap="2"
                py="1"
                wrap="wrap"
                data-testid={`${testId}.row`}
              >
                <Text as="label" size="2" style={{ flex: "1 1 180px", minWidth: 0 }}>
                  <Flex gap="2" align="start">
                    <Checkbox
                      checked={picked.has(item.id)}
                      disabled={disabled}
                      onCheckedChange={(c) => onToggle(item.id, c === true)}
                      mt="1"
                    />
                    <Box style={{ minWidth: 0 }}>
                      <Text as="div" weight="medium" truncate>
                        {item.name}
                      </Text>
                      <Text as="div" size="1" color="gray">
                        {item.detail}
                      </Text>
                    </Box>
                  </Flex>
                </Text>
                {item.actions}
              </Flex>
            ))
          )}
        </Flex>
      </ScrollArea>
    </Flex>
  );
}

/** Adds or removes an id, keeping the others' order. */
export function toggled(ids: readonly string[], id: string, on: boolean): string[] {
  const rest = ids.filter((x) => x !== id);
  return on ? [...rest, id] : rest;
}
