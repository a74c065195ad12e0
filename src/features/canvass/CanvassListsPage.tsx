import { Badge, Box, Callout, Card, Flex, Heading, Text } from "@radix-ui/themes";
import { Link } from "react-router-dom";
import { formatDateTime } from "@/lib/dateTime";
import { canvassListPath, ROUTES } from "@/lib/routes";
import { Loading } from "@/ui/Loading";
import { CanvassFrame, type FieldContext } from "./components/CanvassFrame";
import { OutboxIssues } from "./components/OutboxIssues";
import { useMyLists } from "./hooks/useMyLists";
import { CANVASS_TEXTS } from "./utils/texts";

function MyLists({ user, session }: FieldContext) {
  const { lists, savedAt, fromDevice, readyOffline } = useMyLists(session);
  const t = CANVASS_TEXTS;
  return (
    <Flex direction="column" gap="3" pb="6">
      <Heading as="h1" size="6">
        {t.myLists}
      </Heading>
      {fromDevice && savedAt !== null && session.connection !== "online" && (
        <Text size="2" color="gray" data-testid="canvass.lists.asOf">
          {t.listsAsLastSeen(formatDateTime(savedAt))}
        </Text>
      )}
      {lists === undefined ? (
        session.connection === "offline" ? (
          <Callout.Root color="amber">
            <Callout.Text>{t.offlineFirstVisit}</Callout.Text>
          </Callout.Root>
        ) : (
          <Loading label="Loading your walk lists" />
        )
      ) : lists.length === 0 ? (
        <Text as="p" color="gray" data-testid="canvass.lists.empty">
          {t.noLists}
        </Text>
      ) : (
        <Flex asChild direction="column" gap="3">
          <ul style={{ listStyle: "none", margin: 0, padding: 0 }} aria-label={t.myLists}>
            {lists.map((l) => {
              const ready = readyOffline.has(l.id);
              return (
                <li key={l.id}>
                  <Card asChild size="2" data-testid="canvass.list">
                    <Link to={canvassListPath(l.id)} aria-label={t.openList(l.name)} style={{ textDecoration: "none" }}>
                      <Flex direction="column" gap="1" style={{ minHeight: 48 }}>
                        <Flex justify="between" align="start" gap="2">
                          <Text size="4" weight="bold" style={{ overflowWrap: "anywhere" }}>
                            {l.name}
                          </Text>
                          {ready && (
                            <Badge color="green" data-testid="canvass.list.ready">
                              {t.readyOffline}
                            </Badge>
                          )}
                        </Flex>
                        <Text size="2" color="gray">
                          {t.listProgress(l.knocked, l.doors)}
                          {l.surveyName ? ` · ${l.surveyName}` : ""}
                        </Text>
                        <Text size="1" color="gray">
                          {t.expires(formatDateTime(l.expiresAt))}
                          {!ready && session.connection !== "online" ? ` · ${t.openOnceOnline}` : ""}
                        </Text>
                      </Flex>
                    </Link>
                  </Card>
                </li>
              );
            })}
          </ul>
        </Flex>
      )}
      <Box mt="2">
        <OutboxIssues userId={user.userId} />
      </Box>
    </Flex>
  );
}

/** /canvass: the canvasser's walk lists (issue 38), live online and as last seen offline. */
export function CanvassListsPage() {
  return (
    <CanvassFrame back={{ to: ROUTES.dashboard, label: CANVASS_TEXTS.leaveApp }}>
      {(ctx) => <MyLists {...ctx} />}
    </CanvassFrame>
  );
}
