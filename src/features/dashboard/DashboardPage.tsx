import { Box, Grid, Tabs, Text } from "@radix-ui/themes";
import {
  ArchiveIcon,
  ChatBubbleIcon,
  EnvelopeClosedIcon,
  FileTextIcon,
  IdCardIcon,
  PersonIcon,
  ReaderIcon,
  StackIcon,
  UploadIcon,
} from "@radix-ui/react-icons";
import { MODE_LABELS, useViewer } from "@/session/ViewerProvider";
import { SuperAdminVerifyCallout } from "@/features/profile";
import { PageHeader } from "@/ui/PageHeader";
import { CRASH_PROBE_ENABLED, CrashProbe } from "./components/CrashProbe";
import { RecentImportsList } from "./components/RecentImportsList";
import { RecentVotersList } from "./components/RecentVotersList";
import { StatCard } from "@/ui/StatCard";
import { useDashboardStats } from "./hooks/useDashboardStats";
import { ROUTES } from "@/lib/routes";

const icon = (Icon: typeof PersonIcon) => <Icon color="var(--accent-9)" />;

/** /dashboard: title by mode, live figures of the organisation (no sample data, no artificial delay). */
export function DashboardPage() {
  const { mode, me } = useViewer();
  const { stats } = useDashboardStats();
  const labels = MODE_LABELS[mode];
  const c = stats?.counts;
  const orgName = me?.org?.name;

  return (
    <Box>
      {CRASH_PROBE_ENABLED && <CrashProbe />}
      <PageHeader title={labels.dashboard} description={orgName ? `Live overview of ${orgName}` : undefined} />
      <SuperAdminVerifyCallout />
      <Grid columns={{ initial: "1", sm: "2", lg: "4" }} gap="4" mb="5">
        <StatCard
          testId={`dashboard.stat.${labels.voters}`}
          label={labels.voters}
          value={c?.voters}
          icon={icon(PersonIcon)}
          to={ROUTES.voters}
        />
        <StatCard
          testId="dashboard.stat.Voter Groups"
          label="Voter Groups"
          value={c?.groups}
          icon={icon(StackIcon)}
          to={ROUTES.voterGroups}
        />
        <StatCard
          testId="dashboard.stat.Campaigns"
          label="Campaigns"
          value={c?.campaigns}
          icon={icon(ArchiveIcon)}
          to={ROUTES.smsCenter}
        />
        <StatCard
          testId="dashboard.stat.Messages Sent"
          label="Messages Sent"
          value={c?.messagesSent}
          icon={icon(ChatBubbleIcon)}
        />
      </Grid>
      <Tabs.Root defaultValue="overview">
        <Tabs.List>
          <Tabs.Trigger value="overview">Overview</Tabs.Trigger>
          <Tabs.Trigger value="outreach">Outreach</Tabs.Trigger>
          <Tabs.Trigger value="forms">Forms &amp; Surveys</Tabs.Trigger>
          <Tabs.Trigger value="team">Team</Tabs.Trigger>
        </Tabs.List>
        <Box pt="4">
          <Tabs.Content value="overview">
            <Grid columns={{ initial: "1", lg: "2" }} gap="4">
              {stats?.recentVoters ? (
                <RecentVotersList
                  title={`Recently Added ${labels.voter}s`}
                  voters={stats.recentVoters}
                  emptyText={`No ${labels.voter.toLowerCase()}s yet.`}
                />
              ) : (
                stats && (
                  <Text color="gray" size="2">
                    Your role cannot view {labels.voters.toLowerCase()}.
                  </Text>
                )
              )}
              {stats?.recentImports && <RecentImportsList imports={stats.recentImports} />}
            </Grid>
          </Tabs.Content>
          <Tabs.Content value="outreach">
            <Grid columns={{ initial: "1", sm: "3" }} gap="4">
              <StatCard
                testId="dashboard.stat.Campaigns"
                label="Campaigns"
                value={c?.campaigns}
                icon={icon(ArchiveIcon)}
                to={ROUTES.smsCenter}
              />
              <StatCard
                testId="dashboard.stat.Text Messages Sent"
                label="Text Messages Sent"
                value={c?.messagesSent}
                icon={icon(ChatBubbleIcon)}
              />
              <StatCard
                testId="dashboard.stat.Emails Sent"
                label="Emails Sent"
                value={c?.emailsSent}
                icon={icon(EnvelopeClosedIcon)}
              />
            </Grid>
          </Tabs.Content>
          <Tabs.Content value="forms">
            <Grid columns={{ initial: "1", sm: "3" }} gap="4">
              <StatCard
                testId="dashboard.stat.Forms"
                label="Forms"
                value={c?.forms}
                icon={icon(FileTextIcon)}
                to={ROUTES.formBuilder}
              />
              <StatCard
                testId="dashboard.stat.Form Submissions"
                label="Form Submissions"
                value={c?.submissions}
                icon={icon(ReaderIcon)}
                to={ROUTES.formSubmissions}
              />
              <StatCard
                testId="dashboard.stat.Surveys"
                label="Surveys"
                value={c?.surveys}
                icon={icon(ReaderIcon)}
                to={ROUTES.surveyMaker}
              />
            </Grid>
          </Tabs.Content>
          <Tabs.Content value="team">
            <Grid columns={{ initial: "1", sm: "3" }} gap="4">
              <StatCard
                testId="dashboard.stat.Team Members"
                label="Team Members"
                value={c?.members}
                icon={icon(IdCardIcon)}
              />
              <StatCard
                testId="dashboard.stat.Pending Members"
                label="Pending Members"
                value={c?.pendingMembers}
                icon={icon(EnvelopeClosedIcon)}
              />
              <StatCard
                testId="dashboard.stat.Imports"
                label="Imports"
                value={c?.imports}
                icon={icon(UploadIcon)}
                to={ROUTES.importHistory}
              />
            </Grid>
          </Tabs.Content>
        </Box>
      </Tabs.Root>
    </Box>
  );
}
