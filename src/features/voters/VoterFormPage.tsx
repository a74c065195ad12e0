import { Heading } from "@radix-ui/themes";

export function VoterFormPage() {
  return <Heading>Voter form</Heading>;
}
