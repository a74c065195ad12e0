import { Card, Flex, Grid, Tabs } from "@radix-ui/themes";
import { useEffect, useRef } from "react";
import type { Id } from "@convex/_generated/dataModel";
import { toggled } from "./CheckList";
import { Exclusions } from "./Exclusions";
import { GroupsPane } from "./GroupsPane";
import { ListsPane } from "./ListsPane";
import { ManualRecipients } from "./ManualRecipients";
import { RecipientCounter } from "./RecipientCounter";
import { SegmentsPane } from "./SegmentsPane";
import { SendProgress } from "./SendProgress";
import { useBlastSetup, useRecipientEstimate } from "../hooks/useBlastSetup";
import { Loading } from "@/ui/Loading";
import { RecordGone } from "@/ui/RecordGone";

type SendToTabProps = {
  campaignId: Id<"emailCampaigns">;
  canManage: boolean;
  /** a voter group to add to the recipients ("Email Group" on the groups page), then `onGroupAdded` */
  addGroupId?: string | null;
  onGroupAdded?: () => void;
};

/**
 * Send To (spec/2 §2.2): lists, groups and segments with search, addresses typed in by hand, the
 * exclusions and the total recipient counter. The selections are the campaign's shared setup:
 * every change is saved at once and teammates' changes show live.
 */
export function SendToTab({ campaignId, canManage, addGroupId, onGroupAdded }: SendToTabProps) {
  const { setup, value, change } = useBlastSetup(campaignId);
  const listIds = value("listIds") ?? [];
  const groupIds = value("groupIds") ?? [];
  const segmentIds = value("segmentIds") ?? [];
  const manual = value("manual") ?? [];
  const estimate = useRecipientEstimate(setup ? { listIds, groupIds, segmentIds, manual } : null);

  // "Email Group": the group joins the recipients once the campaign's setup is known
  const adding = useRef<string | null>(null);
  useEffect(() => {
    if (!addGroupId || !setup || adding.current === addGroupId) return;
    adding.current = addGroupId;
    if (setup.groupIds.includes(addGroupId) || !canManage || setup.status === "sent") {
      onGroupAdded?.();
      return;
    }
    void change("groupIds", [...setup.groupIds, addGroupId]).then(() => onGroupAdded?.());
  }, [addGroupId, setup, canManage, change, onGroupAdded]);

  if (setup === undefined) return <Loading />;
  if (setup === null) {
    return <RecordGone what="campaign" />;
  }
  const editable = canManage && setup.status !== "sent";

  return (
    <Flex direction="column" gap="4" data-testid="email.sendTo">
      <Grid columns={{ initial: "1", md: "minmax(0, 3fr) minmax(0, 2fr)" }} gap="4">
        <Card>
          <Tabs.Root defaultValue="lists">
            <Tabs.List aria-label="Recipient sources">
              <Tabs.Trigger value="lists">Lists</Tabs.Trigger>
              <Tabs.Trigger value="groups">Groups</Tabs.Trigger>
              <Tabs.Trigger value="segments">Segments</Tabs.Trigger>
            </Tabs.List>
            <Tabs.Content value="lists" mt="3">
              <ListsPane
                selected={listIds}
                canManage={canManage}
                disabled={!editable}
                onToggle={(id, on) => void change("listIds", toggled(listIds, id, on))}
              />
            </Tabs.Content>
            <Tabs.Content value="groups" mt="3">
              <GroupsPane
                selected={groupIds}
                disabled={!editable}
                onToggle={(id, on) => void change("groupIds", toggled(groupIds, id, on))}
              />
            </Tabs.Content>
            <Tabs.Content value="segments" mt="3">
              <SegmentsPane
                selected={segmentIds}
                canManage={canManage}
                disabled={!editable}
                onToggle={(id, on) => void change("segmentIds", toggled(segmentIds, id, on))}
              />
            </Tabs.Content>
          </Tabs.Root>
        </Card>
        <Flex direction="column" gap="4">
          <RecipientCounter estimate={estimate} />
          <Card>
            <ManualRecipients value={manual} disabled={!editable} onChange={(next) => change("manual", next)} />
          </Card>
          <Card>
            <Exclusions
              excludeBounced={value("excludeBounced") ?? true}
              excludeComplained={value("excludeComplained") ?? true}
              disabled={!editable}
              onChange={(field, on) => void change(field, on)}
            />
          </Card>
        </Flex>
      </Grid>
      <SendProgress campaignId={campaignId} />
    </Flex>
  );
}
