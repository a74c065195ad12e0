import { Button, Card, Flex, Heading, Text } from "@radix-ui/themes";
import { useState } from "react";
import { ConfirmDialog } from "@/ui/ConfirmDialog";
import { useCanvassStore, useLocalCopy } from "../hooks/useLocalCopy";
import { CANVASS_TEXTS } from "../utils/texts";

/**
 * What the server said about the canvasser's results beyond "recorded": the ones it did not accept
 * (with its sentence; sent again or discarded only by the canvasser) and the ones recorded with a
 * note (a correction that kept a teammate's newer value, naming them).
 */
export function OutboxIssues({ userId, listId }: { userId: string; listId?: string }) {
  const store = useCanvassStore();
  const refused = useLocalCopy((s) => s.refusedOf(userId), [userId]) ?? [];
  const notices = useLocalCopy((s) => s.noticesOf(userId), [userId]) ?? [];
  const [discarding, setDiscarding] = useState<string | null>(null);
  const t = CANVASS_TEXTS;
  const mine = <T extends { listId: string }>(rows: T[]) => (listId ? rows.filter((r) => r.listId === listId) : rows);
  const shownRefused = mine(refused);
  const shownNotices = mine(notices);
  if (shownRefused.length === 0 && shownNotices.length === 0) return null;
  return (
    <Flex direction="column" gap="3">
      {shownRefused.length > 0 && (
        <section id="not-accepted" aria-labelledby="not-accepted-heading" data-testid="canvass.notAccepted">
          <Heading as="h2" size="4" id="not-accepted-heading" color="red">
            {t.notAcceptedHeading}
          </Heading>
          <Text as="p" size="2" color="gray" mb="2">
            {t.notAcceptedHelp}
          </Text>
          <Flex direction="column" gap="2">
            {shownRefused.map((r) => (
              <Card key={r.clientId} data-testid="canvass.notAccepted.item">
                <Text as="p" weight="bold" size="2" style={{ overflowWrap: "anywhere" }}>
                  {r.label}
                </Text>
                <Text as="p" size="2" color="red" style={{ overflowWrap: "anywhere" }}>
                  {r.message}
                </Text>
                <Flex gap="2" mt="2">
                  <Button size="3" variant="soft" onClick={() => void store.retry(r.clientId)}>
                    {t.sendAgain}
                  </Button>
                  <Button size="3" variant="soft" color="gray" onClick={() => setDiscarding(r.clientId)}>
                    {t.discard}
                  </Button>
                </Flex>
              </Card>
            ))}
          </Flex>
        </section>
      )}
      {shownNotices.length > 0 && (
        <section aria-labelledby="recorded-notes-heading" data-testid="canvass.notices">
          <Heading as="h2" size="4" id="recorded-notes-heading">
            {t.notesHeading}
          </Heading>
          <Flex direction="column" gap="2" mt="2">
            {shownNotices.map((n) => (
              <Card key={n.clientId} data-testid="canvass.notice">
                <Text as="p" weight="bold" size="2" style={{ overflowWrap: "anywhere" }}>
                  {n.label}
                </Text>
                <Text as="p" size="2" style={{ overflowWrap: "anywhere" }}>
                  {n.message}
                </Text>
                <Button
                  mt="2"
                  size="3"
                  variant="soft"
                  color="gray"
                  onClick={() => void store.dismissNotice(n.clientId)}
                >
                  {t.dismiss}
                </Button>
              </Card>
            ))}
          </Flex>
        </section>
      )}
      <ConfirmDialog
        open={discarding !== null}
        onOpenChange={(open) => !open && setDiscarding(null)}
        title={t.discard}
        description={t.discardConfirm}
        confirmLabel={t.discard}
        onConfirm={() => {
          if (discarding) void store.discard(discarding);
          setDiscarding(null);
        }}
      />
    </Flex>
  );
}
