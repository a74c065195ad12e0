import { Badge, Box, Callout, Card, Flex, Heading, Text } from "@radix-ui/themes";
import { InfoCircledIcon } from "@radix-ui/react-icons";
import { useEffect, useState } from "react";
import { CONVEX_SITE_URL } from "@/lib/config";
import { LinkifiedText } from "./components/LinkifiedText";
import { Loading } from "@/ui/Loading";

type MailboxMessage = {
  id: string;
  to: string;
  subject: string;
  text: string;
  kind: string;
  status: string;
  createdAt: number;
};
type MailboxState =
  { status: "loading" } | { status: "error"; message: string } | { status: "ok"; messages: MailboxMessage[] };

const KEY_STORAGE = "precinct.devMailboxKey";
const POLL_MS = 2000;

/** The operator's key: from the link npm start printed (#key=…), then kept for this tab only. */
function mailboxKey(): string {
  const fromHash = new URLSearchParams(window.location.hash.slice(1)).get("key");
  if (fromHash) {
    sessionStorage.setItem(KEY_STORAGE, fromHash);
    window.history.replaceState(null, "", window.location.pathname);
    return fromHash;
  }
  return sessionStorage.getItem(KEY_STORAGE) ?? "";
}

/**
 * /dev/mailbox: the operator's view of the demo-mode outbox (no email provider configured), so
 * reset and invitation links stay reachable. Needs the key npm start printed; no tenant can read it.
 */
export function DevMailboxPage() {
  const [key, setKey] = useState(mailboxKey);
  const [state, setState] = useState<MailboxState>({ status: "loading" });

  useEffect(() => {
    const onHash = () => setKey(mailboxKey());
    window.addEventListener("hashchange", onHash);
    return () => window.removeEventListener("hashchange", onHash);
  }, []);

  useEffect(() => {
    if (!key) {
      setState({
        status: "error",
        message: "Open the demo mailbox with the link printed in the console when the server started.",
      });
      return;
    }
    let stopped = false;
    const load = async () => {
      try {
        const res = await fetch(`${CONVEX_SITE_URL}/api/dev/mailbox`, { headers: { Authorization: `Bearer ${key}` } });
        const body = (await res.json()) as { messages?: MailboxMessage[]; error?: string };
        if (!stopped)
          setState(
            res.ok && body.messages
              ? { status: "ok", messages: body.messages }
              : { status: "error", message: body.error ?? "The demo mailbox is not available." },
          );
      } catch {
        if (!stopped)
          setState({ status: "error", message: "Network error. Please check your connection and try again." });
      }
    };
    void load();
    const timer = setInterval(() => void load(), POLL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [key]);

  return (
    <Box p="5" style={{ maxWidth: 900, margin: "0 auto" }}>
      <Heading size="7" mb="3">
        Dev mailbox
      </Heading>
      {state.status === "ok" && (
        <Callout.Root color="amber" mb="4">
          <Callout.Icon>
            <InfoCircledIcon />
          </Callout.Icon>
          <Callout.Text>Demo mode — no email provider configured; messages are not sent</Callout.Text>
        </Callout.Root>
      )}
      {state.status === "loading" ? (
        <Loading inline size="2" />
      ) : state.status === "error" ? (
        <Text color="gray">{state.message}</Text>
      ) : state.messages.length === 0 ? (
        <Text color="gray">No messages yet.</Text>
      ) : (
        <Flex direction="column" gap="3" data-testid="devMailbox.list">
          {state.messages.map((m) => (
            <Card key={m.id} asChild>
              <article>
                <Flex justify="between" gap="3" wrap="wrap">
                  <Text weight="bold">{m.subject}</Text>
                  <Text size="1" color="gray">
                    {new Date(m.createdAt).toLocaleString()}
                  </Text>
                </Flex>
                <Flex gap="2" mt="1" align="center">
                  <Text size="2" color="gray">
                    To: {m.to}
                  </Text>
                  <Badge color="gray">{m.kind}</Badge>
                  <Badge color={m.status === "failed" ? "red" : "amber"}>{m.status}</Badge>
                </Flex>
                <Text as="p" size="2" mt="2" style={{ whiteSpace: "pre-wrap" }}>
                  <LinkifiedText text={m.text} />
                </Text>
              </article>
            </Card>
          ))}
        </Flex>
      )}
    </Box>
  );
}
