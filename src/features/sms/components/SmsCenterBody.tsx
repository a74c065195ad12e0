import { InfoCircledIcon } from "@radix-ui/react-icons";
import { Box, Callout, Grid, Tabs } from "@radix-ui/themes";
import { useMemo, useState } from "react";
import type { Id } from "@convex/_generated/dataModel";
import { useViewer } from "@/session/ViewerProvider";
import { ConfirmDialog } from "@/ui/ConfirmDialog";
import { useSendSummary } from "../hooks/useSendSummary";
import { useSmsCampaigns, type SmsCampaign } from "../hooks/useSmsCampaigns";
import type { SmsOverview } from "../hooks/useSmsOverview";
import { ActiveSends } from "./ActiveSends";
import { ActivityLog } from "./ActivityLog";
import { MessageHistoryDialog } from "./MessageHistoryDialog";
import { QuickSend } from "./QuickSend";
import { RecentMessages } from "./RecentMessages";
import { SendCampaignDialog } from "./SendCampaignDialog";
import { SmsCampaignDialog } from "./SmsCampaignDialog";
import { SmsCampaignHistory } from "./SmsCampaignHistory";
import { SmsSettingsDialog } from "./SmsSettingsDialog";
import { StatCard } from "@/ui/StatCard";
import { useGroupList } from "@/features/groups";

/** Open Create SMS Campaign, optionally aimed at a group (?group=). */
export type CreateRequest = { group?: string };

type SmsCenterBodyProps = {
  overview: SmsOverview | undefined;
  create: CreateRequest | null;
  onCreateClosed(): void;
  settingsOpen: boolean;
  onSettingsClosed(): void;
};

type HistoryRequest = { sendId?: Id<"smsSends">; title?: string };

