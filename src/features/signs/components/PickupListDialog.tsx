import { Box, Button, Dialog, Flex, Heading, Text } from "@radix-ui/themes";
import type { api } from "@convex/_generated/api";
import { formatDay } from "../utils/signDisplay";
import { SignActionsMenu, type SignActionHandlers } from "./SignActions";

type Groups = (typeof api.signs.pickups)["_returnType"];

/** Signs past their removal date and still standing, per responsible member. */
export function PickupListDialog({
  open,
  onOpenChange,
  groups,
  canManage,
  actions,
}: {
  open: boolean;
  onOpenChange(o: boolean): void;
  groups: Groups;
  canManage: boolean;
  actions: SignActionHandlers;
}) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Content maxWidth="640px">
        <Dialog.Title>Due for pickup</Dialog.Title>
        <Dialog.Description size="2" color="gray" mb="3">
          Signs whose removal date has passed, by the member responsible for them.
        </Dialog.Description>
        {groups.length === 0 && <Text size="2">No signs are due for pickup.</Text>}
        <Flex direction="column" gap="4">
          {groups.map((g) => (
            <Box key={g.responsibleUserId ?? "none"} data-testid="pickup.group">
              <Heading as="h3" size="3" mb="1">
                {g.name} ({g.signs.length})
              </Heading>
              <Flex direction="column" gap="1" asChild>
                <ul style={{ listStyle: "none", margin: 0, padding: 0 }}>
                  {g.signs.map((s) => (
                    <Flex asChild key={s.id} justify="between" align="center" gap="2">
                      <li>
                        <Box>
                          <Text as="div" size="2" weight="medium">
                            {s.address}
                          </Text>
                          <Text as="div" size="1" color="gray">
                            {s.campaignName} · due {formatDay(s.dateRemoval)}
                          </Text>
                        </Box>
                        <SignActionsMenu
                          sign={{
                            id: s.id,
                            address: s.address,
                            status: s.status,
                            latitude: s.latitude,
                            longitude: s.longitude,
                          }}
                          canManage={canManage}
                          actions={actions}
                        />
                      </li>
                    </Flex>
                  ))}
                </ul>
              </Flex>
            </Box>
          ))}
        </Flex>
        <Flex justify="end" mt="4">
          <Dialog.Close>
            <Button variant="soft" color="gray">
              Close
            </Button>
          </Dialog.Close>
        </Flex>
      </Dialog.Content>
    </Dialog.Root>
  );
}
