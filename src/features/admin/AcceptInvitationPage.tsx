import { Heading } from "@radix-ui/themes";

export function AcceptInvitationPage() {
  return <Heading>Accept invitation</Heading>;
}
