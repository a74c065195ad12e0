import { PlusIcon } from "@radix-ui/react-icons";
import { Box, Button, Callout, Flex, Tabs } from "@radix-ui/themes";
import type { ReactNode } from "react";
import { useSearchParams } from "react-router-dom";
import type { Id } from "@convex/_generated/dataModel";
import { useViewer } from "@/session/ViewerProvider";
import { PageHeader } from "@/ui/PageHeader";
import { AutomatedTab } from "./blasts/AutomatedTab";
import { CampaignPicker } from "./blasts/CampaignPicker";
import { CreateEditTab } from "./blasts/CreateEditTab";
import { InboxTab } from "./blasts/InboxTab";
import { SendToTab } from "./blasts/SendToTab";
import { StatisticsTab } from "./blasts/StatisticsTab";
import { dashboardTab, TAB_LABELS, visibleTabs } from "./blasts/tabs";
import { useEmailCampaigns } from "./hooks/useEmailCampaigns";
import { ROUTES } from "@/lib/routes";
import { NoPermission } from "@/ui/NoPermission";

/**
 * /email: the Email Blast Dashboard (spec/2 §2.2). The tab is kept in `?tab=`, the campaign in
 * `?campaign=new|{id}`. Create & Edit is the builder; Send To and Automated set up the campaign's
 * send together with teammates; Statistics shows once the campaign is sent.
 */
export function EmailPage() {
  const { can, me } = useViewer();
  const [params, setParams] = useSearchParams();
  const campaignParam = params.get("campaign") ?? "new";
  const email = useEmailCampaigns();
  const selected = campaignParam === "new" ? undefined : email.campaigns?.find((c) => c.id === campaignParam);
  const sent = selected?.status === "sent";
  const tab = dashboardTab(params.get("tab"), { sent });
  const canManage = can("campaigns.manage");

  // "Email Group" (groups page): /email?tab=send-to&group={id} — the group joins the chosen campaign's recipients
  const groupParam = params.get("group");
  const open = (id: string) => {
    const next = new URLSearchParams(params);
    next.set("tab", groupParam && id !== "new" ? "send-to" : "create-and-edit");
    next.set("campaign", id);
    setParams(next);
  };
  const groupAdded = () => {
    const next = new URLSearchParams(window.location.search);
    next.delete("group");
    setParams(next, { replace: true });
  };
  const showTab = (value: string) => {
    const next = new URLSearchParams(params);
    next.set("tab", value);
    setParams(next);
  };
  const campaignId = campaignParam === "new" ? null : (campaignParam as Id<"emailCampaigns">);
  const needsCampaign = (content: (id: Id<"emailCampaigns">) => ReactNode) =>
    campaignId ? (
      content(campaignId)
    ) : (
      <Callout.Root color="blue">
        <Callout.Text>
          Save the campaign first: its recipients and send options belong to a saved campaign.
        </Callout.Text>
      </Callout.Root>
    );

  return (
    <Box>
      <PageHeader
        title="Email"
        description="Design email campaigns together, choose who receives them and send, schedule or automate them."
        breadcrumbs={[{ label: "Dashboard", to: ROUTES.dashboard }, { label: "Email" }]}
      />
      {!can("campaigns.view") ? (
        <NoPermission />
      ) : (
        <Flex direction="column" gap="4">
          <Flex gap="3" align="end" wrap="wrap">
            <CampaignPicker campaigns={email.campaigns} currentId={campaignId} onOpen={open} />
            {canManage && campaignId && (
              <Button variant="soft" onClick={() => open("new")} data-testid="email.dashboard.new">
                <PlusIcon /> New Campaign
              </Button>
            )}
          </Flex>
          {groupParam && !campaignId && (
            <Callout.Root color="blue" data-testid="email.groupPending">
              <Callout.Text>
                Choose the campaign to send to this group in the picker above (or save a new one): the group is added to
                its recipients.
              </Callout.Text>
            </Callout.Root>
          )}
          <Tabs.Root value={tab} onValueChange={showTab}>
            <Tabs.List aria-label="Email dashboard" wrap="wrap" data-testid="email.tabs">
              {visibleTabs({ sent }).map((t) => (
                <Tabs.Trigger key={t} value={t} data-testid={`email.tab.${t}`}>
                  {TAB_LABELS[t]}
                </Tabs.Trigger>
              ))}
            </Tabs.List>
            {/* a new campaign's design lives only in this page until saved: its tab stays mounted */}
            <Tabs.Content
              value="create-and-edit"
              forceMount={campaignParam === "new" ? true : undefined}
              hidden={tab !== "create-and-edit"}
              mt="4"
            >
              <CreateEditTab
                campaignParam={campaignParam}
                email={email}
                canManage={canManage}
                offlineKey={me?.userId}
                onOpen={open}
              />
            </Tabs.Content>
            <Tabs.Content value="inbox" mt="4">
              <InboxTab campaigns={email.campaigns} currentId={campaignId} onOpen={open} />
            </Tabs.Content>
            <Tabs.Content value="send-to" mt="4">
              {needsCampaign((id) => (
                <SendToTab
                  key={id}
                  campaignId={id}
                  canManage={canManage}
                  addGroupId={groupParam}
                  onGroupAdded={groupAdded}
                />
              ))}
            </Tabs.Content>
            {/* kept mounted: an unsaved "How to send" choice survives a visit to another tab */}
            <Tabs.Content value="automated" forceMount hidden={tab !== "automated"} mt="4">
              {needsCampaign((id) => (
                <AutomatedTab key={id} campaignId={id} canManage={canManage} />
              ))}
            </Tabs.Content>
            {sent && campaignId && (
              <Tabs.Content value="statistics" mt="4">
                <StatisticsTab key={campaignId} campaignId={campaignId} />
              </Tabs.Content>
            )}
          </Tabs.Root>
        </Flex>
      )}
    </Box>
  );
}
