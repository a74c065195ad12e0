import { Heading } from "@radix-ui/themes";

export function DevMailboxPage() {
  return <Heading>Dev mailbox</Heading>;
}
