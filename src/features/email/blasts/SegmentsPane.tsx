import { PlusIcon, ReloadIcon } from "@radix-ui/react-icons";
import { Button, Flex } from "@radix-ui/themes";
import { useState } from "react";
import type { Id } from "@convex/_generated/dataModel";
import { toast } from "@/ui/toast";
import { CheckList, type CheckItem } from "./CheckList";
import { SegmentDialog } from "./SegmentDialog";
import { countOf } from "@/lib/plural";
import { useSegments, type SegmentRow } from "../hooks/useSegments";

type SegmentsPaneProps = {
  selected: readonly string[];
  onToggle(id: string, on: boolean): void;
  canManage: boolean;
  disabled: boolean;
};

function refreshedText(s: SegmentRow): string {
  if (s.refreshing) return "refreshing…";
  return s.lastRefreshedAt === null ? "never refreshed" : `refreshed ${new Date(s.lastRefreshedAt).toLocaleString()}`;
}

/** Saved voter segments (rules over voter fields), each with its member count as of its last refresh. */
export function SegmentsPane({ selected, onToggle, canManage, disabled }: SegmentsPaneProps) {
  const { segments, refresh } = useSegments();
  const [dialog, setDialog] = useState<null | "new" | Id<"emailSegments">>(null);

  const handleRefresh = async (s: SegmentRow) => {
    try {
      await refresh({ id: s.id });
      toast.info("Refreshing segment", { description: s.name });
    } catch (e) {
      toast.failure("Error refreshing segment", e);
    }
  };

  const items: CheckItem[] | undefined = segments?.map((s) => ({
    id: s.id,
    name: s.name,
    detail: `${countOf(s.cachedCount, "voter")} · ${refreshedText(s)}`,
    actions: canManage ? (
      <Flex gap="3" align="center">
        <Button
          size="1"
          variant="ghost"
          aria-label={`Refresh ${s.name}`}
          disabled={s.refreshing}
          onClick={() => void handleRefresh(s)}
        >
          <ReloadIcon /> Refresh
        </Button>
        <Button size="1" variant="ghost" aria-label={`Edit ${s.name}`} onClick={() => setDialog(s.id)}>
          Edit
        </Button>
      </Flex>
    ) : undefined,
  }));
  const editing = dialog !== null && dialog !== "new" ? segments?.find((s) => s.id === dialog) : undefined;

  return (
    <Flex direction="column" gap="2">
      {canManage && (
        <Button
          size="1"
          variant="soft"
          style={{ alignSelf: "flex-end" }}
          onClick={() => setDialog("new")}
          data-testid="email.segments.new"
        >
          <PlusIcon /> New segment
        </Button>
      )}
      <CheckList
        noun="segments"
        items={items}
        selected={selected}
        onToggle={onToggle}
        disabled={disabled}
        empty="No segments yet."
        testId="email.segments"
      />
      {dialog !== null && (
        <SegmentDialog
          key={dialog}
          open
          onOpenChange={(o) => !o && setDialog(null)}
          editId={dialog === "new" ? null : dialog}
          segment={editing}
        />
      )}
    </Flex>
  );
}
