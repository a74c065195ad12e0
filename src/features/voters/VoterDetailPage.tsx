import { EnvelopeClosedIcon, Pencil1Icon } from "@radix-ui/react-icons";
import { Box, Button, Card, DataList, Flex, Grid, Heading, Skeleton, Text } from "@radix-ui/themes";
import { useState } from "react";
import { useNavigate, useParams } from "react-router-dom";
import { STATE_VERIFIED_PAIRS, VOTER_FIELD_DEFS } from "@convex/tables/voters";
import { VoterAuditHistory } from "@/features/admin";
import { VoterFormSubmissions } from "@/features/forms";
import { VoterSigns } from "@/features/signs";
import { VoterSmsHistory } from "@/features/sms";
import { MODE_LABELS, useViewer } from "@/session/ViewerProvider";
import { usePresence } from "@/lib/presence/usePresence";
import { PageHeader } from "@/ui/PageHeader";
import { PresenceAvatars } from "@/ui/PresenceAvatars";
import { AddToGroupDialog } from "./components/AddToGroupDialog";
import { PartyBadge } from "./components/PartyBadge";
import { RawCode } from "./components/RawCode";
import { SendEmailDialog } from "./components/SendEmailDialog";
import { StateHistoryCard } from "./components/StateHistoryCard";
import { StatusBadge } from "./components/StatusBadge";
import { VerifiedIcon } from "./components/VerifiedIcon";
import { VoteHistoryCard } from "./components/VoteHistoryCard";
import { VoterCanvassFlags } from "./components/VoterCanvassFlags";
import { VoterCanvassHistory } from "./components/VoterCanvassHistory";
import { VoterChangesCard } from "./components/VoterChangesCard";
import { VoterConsent } from "./components/VoterConsent";
import { VoterEmailHistory } from "./components/VoterEmailHistory";
import { VoterGroupsCard } from "./components/VoterGroupsCard";
import { VoterNotFound } from "./components/VoterNotFound";
import { useVoterDetail } from "./hooks/useVoterRecord";
import { hasVerifiedValue, labelFromKey } from "./utils/voterDisplay";
import { ROUTES, voterEditPath } from "@/lib/routes";

const SHOWN = VOTER_FIELD_DEFS.filter(
  (f) =>
    ![
      "first_name",
      "middle_name",
      "last_name",
      "name_suffix",
      "party_affiliation",
      "status",
      "state_voter_history",
      "notes",
    ].includes(f.key) && f.section !== "state_verified",
);

/**
 * /voters/{id}: the voter's data (with the state file's raw status and party codes), state voter
 * history and elections voted, state-verified checks, change history, groups, email, and what
 * canvassing recorded (flags such as moved or do not contact, each attempt at their door).
 */
