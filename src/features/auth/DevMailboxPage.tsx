import { Badge, Box, Callout, Card, Flex, Heading, Spinner, Text } from "@radix-ui/themes";
import { InfoCircledIcon } from "@radix-ui/react-icons";
import { useQuery } from "convex/react";
import { api } from "../../../convex/_generated/api";
import { LinkifiedText } from "./components/LinkifiedText";

/** /dev/mailbox: the demo-mode outbox (no email provider configured), so reset links stay reachable. */
export function DevMailboxPage() {
  const mailbox = useQuery(api.emails.devMailbox, {});
  return (
    <Box p="5" style={{ maxWidth: 900, margin: "0 auto" }}>
      <Heading size="7" mb="3">Dev mailbox</Heading>
      {mailbox?.enabled && (
        <Callout.Root color="amber" mb="4">
          <Callout.Icon>
            <InfoCircledIcon />
          </Callout.Icon>
          <Callout.Text>Demo mode — no email provider configured; messages are not sent</Callout.Text>
        </Callout.Root>
      )}
      {mailbox === undefined ? (
        <Spinner />
      ) : !mailbox.enabled ? (
        <Text color="gray">The dev mailbox is disabled: an email provider is configured, or the backend was not started with DEV_MAILBOX=1.</Text>
      ) : mailbox.messages.length === 0 ? (
        <Text color="gray">No messages yet.</Text>
      ) : (
        <Flex direction="column" gap="3" data-testid="devMailbox.list">
          {mailbox.messages.map((m) => (
            <Card key={m.id} asChild>
              <article>
                <Flex justify="between" gap="3" wrap="wrap">
                  <Text weight="bold">{m.subject}</Text>
                  <Text size="1" color="gray">{new Date(m.createdAt).toLocaleString()}</Text>
                </Flex>
                <Flex gap="2" mt="1" align="center">
                  <Text size="2" color="gray">To: {m.to}</Text>
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
