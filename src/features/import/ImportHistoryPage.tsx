import { Heading } from "@radix-ui/themes";

export function ImportHistoryPage() {
  return <Heading>Import History</Heading>;
}
