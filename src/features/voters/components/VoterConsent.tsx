import { Badge, Button, Card, Flex, Heading, Skeleton, Text } from "@radix-ui/themes";
import type { FunctionReturnType } from "convex/server";
import { useState } from "react";
import type { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import type { ConsentChannel, ConsentSource } from "@convex/tables/consent";
import { useViewer } from "@/session/ViewerProvider";
import { ConfirmDialog } from "@/ui/ConfirmDialog";
import { toast } from "@/ui/toast";
import { useVoterConsent } from "../hooks/useVoterConsent";

type Consent = NonNullable<FunctionReturnType<typeof api.consent.forVoter>>;
type ConsentEvent = Consent["sms"]["events"][number];

const CHANNEL_LABELS: Record<ConsentChannel, string> = { sms: "Text messages", email: "Email" };

/** Where an opt-in or opt-out came from, as the ledger's provenance says. */
const SOURCE_LABELS: Record<ConsentSource, string> = {
  form: "Form submission",
  survey: "Survey submission",
  import: "Import",
  keyword: "Text reply",
  unsubscribe_link: "Unsubscribe link",
  unsubscribe_header: "One-click unsubscribe (mail app)",
  staff: "Changed by a teammate",
  provider: "Reported by Twilio",
  bounce: "Bounced",
  complaint: "Marked as spam",
  canvass: "Do not contact (canvass)",
  other_channel: "Opted out on the other channel",
};

function when(at: number): string {
  return new Date(at).toLocaleString(undefined, {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
  });
}

/** A bounce is the mailbox's state, not the person's wish: the ledger keeps it, marked apart from opt-outs. */
function badgeLabel(e: ConsentEvent): string {
  if (e.source === "bounce") return "Suppressed";
  return e.kind === "opt_out" ? "Opt-out" : "Opt-in";
}

function badgeColor(e: ConsentEvent): "orange" | "red" | "green" {
  if (e.source === "bounce") return "orange";
  return e.kind === "opt_out" ? "red" : "green";
}

/** The provenance's details in a line: the reply, who, from where, which message. */
function details(e: ConsentEvent): string {
  const parts: string[] = [];
  if (e.keyword) parts.push(e.source === "provider" ? `code ${e.keyword}` : `“${e.keyword}”`);
  if (e.actorName) parts.push(`by ${e.actorName}`);
  if (e.address && e.address !== e.contact) parts.push(`from ${e.address}`);
  if (e.disclosureVersion) parts.push(`disclosure ${e.disclosureVersion}`);
  if (e.sourceId) parts.push(`ref. ${e.sourceId}`);
  return parts.join(" · ");
}

type Pending = { channel: ConsentChannel; optedOut: boolean };

type VoterConsentProps = { voterId: Id<"voters"> };

/**
 * The voter's consent (issue 39): per channel whether they may be contacted, and the ledger's
 * opt-ins and opt-outs with where each came from, live. Teammates who may send messages can opt a
 * channel out or back in (confirmed first); the change is recorded under their name.
 */
export function VoterConsent({ voterId }: VoterConsentProps) {
  const { can } = useViewer();
  const { data, setOptOut } = useVoterConsent(voterId);
  const [pending, setPending] = useState<Pending | null>(null);
  const [busy, setBusy] = useState<ConsentChannel | null>(null);
  const canChange = can("messaging.send");

  const apply = async ({ channel, optedOut }: Pending) => {
    setBusy(channel);
    try {
      await setOptOut({ voterId, channel, optedOut });
      toast.success(optedOut ? `Opted out of ${CHANNEL_LABELS[channel].toLowerCase()}` : "Opted back in");
    } catch (e) {
      toast.failure("Error updating consent", e);
    } finally {
      setBusy(null);
    }
  };

  if (data === null) return null;
  return (
    <Card data-testid="voters.consent">
      <Heading size="4" as="h2" mb="2">
        Consent
      </Heading>
      {data === undefined ? (
        <Skeleton height="60px" />
      ) : (
        <Flex direction="column" gap="4">
          {(["sms", "email"] as const).map((channel) => {
            const c = data[channel];
            const bounced = channel === "email" && data.email.suppressions.some((s) => s.reason === "bounced");
            return (
              <Flex key={channel} direction="column" gap="2" data-testid={`voters.consent.${channel}`}>
                <Flex justify="between" align="center" gap="2" wrap="wrap">
                  <Flex align="center" gap="2" wrap="wrap" style={{ minWidth: 0 }}>
                    <Heading size="3" as="h3">
                      {CHANNEL_LABELS[channel]}
                    </Heading>
                    {c.contact === null ? (
                      <Badge color="gray">{channel === "sms" ? "No phone on file" : "No email on file"}</Badge>
                    ) : c.optedOut ? (
                      <Badge color="red" data-testid={`voters.consent.${channel}.state`}>
                        Opted out
                      </Badge>
                    ) : (
                      <Badge color="green" data-testid={`voters.consent.${channel}.state`}>
                        Not opted out
                      </Badge>
                    )}
                  </Flex>
                  {canChange && c.contact !== null && (
                    <Button
                      size="1"
                      variant="soft"
                      color={c.optedOut ? "gray" : "red"}
                      loading={busy === channel}
                      onClick={() => setPending({ channel, optedOut: !c.optedOut })}
                    >
                      {c.optedOut ? "Opt back in" : "Opt out"}
                    </Button>
                  )}
                </Flex>
                {c.contact !== null && (
                  <Text size="1" color="gray" style={{ wordBreak: "break-all" }}>
                    {c.contact}
                    {c.optedOut && ` · opted out since ${when(c.optedOut.at)}; no campaign or send reaches it.`}
                  </Text>
                )}
                {bounced && (
                  <Text size="1" color="gray">
                    This address bounced: sends that exclude bounced addresses leave it out.
                  </Text>
                )}
                {c.events.length === 0 ? (
                  c.contact !== null && (
                    <Text size="2" color="gray">
                      No opt-ins or opt-outs recorded.
                    </Text>
                  )
                ) : (
                  <Flex direction="column" gap="2" asChild>
                    <ul
                      style={{ listStyle: "none", margin: 0, padding: 0 }}
                      aria-label={`${CHANNEL_LABELS[channel]} consent history`}
                    >
                      {c.events.map((e) => (
                        <li key={e.id} data-testid="voters.consent.event">
                          <Flex direction="column" gap="1" pl="3" style={{ borderLeft: "3px solid var(--gray-6)" }}>
                            <Flex align="center" gap="2" wrap="wrap">
                              <Badge color={badgeColor(e)}>{badgeLabel(e)}</Badge>
                              <Text size="2">{SOURCE_LABELS[e.source]}</Text>
                              <Text size="1" color="gray">
                                {when(e.at)}
                              </Text>
                            </Flex>
                            {details(e) && (
                              <Text size="1" color="gray" style={{ wordBreak: "break-word" }}>
                                {details(e)}
                              </Text>
                            )}
                          </Flex>
                        </li>
                      ))}
                    </ul>
                  </Flex>
                )}
              </Flex>
            );
          })}
        </Flex>
      )}
      {pending && (
        <ConfirmDialog
          open
          onOpenChange={(open) => !open && setPending(null)}
          title={pending.optedOut ? `Opt out of ${CHANNEL_LABELS[pending.channel].toLowerCase()}?` : "Opt back in?"}
          description={
            pending.optedOut
              ? `No campaign, automation or single send will reach ${data?.[pending.channel].contact ?? "this contact"}, and messages already queued to it are stopped. The change is recorded under your name.`
              : `${data?.[pending.channel].contact ?? "This contact"} can be contacted again. Only do this when the person asked to be. The change is recorded under your name.`
          }
          confirmLabel={pending.optedOut ? "Opt out" : "Opt back in"}
          color={pending.optedOut ? "red" : "indigo"}
          onConfirm={() => {
            const p = pending;
            setPending(null);
            void apply(p);
          }}
        />
      )}
    </Card>
  );
}
