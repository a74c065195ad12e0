import { Button, Card, Flex, Heading, SegmentedControl, Text } from "@radix-ui/themes";
import { ConvexError } from "convex/values";
import { useState } from "react";
import type { AppErrorData } from "@convex/lib/errors";
import { useClaims } from "../hooks/useClaims";
import { doorName, timeText } from "../utils/doors";
import type { Bundle } from "../utils/store";
import { CANVASS_TEXTS } from "../utils/texts";

const COUNTS = [5, 10, 25] as const;

type ClaimPanelProps = {
  bundle: Bundle;
  online: boolean;
  /** where "near me" is: the phone's position, else the door on screen */
  near: { lat: number; lng: number; from: "position" | "door" } | null;
  onChanged(): void;
  onOpenDoor(doorId: string): void;
};

/**
 * "N doors near me": the server hands the canvasser unclaimed, unknocked doors of the list nearest
 * them (never a door a teammate holds), for an hour; shown with their expiry, and let go with Release.
 */
export function ClaimPanel({ bundle, online, near, onChanged, onOpenDoor }: ClaimPanelProps) {
  const { claim, releaseAll } = useClaims(bundle.list.id);
  const [count, setCount] = useState<number>(10);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const t = CANVASS_TEXTS;
  const byId = new Map(bundle.doors.map((d) => [d.id as string, d]));
  const held = bundle.myClaims.filter((c) => c.expiresAt > Date.now());
  const active = bundle.list.status === "Active" && bundle.list.open;

  const run = async (work: () => Promise<string | null>) => {
    setBusy(true);
    setMessage(null);
    try {
      setMessage(await work());
      onChanged();
    } catch (e) {
      setMessage(e instanceof ConvexError ? (e.data as AppErrorData).message : t.claimOffline);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card size="2" data-testid="canvass.claims">
      <Flex direction="column" gap="3">
        <Heading as="h2" size="4">
          {t.claimHeading}
        </Heading>
        {!online ? (
          <Text size="2" color="gray">
            {t.claimOffline}
          </Text>
        ) : !active ? (
          <Text size="2" color="gray">
            {t.claimNotActive}
          </Text>
        ) : (
          <>
            <Flex direction="column" gap="1">
              <Text size="2" weight="medium" id="claim-count">
                {t.claimCount}
              </Text>
              <SegmentedControl.Root
                size="3"
                value={String(count)}
                onValueChange={(v) => setCount(Number(v))}
                aria-labelledby="claim-count"
              >
                {COUNTS.map((n) => (
                  <SegmentedControl.Item key={n} value={String(n)}>
                    {n}
                  </SegmentedControl.Item>
                ))}
              </SegmentedControl.Root>
            </Flex>
            {near && (
              <Text size="2" color="gray">
                {t.claimFrom(near.from)}
              </Text>
            )}
            <Button
              size="4"
              disabled={busy || !near}
              data-testid="canvass.claim"
              onClick={() =>
                void run(async () => {
                  const r = await claim({ lat: near!.lat, lng: near!.lng }, count);
                  return r.doors.length === 0 ? t.claimedNone : null;
                })
              }
            >
              {t.claimButton(count)}
            </Button>
          </>
        )}
        {message && (
          <Text size="2" role="status">
            {message}
          </Text>
        )}
        <Text size="2" weight="bold" data-testid="canvass.claims.count">
          {held.length > 0 ? t.claimed(held.length) : t.noneClaimed}
        </Text>
        {held.length > 0 && (
          <>
            <Flex asChild direction="column" gap="1">
              <ul style={{ listStyle: "none", margin: 0, padding: 0 }} data-testid="canvass.claims.list">
                {held
                  .map((c) => ({ c, d: byId.get(c.doorId) }))
                  .sort((a, b) => (a.d?.order ?? 0) - (b.d?.order ?? 0))
                  .map(({ c, d }) => (
                    <li key={c.doorId} data-testid="canvass.claims.door" data-door={c.doorId}>
                      <Button
                        variant="ghost"
                        size="3"
                        onClick={() => onOpenDoor(c.doorId)}
                        style={{ width: "100%", justifyContent: "space-between", minHeight: 44, height: "auto" }}
                      >
                        <Text style={{ overflowWrap: "anywhere", textAlign: "left" }}>
                          {d ? doorName(d) : c.doorId}
                        </Text>
                        <Text size="1" color="gray">
                          {t.yoursUntil(timeText(c.expiresAt))}
                        </Text>
                      </Button>
                    </li>
                  ))}
              </ul>
            </Flex>
            <Button
              size="3"
              variant="soft"
              color="gray"
              disabled={busy || !online}
              onClick={() =>
                void run(async () => {
                  await releaseAll();
                  return null;
                })
              }
            >
              {t.release}
            </Button>
          </>
        )}
      </Flex>
    </Card>
  );
}
