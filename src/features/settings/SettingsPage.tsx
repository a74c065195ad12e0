import { Box, Card, Flex, Heading, RadioGroup, Switch, Text } from "@radix-ui/themes";
import { useMemo, type CSSProperties } from "react";
import type { Mode } from "@convex/lib/permissions";
import type { NotificationKind } from "@convex/tables/preferences";
import { browserTimeZone, formatDateTime, timeZoneNames, timeZoneOffset } from "@/lib/dateTime";
import { MODE_LABELS, useViewer } from "@/session/ViewerProvider";
import { PageHeader } from "@/ui/PageHeader";
import { usePreferences } from "./hooks/usePreferences";
import { ROUTES } from "@/lib/routes";
import { Loading } from "@/ui/Loading";
import { TEXTS } from "@convex/lib/texts";

const BROWSER = "browser";
const NO_DEFAULT = "none";
/** Radix Themes' field look for a native select. */
const SELECT_STYLE: CSSProperties = {
  font: "inherit",
  fontSize: "var(--font-size-2)",
  height: "var(--space-6)",
  padding: "0 var(--space-2)",
  maxWidth: "100%",
  width: "100%",
  borderRadius: "var(--radius-2)",
  border: "1px solid var(--gray-a7)",
  background: "var(--color-surface)",
  color: "var(--gray-12)",
};

const NOTIFICATIONS: { kind: NotificationKind; label: string; description: string }[] = [
  {
    kind: "surveyResponses",
    label: "New survey responses",
    description:
      "An email for each response to a survey whose notifications go to your address (the survey's recipient or the default recipient).",
  },
  {
    kind: "invitationAccepted",
    label: TEXTS.preferences.invitedJoins,
    description: "An email when a person you invited accepts and becomes a member of your organization.",
  },
];

/** /settings: the signed-in user's own settings (spec/1 §2's placeholder, now real). */
export function SettingsPage() {
  const { preferences, save } = usePreferences();
  const { me, permittedModes } = useViewer();
  const zones = useMemo(() => timeZoneNames(), []);
  const browserZone = browserTimeZone();
  const zone = preferences?.timeZone ?? browserZone;

  return (
    <Box>
      <PageHeader
        title="Settings"
        description="Your personal preferences. They follow you on every device and do not change anything for your teammates."
        breadcrumbs={[{ label: "Dashboard", to: ROUTES.dashboard }, { label: "Settings" }]}
      />
      {preferences === undefined ? (
        <Loading />
      ) : (
        <Flex direction="column" gap="4" maxWidth="720px">
          <Card size="3">
            <Heading as="h2" size="4" mb="1" id="settings-timezone">
              Time zone
            </Heading>
            <Text as="p" size="2" color="gray" mb="3">
              Times the app shows you, such as when your surveys last got a response, use this time zone.
            </Text>
            <Flex direction="column" gap="2">
              {/* a native list: 400+ zones, the phone's own picker at 390 px, type-to-find everywhere */}
              <select
                aria-labelledby="settings-timezone"
                data-testid="settings.timeZone"
                value={preferences.timeZone ?? BROWSER}
                onChange={(e) => void save({ timeZone: e.target.value === BROWSER ? null : e.target.value })}
                style={SELECT_STYLE}
              >
                <option value={BROWSER}>This browser's time zone ({browserZone.replace(/_/g, " ")})</option>
                {zones.map((z) => (
                  <option key={z} value={z}>
                    {z.replace(/_/g, " ")}
                  </option>
                ))}
              </select>
              <Text size="2" color="gray" data-testid="settings.timeZonePreview">
                Now in {zone.replace(/_/g, " ")} ({timeZoneOffset(zone)}): {formatDateTime(Date.now(), zone)}
              </Text>
            </Flex>
          </Card>

          <Card size="3">
            <Heading as="h2" size="4" mb="1" id="settings-mode">
              Default mode
            </Heading>
            <Text as="p" size="2" color="gray" mb="3">
              The mode the app starts in on a device where you have not picked one. Only the modes your role allows are
              offered.
            </Text>
            <RadioGroup.Root
              aria-labelledby="settings-mode"
              value={
                preferences.defaultMode && permittedModes.includes(preferences.defaultMode)
                  ? preferences.defaultMode
                  : NO_DEFAULT
              }
              onValueChange={(v) => void save({ defaultMode: v === NO_DEFAULT ? null : (v as Mode) })}
              data-testid="settings.defaultMode"
            >
              <RadioGroup.Item value={NO_DEFAULT}>
                No default (start in {MODE_LABELS[permittedModes[0] ?? "campaign"].name} mode)
              </RadioGroup.Item>
              {permittedModes.map((m) => (
                <RadioGroup.Item key={m} value={m}>
                  {MODE_LABELS[m].name} mode
                </RadioGroup.Item>
              ))}
            </RadioGroup.Root>
          </Card>

          <Card size="3">
            <Heading as="h2" size="4" mb="1">
              Notification emails
            </Heading>
            <Text as="p" size="2" color="gray" mb="3">
              Emails Precinct sends to you{me?.email ? ` at ${me.email}` : ""}. Sign-in, password and verification
              emails are always sent.
            </Text>
            <Flex direction="column" gap="4">
              {NOTIFICATIONS.map((n) => (
                <Text as="label" size="2" key={n.kind}>
                  <Flex gap="3" align="start">
                    <Switch
                      mt="1"
                      checked={preferences.notifications[n.kind]}
                      onCheckedChange={(on) => void save({ notifications: { [n.kind]: on } })}
                      aria-describedby={`settings-${n.kind}-help`}
                      data-testid={`settings.notify.${n.kind}`}
                    />
                    <Box>
                      <Text weight="medium">{n.label}</Text>
                      <Text as="p" color="gray" id={`settings-${n.kind}-help`}>
                        {n.description}
                      </Text>
                    </Box>
                  </Flex>
                </Text>
              ))}
            </Flex>
          </Card>
        </Flex>
      )}
    </Box>
  );
}
