import { PlusIcon } from "@radix-ui/react-icons";
import { Button, Flex } from "@radix-ui/themes";
import { useEffect, useRef, useState } from "react";
import type { Id } from "@convex/_generated/dataModel";
import { toast } from "@/ui/toast";
import { CheckList, type CheckItem } from "./CheckList";
import { ManageListDialog } from "./ManageListDialog";
import { NewListDialog } from "./NewListDialog";
import { countOf } from "@/lib/plural";
import { useEmailLists } from "../hooks/useEmailLists";

type ListsPaneProps = {
  selected: readonly string[];
  onToggle(id: string, on: boolean): void;
  canManage: boolean;
  disabled: boolean;
};

/**
 * The organisation's email lists. The three default lists are created the first time an
 * organisation with no list opens this pane. "All Contacts" is every voter with an email, counted
 * from the voter total (the exact number is known at send); the others hold explicit contacts.
 */
export function ListsPane({ selected, onToggle, canManage, disabled }: ListsPaneProps) {
  const { lists, ensureDefaults } = useEmailLists();
  const asked = useRef(false);
  const [dialog, setDialog] = useState<null | "new" | { id: Id<"emailLists">; name: string }>(null);

  useEffect(() => {
    if (lists?.length !== 0 || !canManage || asked.current) return;
    asked.current = true;
    // a teammate opening the pane at the same time is harmless: the server inserts only when none exist
    ensureDefaults({}).catch((e: unknown) => toast.failure("Error loading recipient data", e));
  }, [lists, canManage, ensureDefaults]);

  const items: CheckItem[] | undefined = lists?.map((l) => ({
    id: l.id,
    name: l.name,
    detail:
      l.subscriptionType === "all_voters"
        ? `${countOf(l.contactCount, "voter")} (every voter with an email; exact count at send)`
        : countOf(l.contactCount, "contact"),
    actions:
      canManage && l.subscriptionType === "manual" ? (
        <Button
          size="1"
          variant="ghost"
          aria-label={`Manage ${l.name}`}
          onClick={() => setDialog({ id: l.id, name: l.name })}
        >
          Manage
        </Button>
      ) : undefined,
  }));

  return (
    <Flex direction="column" gap="2">
      {canManage && (
        <Button
          size="1"
          variant="soft"
          style={{ alignSelf: "flex-end" }}
          onClick={() => setDialog("new")}
          data-testid="email.lists.new"
        >
          <PlusIcon /> New list
        </Button>
      )}
      <CheckList
        noun="lists"
        items={items}
        selected={selected}
        onToggle={onToggle}
        disabled={disabled}
        empty="No lists yet."
        testId="email.lists"
      />
      {dialog === "new" && <NewListDialog open onOpenChange={(o) => !o && setDialog(null)} />}
      {dialog !== null && dialog !== "new" && (
        <ManageListDialog open onOpenChange={(o) => !o && setDialog(null)} listId={dialog.id} name={dialog.name} />
      )}
    </Flex>
  );
}
