import { Checkbox, Flex, Text } from "@radix-ui/themes";

type ExclusionsProps = {
  excludeBounced: boolean;
  excludeComplained: boolean;
  onChange(field: "excludeBounced" | "excludeComplained", value: boolean): void;
  disabled?: boolean;
};

/** Who is left out of the send. Unsubscribed addresses are never sent to: the law requires it. */
export function Exclusions({ excludeBounced, excludeComplained, onChange, disabled = false }: ExclusionsProps) {
  return (
    <Flex direction="column" gap="2" role="group" aria-labelledby="email-exclusions" data-testid="email.exclusions">
      <Text size="2" weight="medium" id="email-exclusions">
        Exclusions
      </Text>
      <Text as="label" size="2">
        <Flex gap="2" align="center">
          <Checkbox
            checked={excludeBounced}
            disabled={disabled}
            onCheckedChange={(c) => onChange("excludeBounced", c === true)}
          />{" "}
          Exclude bounced
        </Flex>
      </Text>
      <Text as="label" size="2">
        <Flex gap="2" align="center">
          <Checkbox
            checked={excludeComplained}
            disabled={disabled}
            onCheckedChange={(c) => onChange("excludeComplained", c === true)}
          />{" "}
          Exclude complained
        </Flex>
      </Text>
      <Text as="label" size="2">
        <Flex gap="2" align="center">
          <Checkbox checked disabled aria-describedby="email-unsubscribed-note" /> Exclude unsubscribed
        </Flex>
      </Text>
      <Text size="1" color="gray" id="email-unsubscribed-note">
        Unsubscribed addresses are never sent to: the law requires it.
      </Text>
    </Flex>
  );
}
