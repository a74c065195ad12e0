import { Box, Button, Callout, Container, Flex, Heading, Link as RadixLink, Text } from "@radix-ui/themes";
import { ArrowLeftIcon } from "@radix-ui/react-icons";
import { useEffect, type ReactNode } from "react";
import { Link, Navigate, useLocation, useNavigate } from "react-router-dom";
import { ROUTES } from "@/lib/routes";
import { registerServiceWorker } from "@/lib/serviceWorker";
import { Loading } from "@/ui/Loading";
import { NoPermission } from "@/ui/NoPermission";
import { useCanvassSession, type CanvassSession } from "../hooks/useCanvassSession";
import { useCanvassStore, useLocalCopy } from "../hooks/useLocalCopy";
import { useOutboxSync, type OutboxSync } from "../hooks/useOutboxSync";
import type { LocalUser } from "../utils/localUser";
import { CANVASS_TEXTS } from "../utils/texts";
import { StateBar } from "./StateBar";

export type FieldContext = { user: LocalUser; session: CanvassSession; sync: OutboxSync };

type CanvassFrameProps = {
  /** where the header's back link goes (the lists, or the main app) */
  back: { to: string; label: string };
  children: (ctx: FieldContext) => ReactNode;
};

/** Signed out (the session could not be renewed): waiting results stay; the device's copies of lists go. */
function SignedOut({ remembered }: { remembered: LocalUser | null }) {
  const store = useCanvassStore();
  const location = useLocation();
  const navigate = useNavigate();
  const waiting = useLocalCopy(
    (s) => (remembered ? s.waitingCount(remembered.userId) : Promise.resolve(0)),
    [remembered?.userId ?? null],
  );
  useEffect(() => {
    // nothing of the organisation's voters stays readable on a device nobody is signed in to
    if (remembered) void store.forgetLists(remembered.userId);
  }, [remembered, store]);
  const from = `${location.pathname}${location.search}`;
  if (waiting === undefined) return <Loading />;
  if (waiting === 0) return <Navigate to={ROUTES.signIn} replace state={{ from }} />;
  const t = CANVASS_TEXTS.signedOut;
  return (
    <Flex direction="column" gap="3" p="4" data-testid="canvass.signedOut">
      <Heading as="h1" size="5">
        {t.title}
      </Heading>
      <Text as="p">{t.body}</Text>
      <Button size="4" onClick={() => navigate(ROUTES.signIn, { state: { from } })}>
        {t.button(waiting)}
      </Button>
    </Flex>
  );
}

/**
 * The field app's frame (phone first): the state bar, a slim header, and the screen. It never
 * waits for the server: with no connection it shows this device's copy for the member who last
 * used it here. It installs the service worker and keeps the outbox syncing on every screen.
 */
export function CanvassFrame({ back, children }: CanvassFrameProps) {
  const session = useCanvassSession();
  const sync = useOutboxSync(session);
  const userId = session.user?.userId ?? null;
  const refused = useLocalCopy(async (s) => (userId ? (await s.refusedOf(userId)).length : 0), [userId]) ?? 0;
  useEffect(() => {
    void registerServiceWorker();
  }, []);

  let body: ReactNode;
  if (session.user === null) {
    if (session.signedOut) body = <SignedOut remembered={session.remembered} />;
    else if (session.connection === "offline")
      body = (
        <Box p="4">
          <Callout.Root color="amber" data-testid="canvass.offlineFirstVisit">
            <Callout.Text>{CANVASS_TEXTS.offlineFirstVisit}</Callout.Text>
          </Callout.Root>
        </Box>
      );
    else
      body = (
        <Flex direction="column" align="center" gap="3" p="6">
          <Loading label="Checking authentication..." inline />
          <Text color="gray">Checking authentication...</Text>
        </Flex>
      );
  } else if (!session.user.canCanvass) body = <NoPermission />;
  else body = children({ user: session.user, session, sync });

  return (
    <Flex direction="column" style={{ minHeight: "100dvh", background: "var(--gray-1)" }}>
      <StateBar
        connection={session.connection}
        signIn={session.signedOut || sync.needsSignIn}
        waiting={sync.waiting}
        refused={refused}
      />
      <Container size="2" px="3" style={{ flex: 1, width: "100%" }}>
        <Flex asChild align="center" gap="3" py="3">
          <header>
            <RadixLink asChild size="2">
              <Link to={back.to} data-testid="canvass.back">
                <Flex align="center" gap="1">
                  <ArrowLeftIcon aria-hidden />
                  {back.label}
                </Flex>
              </Link>
            </RadixLink>
          </header>
        </Flex>
        <main>{body}</main>
      </Container>
    </Flex>
  );
}
