import { Heading } from "@radix-ui/themes";

export function UpcomingAreaPage() {
  return <Heading>Coming in a later release</Heading>;
}
