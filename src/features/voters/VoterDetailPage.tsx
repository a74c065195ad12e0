import { Heading } from "@radix-ui/themes";

export function VoterDetailPage() {
  return <Heading>Voter</Heading>;
}
