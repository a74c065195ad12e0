import { Heading } from "@radix-ui/themes";

export function LandingPage() {
  return <Heading>Precinct</Heading>;
}
