import { Flex, Skeleton } from "@radix-ui/themes";

export function VoterFormSkeleton() {
  return (
    <Flex direction="column" gap="4" data-testid="voters.form.skeleton">
      <Skeleton height="48px" />
      <Skeleton height="180px" />
      <Skeleton height="180px" />
    </Flex>
  );
}
