import { Flex, Text } from "@radix-ui/themes";
import type { ReactNode } from "react";

/** A label/value pair of the profile's read view. */
export function ProfileField({ label, value }: { label: string; value: ReactNode }) {
  return (
    <Flex direction="column" gap="1">
      <Text size="1" color="gray" weight="medium">
        {label}
      </Text>
      <Text size="3">{value}</Text>
    </Flex>
  );
}
