import { Flex, Link as RadixLink, Text } from "@radix-ui/themes";
import { Link, useLocation } from "react-router-dom";
import { ROUTES } from "@/lib/routes";
import type { Connection } from "../hooks/useCanvassSession";
import { CANVASS_TEXTS } from "../utils/texts";

export type SyncState = {
  connection: Connection;
  /** the session cannot be used to send: sign in again */
  signIn: boolean;
  waiting: number;
  refused: number;
};

type Tone = "amber" | "blue" | "green" | "red";

/** The state in words and its colour (pure: the same on every screen). */
export function stateOf({ connection, signIn, waiting }: SyncState): { text: string; tone: Tone } {
  const t = CANVASS_TEXTS.state;
  if (signIn && waiting > 0) return { text: t.signIn(waiting), tone: "red" };
  if (connection === "offline") return { text: t.offline(waiting), tone: "amber" };
  if (connection === "connecting") return { text: t.connecting(waiting), tone: "blue" };
  return waiting > 0 ? { text: t.syncing(waiting), tone: "blue" } : { text: t.synced, tone: "green" };
}

/**
 * The always-visible state of the field app, at the top of every screen: offline, connecting,
 * syncing or synced, with how many results wait on this device, and how many were not accepted.
 */
export function StateBar(props: SyncState) {
  const { text, tone } = stateOf(props);
  const location = useLocation();
  return (
    <Flex
      align="center"
      justify="between"
      gap="3"
      px="3"
      py="2"
      style={{
        position: "sticky",
        top: 0,
        zIndex: 1100,
        minHeight: 40,
        background: `var(--${tone}-3)`,
        borderBottom: `1px solid var(--${tone}-6)`,
      }}
    >
      <Text
        size="2"
        weight="bold"
        role="status"
        aria-live="polite"
        data-testid="canvass.state"
        style={{ color: `var(--${tone}-12)` }}
      >
        {props.signIn && props.waiting > 0 ? (
          <Link
            to={ROUTES.signIn}
            state={{ from: `${location.pathname}${location.search}` }}
            style={{ color: "inherit" }}
          >
            {text}
          </Link>
        ) : (
          text
        )}
      </Text>
      {props.refused > 0 && (
        <RadixLink href="#not-accepted" size="2" weight="bold" color="red" data-testid="canvass.state.refused">
          {CANVASS_TEXTS.state.notAccepted(props.refused)}
        </RadixLink>
      )}
    </Flex>
  );
}
