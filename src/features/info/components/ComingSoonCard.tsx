import { Card, Flex, Heading, Text } from "@radix-ui/themes";
import { RocketIcon } from "@radix-ui/react-icons";
import type { ReactNode } from "react";

type ComingSoonCardProps = { title: string; children: ReactNode };

/** An honest "not built yet" panel. */
export function ComingSoonCard({ title, children }: ComingSoonCardProps) {
  return (
    <Card size="4">
      <Flex direction="column" align="center" gap="3" py="6">
        <RocketIcon width={36} height={36} color="var(--accent-9)" />
        <Heading size="5" align="center">{title}</Heading>
        <Text color="gray" align="center" style={{ maxWidth: 520 }}>{children}</Text>
      </Flex>
    </Card>
  );
}
