import { Heading } from "@radix-ui/themes";

export function DistrictsPage() {
  return <Heading>Districts</Heading>;
}
