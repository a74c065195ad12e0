import { Card, Flex, Text } from "@radix-ui/themes";
import type { FunctionReturnType } from "convex/server";
import type { api } from "@convex/_generated/api";

type Estimate = FunctionReturnType<typeof api.emailBlasts.estimate>;

/** The total recipient counter: an estimate, before duplicates and exclusions are removed. */
export function RecipientCounter({ estimate }: { estimate: Estimate | undefined }) {
  const parts = estimate
    ? [
        ["lists", estimate.lists],
        ["groups", estimate.groups],
        ["segments", estimate.segments],
        ["manual", estimate.manual],
      ].filter(([, n]) => (n as number) > 0)
    : [];
  return (
    <Card data-testid="email.recipientCount">
      <Flex direction="column" gap="1" aria-live="polite">
        <Text size="2" color="gray">
          Total recipients
        </Text>
        <Text as="p" size="6" weight="bold">
          {estimate ? estimate.total.toLocaleString() : "…"}
        </Text>
        {parts.length > 0 && (
          <Text size="1" color="gray">
            {parts.map(([k, n]) => `${(n as number).toLocaleString()} from ${k}`).join(" · ")}
          </Text>
        )}
        <Text size="1" color="gray">
          An estimate: duplicates, addresses without email and exclusions are removed when the campaign is sent.
        </Text>
      </Flex>
    </Card>
  );
}
