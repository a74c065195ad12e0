import { Heading } from "@radix-ui/themes";

export function VotersPage() {
  return <Heading>Voters</Heading>;
}