export function VoterDetailPage() {
  const { id = "" } = useParams();
  const { mode, can } = useViewer();
  const labels = MODE_LABELS[mode];
  const navigate = useNavigate();
  const { voter, defs, editState } = useVoterDetail(id);
  const [groupOpen, setGroupOpen] = useState(false);
  const [emailOpen, setEmailOpen] = useState(false);
  const presence = usePresence(voter ? `voter:${voter._id}` : null);

  if (voter === undefined) {
    return (
      <Box>
        <Skeleton height="40px" mb="4" />
        <Skeleton height="240px" />
      </Box>
    );
  }
  if (voter === null) {
    const deletedBy = editState?.deleted?.name;
    return (
      <VoterNotFound
        title="Voter Not Found"
        text={
          deletedBy
            ? `This ${labels.voter.toLowerCase()} was deleted by ${deletedBy}.`
            : "The voter you're looking for could not be found."
        }
      />
    );
  }
  const name = [voter.first_name, voter.middle_name, voter.last_name, voter.name_suffix].filter(Boolean).join(" ");
  const value = (key: string) => {
    const v = (voter as Record<string, unknown>)[key];
    if (typeof v === "boolean") return v ? "Yes" : "No";
    return typeof v === "string" || typeof v === "number" ? (v === "" ? "—" : String(v)) : "—";
  };
  const custom = Object.entries(voter.custom_fields ?? {});
  const hasVerified = STATE_VERIFIED_PAIRS.some(([, vk]) => hasVerifiedValue(voter[vk] as string | undefined));
  const elections = voter.vote_history ?? [];

  return (
    <Box>
      <PageHeader
        title={name}
        breadcrumbs={[
          { label: "Dashboard", to: ROUTES.dashboard },
          { label: labels.voters, to: ROUTES.voters },
          { label: name },
        ]}
        actions={
          <>
            <PresenceAvatars people={presence.others} />
            {(can("voters.manage") || can("voters.update")) && (
              <Button variant="soft" onClick={() => navigate(voterEditPath(voter._id))}>
                <Pencil1Icon /> Edit
              </Button>
            )}
            {can("messaging.send") && voter.email && (
              <Button onClick={() => setEmailOpen(true)}>
                <EnvelopeClosedIcon /> Send Email
              </Button>
            )}
          </>
        }
      />
      <Grid columns={{ initial: "1", md: "2" }} gap="4">
        <Card>
          <Flex gap="2" mb="3" wrap="wrap" align="center">
            <PartyBadge party={voter.party_affiliation} />
            {voter.party_code && (
              <RawCode label="Party code in the state file" code={voter.party_code} testId="voters.partyCode" />
            )}
            <StatusBadge status={voter.status} />
            {voter.status_code && (
              <RawCode label="Status code in the state file" code={voter.status_code} testId="voters.statusCode" />
            )}
          </Flex>
          {can("voters.view") && <VoterCanvassFlags voterId={voter._id} />}
          <DataList.Root orientation={{ initial: "vertical", sm: "horizontal" }}>
            {SHOWN.map((f) => (
              <DataList.Item key={f.key}>
                <DataList.Label>{f.label}</DataList.Label>
                <DataList.Value>{value(f.key)}</DataList.Value>
              </DataList.Item>
            ))}
            {custom.map(([k, v]) => (
              <DataList.Item key={k}>
                <DataList.Label>{defs?.find((d) => d.key === k)?.label ?? labelFromKey(k)}</DataList.Label>
                <DataList.Value>{v}</DataList.Value>
              </DataList.Item>
            ))}
          </DataList.Root>
          {voter.notes && (
            <Box mt="3">
              <Text as="div" weight="medium" size="2">
                Notes
              </Text>
              <Text as="p" size="2" style={{ whiteSpace: "pre-wrap" }}>
                {voter.notes}
              </Text>
            </Box>
          )}
        </Card>
        <Flex direction="column" gap="4">
          <StateHistoryCard score={voter.state_voter_history} elections={elections.length} />
          {elections.length > 0 && <VoteHistoryCard elections={elections} />}
          {hasVerified && (
            <Card>
              <Heading as="h2" size="4" mb="2">
                State Verified Data
              </Heading>
              <DataList.Root orientation={{ initial: "vertical", sm: "horizontal" }}>
                {STATE_VERIFIED_PAIRS.map(([k, vk]) => (
                  <DataList.Item key={vk}>
                    <DataList.Label>{VOTER_FIELD_DEFS.find((f) => f.key === vk)?.label ?? vk}</DataList.Label>
                    <DataList.Value>
                      <Flex gap="2" align="center">
                        {value(vk)}
                        <VerifiedIcon
                          value={voter[k] as string | undefined}
                          verified={voter[vk] as string | undefined}
                        />
                      </Flex>
                    </DataList.Value>
                  </DataList.Item>
                ))}
              </DataList.Root>
            </Card>
          )}
          <VoterGroupsCard voterId={voter._id} canChange={can("voters.update")} onAdd={() => setGroupOpen(true)} />
          <VoterSmsHistory voterId={voter._id} hasPhone={!!voter.phone} />
          <VoterConsent voterId={voter._id} />
          {can("campaigns.view") && <VoterEmailHistory voterId={voter._id} />}
          {can("voters.view") && <VoterCanvassHistory voterId={voter._id} />}
          <VoterFormSubmissions voterId={voter._id} />
          <VoterSigns voterId={voter._id} />
          <VoterChangesCard voterId={voter._id} customDefs={defs} />
          <VoterAuditHistory voterId={voter._id} voterName={name} />
        </Flex>
      </Grid>
      <AddToGroupDialog voterId={voter._id} voterName={name} open={groupOpen} onOpenChange={setGroupOpen} />
      {voter.email && (
        <SendEmailDialog voterId={voter._id} to={voter.email} open={emailOpen} onOpenChange={setEmailOpen} />
      )}
    </Box>
  );
}
