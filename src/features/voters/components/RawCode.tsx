import { Text } from "@radix-ui/themes";

type RawCodeProps = { label: string; code: string; testId?: string };

/** The state file's own code beside the mapped value ("Inactive (R)"), named for screen readers and on hover. */
export function RawCode({ label, code, testId }: RawCodeProps) {
  return (
    <Text size="1" color="gray" title={label} aria-label={`${label}: ${code}`} role="note">
      (<Text data-testid={testId}>{code}</Text>)
    </Text>
  );
}
