import { PlusIcon } from "@radix-ui/react-icons";
import { Button, Flex, Text } from "@radix-ui/themes";

type VoterSelectionBarProps = {
  selectedCount: number;
  allMatching: boolean;
  /** the total matching the filter as shown ("12,345", "1,024+"), null while it is counted */
  totalText: string | null;
  onSelectAllMatching(): void;
  onClear(): void;
  onAddToGroup(): void;
};

/** What the bulk selection holds, and what can be done with it (select every match, add to a group). */
export function VoterSelectionBar({
  selectedCount,
  allMatching,
  totalText,
  onSelectAllMatching,
  onClear,
  onAddToGroup,
}: VoterSelectionBarProps) {
  const none = !allMatching && selectedCount === 0;
  return (
    <Flex gap="3" align="center" wrap="wrap" data-testid="voters.selection">
      <Text size="2" weight="medium">
        {allMatching ? `All ${totalText ?? ""} matching selected` : `${selectedCount.toLocaleString()} selected`}
      </Text>
      {!allMatching && (
        <Button
          size="1"
          variant="soft"
          disabled={totalText === null || totalText === "0"}
          onClick={onSelectAllMatching}
        >
          Select all matching ({totalText ?? "counting…"})
        </Button>
      )}
      {!none && (
        <>
          <Button size="1" onClick={onAddToGroup}>
            <PlusIcon /> Add to Group
          </Button>
          <Button size="1" variant="ghost" color="gray" onClick={onClear}>
            Clear selection
          </Button>
        </>
      )}
    </Flex>
  );
}
