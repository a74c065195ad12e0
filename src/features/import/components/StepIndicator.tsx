import { Badge, Flex, Text } from "@radix-ui/themes";

const STEPS = ["Upload", "Map Fields", "Complete"];

/** 1 Upload, 2 Map Fields, 3 Complete. */
export function StepIndicator({ step }: { step: 1 | 2 | 3 }) {
  return (
    <Flex gap="4" mb="4" aria-label="Import steps">
      {STEPS.map((label, i) => (
        <Flex key={label} gap="2" align="center" aria-current={step === i + 1 ? "step" : undefined}>
          <Badge radius="full" color={step > i + 1 ? "green" : step === i + 1 ? "indigo" : "gray"} variant={step === i + 1 ? "solid" : "soft"}>{i + 1}</Badge>
          <Text weight={step === i + 1 ? "bold" : "regular"}>{label}</Text>
        </Flex>
      ))}
    </Flex>
  );
}