/** Tiles, running sends, the Text Blast / Quick Send tabs, recent messages, the log and the modals. */
export function SmsCenterBody({
  overview,
  create,
  onCreateClosed,
  settingsOpen,
  onSettingsClosed,
}: SmsCenterBodyProps) {
  const { can } = useViewer();
  const canManage = can("campaigns.manage");
  const canSend = can("messaging.send");
  const { data, remove } = useSmsCampaigns();
  const { groups } = useGroupList(!!create?.group);
  const [editing, setEditing] = useState<Id<"campaigns"> | null>(null);
  const [sending, setSending] = useState<Id<"campaigns"> | null>(null);
  const [deleting, setDeleting] = useState<SmsCampaign | null>(null);
  const [history, setHistory] = useState<HistoryRequest | null>(null);
  const [campaignSend, setCampaignSend] = useState<Id<"smsSends"> | null>(null);
  const [createKey, setCreateKey] = useState(0);
  const [tab, setTab] = useState("blast");
  useSendSummary(campaignSend);

  const campaigns = data?.campaigns;
  const byId = (id: Id<"campaigns"> | null) => (id ? campaigns?.find((c) => c.id === id) : undefined);
  const names = useMemo(() => new Map((campaigns ?? []).map((c) => [c.id as string, c.name])), [campaigns]);
  const sps = overview?.settings.segmentsPerSecond;
  // only a group of this organisation pre-targets (an unknown id is dropped)
  const initialGroups = useMemo(
    () => (create?.group && groups ? groups.filter((g) => g._id === create.group).map((g) => g._id) : []),
    [create, groups],
  );
  const createReady = create !== null && (!create.group || groups !== undefined);
  const sendingCampaign = byId(sending);

  return (
    <>
      {overview?.demo && (
        <Callout.Root color="purple" mb="4" data-testid="sms.demoCallout">
          <Callout.Icon>
            <InfoCircledIcon />
          </Callout.Icon>
          <Callout.Text>
            <strong>DEMO MODE</strong>: no Twilio credentials are configured on the server, so no text message leaves
            it. Sends run as usual; each message is recorded with the status “demo”, and about one in ten is marked
            failed as a simulation.
          </Callout.Text>
        </Callout.Root>
      )}
      <Grid columns={{ initial: "1", sm: "3" }} gap="4" mb="5">
        <StatCard
          testId="sms.stat.Total Text Blast"
          label="Total Text Blast"
          value={data?.total}
          hint="SMS campaigns"
        />
        <StatCard
          testId="sms.stat.Messages Sent"
          label="Messages Sent"
          value={data?.messagesSent}
          hint="All text messages your organisation has sent"
        />
        <StatCard testId="sms.stat.Recent Messages" label="Recent Messages" value={data?.sentToday} hint="Sent today" />
      </Grid>
      <ActiveSends
        sends={overview?.activeSends ?? []}
        names={names}
        canSend={canSend}
        timeZone={overview?.settings.defaultTimeZone}
      />
      <Tabs.Root value={tab} onValueChange={setTab}>
        <Tabs.List>
          <Tabs.Trigger value="blast">Text Blast</Tabs.Trigger>
          <Tabs.Trigger value="quick">Quick Send</Tabs.Trigger>
        </Tabs.List>
        <Box pt="4">
          <Tabs.Content value="blast">
            <SmsCampaignHistory
              campaigns={campaigns}
              canManage={canManage}
              canSend={canSend}
              onSend={(c) => setSending(c.id)}
              onEdit={(c) => setEditing(c.id)}
              onDelete={setDeleting}
              onMessages={(c) => c.lastSend && setHistory({ sendId: c.lastSend.id, title: `Messages of “${c.name}”` })}
            />
          </Tabs.Content>
          {/* kept mounted: ticked voters, the message and the running send's progress survive a tab switch */}
          <Tabs.Content value="quick" forceMount hidden={tab !== "quick"}>
            <QuickSend canSend={canSend} orgName={overview?.orgName} />
          </Tabs.Content>
        </Box>
      </Tabs.Root>
      <Grid columns={{ initial: "1", md: "2" }} gap="4" mt="4">
        <RecentMessages onViewAll={() => setHistory({})} />
        <ActivityLog />
      </Grid>

      {createReady && (
        <SmsCampaignDialog
          key={`create-${createKey}`}
          open
          onOpenChange={(o) => {
            if (!o) {
              setCreateKey((k) => k + 1);
              onCreateClosed();
            }
          }}
          editId={null}
          campaign={undefined}
          initialGroups={initialGroups}
          orgName={overview?.orgName}
          segmentsPerSecond={sps}
        />
      )}
      {editing && (
        <SmsCampaignDialog
          key={`edit-${editing}`}
          open
          onOpenChange={(o) => !o && setEditing(null)}
          editId={editing}
          campaign={byId(editing)}
          orgName={overview?.orgName}
          segmentsPerSecond={sps}
        />
      )}
      {sendingCampaign && (
        <SendCampaignDialog
          key={sendingCampaign.id}
          campaign={sendingCampaign}
          onOpenChange={(o) => !o && setSending(null)}
          demo={overview?.demo ?? false}
          segmentsPerSecond={sps}
          onStarted={setCampaignSend}
        />
      )}
      {history && (
        <MessageHistoryDialog
          onOpenChange={(o) => !o && setHistory(null)}
          sendId={history.sendId}
          title={history.title}
        />
      )}
      {settingsOpen && overview && (
        <SmsSettingsDialog
          onOpenChange={(o) => !o && onSettingsClosed()}
          settings={{
            quietStart: overview.settings.quietStart,
            quietEnd: overview.settings.quietEnd,
            defaultTimeZone: overview.settings.defaultTimeZone,
            profile: overview.settings.profile,
            // the saved override, not the resolved pace
            segmentsPerSecond: overview.settings.paceOverride ?? undefined,
          }}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => !o && setDeleting(null)}
        title="Delete Campaign"
        description={
          deleting
            ? `Are you sure you want to delete the campaign "${deleting.name}"? This action cannot be undone.`
            : ""
        }
        onConfirm={() => {
          if (deleting) void remove(deleting.id);
          setDeleting(null);
        }}
      />
    </>
  );
}
