import { Heading } from "@radix-ui/themes";

export function WalkListsPage() {
  return <Heading>Walk Lists</Heading>;
}
