import { Heading } from "@radix-ui/themes";

export function DebugImportPage() {
  return <Heading>Debug Import Deletion</Heading>;
}
