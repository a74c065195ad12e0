import { Heading } from "@radix-ui/themes";

export function ImportPage() {
  return <Heading>Import Contacts</Heading>;
}
