import { Heading } from "@radix-ui/themes";

export function SmsCenterPage() {
  return <Heading>SMS Center</Heading>;
}
