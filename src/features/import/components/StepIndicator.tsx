import { Badge, Flex, Text } from "@radix-ui/themes";

const STEPS = ["Upload", "Map Fields", "Complete"];

/** 1 Upload, 2 Map Fields, 3 Complete: an ordered list that wraps on a phone. */
export function StepIndicator({ step }: { step: 1 | 2 | 3 }) {
  return (
    <Flex asChild gap={{ initial: "3", sm: "4" }} wrap="wrap" mb="4">
      <ol aria-label="Import steps" style={{ listStyle: "none", marginTop: 0, paddingLeft: 0 }}>
        {STEPS.map((label, i) => (
          <Flex asChild key={label} gap="2" align="center">
            <li aria-current={step === i + 1 ? "step" : undefined}>
              <Badge
                radius="full"
                color={step > i + 1 ? "green" : step === i + 1 ? "indigo" : "gray"}
                variant={step === i + 1 ? "solid" : "soft"}
              >
                {i + 1}
              </Badge>
              <Text weight={step === i + 1 ? "bold" : "regular"}>{label}</Text>
            </li>
          </Flex>
        ))}
      </ol>
    </Flex>
  );
}
