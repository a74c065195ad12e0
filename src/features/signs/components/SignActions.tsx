import { DotsHorizontalIcon } from "@radix-ui/react-icons";
import { DropdownMenu, IconButton } from "@radix-ui/themes";
import type { Id } from "@convex/_generated/dataModel";
import type { SignStatus } from "../utils/signDisplay";

export type SignTarget = { id: Id<"signs">; address: string; status: SignStatus; latitude: number; longitude: number };

export type SignActionHandlers = {
  edit(s: SignTarget): void;
  schedule(s: SignTarget): void;
  markRemoved(s: SignTarget): void;
  viewOnMap(s: SignTarget): void;
  remove(s: SignTarget): void;
};

/**
 * A sign's actions (spec/3 §2.6): Edit; Schedule placement (Active signs only); Mark as removed
 * (Active and Scheduled); View on map; Delete. Writers only, except View on map.
 */
export function SignActionsMenu({
  sign,
  canManage,
  actions,
  hideViewOnMap,
}: {
  sign: SignTarget;
  canManage: boolean;
  actions: SignActionHandlers;
  hideViewOnMap?: boolean;
}) {
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger>
        <IconButton variant="ghost" aria-label={`Actions for ${sign.address}`}>
          <DotsHorizontalIcon />
        </IconButton>
      </DropdownMenu.Trigger>
      <DropdownMenu.Content>
        {canManage && <DropdownMenu.Item onSelect={() => actions.edit(sign)}>Edit</DropdownMenu.Item>}
        {canManage && sign.status === "Active" && (
          <DropdownMenu.Item onSelect={() => actions.schedule(sign)}>Schedule placement</DropdownMenu.Item>
        )}
        {canManage && sign.status !== "Removed" && (
          <DropdownMenu.Item onSelect={() => actions.markRemoved(sign)}>Mark as removed</DropdownMenu.Item>
        )}
        {!hideViewOnMap && <DropdownMenu.Item onSelect={() => actions.viewOnMap(sign)}>View on map</DropdownMenu.Item>}
        {canManage && (
          <>
            <DropdownMenu.Separator />
            <DropdownMenu.Item color="red" onSelect={() => actions.remove(sign)}>
              Delete
            </DropdownMenu.Item>
          </>
        )}
      </DropdownMenu.Content>
    </DropdownMenu.Root>
  );
}
