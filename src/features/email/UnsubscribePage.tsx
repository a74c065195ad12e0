import { CheckCircledIcon, ExclamationTriangleIcon } from "@radix-ui/react-icons";
import { Box, Button, Callout, Card, Flex, Heading, Text } from "@radix-ui/themes";
import { useState, type ReactNode } from "react";
import { useSearchParams } from "react-router-dom";
import { CONVEX_SITE_URL } from "@/lib/config";
import { Loading } from "@/ui/Loading";
import { TEXTS } from "@convex/lib/texts";
import { useUnsubscribeInfo } from "./hooks/useUnsubscribeInfo";

type Phase = "idle" | "posting" | "done" | { error: string };

/** POSTs the RFC 8058 one-click unsubscribe, as a mail client would; null when the server took it, else what to tell the reader. */
async function postUnsubscribe(token: string): Promise<string | null> {
  const res = await fetch(`${CONVEX_SITE_URL}/api/email/unsubscribe?t=${encodeURIComponent(token)}`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: "List-Unsubscribe=One-Click",
  });
  if (res.ok) return null;
  if (res.status === 429) return TEXTS.email.tooManyRequests;
  if (res.status === 400 || res.status === 404) return TEXTS.email.unsubscribeInvalid;
  return "Something went wrong. Please try again.";
}

/** /unsubscribe?t={token}: the link in every campaign email's footer. Public: no sign-in. */
export function UnsubscribePage() {
  const [params] = useSearchParams();
  const token = params.get("t") ?? "";
  const { info } = useUnsubscribeInfo(token);
  const [phase, setPhase] = useState<Phase>("idle");

  const handleUnsubscribe = async () => {
    setPhase("posting");
    try {
      const error = await postUnsubscribe(token);
      setPhase(error === null ? "done" : { error });
    } catch {
      setPhase({ error: "Could not reach the server. Check your connection and try again." });
    }
  };

  let body: ReactNode;
  if (token && info === undefined) {
    body = (
      <Flex justify="center" p="4" data-testid="unsubscribe.loading">
        <Loading inline />
      </Flex>
    );
  } else if (!token || !info) {
    body = (
      <Callout.Root color="red" data-testid="unsubscribe.invalid">
        <Callout.Icon>
          <ExclamationTriangleIcon />
        </Callout.Icon>
        <Callout.Text>This unsubscribe link is not valid.</Callout.Text>
      </Callout.Root>
    );
  } else if (phase === "done") {
    body = (
      <Callout.Root color="green" role="status" data-testid="unsubscribe.done">
        <Callout.Icon>
          <CheckCircledIcon />
        </Callout.Icon>
        <Callout.Text>
          You have been unsubscribed. You will not receive further emails from {info.orgName}.
        </Callout.Text>
      </Callout.Root>
    );
  } else if (info.unsubscribed) {
    body = (
      <Callout.Root color="gray" data-testid="unsubscribe.already">
        <Callout.Icon>
          <CheckCircledIcon />
        </Callout.Icon>
        <Callout.Text>
          <Text weight="medium">{info.email}</Text> is already unsubscribed. You will not receive further emails from{" "}
          {info.orgName}.
        </Callout.Text>
      </Callout.Root>
    );
  } else {
    body = (
      <Flex direction="column" gap="3" data-testid="unsubscribe.confirm">
        <Text as="p" size="3">
          Stop emails from <Text weight="bold">{info.orgName}</Text> to{" "}
          <Text weight="medium" style={{ overflowWrap: "anywhere" }}>
            {info.email}
          </Text>
          ?
        </Text>
        {typeof phase === "object" && (
          <Callout.Root color="red" role="alert" data-testid="unsubscribe.error">
            <Callout.Icon>
              <ExclamationTriangleIcon />
            </Callout.Icon>
            <Callout.Text>{phase.error}</Callout.Text>
          </Callout.Root>
        )}
        <Button
          size="3"
          color="red"
          loading={phase === "posting"}
          onClick={() => void handleUnsubscribe()}
          data-testid="unsubscribe.button"
        >
          Unsubscribe
        </Button>
      </Flex>
    );
  }

  return (
    <Box asChild p="4" style={{ maxWidth: 520, margin: "0 auto", minHeight: "100vh" }}>
      <main>
        <Card size="3" mt={{ initial: "4", sm: "9" }}>
          <Heading as="h1" size="6" mb="3">
            Unsubscribe
          </Heading>
          {body}
        </Card>
      </main>
    </Box>
  );
}
