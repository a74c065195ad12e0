import { Heading } from "@radix-ui/themes";

export function VoterGroupsPage() {
  return <Heading>Voter Groups</Heading>;
}
